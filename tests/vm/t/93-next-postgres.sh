# A busy non-root service learnt without loss, and a policy that holds on
# the next run (issues 25 §5-6 and 24 §6), on Debian's PostgreSQL: as its
# own account (postgres, a system uid), initdb creates a cluster (some
# 1,000 files in seconds, past the account's record rate: held back, then
# released by the kernel), the server starts, works (a sort that spills to
# base/pgsql_tmp/pgsql_tmp<pid>.N, a checkpoint), stops, restarts on the
# same tree and stops again; each start names its dynamic shared memory
# /dev/shm/PostgreSQL.<random>. Learnt over two such lives, generated,
# tried in vigil's observe mode and AppArmor's complain mode on a third
# (a new cluster: every file created again, new pids and names), made
# whole with generate --update where the trial was not clean, exported
# and enforced with AppArmor on a fourth: the same output as unconfined,
# 0 denials; the variant that reads /etc/shadow (pg_read_file) is caught
# by the trial and refused by AppArmor.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
w=/tmp/vigil-t/$_t_file
rm -rf $w
mkdir -p $w
export VIGIL_DB=$w/vigil.db
bin=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1)
pgs=$bin/postgres
if [ ! -x "$pgs" ] || ! id postgres > /dev/null 2>&1; then
	t_ok "postgresql is installed (scripts/install-deps)" false
	t_done
	exit
fi
# its data where a database keeps it (/var/lib is a tmpfs in the guest)
t=/var/lib/t93p
rm -rf $t
mkdir -p $t/sock
chown -R postgres:postgres $t
uid=$(id -u postgres)
as_pg() { (cd / && setpriv --reuid=postgres --regid=postgres --init-groups "$@"); }
sql() { as_pg "$bin/psql" -X -q -A -t -h $t/sock -U postgres -d postgres -c "$1" 2>&1; }
pg_start() {
	as_pg "$bin/pg_ctl" -D $t/data -l $t/pg.log -w -t 120 \
		-o "-k $t/sock -c listen_addresses=''" start > /dev/null 2>&1 ||
		echo "postgres did not start: $(tail -n 3 $t/pg.log)"
}
pg_stop() { as_pg "$bin/pg_ctl" -D $t/data -w -t 120 stop > /dev/null 2>&1; }
# pg_work [SWITCHES]: one life of a cluster, from an empty tree, its
# write-ahead log switched to a new segment SWITCHES times (default 2:
# segment names are numbers that grow, as a busy server's do); prints what
# the restarted server saw.
pg_work() {
	local i
	rm -rf $t/data
	as_pg "$bin/initdb" -D $t/data --no-sync -A trust -U postgres \
		> $t/initdb.log 2>&1 || { echo "initdb failed: $(tail -n 3 $t/initdb.log)"; return; }
	pg_start
	sql "CREATE TABLE t (a int); INSERT INTO t SELECT generate_series(1, 20000); CHECKPOINT;" > /dev/null
	for i in $(seq "${1:-2}"); do
		sql "INSERT INTO t SELECT 0; SELECT pg_switch_wal(); CHECKPOINT;" > /dev/null
	done
	sql "DELETE FROM t WHERE a = 0" > /dev/null
	pg_stop
	pg_start
	# work_mem 64kB: the sort spills to base/pgsql_tmp/pgsql_tmp<pid>.N
	echo "rows $(sql "SET work_mem = '64kB'; SELECT count(*) FROM (SELECT a FROM t ORDER BY a DESC) s;" | tail -n 1)," \
		"max $(sql 'SELECT max(a) FROM t')"
	pg_stop
}
# the variant that reads a secret (its server as a superuser asks)
pg_shadow() {
	pg_start
	sql "SELECT pg_read_file('/etc/shadow', 0, 4)" | grep -o 'Permission denied\|^root' | head -n 1
	pg_stop
}

# /etc/shadow readable by all, so that only the MAC decides
cp /etc/shadow $w/shadow-copy
chmod 644 $w/shadow-copy
mount --bind $w/shadow-copy /etc/shadow

# ---- 1. learn over two lives -----------------------------------------------------
vigil_mode learn
cat $VIGIL_FS/learned > /dev/null
dropped0=$(vigil_stat records.dropped)
held0=$(vigil_stat uid.$uid.held)
held0=${held0:-0}
for i in 1 2; do
	want=$(pg_work)
done
t_is "postgres while learning (unconfined)" "$want" "rows 20000, max 20000"
t_is "its secret variant unconfined: /etc/shadow read" "$(pg_shadow)" "root"
held=$(( $(vigil_stat uid.$uid.held) - held0 ))
t_diag "postgres (uid $uid): $held accesses held back over its record rate"
for _ in $(seq 120); do
	[ "$(vigil_stat table.held)" = 0 ] && break
	sleep 1
done
t_is "none waits in the table: the kernel released what it held back" "$(vigil_stat table.held)" 0
t_is "none was dropped" "$(( $(vigil_stat records.dropped) - dropped0 ))" 0
t_ok "a sentinel record after them reached the log" vigil_sentinel /usr/bin/cat 30
t_ok "vigil ingest" "$vigil" ingest
# every access of the server the kernel's table holds is in the database
# (learned: seq verdict op access count first last uid mntns exe object via)
awk -v e="$pgs" '$10 == e { print $3, $4, $11 }' $VIGIL_FS/learned | sort -u > $w/k.acc
sqlite3 $VIGIL_DB "SELECT DISTINCT op || ' ' || access || ' ' || object FROM records WHERE exe = '$pgs'" | sort -u > $w/db.acc
t_diag "the server's accesses: $(wc -l < $w/k.acc) in the kernel's table, $(wc -l < $w/db.acc) in the database"
t_ok "the database has the server's accesses ($(wc -l < $w/db.acc) >= 300)" test "$(wc -l < $w/db.acc)" -ge 300
t_is "every one the kernel's table holds" "$(comm -23 $w/k.acc $w/db.acc | head -n 5 | tr '\n' ' ')" ""
shm=$(sqlite3 $VIGIL_DB "SELECT count(DISTINCT object) FROM records WHERE object LIKE '/dev/shm/PostgreSQL.%'")
t_ok "learning saw several /dev/shm/PostgreSQL.<random> names ($shm)" test "$shm" -ge 2
wal=$(sqlite3 $VIGIL_DB "SELECT count(DISTINCT object) FROM records WHERE object LIKE '$t/data/pg_wal/0000000100000000000000%'")
t_ok "learning saw the log's segments grow ($wal names)" test "$wal" -ge 3

# ---- 2. generate ---------------------------------------------------------------
t_ok "vigil generate" "$vigil" generate --subject $pgs -o $w/cand.policy
cp $w/cand.policy "$VIGIL_OUT/93p-cand.policy"
rules() { grep -v '^[[:space:]]*#' $w/cand.policy | grep -c -- "$1"; }
t_is "one glob over the shared memory's random number, its prefix kept" \
	"$(rules '^	file [a-z]* /dev/shm/PostgreSQL\.\*$') $(rules '/dev/shm/PostgreSQL\.[0-9]') $(rules '/dev/shm/\*')" "1 0 0"
t_is "the log's segments: one glob of their width, none literal" \
	"$(rules "^	file [a-z]* $t/data/pg_wal/?\{24\}\$") $(rules 'pg_wal/0000000[0-9]*$')" "1 0"
t_is "no literal pgsql_tmp<pid>" "$(rules 'pgsql_tmp[0-9]')" 0
t_ok "the learnt /etc/shadow read is marked sensitive" \
	sh -c "grep -B1 '^	file r /etc/shadow\$' $w/cand.policy | grep -q '^	# sensitive: it matches /etc/shadow'"
awk '/^\t#/ { c = c $0 "\n"; next } /^\tfile r \/etc\/shadow$/ { c = ""; next }
	{ printf "%s", c; c = ""; print }' $w/cand.policy > $w/cand.edited
mv $w/cand.edited $w/cand.policy
t_is "the review removed the /etc/shadow rule" "$(rules shadow)" 0
t_ok "the candidate loads (vigil load -n)" "$vigil" load -n $w/cand.policy
t_diag "candidate: $(grep -c '^	[a-z]* [^ ]* [^ ]*$' $w/cand.policy) rules, $(grep -c '^	# why:' $w/cand.policy) generalised: $(grep -A1 '^	# why:' $w/cand.policy | grep -v '^	#\|^--' | sed "s|$t|T|g" | tr '\n' ' ')"

# ---- 3. trial on a new cluster: vigil observe and AppArmor complain ---------------
t_ok "vigil load the candidate" "$vigil" load $w/cand.policy
t_ok "vigil mode observe" "$vigil" mode observe
t_ok "vigil trial --to apparmor" "$vigil" trial --to apparmor -o $w/aatrial $w/cand.policy
wd0=$(vigil_count 'verdict=would-deny')
t_is "postgres under observation, a new cluster, one more segment: same output" "$(pg_work 3)" "$want"
vigil_settle
wd=$(($(vigil_count 'verdict=would-deny') - wd0))
vigil_lines 'verdict=would-deny' | tail -n +$((wd0 + 1)) | head -n 20 | while read -r l; do t_diag "would-deny: $l"; done
t_ok "vigil ingest the new cluster's life" "$vigil" ingest
rc=0; "$vigil" trial --report $w/aatrial > $w/trial1.out 2>&1 || rc=$?
t_diag "trial on a new cluster: $wd vigil would-be denials; $(cat $w/trial1.out)"
# a trial that was not clean: the README's loop merges what it showed
if [ "$wd" != 0 ] || [ "$rc" != 0 ]; then
	t_ok "vigil generate --update (the trial was not clean)" \
		"$vigil" generate --subject $pgs --update $w/cand.policy
	cp $w/cand.policy "$VIGIL_OUT/93p-cand-updated.policy"
	t_is "the update took no /etc/shadow" "$(rules shadow)" 0
	t_ok "the updated candidate loads" "$vigil" load $w/cand.policy
	"$vigil" trial --stop $w/aatrial > /dev/null 2>&1
	t_ok "vigil trial --to apparmor (the updated candidate)" "$vigil" trial --to apparmor -o $w/aatrial $w/cand.policy
	wd0=$(vigil_count 'verdict=would-deny')
	t_is "postgres under observation again: same output" "$(pg_work 3)" "$want"
	vigil_settle
	wd=$(($(vigil_count 'verdict=would-deny') - wd0))
	"$vigil" ingest > /dev/null
	rc=0; "$vigil" trial --report $w/aatrial > $w/trial1.out 2>&1 || rc=$?
	t_diag "trial again: $wd vigil would-be denials; $(cat $w/trial1.out)"
fi
t_is "the trial on a new cluster is clean in both modes (exit 0)" "$rc $wd" "0 0"
pg_shadow > /dev/null
vigil_settle
t_is "the trial catches the /etc/shadow read" \
	"$(vigil_count "verdict=would-deny op=open access=r .*exe=\"$pgs\" path=\"/etc/shadow\"")" 1
"$vigil" ingest > /dev/null
rc=0; "$vigil" trial --stop $w/aatrial > $w/trial2.out 2>&1 || rc=$?
t_is "vigil trial --stop: the /etc/shadow read, in both modes (exit 1)" \
	"$rc $(grep -c 'open /etc/shadow (r)$' $w/trial2.out) $(grep -c 'open r /etc/shadow (1)$' $w/trial2.out)" "1 1 1"
t_diag "$(cat $w/trial2.out)"
vigil_mode learn
echo '# nothing' | dd of=$VIGIL_FS/policy status=none

# ---- 4. export that same file; enforce with AppArmor -----------------------------
t_ok "vigil export --to apparmor CANDIDATE" "$vigil" export --to apparmor -o $w/aa $w/cand.policy
prof=$w/aa/$(echo "${pgs#/}" | tr / .)
t_ok "apparmor_parser -r loads the profile" apparmor_parser -r -W -K "$prof"
s0=$(audit_serial)
t_is "postgres confined, a new cluster, four segments more: same output" "$(pg_work 4)" "$want"
t_is "its /etc/shadow read: refused by AppArmor" "$(pg_shadow)" "Permission denied"
vigil_settle
t_is "AppArmor denied only that read" \
	"$(audit_since $s0 'apparmor="DENIED"' | grep -c 'name="/etc/shadow"') $(audit_since $s0 'apparmor="DENIED"' | wc -l)" "1 1"
audit_since $s0 'apparmor="DENIED"' | head -n 20 | while read -r l; do t_diag "$l"; done
apparmor_parser -R "$prof" 2>/dev/null

umount /etc/shadow
rm -rf $t
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
