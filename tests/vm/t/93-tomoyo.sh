#!/bin/bash
# TOMOYO enforces vigil's export (issue 27): TOMOYO is built into the test
# kernel beside AppArmor, Landlock and vigil, inactive (every domain in
# profile 0) until this test loads domains with tomoyo-loadpolicy. Real
# Debian programs through the README's loop with TOMOYO as the target:
# learn over three runs, generate one candidate, trial it in vigil's
# observe mode and TOMOYO's permissive profile together (vigil trial --to
# tomoyo), export that same file, enforce it in TOMOYO's enforcing profile
# on a fresh run: the normal work is done with 0 TOMOYO rejects and the
# same output, the /etc/shadow variant is refused.
#  - lighttpd: forks into a daemon, binds port 80, drops to www-data,
#    appends to logs it opens with O_CREAT|O_APPEND;
#  - a #!/bin/sh service rewriting its state with mktemp + mv, its
#    children scoped to it.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
w=/tmp/vigil-t/$_t_file
mkdir -p $w
export VIGIL_DB=$w/vigil.db
tfs=/sys/kernel/security/tomoyo

# ---- TOMOYO is there, and checks nothing until a test asks ------------------
t_match "tomoyo is an active LSM, before vigil" "$(cat /sys/kernel/security/lsm)" 'tomoyo.*vigil'
t_ok "its policy files are in securityfs" test -w $tfs/domain_policy
t_is "every domain uses profile 0 (disabled)" \
	"$(grep '^use_profile ' $tfs/domain_policy | sort -u)" "use_profile 0"
t_is "profile 0 is disabled, 3 enforcing (tomoyo-tools' standard profiles)" \
	"$(grep -c '^0-CONFIG={ mode=disabled \|^3-CONFIG={ mode=enforcing ' $tfs/profile)" 2
for c in lighttpd curl tomoyo-loadpolicy; do
	if ! command -v $c > /dev/null; then
		t_ok "$c is installed (scripts/install-deps)" false
		t_done
		exit
	fi
done
# TOMOYO's audit since the last call: a read consumes it
tomoyo_audit() { timeout 5 cat $tfs/audit < /dev/null 2>/dev/null || :; }
tomoyo_audit > /dev/null
# tomoyo_rules FILE: the rule of each granted=no entry of a saved audit
tomoyo_rules() { tr '\0' '\n' < "$1" | grep -A2 ' granted=no ' | grep -v ' granted=no \|^--\|^<kernel>'; }
# present_only: drop the rules that are connects to a unix socket that
# does not exist. TOMOYO checks the name a program gives before the kernel
# looks it up; vigil records the socket a connect reached, so it never
# sees one to an absent socket (glibc's probe of nscd when nscd is not
# running): TOMOYO refuses it with EPERM where it fails with ENOENT, the
# program sees a failed connect either way (docs/export.md).
present_only() {
	local l p
	while IFS= read -r l; do
		case "$l" in
		*"network unix "*" connect "*)
			p=${l##* }
			[ -e "$p" ] || { echo "absent: $l" >&3; continue; }
			;;
		esac
		printf '%s\n' "$l"
	done
}

# ---- the programs ----------------------------------------------------------
http_setup

state=/var/lib/tomoyosvc
svc=$w/statesvc
printf 'beta\nalpha\ngamma\nalpha\n' > $w/svc.conf
cat > $svc <<EOF
#!/bin/sh
# reads its configuration, counts its runs in its own state folder
# (mktemp + mv), prints a summary
PATH=/usr/bin:/bin
n=\$(cat "$state/runs" 2>/dev/null || echo 0)
t=\$(mktemp "$state/runs.XXXXXX") || exit 1
echo \$((n + 1)) > "\$t"
mv "\$t" "$state/runs" || exit 1
echo "\$(sort "$w/svc.conf" | uniq | wc -l) names"
[ -z "\${SVC_SHADOW:-}" ] || cat /etc/shadow > /dev/null
EOF
chmod 755 $svc
# its state folder is created by its first run: fresh again after export
svc_work() { mkdir -p $state; $svc 2>&1; }

# ---- 1. learn over three runs ------------------------------------------------
vigil_mode learn
for i in 1 2 3; do
	out_http=$(http_work)
	out_svc=$(svc_work)
done
t_is "lighttpd serves while learning" "$out_http" "hello from vigil 200
404"
t_is "the service works while learning" "$out_svc" "3 names"
vigil_settle
t_ok "vigil ingest" "$vigil" ingest

# ---- 2. generate ------------------------------------------------------------
subjects=(--subject $httpd --subject $svc --children)
t_ok "vigil generate" "$vigil" generate "${subjects[@]}" -o $w/cand.policy
t_is "no rule names /etc/shadow" "$(grep -v '^[[:space:]]*#' $w/cand.policy | grep -c shadow)" 0
cp $w/cand.policy "$VIGIL_OUT/93-cand.policy"

# ---- the anchor: TOMOYO's own learning mode on the same work ------------------
# Empty domains for the two programs in profile 1 (learning), one normal
# run each, then what TOMOYO learned (as tomoyo-savepolicy would save it)
# beside vigil's export of the candidate: figures for docs/export.md.
"$vigil" export --to tomoyo -o $w/tl $w/cand.policy > /dev/null
for s in $httpd $svc; do
	printf 'initialize_domain %s from any\n' "$s" | tomoyo-loadpolicy -e
	printf '<kernel> %s\nuse_profile 1\n' "$s" | tomoyo-loadpolicy -d
done
rm -rf $state
t_is "lighttpd in TOMOYO's learning mode: same output" "$(http_work)" "$out_http"
t_is "the service in TOMOYO's learning mode: same output" "$(svc_work)" "$out_svc"
# tomoyo_domain FILE DOMAIN: the rule lines of one domain of a policy file
# (TOMOYO writes "file read/getattr X": one line per permission here)
tomoyo_domain() {
	awk -v d="$2" '/^<kernel>/ { on = ($0 == d); next }
		on && /^[a-z]/ && !/^use_/ {
			n = split($2, op, "/")
			rest = $0
			sub(/^[^ ]+ [^ ]+ /, "", rest)
			for (i = 1; i <= n; i++)
				print $1 " " op[i] " " rest
		}' "$1" | sort -u
}
cp $tfs/domain_policy $w/learned.conf
for s in $httpd $svc; do
	tomoyo_domain $w/learned.conf "<kernel> $s" > $w/learned.one
	tomoyo_domain $w/tl/tomoyo-domain_policy.conf "<kernel> $s" > $w/vigil.one
	t_ok "TOMOYO learned rules for ${s##*/}" test -s $w/learned.one
	# the facts docs/export.md's table relies on: TOMOYO writes what
	# it saw, literally; neither names the secret
	t_is "... every one literal (no TOMOYO wildcard)" \
		"$(grep -c '\\[*@?$xXaA+{}-]' $w/learned.one)" 0
	t_is "... neither TOMOYO's nor vigil's names /etc/shadow" \
		"$(cat $w/learned.one $w/vigil.one | grep -c /etc/shadow)" 0
	t_diag "${s##*/}: TOMOYO learning mode $(wc -l < $w/learned.one) rules ($(grep -c '^file getattr' $w/learned.one) getattr), vigil's export $(wc -l < $w/vigil.one) ($(grep -c '^file getattr' $w/vigil.one) getattr, $(grep -c '\\\*\|\\\$' $w/vigil.one) with wildcards)"
	comm -23 $w/learned.one $w/vigil.one | grep -v '^file getattr\|^misc env' | head -n 12 | while read -r l; do t_diag "  learned, not in vigil's words: $l"; done
	comm -13 $w/learned.one $w/vigil.one | grep -v '^file getattr\|^misc env' | head -n 12 | while read -r l; do t_diag "  vigil's, not learned as such: $l"; done
done
# the service's mktemp name: TOMOYO learned this run's (the next run's
# differs), vigil's export a pattern for every run's
tomoyo_domain $w/learned.conf "<kernel> $svc" > $w/learned.one
tomoyo_domain $w/tl/tomoyo-domain_policy.conf "<kernel> $svc" > $w/vigil.one
t_match "TOMOYO learned the service's temporary file by this run's name" \
	"$(grep -c "^file write $state/runs\.[A-Za-z0-9]\{6\}\$" $w/learned.one)" '^[1-9]'
t_match "vigil's export: a pattern for it, no run's name" \
	"$(grep -c "^file [a-z]* $state/runs\.\\\\" $w/vigil.one) $(grep -c "^file [a-z]* $state/runs\.[A-Za-z0-9]\{6\}\$" $w/vigil.one)" '^[1-9][0-9]* 0$'
cp $w/learned.conf "$VIGIL_OUT/93-tomoyo-learned.conf" 2>/dev/null
for s in $httpd $svc; do
	printf '<kernel> %s\nuse_profile 0\n' "$s" | tomoyo-loadpolicy -d
done
printf 'delete initialize_domain %s from any\n' $httpd $svc | tomoyo-loadpolicy -e

# ---- 3. trial: vigil observe + TOMOYO permissive -------------------------------
t_ok "vigil load the candidate" "$vigil" load $w/cand.policy
t_ok "vigil mode observe" "$vigil" mode observe
t_ok "vigil trial --to tomoyo: its export in the permissive profile" \
	"$vigil" trial --to tomoyo -o $w/tt $w/cand.policy
ndom=$(grep -c '^<kernel> ' $w/tt/tomoyo-domain_policy.conf)
t_is "TOMOYO took the candidate's domains in profile 2" \
	"$(grep -A1 "^<kernel> $w/" $tfs/domain_policy | grep -c '^use_profile 2')" "$ndom"
wd0=$(vigil_count 'verdict=would-deny')
rm -rf $state
t_is "lighttpd under the trial: same output" "$(http_work)" "$out_http"
t_is "the service under the trial, its state folder new: same output" "$(svc_work)" "$out_svc"
vigil_settle
t_is "vigil: 0 would-be denials for the normal runs" "$(($(vigil_count 'verdict=would-deny') - wd0))" 0
t_ok "vigil ingest the normal runs" "$vigil" ingest
rc=0; "$vigil" trial --report $w/tt > $w/trial1.out 2>&1 || rc=$?
t_match "vigil trial --report: 0 vigil would-be denials for the normal runs" \
	"$(tail -n 1 $w/trial1.out)" '^[0-9]+ TOMOYO, 0 vigil would-be denials since the trial started'
t_is "... and 0 TOMOYO ones but connects to absent unix sockets" \
	"$(sed -n 's/^	<kernel> [^:]*: //p' $w/trial1.out | present_only 3> $w/absent1 | wc -l)" 0
t_diag "$(cat $w/trial1.out)"
HTTP_SHADOW=1 http_work > /dev/null
SVC_SHADOW=1 svc_work > /dev/null
vigil_settle
t_ok "vigil ingest the variants" "$vigil" ingest
rc=0; "$vigil" trial --stop $w/tt > $w/trial2.out 2>&1 || rc=$?
t_is "vigil trial --stop: the variants' /etc/shadow reads, in TOMOYO and vigil (exit 1)" \
	"$rc $(grep -c ': file read /etc/shadow$' $w/trial2.out) $(grep -c 'open r /etc/shadow (1)$' $w/trial2.out)" "1 2 2"
t_diag "$(cat $w/trial2.out)"
cp $w/tt/tomoyo-audit.log "$VIGIL_OUT/93-trial.audit" 2>/dev/null
t_is "... and gives the domains profile 0" \
	"$(grep -A1 "^<kernel> $w/" $tfs/domain_policy | grep -c '^use_profile 0')" "$ndom"
vigil_mode learn
echo '# nothing' | dd of=$VIGIL_FS/policy status=none

# ---- 4. export that same file; enforce with TOMOYO on a fresh run -------------
t_ok "vigil export --to tomoyo CANDIDATE" "$vigil" export --to tomoyo -o $w/tm $w/cand.policy
t_ok "tomoyo-checkpolicy accepts the domains" \
	sh -c "tomoyo-checkpolicy d < $w/tm/tomoyo-domain_policy.conf"
t_ok "tomoyo-loadpolicy -d loads them (enforcing: profile 3)" \
	sh -c "tomoyo-loadpolicy -d < $w/tm/tomoyo-domain_policy.conf"
t_ok "tomoyo-loadpolicy -e loads their initialize_domain lines" \
	sh -c "tomoyo-loadpolicy -e < $w/tm/tomoyo-exception_policy.conf"
t_is "the domains are enforcing" \
	"$(grep -A1 "^<kernel> $w/" $tfs/domain_policy | grep -c '^use_profile 3')" "$ndom"
tomoyo_audit > /dev/null
rm -rf $state $w/log/*.log
t_is "lighttpd enforced: same output" "$(http_work)" "$out_http"
t_is "the service enforced, its state folder new: same output" "$(svc_work)" "$out_svc"
t_is "... its second run too" "$(svc_work)" "$out_svc"
tomoyo_audit > $w/enforce.audit
t_is "with 0 TOMOYO rejects (but connects to absent unix sockets)" \
	"$(tomoyo_rules $w/enforce.audit | present_only 3> $w/absent2 | wc -l)" 0
tomoyo_rules $w/enforce.audit | sort | uniq -c | head -n 30 | while read -r l; do t_diag "$l"; done
# TOMOYO refuses with EPERM, which lighttpd answers with 500 (EACCES: 403)
t_match "lighttpd's /etc/shadow: refused under TOMOYO" "$(HTTP_SHADOW=1 http_work)" 'shadow (403|500)'
t_match "the service's /etc/shadow: refused by TOMOYO (EPERM)" "$(SVC_SHADOW=1 svc_work)" 'shadow: Operation not permitted'
tomoyo_audit > $w/shadow.audit
t_is "TOMOYO logged those 2 rejects, both of /etc/shadow (and no other)" \
	"$(tomoyo_rules $w/shadow.audit | grep -c '^file read /etc/shadow$') $(tomoyo_rules $w/shadow.audit | present_only 3> /dev/null | wc -l)" "2 2"
cp $w/enforce.audit $w/shadow.audit $w/tm/tomoyo-domain_policy.conf "$VIGIL_OUT/" 2>/dev/null

# ---- leave TOMOYO as the boot had it: every domain in profile 0 ---------------
http_stop
sed 's/^use_profile 3$/use_profile 0/' $w/tm/tomoyo-domain_policy.conf | tomoyo-loadpolicy -d
sed -n 's/^initialize_domain /delete initialize_domain /p' $w/tm/tomoyo-exception_policy.conf | tomoyo-loadpolicy -e
t_is "every domain is back in profile 0" \
	"$(grep '^use_profile ' $tfs/domain_policy | sort -u)" "use_profile 0"
umount /etc/shadow
t_done
