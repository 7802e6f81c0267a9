# A partial read of the learned file unpins only what it delivered.
# With auditd stopped, nobody (uid 65534) opens 300 new files: audit loses
# their records, so vigil keeps each tuple pinned until a snapshot reads
# it (nothing else records it). Root then reads the learned file up to
# one of nobody's files, reads part of the next line (80 bytes) and closes
# the file; three times, each followed by a flood. Before, seq_file's
# next() unpinned each line it buffered, copied out or not: the cut tuple
# went first at the next eviction, so root's flood of first sightings
# evicted it and neither the log nor any later snapshot ever had it. Now a
# tuple is unpinned only once its line went to the reader whole: each cut
# tuple is read again after the flood.
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/89lp
mkdir -p $d/u $d/r
chmod 755 /tmp/vigil-t $d
chown 65534:65534 $d/u
probe=$VIGIL_PROBE

vigil_mode learn
vigil_settle
kb0=$(cat $VIGIL_FS/table_kb)
echo 8192 > $VIGIL_FS/table_kb
lost0=$(vigil_stat records.lost)
pinned0=$(vigil_stat table.pinned)
apid=$(cat /run/auditd.pid)
wait0=$(auditctl -s | awk '$1 == "backlog_wait_time" { print $2 }')
t_ok "auditctl --backlog_wait_time 0" auditctl --backlog_wait_time 0
kill -STOP $apid
auditctl -b 1 > /dev/null
t_ok "nobody opens 300 new files while auditd is stopped" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$probe" opens $d/u 300
auditctl -b 8192 > /dev/null
kill -CONT $apid
auditctl --backlog_wait_time "$wait0" > /dev/null
lost=$(( $(vigil_stat records.lost) - lost0 ))
pinned=$(( $(vigil_stat table.pinned) - pinned0 ))
t_ok "audit lost nobody's records, their tuples are pinned ($lost lost, $pinned pinned)" \
	test "$lost" -ge 600 -a "$pinned" -ge 600

# Three rounds: root reads up to nobody's file N, reads part of the next
# line and closes the file; root's first sightings then evict every tuple
# that may go, and a read must still find the cut one. (A later round's
# read passes the earlier cut whole: that one may go then.)
kept=0 gone="" ncut=0
for n in 50 150 250; do
	part=$(python3 - "$VIGIL_FS/learned" "$d/u/f$n " <<'PY'
import os, sys
learned, mark = sys.argv[1], sys.argv[2].encode()
fd = os.open(learned, os.O_RDONLY)
data = b""
while mark not in data:
    chunk = os.read(fd, 4096)
    if not chunk:
        sys.exit("learned ended before " + mark.decode())
    data += chunk
# seq_file's buffer is empty after a 4096-byte read: a new line.
part = os.read(fd, 80)
os.close(fd)
f = part.split(b" ")
# seq verdict op access count first last uid ...
print("whole" if b"\n" in part or len(f) < 9 else
      f[0].decode() + " " + f[7].decode())
PY
)
	set -- $part
	t_is "a partial read after file $n cut one of nobody's lines ($part)" "$2" 65534
	[ "$2" = 65534 ] || continue
	ncut=$((ncut + 1))
	ev0=$(vigil_stat table.evictions)
	"$probe" mkdirs $d/r 20000 $((n * 1000))
	ev=$(( $(vigil_stat table.evictions) - ev0 ))
	t_ok "root's 40000 new folders then evicted tuples ($ev)" test "$ev" -gt 20000
	# Read only until the cut line: a whole read would pass (and let go)
	# the next round's tuples.
	if python3 - "$VIGIL_FS/learned" "$1" <<'PY'
import os, sys
learned, seq = sys.argv[1], sys.argv[2].encode()
fd = os.open(learned, os.O_RDONLY)
data = b""
while True:
    chunk = os.read(fd, 4096)
    if not chunk:
        sys.exit(1)
    data += chunk
    for line in data.split(b"\n")[:-1]:
        f = line.split(b" ")
        if f[0] == seq and len(f) > 8 and f[7] == b"65534":
            sys.exit(0)
    data = data[data.rfind(b"\n") + 1:]
PY
	then
		kept=$((kept + 1))
	else
		gone="$gone $1"
	fi
done
t_is "every cut tuple is read again after the flood ($kept of $ncut; lost:${gone:- none})" \
	"$kept" 3

echo "$kb0" > $VIGIL_FS/table_kb
rm -rf $d
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
