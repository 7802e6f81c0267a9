# A policy that holds on the next run (issue 24 §6), on a real Debian
# key-value store the project had not used: redis-server snapshots its
# data to temp-<pid>.rdb and renames it over dump.rdb, from the server
# (SHUTDOWN SAVE) and from a forked child (BGSAVE), so each run and each
# snapshot has a new name. Learnt over three runs (six servers, nine
# snapshots), generated, tried in vigil's observe mode and AppArmor's
# complain mode on a fresh run, made whole with generate --update where
# the trial was not clean, exported, and enforced with AppArmor and
# Landlock on fresh runs (new pids, new temp names): the same output as
# unconfined, 0 denials; the variant that reads /etc/shadow is caught by
# the trial and denied by both.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
w=/tmp/vigil-t/$_t_file
rm -rf $w
mkdir -p $w
export VIGIL_DB=$w/vigil.db
# its data where a store keeps it (/var/lib is a tmpfs in the guest)
t=/var/lib/t93r
rm -rf $t
mkdir -p $t
for c in redis-server redis-cli; do
	if ! command -v $c > /dev/null; then
		t_ok "$c is installed (scripts/install-deps)" false
		t_done
		exit
	fi
done
rs=$(vigil_subject redis-server "$(readlink -f "$(command -v redis-server)")")
cli() { redis-cli -s $t/rd.sock "$@"; }

# rd_start [PREFIX...]: a server on a unix socket, its data in $t/data
rd_start() {
	"$@" $rs --port 0 --unixsocket $t/rd.sock --unixsocketperm 700 \
		--dir $t/data --dbfilename dump.rdb --save "3600 1" \
		--appendonly no --daemonize no --logfile $t/redis.log \
		> /dev/null 2>&1 &
	rpid=$!
	for _ in $(seq 100); do
		[ "$(cli ping 2>/dev/null)" = PONG ] && return 0
		kill -0 $rpid 2> /dev/null || break
		sleep 0.1
	done
	echo "redis-server did not start: $(tail -n 3 $t/redis.log 2>/dev/null)"
	return 1
}
# rd_stop: SHUTDOWN SAVE (the server writes temp-<its pid>.rdb)
rd_stop() {
	cli shutdown save > /dev/null 2>&1
	wait $rpid 2> /dev/null
}
# rd_work [PREFIX...]: fresh data; a server counts, snapshots in a child
# (BGSAVE: temp-<child pid>.rdb) and at shutdown; a second server loads
# the snapshot and counts on. Prints what the second one saw.
rd_work() {
	local n
	rm -rf $t/data
	mkdir -p $t/data
	rd_start "$@" || return
	cli incr runs > /dev/null
	cli set greeting hello > /dev/null
	cli bgsave > /dev/null
	for _ in $(seq 100); do
		cli info persistence | grep -q '^rdb_bgsave_in_progress:0' && break
		sleep 0.1
	done
	cli incr runs > /dev/null
	rd_stop
	rd_start "$@" || return
	n=$(cli incr runs)
	echo "runs $n, greeting $(cli get greeting), $(cli dbsize) keys"
	rd_stop
}
# the variant that reads a secret: its configuration from /etc/shadow
rd_shadow() { "$@" $rs /etc/shadow --port 0 2>&1 | grep -o "Permission denied\|Bad directive\|wrong number" | head -n 1; }

# /etc/shadow readable by all, so that only the MAC decides
cp /etc/shadow $w/shadow-copy
chmod 644 $w/shadow-copy
mount --bind $w/shadow-copy /etc/shadow

# ---- 1. learn over three runs --------------------------------------------------
vigil_mode learn
for i in 1 2 3; do
	want=$(rd_work)
done
t_is "redis-server while learning (unconfined)" "$want" "runs 3, greeting hello, 2 keys"
t_is "its secret variant unconfined: /etc/shadow read as a config" "$(rd_shadow)" "Bad directive"
vigil_settle
t_ok "vigil ingest" "$vigil" ingest
temps=$(sqlite3 $VIGIL_DB "SELECT count(DISTINCT object) FROM records WHERE object LIKE '$t/data/temp-%.rdb'")
t_ok "learning saw 6 or more temp-<pid>.rdb names (servers and BGSAVE children)" test "$temps" -ge 6

# ---- 2. generate ---------------------------------------------------------------
# (the secret variant's read was learnt too: the review removes it)
t_ok "vigil generate" "$vigil" generate --subject $rs -o $w/cand.policy
rules() { grep -v '^[[:space:]]*#' $w/cand.policy | grep -c -- "$1"; }
t_is "one glob over the temp names' pid" "$(rules "^	file [a-z]* $t/data/temp-\*\.rdb\$")" 1
t_is "no literal temp-<pid>.rdb" "$(rules 'temp-[0-9]')" 0
t_ok "its # why names the evidence" \
	sh -c "grep -B1 '^	file [a-z]* $t/data/temp-\*\.rdb\$' $w/cand.policy | grep -q 'e.g. $t/data/temp-[0-9]*\.rdb, .*heuristic: \(pid in name\|varying number\)'"
t_ok "the learnt /etc/shadow read is marked sensitive" \
	sh -c "grep -B1 '^	file r /etc/shadow\$' $w/cand.policy | grep -q '^	# sensitive: it matches /etc/shadow'"
# the review: the secret read goes (with its comment lines)
awk '/^\t#/ { c = c $0 "\n"; next } /^\tfile r \/etc\/shadow$/ { c = ""; next }
	{ printf "%s", c; c = ""; print }' $w/cand.policy > $w/cand.edited
mv $w/cand.edited $w/cand.policy
t_is "the review removed the /etc/shadow rule" "$(rules shadow)" 0
t_ok "the candidate loads (vigil load -n)" "$vigil" load -n $w/cand.policy
t_diag "candidate: $(grep -c '^	[a-z]* [^ ]* [^ ]*$' $w/cand.policy) rules, $(grep -c '^	# why:' $w/cand.policy) generalised: $(grep -A1 '^	# why:' $w/cand.policy | grep -v '^	#\|^--' | sed "s|$t|T|g" | tr '\n' ' ')"

# ---- 3. trial on a fresh run: vigil observe and AppArmor complain ---------------
t_ok "vigil load the candidate" "$vigil" load $w/cand.policy
t_ok "vigil mode observe" "$vigil" mode observe
t_ok "vigil trial --to apparmor" "$vigil" trial --to apparmor -o $w/aatrial $w/cand.policy
wd0=$(vigil_count 'verdict=would-deny')
want_fresh=$(rd_work)
t_is "redis-server under observation: same output" "$want_fresh" "runs 3, greeting hello, 2 keys"
vigil_settle
wd=$(($(vigil_count 'verdict=would-deny') - wd0))
vigil_lines 'verdict=would-deny' | tail -n +$((wd0 + 1)) | head -n 20 | while read -r l; do t_diag "would-deny: $l"; done
t_ok "vigil ingest the fresh run" "$vigil" ingest
rc=0; "$vigil" trial --report $w/aatrial > $w/trial1.out 2>&1 || rc=$?
t_diag "trial on the fresh run: $wd vigil would-be denials; $(cat $w/trial1.out)"
# redis-server opens /proc/sys/net/core/somaxconn: net_ctl_permissions()
# asks ns_capable_noaudit(CAP_NET_ADMIN), which AppArmor's complain mode
# logs (info="optional: no audit") and its enforce mode refuses silently
# (step 4: the same output, 0 DENIED); vigil honours CAP_OPT_NOAUDIT
t_is "AppArmor's optional capable net_admin: listed apart, not a would-be denial" \
	"$(grep -c '^	[^ ]*: capable net_admin$' $w/trial1.out) $(grep -c '^0 AppArmor, 0 vigil would-be denials .*; 1 optional check apart$' $w/trial1.out)" "1 1"
t_is "the trial on a fresh run is clean in both modes (exit 0)" "$rc $wd" "0 0"
# a trial that was not clean: the README's loop merges what it showed
if [ "$wd" != 0 ] || [ "$rc" != 0 ]; then
	t_ok "vigil generate --update (the trial was not clean)" \
		"$vigil" generate --subject $rs --update $w/cand.policy
	t_ok "the updated candidate loads" "$vigil" load $w/cand.policy
	wd0=$(vigil_count 'verdict=would-deny')
	t_is "redis-server under observation again: same output" "$(rd_work)" "$want_fresh"
	vigil_settle
	wd=$(($(vigil_count 'verdict=would-deny') - wd0))
fi
t_is "the trial: 0 vigil would-be denials on a fresh run" "$wd" 0
rd_shadow > /dev/null
vigil_settle
t_is "the trial catches the /etc/shadow read" \
	"$(vigil_count "verdict=would-deny op=open access=r .*exe=\"$rs\" path=\"/etc/shadow\"")" 1
"$vigil" ingest > /dev/null
rc=0; "$vigil" trial --stop $w/aatrial > $w/trial2.out 2>&1 || rc=$?
# AppArmor's line 'open /etc/shadow (r)', vigil's 'open r /etc/shadow (1)'
t_is "vigil trial --stop: the /etc/shadow read, in both modes (exit 1)" \
	"$rc $(grep -c 'open /etc/shadow (r)$' $w/trial2.out) $(grep -c 'open r /etc/shadow (1)$' $w/trial2.out)" "1 1 1"
t_diag "$(cat $w/trial2.out)"
vigil_mode learn
echo '# nothing' | dd of=$VIGIL_FS/policy status=none

# ---- 4. export that same file; enforce with AppArmor -----------------------------
t_ok "vigil export --to apparmor CANDIDATE" "$vigil" export --to apparmor -o $w/aa $w/cand.policy
prof=$w/aa/$(echo "${rs#/}" | tr / .)
t_ok "apparmor_parser -r loads the profile" apparmor_parser -r -W "$prof"
s0=$(audit_serial)
t_is "redis-server confined, fresh data: same output" "$(rd_work)" "$want_fresh"
t_is "its /etc/shadow read: refused by AppArmor" "$(rd_shadow)" "Permission denied"
vigil_settle
t_is "AppArmor denied only that read" \
	"$(audit_since $s0 'apparmor="DENIED"' | grep -c 'name="/etc/shadow"') $(audit_since $s0 'apparmor="DENIED"' | wc -l)" "1 1"
audit_since $s0 'apparmor="DENIED"' | head -n 20 | while read -r l; do t_diag "$l"; done
apparmor_parser -R "$prof" 2>/dev/null

# ---- 5. Landlock -----------------------------------------------------------------
t_ok "vigil export --to landlock CANDIDATE" "$vigil" export --to landlock -o $w/ll $w/cand.policy
ll=$w/ll/$(echo "${rs#/}" | tr / .).landlock.json
t_is "redis-server under Landlock, fresh data: same output" \
	"$(rd_work "$vigil" run --landlock "$ll" --)" "$want_fresh"
t_is "its /etc/shadow read: refused by Landlock" \
	"$(rd_shadow "$vigil" run --landlock "$ll" --)" "Permission denied"

umount /etc/shadow
rm -rf $t
t_done
