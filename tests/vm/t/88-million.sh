# Loss accounting with a large backlog: N distinct accesses (default a
# million, VIGIL_MILLION) with auditctl -b 8192 lose nothing: the socket
# hooks may sleep, so a full backlog makes the task wait for auditd. auditd runs
# with its usual configuration (rotate at 8 MB, keep 5 files), so vigil
# ingest runs alongside and follows the rotations; at the end the rows
# ingested equal the records vigil emitted and their seq numbers have no
# gap.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
n=${VIGIL_MILLION:-1000000}
d=/tmp/vigil-t/88
mkdir -p $d
export VIGIL_DB=$d/88.db
rm -f $VIGIL_DB*
probe=$(vigil_subject vigil-probe "$VIGIL_PROBE")

# auditd <ARGS>: restart auditd (the guest's /etc is read-only).
restart_auditd() {
	local pid
	pid=$(cat /run/auditd.pid)
	kill -CONT "$pid" 2> /dev/null
	kill -TERM "$pid"
	for _ in $(seq 100); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
	kill -KILL "$pid" 2> /dev/null
	# The kernel keeps a dying auditd registered until it has exited: a new
	# one started before then cannot register and exits, and every later
	# record goes to the kernel log instead (the backlog then reads 0).
	for _ in $(seq 300); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
	rm -f /run/auditd.pid
	[ -z "${FRESH_LOG:-}" ] || rm -f /var/log/audit/audit.log*
	auditd "$@"
	for _ in $(seq 50); do
		[ -s /run/auditd.pid ] && [ "$(audit_pid)" = "$(cat /run/auditd.pid)" ] && break
		sleep 0.1
	done
}
# audit_pid: the pid the kernel sends records to (0: none, to the kernel log).
audit_pid() { auditctl -s | awk '$1 == "pid" { print $2 }'; }
mkdir -p $d/conf
sed -e 's/^max_log_file *=.*/max_log_file = 32/' \
	-e 's/^max_log_file_action *=.*/max_log_file_action = keep_logs/' \
	/etc/audit/auditd.conf > $d/conf/auditd.conf
chmod 0640 $d/conf/auditd.conf
restart_auditd -c $d/conf
t_ok "auditd runs with keep_logs (pid $(audit_pid))" \
	test "$(audit_pid)" = "$(cat /run/auditd.pid 2> /dev/null)"

vigil_mode learn
auditctl -b 8192 > /dev/null
# Only vigil's records, no syscall records joined to them (tasks started
# from now on get no audit context), as an admin learning at scale would:
# 5x fewer records for auditd to write under TCG.
auditctl -a task,never > /dev/null
vigil_settle
# Counters from one reading of stats each time, so that they agree:
# every numbered sighting (seq) was emitted, lost or held back.
st=$(cat $VIGIL_FS/stats)
sv() { echo "$st" | awk -v k="$1" '$1 == k { print $2 }'; }
e0=$(sv records.emitted) l0=$(sv records.lost) h0=$(sv records.held) s0=$(sv records.seq)
a0=$(audit_lost)
# The ingest follows auditd's rotations while the accesses run; once told
# to stop it runs a last time. Each run's exit status is kept.
(
	while :; do
		last=0
		[ -e $d/stop ] && last=1
		rc=0
		"$vigil" ingest > $d/ingest.out 2>> $d/ingest.err || rc=$?
		echo "$rc" >> $d/ingest.rcs
		[ $last = 1 ] && break
		sleep 3
	done
) &
ingester=$!
t0=$(date +%s%N)
t_ok "$n distinct accesses (UDP connects to distinct addresses)" "$probe" connects "$n"
t1=$(date +%s%N)
vigil_settle
# Every record up to here is in the log before the last background run.
st=$(cat $VIGIL_FS/stats)
s_stop=$(sv records.seq) l_stop=$(sv records.lost) h_stop=$(sv records.held)
touch $d/stop
wait $ingester
vigil_settle
runs=$(wc -l < $d/ingest.rcs)
t_ok "the background ingest ran during the accesses ($runs runs)" test "$runs" -ge 2
t_is "every background ingest exited 0" "$(sort -u $d/ingest.rcs | paste -sd,)" 0
# The counters now; the final ingest's own first sightings come after.
st=$(cat $VIGIL_FS/stats)
emitted=$(( $(sv records.emitted) - e0 ))
lost=$(( $(sv records.lost) - l0 ))
held=$(( $(sv records.held) - h0 ))
s1=$(sv records.seq)
alost=$(( $(audit_lost) - a0 ))
# What the background runs alone stored: every record written before
# their last run, across the rotations (the last run's own accesses come
# after s_stop, for the final ingest).
bg_rows=$(sqlite3 $VIGIL_DB "SELECT count(DISTINCT seq) FROM records WHERE seq > $s0 AND seq <= $s_stop")
if [ "$n" -ge 500000 ]; then
	t_ok "auditd rotated its log while the ingest ran ($(ls /var/log/audit | wc -l) files)" \
		test "$(ls /var/log/audit | wc -l)" -gt 1
else
	_t_n=$((_t_n + 1))
	echo "ok $_t_n - $_t_file: auditd rotated its log while the ingest ran # SKIP $n accesses fill less than one 32 MB log"
fi
t_is "the background ingests followed every rotation (records up to seq $s_stop)" \
	"$bg_rows" "$((s_stop - s0 - (l_stop - l0) - (h_stop - h0)))"
t_ok "final vigil ingest" "$vigil" ingest
t_diag "$n accesses in $(( (t1 - t0) / 1000000 )) ms; emitted $emitted; table evictions $(vigil_stat table.evictions); audit logs $(ls /var/log/audit | wc -l)"
# The probe's connects wait for audit when the backlog is full: none may be
# lost. Hooks that never wait (file_open, under a full backlog; issue 14)
# may lose a record of another program's; each is counted by vigil and
# by audit, and stays in the table for a snapshot.
t_diag "vigil lost $lost, held $held, audit lost $alost in the window"
probe_rows=$(sqlite3 $VIGIL_DB "SELECT count(*) FROM records WHERE exe = '$probe' AND op = 'connect' AND seq > $s0 AND seq <= $s1")
t_ok "every one of the probe's $n distinct connects has its record in the database ($probe_rows)" \
	test "$probe_rows" -ge "$n"
t_ok "vigil lost no more than audit dropped ($lost <= $alost)" test "$lost" -le "$alost"
t_ok "every distinct access was emitted ($emitted >= $n)" test "$emitted" -ge "$n"
rows=$(sqlite3 $VIGIL_DB "SELECT count(*) FROM records WHERE seq > $s0 AND seq <= $s1")
t_is "rows ingested equal records emitted" "$rows" "$emitted"
t_is "every numbered sighting is a row, or counted lost or held back" \
	"$(sqlite3 $VIGIL_DB "SELECT count(DISTINCT seq) FROM records WHERE seq > $s0 AND seq <= $s1")" \
	"$((s1 - s0 - lost - held))"
t_is "the ingest reported no error" "$(cat $d/ingest.err)" ""
# The contrast, for the record: creating files goes through path_mknod,
# which runs under the directory's lock and never waits for audit.
l0=$(vigil_stat records.lost) a0=$(audit_lost) e0=$(vigil_stat records.emitted)
mkdir -p $d/files
"$probe" opens $d/files 50000
vigil_settle
t_diag "50000 files created then opened: emitted $(( $(vigil_stat records.emitted) - e0 )), vigil lost $(( $(vigil_stat records.lost) - l0 )) (create records never wait), audit lost $(( $(audit_lost) - a0 ))"
# Removing what this test made is not an access to learn: in learn mode
# the 50,000 unlinks are as many first sightings, minutes of records for
# auditd to write after this test ends, and the next test's records would
# wait behind them (89-chain and 89-coverage timed out on 6.12 in CI).
vigil_mode off
rm -rf $d/files
vigil_mode learn
auditctl -d task,never > /dev/null
# The next tests count records in audit.log: they get a fresh one, or the
# ~200 MB of this test's make auditd rotate in the middle of their counts.
FRESH_LOG=1 restart_auditd
# And an empty backlog: what the kernel queued while auditd restarted is
# drained first, or the next tests' records from hooks that never wait
# (89-coverage's mprotect) are dropped by a full backlog.
backlog() { auditctl -s | awk '$1 == "backlog" { print $2 }'; }
for _ in $(seq 300); do
	[ "$(backlog)" -lt 64 ] && break
	sleep 0.2
done
t_ok "the audit backlog is drained for the next tests ($(backlog) queued)" \
	test "$(backlog)" -lt 64
t_ok "auditd is registered again for the next tests (pid $(audit_pid))" \
	test "$(audit_pid)" = "$(cat /run/auditd.pid 2> /dev/null)"
auditctl -m "vigil-88 auditd restarted" > /dev/null
in_log() {
	for _ in $(seq 200); do grep -qa "$1" "$AUDIT_LOG" && return 0; sleep 0.1; done
	return 1
}
t_ok "and writes its log" in_log "vigil-88 auditd restarted"
vigil_mode off
rm -rf $d
vigil_mode learn
t_done
