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
# The anchor (issue 27 §4): the same three learning runs also run lighttpd
# in a bare permissive domain of its own (a2a_lighttpd_t: entered from the
# admin's shell, allowed nothing else); audit2allow -M turns that domain's
# AVCs into a module, which is enforced after vigil's: rules, sizes and
# what each grants are printed (docs/export.md's table), and the facts
# the comparison relies on checked.
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
for c in lighttpd curl semodule restorecon runcon audit2allow; do
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

# ---- the anchor's bare domain: entered from an admin's shell, permissive ------
# bare_module PERMISSIVE: the module a2a_lighttpd (its .pp in $w/a2a)
a2a=a2a_lighttpd
mkdir -p $w/a2a
bare_module() {
	{
		printf '%s\n' "module $a2a 1.0;" \
			'require { role unconfined_r; attribute domain; attribute file_type; attribute exec_type; type unconfined_t;' \
			'	class process transition; class file { entrypoint execute getattr map open read }; }' \
			"type ${a2a}_t, domain;" "type ${a2a}_exec_t, file_type, exec_type;" \
			"role unconfined_r types ${a2a}_t;" \
			"allow unconfined_t ${a2a}_exec_t:file { execute getattr map open read };" \
			"allow unconfined_t ${a2a}_t:process transition;" \
			"type_transition unconfined_t ${a2a}_exec_t:process ${a2a}_t;" \
			"allow ${a2a}_t ${a2a}_exec_t:file entrypoint;"
		[ "$1" = no ] || echo "permissive ${a2a}_t;"
	} > $w/a2a/$a2a.te
	checkmodule -M -m -o $w/a2a/$a2a.mod $w/a2a/$a2a.te > /dev/null &&
		semodule_package -o $w/a2a/$a2a.pp -m $w/a2a/$a2a.mod
}
t_ok "the anchor's bare domain ${a2a}_t (permissive) is installed" \
	eval 'bare_module yes && semodule -i $w/a2a/$a2a.pp'
t_ok "lighttpd is labelled its entry point" chcon -t ${a2a}_exec_t $httpd
sa=$(audit_serial)

# ---- 1. learn over three runs ------------------------------------------------
vigil_mode learn
for i in 1 2 3; do
	out_http=$(http_work as_admin)
done
t_is "lighttpd serves while learning" "$out_http" "hello from vigil 200
404"
t_match "... in the anchor's bare domain" "$(avc_denied $sa ${a2a}_t | head -n 1)" "scontext=[^ ]*:${a2a}_t:"
vigil_settle
t_ok "vigil ingest" "$vigil" ingest

# ---- 2. generate ------------------------------------------------------------
t_ok "vigil generate" "$vigil" generate --subject $httpd -o $w/cand.policy
t_is "no rule names /etc/shadow" "$(grep -v '^[[:space:]]*#' $w/cand.policy | grep -c shadow)" 0
# the folders it writes as trees, as a reviewer widens them (its logs,
# its pid file: names that may change): the export gives each tree a
# private type (its folder labelled, what is made there inherits it)
t_is "the candidate writes its logs and pid file" \
	"$(grep -c -x -e "	file ac $w/log/access.log" -e "	file ac $w/log/error.log" -e "	file wcdt $w/run/lighttpd.pid" $w/cand.policy)" 3
grep -v -e "^	file [a-z]* $w/log/" -e "^	file [a-z]* $w/run/" $w/cand.policy |
	sed "/^subject /a\\
	file ac $w/log/*\\
	file wcdt $w/run/**" > $w/cand.tree && mv $w/cand.tree $w/cand.policy
t_is "... as the trees $w/log/* and $w/run/**" \
	"$(grep -c -x -e "	file ac $w/log/\*" -e "	file wcdt $w/run/\*\*" $w/cand.policy) $(grep -c -e "$w/log/[a-z]" -e "$w/run/[a-z]" $w/cand.policy)" "2 0"
cp $w/cand.policy "$VIGIL_OUT/94-cand.policy"

# ---- 3. trial: vigil observe + the SELinux domain permissive ----------------
t_ok "vigil load the candidate" "$vigil" load $w/cand.policy
t_ok "vigil mode observe" "$vigil" mode observe
t0=$SECONDS
log_type0=$(stat -c %C $w/log/access.log | cut -d: -f3)
logdir_ctx0=$(stat -c %C $w/log)
rundir_ctx0=$(stat -c %C $w/run)
exe_type0=$(stat -c %C $httpd | cut -d: -f3)
t_ok "vigil trial --to selinux: its module, the domain permissive" \
	"$vigil" trial --to selinux -o $w/st $w/cand.policy
t_diag "semodule -i of the trial's module: $((SECONDS - t0)) s"
mod=$(sed -n 's/^profile \([a-z0-9_]*\)_t\t.*/\1/p' $w/st/trial.state)
dom=${mod}_t
t_is "the module is installed" "$(semodule -l | grep -cx "$mod")" 1
t_ok "its domain is permissive" grep -q "^permissive $dom;" $w/st/$mod.te
t_is "restorecon gave the program its exec type" \
	"$(stat -c %C $httpd | cut -d: -f3)" "${mod}_exec_t"
# the logs made while learning: the trial labels them as the export's .fc
# says, as restorecon does at enforcement (else the trial reports AVCs on
# their old type that enforcement never gives)
t_is "... and the logs it wrote while learning their private type" \
	"$(stat -c %C $w/log/access.log | cut -d: -f3)" "${mod}_log_t"
t_is "... and the trees' folders theirs (restorecon -R)" \
	"$(stat -c %C $w/log $w/run | cut -d: -f3 | tr '\n' ' ')" "${mod}_log_t ${mod}_run_t "
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
t_match "vigil trial --report: 0 SELinux, 0 vigil" \
	"$(tail -n 1 $w/trial1.out)" '^0 SELinux, 0 vigil would-be denials since the trial started'
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
t_is "... and gives the log and the program back the labels they had" \
	"$(stat -c %C $w/log/access.log $httpd | cut -d: -f3 | tr '\n' ' ')" "$log_type0 $exe_type0 "
t_is "... and the trees' folders theirs" "$(stat -c %C $w/log $w/run | tr '\n' ' ')" "$logdir_ctx0 $rundir_ctx0 "
vigil_mode learn
echo '# nothing' | dd of=$VIGIL_FS/policy status=none

# ---- 4. export that same file; enforce it -------------------------------------
t_ok "vigil export --to selinux CANDIDATE" "$vigil" export --to selinux -o $w/se $w/cand.policy
t_is "the export's module is not permissive" "$(grep -c '^permissive ' $w/se/$mod.te)" 0
t_ok "semodule -i installs the compiled module" semodule -i $w/se/$mod.pp
t_ok "restorecon labels the program" restorecon -F $httpd
# the files it writes have types of its module (its .fc): restorecon
# labels those there; one it creates gets its type by a type_transition
# the trees: their folders and what is in them
t_is "the .fc labels the trees (escaped regular expressions)" \
	"$(grep -c -x -e "$(echo "$w" | sed 's/[.]/\\\\./g')/log(/\[^/\]\*)?	system_u:object_r:${mod}_log_t:s0" \
		-e "$(echo "$w" | sed 's/[.]/\\\\./g')/run(/\.\*)?	system_u:object_r:${mod}_run_t:s0" $w/se/$mod.fc)" 2
t_is "... and a folder it makes there gets the tree's type (dir type_transition)" \
	"$(grep -c -e "^type_transition $dom [a-z_]*:dir ${mod}_log_t \"log\";$" -e "^type_transition $dom [a-z_]*:dir ${mod}_run_t \"run\";$" $w/se/$mod.te | sed 's/^[2-9]$/yes/')" yes
t_is "... and the module writes no file of the policy's types (tmp_t: every file in /tmp)" \
	"$(grep -E "^allow $dom [a-z_]*:(file|dir) " $w/se/$mod.te | grep -v "^allow $dom ${mod}_[a-z]*_t:" | grep -E -c ' (write|append|create|add_name|remove_name|unlink|rmdir) ')" 0
t_ok "restorecon -R labels the trees it writes" restorecon -R -F $w/log $w/run
t_is "... the logs with its own type ${mod}_log_t (not tmp_t: every file in /tmp)" \
	"$(stat -c %C $w/log/access.log | cut -d: -f3)" ${mod}_log_t
t_is "... and the folders theirs" \
	"$(stat -c %C $w/log $w/run | cut -d: -f3 | tr '\n' ' ')" "${mod}_log_t ${mod}_run_t "
rm -f $w/log/error.log
t_ok "setenforce 1" setenforce 1
s0=$(audit_serial)
out_enf=$(http_work as_admin)
vigil_settle
t_is "the log it created enforced got ${mod}_log_t (its folder's)" \
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
# the tree's folder made by its domain (run into it here, permissive)
mv $w/log $w/log.keep
runcon system_u:system_r:$dom:s0 mkdir $w/log
t_is "a log folder its domain makes gets ${mod}_log_t (the dir type_transition)" \
	"$(stat -c %C $w/log 2>&1 | cut -d: -f3)" ${mod}_log_t
rm -rf $w/log
mv $w/log.keep $w/log
cp $w/se/$mod.te "$VIGIL_OUT/94-$mod.te" 2>/dev/null
cp $w/se/$mod.fc "$VIGIL_OUT/94-$mod.fc" 2>/dev/null

# ---- 5. the anchor: audit2allow -M on the same runs' AVCs, enforced ---------
# ENRICHED records: the interpreted fields after 0x1D cut off
avc_denied $sa ${a2a}_t | cut -d "$(printf '\035')" -f1 > $w/a2a/avc.log
t_ok "audit2allow -M on the learning runs' AVCs of ${a2a}_t" \
	sh -c "cd $w/a2a && audit2allow -i avc.log -M ${a2a}_allow > audit2allow.out 2>&1"
# one semodule transaction (each rebuilds the policy)
t_ok "semodule: vigil's module out; the bare domain, not permissive now, and audit2allow's module in" \
	eval 'bare_module no && semodule -r $mod -i $w/a2a/$a2a.pp -i $w/a2a/${a2a}_allow.pp'
# vigil's types are gone with its module: the logs it labelled made again,
# the trees' folders given back their labels
rm -f $w/log/*.log
chcon "$logdir_ctx0" $w/log
chcon "$rundir_ctx0" $w/run
t_ok "lighttpd is labelled its entry point again" chcon -t ${a2a}_exec_t $httpd
t_ok "setenforce 1" setenforce 1
s0=$(audit_serial)
out_a2a=$(http_work as_admin)
t_is "lighttpd enforced under audit2allow's module: same output" "$out_a2a" "$out_http"
avc_denied $s0 ${a2a}_t | head -n 30 | while read -r l; do t_diag "$l"; done
n_a2a_avc=$(avc_denied $s0 ${a2a}_t | wc -l)
s0=$(audit_serial)
out_a2a_shadow=$(HTTP_SHADOW=1 http_work as_admin)
t_match "lighttpd's /etc/shadow: refused under audit2allow's module too" "$out_a2a_shadow" 'shadow 403'
t_ok "setenforce 0" setenforce 0
t_ok "semodule -r the anchor's modules" semodule -r ${a2a}_allow $a2a
restorecon -F $httpd
# te_perms TE DOMAIN EXEC: the TYPE:CLASS PERM the module's allow rules give
# DOMAIN, one a line (DOMAIN's own type as self, its executable's as EXEC)
te_perms() {
	sed -nE "s/^[[:space:]]*allow $2 ([^ ]+) *\{? *([^};]*)\}? *;.*/\1 \2/p" "$1" |
		while read -r tc perms; do
			for p in $perms; do echo "$tc $p"; done
		done | sed "s/^$2:/self:/; s/^$3:/EXEC:/" | sort -u
}
te_perms $w/se/$mod.te $dom ${mod}_exec_t > $w/vigil.perms
te_perms $w/a2a/${a2a}_allow.te ${a2a}_t ${a2a}_exec_t > $w/a2a.perms
# the bare module's own rules are the domain's too (its entry point)
echo "EXEC:file entrypoint" >> $w/a2a.perms
sort -u -o $w/a2a.perms $w/a2a.perms
types() { cut -d: -f1 "$1" | sort -u; }
t_diag "audit2allow -M: $(wc -l < $w/a2a/avc.log) AVCs -> $(grep -c "^allow ${a2a}_t " $w/a2a/${a2a}_allow.te) allow rules (+1 entrypoint in the bare module), $(wc -l < $w/a2a.perms) permissions on $(types $w/a2a.perms | wc -l) types; .te $(wc -c < $w/a2a/${a2a}_allow.te) bytes, .pp $(wc -c < $w/a2a/${a2a}_allow.pp); enforced: '$(echo $out_a2a)', $n_a2a_avc AVC, shadow: ${out_a2a_shadow##*$'\n'}"
t_diag "vigil export: $(grep -c "^[[:space:]]*allow $dom " $w/se/$mod.te) allow rules, $(wc -l < $w/vigil.perms) permissions on $(types $w/vigil.perms | wc -l) types; .te $(wc -c < $w/se/$mod.te) bytes ($(grep -vc '^#' $w/se/$mod.te) without comments), .pp $(wc -c < $w/se/$mod.pp)"
# own TE: the private types of vigil's module (the files it writes)
own_perm() { grep -q "^$1 $2\$" $w/vigil.perms || grep -q "^${mod}_[a-z]*_t:${1#*:} $2\$" $w/vigil.perms; }
t_is "every permission audit2allow's module grants, vigil's export grants (the written files on its own types)" \
	"$(while read -r tc p; do own_perm "$tc" "$p" || echo "$tc $p"; done < $w/a2a.perms | tr '\n' ',')" ""
t_diag "types only vigil's grants: $(comm -23 <(types $w/vigil.perms) <(types $w/a2a.perms) | tr '\n' ' ')"
t_diag "types only audit2allow's grants: $(comm -13 <(types $w/vigil.perms) <(types $w/a2a.perms) | tr '\n' ' ')"
t_diag "permissions only vigil's grants: $(comm -23 $w/vigil.perms $w/a2a.perms | tr '\n' ',')"
t_diag "permissions only audit2allow's grants: $(comm -13 $w/vigil.perms $w/a2a.perms | tr '\n' ',')"
cp $w/a2a/${a2a}_allow.te $w/a2a/avc.log "$VIGIL_OUT/" 2>/dev/null
audit_since 0 'avc: ' > "$VIGIL_OUT/94-avc.log" 2>/dev/null

http_stop
umount /etc/shadow
t_done
