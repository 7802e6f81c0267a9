# Bounds by person, not by uid (docs/kernel.md): a local user holds many
# uids (a few accounts, or the 65,536 subordinate uids useradd gives it),
# and the attack here is made by a range of them (setpriv).
# Pins: 3 uids flood first sightings past their rate (held back, so
# pinned) with a 512 KiB table, then audit loses root's records. Before,
# two uids' pins took the whole pin budget (half the table) and root's
# lost tuples were evicted unseen; now unprivileged pins stop at 7/8.
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/pp
rm -rf $d
mkdir -p $d
chmod 755 /tmp/vigil-t $d
probe=$VIGIL_PROBE
asuid() { u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
vigil_mode learn
# Only vigil's records, no syscall records joined to them (tasks started
# from now on get no audit context), as in 86-flood: under TCG auditd
# does not keep up with a syscall event for each record.
auditctl -a task,never > /dev/null
trap 'auditctl -d task,never > /dev/null 2>&1' EXIT
kb0=$(cat $VIGIL_FS/table_kb)
# Earlier tests' held-back tuples are released or shown: a clean start.
cat $VIGIL_FS/learned > /dev/null

# 2. Pins: 3 uids flood first sightings past their rate (held back, so
# pinned) with a 512 KiB table; then audit loses 200 of root's records.
# Before, two uids' pins took the whole pin budget (half the table): root's
# lost tuples found no pin and were evicted unseen.
echo 512 > $VIGIL_FS/table_kb
for u in 75001 75002 75003; do
	mkdir -p $d/p$u
	chown $u:$u $d/p$u
	asuid $u "$probe" mkdirs $d/p$u 800 &
done
wait
t_diag "pinned $(vigil_stat table.pinned_bytes) bytes, unprivileged $(vigil_stat table.pinned_unprivileged_bytes), dropped $(vigil_stat uid.75001.dropped)+$(vigil_stat uid.75002.dropped)+$(vigil_stat uid.75003.dropped)"
t_ok "their pins are at most 7/8 of the pin budget" \
	test "$(vigil_stat table.pinned_unprivileged_bytes)" -le $((512 * 1024 / 2 * 7 / 8))
refused0=$(vigil_stat table.pin_refused)
lost0=$(vigil_stat records.lost)
mkdir -p $d/r
apid=$(cat /run/auditd.pid)
wait0=$(auditctl -s | awk '$1 == "backlog_wait_time" { print $2 }')
auditctl --backlog_wait_time 0 > /dev/null
kill -STOP $apid
auditctl -b 1 > /dev/null
"$probe" opens $d/r 100
auditctl -b 8192 > /dev/null
kill -CONT $apid
auditctl --backlog_wait_time "$wait0" > /dev/null
lost=$(( $(vigil_stat records.lost) - lost0 ))
t_ok "audit lost root's records ($lost)" test "$lost" -ge 100
t_is "every lost tuple of root's found a pin" \
	"$(( $(vigil_stat table.pin_refused) - refused0 ))" 0
t_ok "root's 2800 new connects turn the table over" "$probe" connects 2800 1000
vigil_settle
t_ok "and root's 100 files are still in the table: $(grep -ac " open r .* $d/r/f[0-9]* " $VIGIL_FS/learned)" \
	test "$(grep -ac " open r .* $d/r/f[0-9]* " $VIGIL_FS/learned)" -ge 100
cat $VIGIL_FS/learned > /dev/null
echo 16 > $VIGIL_FS/table_kb

echo "$kb0" > $VIGIL_FS/table_kb
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
