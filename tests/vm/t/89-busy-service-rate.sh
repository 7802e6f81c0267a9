# A busy legitimate service loses nothing to the bounds: a non-root
# service account makes 1,800 new accesses at once, past its record rate
# (1000 at once, then 100 a second). Before, the rest was only held back
# in the table, to be found by a separate vigil snapshot (or dropped once
# its share was all held back); now the kernel releases them as its rate
# refills, so every access reaches the log and the database, and nothing
# is dropped.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
d=/tmp/vigil-t/89b
rm -rf $d
mkdir -p $d/svc
chmod 755 /tmp/vigil-t $d
chown 999:999 $d/svc
export VIGIL_DB=$d/vigil.db
probe=$VIGIL_PROBE

vigil_mode learn
# Only vigil's records, no syscall records joined to them, as in 86-flood.
auditctl -a task,never > /dev/null
trap 'auditctl -d task,never > /dev/null 2>&1' EXIT
cat $VIGIL_FS/learned > /dev/null
dropped0=$(vigil_stat records.dropped)
released0=$(vigil_stat records.released)
sleep 10	# all users' record rate refills after earlier tests
t0=$(date +%s)
t_ok "the service makes 600 files and reads each" \
	setpriv --reuid=999 --regid=999 --clear-groups "$probe" opens $d/svc 600
held=$(vigil_stat uid.999.held)
t_diag "in $(( $(date +%s) - t0 )) s: held $held, released $(vigil_stat uid.999.released)"
t_ok "some were held back, over its rate ($held)" test "$held" -gt 500
for i in $(seq 60); do
	[ "$(vigil_stat table.held)" = 0 ] && break
	sleep 1
done
t_diag "all released after $(( $(date +%s) - t0 )) s"
t_is "none waits in the table" "$(vigil_stat table.held)" 0
t_ok "a sentinel record after them reached the log" vigil_sentinel /usr/bin/cat 30
t_ok "those held back were released by the kernel" \
	test "$(( $(vigil_stat records.released) - released0 ))" -ge "$held"
t_is "none was dropped" "$(( $(vigil_stat records.dropped) - dropped0 ))" 0
want=$(grep -aEc " 999 0 [^ ]+ $d/svc/f[0-9]+ " $VIGIL_FS/learned)
pat="uid=999 .* path=\"$d/svc/f[0-9]+\""
t_ok "the table holds its accesses ($want)" test "$want" -ge 1800
# The kernel emits the released records from its own context: auditd may
# write the last of them after the sentinel (6.12, two boots at once: 1,496
# of 1,800 at the sentinel, all 1,800 ingested a moment later). Wait for them.
logged() { vigil_lines "$pat" | grep -ao ' seq=[0-9]*' | sort -u | wc -l; }
for _ in $(seq 60); do
	[ "$(logged)" -ge "$want" ] && break
	sleep 0.5
done
t_is "every one reached the log" "$(logged)" "$want"
t_ok "a released record says when it was first seen" \
	vigil_wait "uid=999 .* released=1 first=[0-9]+" 1
t_ok "vigil ingest" "$vigil" ingest
t_is "the database has them all" \
	"$(sqlite3 $VIGIL_DB "select count(distinct seq) from records where uid = 999 and object like '$d/svc/f%'")" "$want"
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
