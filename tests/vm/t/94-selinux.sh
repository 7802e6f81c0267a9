#!/bin/bash
# vm-boot: selinux
# SELinux enforces vigil's export (issue 27 §2). This test runs in the
# SELinux boot only (tests/vm/run --selinux; tests/check's second vm
# boot; tests/vm/suite leaves it out of the AppArmor boot): the labelled
# ext4 root of tests/vm/selinux-root, Debian's reference policy loaded,
# permissive. lighttpd (as 92-real and 93-tomoyo run it) through the
# README's loop with SELinux as the target: learn over three runs,
# generate one candidate, trial it in vigil's observe mode and SELinux
# with its domain permissive (vigil trial --to selinux), export that same
# file, install its module and enforce it (setenforce 1; the harness's
# own domains kernel_t and unconfined_t are permissive types of the
# image's policy): every denial enforcement brings must be one the trial
# reported; when the daemon serves enforced, with 0 AVC denials for its
# domain, and the /etc/shadow variant is denied. lighttpd is started from an admin's
# shell (unconfined_t), so that it enters its domain by the export's own
# domain transition.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
w=/tmp/vigil-t/$_t_file
mkdir -p $w
export VIGIL_DB=$w/vigil.db

# ---- SELinux is there, permissive, with the reference policy -----------------
t_match "selinux is an active LSM, before vigil" "$(cat /sys/kernel/security/lsm)" 'selinux.*vigil'
if ! grep -qw selinux /sys/kernel/security/lsm; then
	t_diag "not the SELinux boot: run it with tests/vm/run --selinux"
	t_done
	exit
fi
t_is "the policy is loaded, permissive" "$(getenforce)" Permissive
t_match "this shell runs in kernel_t" "$(cat /proc/self/attr/current)" ':kernel_t:'
t_is "/etc/shadow carries its label (the root is labelled)" \
	"$(stat -c %C /etc/shadow | cut -d: -f3)" shadow_t
for c in lighttpd curl semodule restorecon runcon; do
	if ! command -v $c > /dev/null; then
		t_ok "$c is installed (scripts/install-deps, tests/vm/selinux-root)" false
		t_done
		exit
	fi
done

http_setup
# the copy bound over /etc/shadow is the secret: it gets its label
chcon -t shadow_t /etc/shadow
t_is "the copy over /etc/shadow is shadow_t" "$(stat -c %C /etc/shadow | cut -d: -f3)" shadow_t
# as_admin CMD...: CMD run by an admin's shell (unconfined_t), its
# parent, with its standard files opened there (a domain inherits only
# what its policy lets it use: its caller's)
as_admin() {
	runcon unconfined_u:unconfined_r:unconfined_t:s0 \
		sh -c '"$@" < /dev/null > /dev/null 2>&1' sh "$@"
}
# avc_denied SERIAL DOMAIN: the AVC denials of DOMAIN after SERIAL
avc_denied() { audit_since "$1" 'avc:  denied ' | grep -a "scontext=[^ ]*:$2:"; }

# ---- 1. learn over three runs ------------------------------------------------
vigil_mode learn
for i in 1 2 3; do
	out_http=$(http_work as_admin)
done
t_is "lighttpd serves while learning" "$out_http" "hello from vigil 200
404"
vigil_settle
t_ok "vigil ingest" "$vigil" ingest

# ---- 2. generate ------------------------------------------------------------
t_ok "vigil generate" "$vigil" generate --subject $httpd -o $w/cand.policy
t_is "no rule names /etc/shadow" "$(grep -v '^[[:space:]]*#' $w/cand.policy | grep -c shadow)" 0
cp $w/cand.policy "$VIGIL_OUT/94-cand.policy"

# ---- 3. trial: vigil observe + the SELinux domain permissive ----------------
t_ok "vigil load the candidate" "$vigil" load $w/cand.policy
t_ok "vigil mode observe" "$vigil" mode observe
t0=$SECONDS
t_ok "vigil trial --to selinux: its module, the domain permissive" \
	"$vigil" trial --to selinux -o $w/st $w/cand.policy
t_diag "semodule -i of the trial's module: $((SECONDS - t0)) s"
mod=$(sed -n 's/^profile \([a-z0-9_]*\)_t\t.*/\1/p' $w/st/trial.state)
dom=${mod}_t
t_is "the module is installed" "$(semodule -l | grep -cx "$mod")" 1
t_ok "its domain is permissive" grep -q "^permissive $dom;" $w/st/$mod.te
t_is "restorecon gave the program its exec type" \
	"$(stat -c %C $httpd | cut -d: -f3)" "${mod}_exec_t"
wd0=$(vigil_count 'verdict=would-deny')
s0=$(audit_serial)
as_admin $httpd -f $w/lighttpd.conf
t_match "run from an admin's shell, lighttpd enters its domain" \
	"$(cat /proc/"$(cat $w/run/lighttpd.pid)"/attr/current 2>&1)" ":$dom:"
http_stop
t_is "lighttpd under the trial: same output" "$(http_work as_admin)" "$out_http"
vigil_settle
t_is "vigil: 0 would-be denials for the normal runs" "$(($(vigil_count 'verdict=would-deny') - wd0))" 0
t_ok "vigil ingest the normal runs" "$vigil" ingest
rc=0; "$vigil" trial --report $w/st > $w/trial1.out 2>&1 || rc=$?
t_match "vigil trial --report: the SELinux and vigil counts, 0 vigil" \
	"$(tail -n 1 $w/trial1.out)" '^[0-9]+ SELinux, 0 vigil would-be denials since the trial started'
t_is "... and lists each of the domain's AVC denials" \
	"$(grep -c "^	$dom: " $w/trial1.out)" "$(avc_denied $s0 $dom | sed 's/.*{ \([^}]*\) }.* tcontext=[^:]*:[^:]*:\([^:]*\):[^ ]* tclass=\([^ ]*\).*/\1 \2 \3/' | sort -u | wc -l)"
t_diag "$(cat $w/trial1.out)"
HTTP_SHADOW=1 http_work as_admin > /dev/null
vigil_settle
t_ok "vigil ingest the variant" "$vigil" ingest
rc=0; "$vigil" trial --stop $w/st > $w/trial2.out 2>&1 || rc=$?
t_is "vigil trial --stop: the variant's /etc/shadow read, in SELinux and vigil (exit 1)" \
	"$rc $(grep -c "^	$dom: { [a-z ]*open[a-z ]* } /etc/shadow shadow_t:file$" $w/trial2.out) $(grep -c 'open r /etc/shadow (1)$' $w/trial2.out)" "1 1 1"
t_diag "$(cat $w/trial2.out)"
t_is "... and removes the module" "$(semodule -l | grep -cx "$mod")" 0
vigil_mode learn
echo '# nothing' | dd of=$VIGIL_FS/policy status=none

# ---- 4. export that same file; enforce it -------------------------------------
t_ok "vigil export --to selinux CANDIDATE" "$vigil" export --to selinux -o $w/se $w/cand.policy
t_is "the export's module is not permissive" "$(grep -c '^permissive ' $w/se/$mod.te)" 0
t_ok "semodule -i installs the compiled module" semodule -i $w/se/$mod.pp
t_ok "restorecon labels the program" restorecon -F $httpd
# the files it writes have types of its module (its .fc): restorecon
# labels those there; one it creates gets its type by a type_transition
t_ok "restorecon labels the logs it writes" restorecon -F $w/log/access.log $w/log/error.log
t_is "... with its own type ${mod}_log_t (not tmp_t: every file in /tmp)" \
	"$(stat -c %C $w/log/access.log | cut -d: -f3)" ${mod}_log_t
rm -f $w/log/error.log
t_ok "setenforce 1" setenforce 1
s0=$(audit_serial)
out_enf=$(http_work as_admin)
vigil_settle
t_is "the log it created enforced got ${mod}_log_t (type_transition)" \
	"$(stat -c %C $w/log/error.log 2>&1 | cut -d: -f3)" ${mod}_log_t
# the trial predicts enforcement: every TYPE:CLASS the domain is denied
# now is one the trial's report listed
avc_denied $s0 $dom | sed 's/.* tcontext=[^:]*:[^:]*:\([^:]*\):[^ ]* tclass=\([^ ]*\).*/\1:\2/' |
	sed "s/^$dom:/self:/" | sort -u > $w/enforced.avc
grep "^	$dom: { " $w/trial2.out | awk '{ print $NF }' | sed "s/^$dom:/self:/" | sort -u > $w/trial.avc
t_is "every denial of its domain under enforcement was in the trial's report" \
	"$(comm -23 $w/enforced.avc $w/trial.avc | tr '\n' ' ')" ""
avc_denied $s0 $dom | head -n 30 | while read -r l; do t_diag "$l"; done
t_is "lighttpd enforced: same output" "$out_enf" "$out_http"
t_is "... with 0 AVC denials for its domain" "$(avc_denied $s0 $dom | wc -l)" 0
s0=$(audit_serial)
t_match "lighttpd's /etc/shadow: refused under SELinux" "$(HTTP_SHADOW=1 http_work as_admin)" 'shadow 403'
vigil_settle
# refused on the way: the link to it in the document root (tmp_t) or the
# file itself (shadow_t), whichever SELinux checks first
t_is "SELinux denied its domain the way to /etc/shadow (and nothing else)" \
	"$(avc_denied $s0 $dom | grep -c -e 'tcontext=[^ ]*:shadow_t:' -e ' name="shadow" ' | sed 's/^[1-9][0-9]*$/yes/') $(avc_denied $s0 $dom | grep -v -e 'tcontext=[^ ]*:shadow_t:' -e ' name="shadow" ' | wc -l)" "yes 0"
t_ok "setenforce 0" setenforce 0
cp $w/se/$mod.te "$VIGIL_OUT/94-$mod.te" 2>/dev/null
audit_since 0 'avc: ' > "$VIGIL_OUT/94-avc.log" 2>/dev/null

http_stop
umount /etc/shadow
t_done
