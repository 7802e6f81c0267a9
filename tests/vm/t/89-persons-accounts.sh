# Bounds by person, not by uid (docs/kernel.md): a local user holds many
# uids (a few accounts, or the 65,536 subordinate uids useradd gives it),
# and the attack here is made by a range of them (setpriv).
# Uid accounts: 1100 uids make one access each; before, every uid past
# the 1024th shared one account for good, and a flooder in it starved a
# service started later. Empty accounts are now reclaimed: a new uid gets
# its own, and its accesses are recorded while another uid floods.
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/pa
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

# 5. Uid accounts: 1100 uids make one access each; their tuples go; then a
# new uid gets an account of its own, not the one all uids past 1024
# shared, and its accesses are all recorded while another floods.
mkdir -p $d/e
chmod 1777 $d/e
t0=$(date +%s)
# One child per uid that drops to it (as setpriv does, without two execs
# a uid: 1100 setpriv+mkdir took 219 s under TCG).
t_is "1100 uids made a folder each" "$("$probe" uids $d/e 80001 1100)" 1100
t_diag "1100 uids in $(( $(date +%s) - t0 )) s: $(vigil_stat table.persons) accounts"
cat $VIGIL_FS/learned > /dev/null
echo 16 > $VIGIL_FS/table_kb
echo 4096 > $VIGIL_FS/table_kb
sleep 2
mkdir -p $d/f $d/g
chown 82001:82001 $d/f
chown 82002:82002 $d/g
asuid 82002 "$probe" mkdirs $d/g 2000 &
flood=$!
sleep 3
asuid 82001 "$probe" opens $d/f 5
wait $flood
t_ok "a sentinel record reached the log" vigil_sentinel /usr/bin/cat 60
t_ok "the new uid has an account of its own" grep -q '^uid\.82001\.tuples ' $VIGIL_FS/stats
t_ok "empty accounts were reclaimed ($(vigil_stat table.persons_reclaimed))" \
	test "$(vigil_stat table.persons_reclaimed)" -gt 0
t_is "all its 5 opens were recorded while another uid flooded" \
	"$(vigil_count "op=open access=r uid=82001 .* path=\"$d/f/f[0-9]+\"")" 5

echo "$kb0" > $VIGIL_FS/table_kb
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
