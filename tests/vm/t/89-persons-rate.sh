# Bounds by person, not by uid (docs/kernel.md): a local user holds many
# uids (a few accounts, or the 65,536 subordinate uids useradd gives it),
# and the attack here is made by a range of them (setpriv).
# The record rate: 9 uids flood at once. Before, each had its own
# 1000-record burst (9 x 1,000 records at once: kauditd dropped records);
# now all unprivileged persons together record 2000, then 200 a second.
# And subordinate uids written to the owners file (as /etc/subuid gives
# them) are charged to their owner: one account, one person's rate.
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/pr
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

# 3. The record rate: 9 uids flood at once. Before, each had its own
# 1000-record burst: 9,000 records at once, past what audit keeps.
echo 4096 > $VIGIL_FS/table_kb
alost0=$(audit_lost)
lost0=$(vigil_stat records.lost)
t0=$(date +%s)
for u in $(seq 76001 76009); do
	mkdir -p $d/q$u
	chown $u:$u $d/q$u
	asuid $u "$probe" mkdirs $d/q$u 600 &
done
wait
t_ok "a sentinel record after the flood reached the log" vigil_sentinel /usr/bin/cat 60
n=$(vigil_count "uid=7600[1-9] ")
bound=$((2000 + 200 * ($(date +%s) - t0 + 2)))
t_ok "9 uids together recorded within all users' rate: $n <= $bound" test "$n" -le "$bound"
t_ok "and more than one uid's burst ($n)" test "$n" -gt 1000
t_is "vigil lost no record" "$(( $(vigil_stat records.lost) - lost0 ))" 0
t_is "audit lost no record" "$(( $(audit_lost) - alost0 ))" 0
t_ok "their first sightings past it were held back" \
	test "$(( $(vigil_stat uid.76001.held) + $(vigil_stat uid.76009.held) ))" -gt 0

# 4. Subordinate uids: 200001..200009 are user 77000's (as /etc/subuid
# would say): charged to it, they share one account and one rate.
t_ok "root writes the owners file" sh -c "echo '200000 65536 77000' > $VIGIL_FS/owners"
t_is "it reads back" "$(cat $VIGIL_FS/owners)" "200000 65536 77000"
t_fails "a range holding its owner is refused" sh -c "echo '200000 65536 200001' > $VIGIL_FS/owners"
t_fails "nobody may write it" asuid 65534 sh -c "echo '' > $VIGIL_FS/owners"
t_is "and the map is unchanged" "$(cat $VIGIL_FS/owners)" "200000 65536 77000"
sleep 10	# all users' rate refills after the last flood
t0=$(date +%s)
for u in $(seq 200001 200009); do
	mkdir -p $d/o$u
	chown $u:$u $d/o$u
	asuid $u "$probe" mkdirs $d/o$u 400 &
done
wait
t_ok "a sentinel record after the flood reached the log" vigil_sentinel /usr/bin/cat 60
n=$(vigil_count "uid=20000[1-9] ")
bound=$((1000 + 100 * ($(date +%s) - t0 + 2)))
t_ok "its 9 uids recorded within one person's rate: $n <= $bound" test "$n" -le "$bound"
t_ok "one account, its owner's (uid.77000)" test "$(vigil_stat uid.77000.held)" -gt 0
t_is "none of its own" "$(grep -c '^uid\.20000[1-9]\.' $VIGIL_FS/stats)" 0
echo > $VIGIL_FS/owners

echo "$kb0" > $VIGIL_FS/table_kb
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
