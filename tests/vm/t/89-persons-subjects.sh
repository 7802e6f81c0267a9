# Bounds by person, not by uid (docs/kernel.md): a local user holds many
# uids (a few accounts, or the 65,536 subordinate uids useradd gives it),
# and the attack here is made by a range of them (setpriv).
# Subjects: 8 uids keep 520 programs alive each (a uid's share is 512 of
# the 4096 subjects); before, together they filled the pool and a service
# account's new program became "?". Now unprivileged persons together
# fill 3/4 of it: the service account's and root's programs get their own.
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/ps
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

# 1. Subjects: 8 uids keep 520 programs alive each (their share is 512 of
# the 4096 subjects); before, they filled the pool and a service account's
# new program became "?".
echo 32768 > $VIGIL_FS/table_kb	# their tuples keep their subjects alive (slab bytes)
printf 'void _start(void) { __asm__ volatile("mov $60, %%eax; xor %%edi, %%edi; syscall"); }\n' > $d/exit.c
cc -O2 -static -nostdlib -o $d/exit $d/exit.c
folded0=$(vigil_stat subjects.folded)
t0=$(date +%s)
for u in $(seq 74001 74008); do
	mkdir -p $d/s$u
	cp $d/exit $d/s$u/x0
	chown -R $u:$u $d/s$u
	asuid $u "$probe" execs $d/s$u 520 - > $d/s$u.out &
done
wait
t_diag "8 x 520 execs in $(( $(date +%s) - t0 )) s, subjects $(vigil_stat subjects), folded $(( $(vigil_stat subjects.folded) - folded0 ))"
t_ok "8 uids ran 520 distinct programs each" \
	test "$(cat $d/s740*.out | awk '{ s += $1 } END { print s }')" -ge 4000
t_ok "they were held to their bound: some of their programs share ?" \
	test "$(( $(vigil_stat subjects.folded) - folded0 ))" -gt 300
mkdir -p $d/svc
cp $d/exit $d/svc/x0
chown -R 998:998 $d/svc
t_is "a service account (998) runs a new program" "$(asuid 998 "$probe" execs $d/svc 1 -)" 1
t_is "it has its own subject" "$(grep -c " $d/svc/x0 [^ ]*\$" $VIGIL_FS/subjects)" 1
mkdir -p $d/root
cp $d/exit $d/root/x0
t_is "root runs a new program" "$("$probe" execs $d/root 1 -)" 1
t_is "it has its own subject" "$(grep -c " $d/root/x0 [^ ]*\$" $VIGIL_FS/subjects)" 1
# Their tuples go, and their subjects with them.
cat $VIGIL_FS/learned > /dev/null
echo 16 > $VIGIL_FS/table_kb

echo "$kb0" > $VIGIL_FS/table_kb
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
