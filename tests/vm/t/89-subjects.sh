# Subjects cannot be exhausted by an unprivileged user: thousands of failed
# execs of distinct names leave nothing behind, a uid that keeps its
# subjects alive is held to its share (its later programs share "?"), and
# another user's, a set-user-ID program's and root's new programs still
# get their own subject; while vigil is off, no exec interns one.
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/89s
mkdir -p $d/junk $d/real $d/other $d/root
chmod 755 /tmp/vigil-t $d
asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
probe=$VIGIL_PROBE
max=4096	# vigil.max_subjects, the default
share=$((max / 8))

vigil_mode learn
before=$(vigil_stat subjects)
folded0=$(vigil_stat subjects.folded)

# 1. Failed execs (not an executable format) of 5000 distinct names.
printf 'not a program\n' > $d/junk/x0
chmod 755 $d/junk/x0
chown -R 65534:65534 $d/junk
t_is "nobody tried 5000 execs of distinct names, all failed" \
	"$(asuser "$probe" execs $d/junk 5000 -fail)" 5000
after=$(vigil_stat subjects)
t_ok "no subject was left behind by them ($before before, $after after)" \
	test "$after" -le "$((before + 20))"
t_is "and none of them was folded into ?" "$(vigil_stat subjects.folded)" "$folded0"

# 2. Real execs whose subjects stay alive (their tuples name them). The
# failed execs' tuples (one per name) may fill nobody's share of the table
# with tuples whose record was held back: a read of the table (as vigil
# snapshot does) lets them go.
cat $VIGIL_FS/learned > /dev/null
# A program that only exits: the cheapest exec there is.
printf 'void _start(void) { __asm__ volatile("mov $60, %%eax; xor %%edi, %%edi; syscall"); }\n' > $d/exit.c
t_ok "a static program that only exits builds" \
	cc -O2 -static -nostdlib -o $d/exit $d/exit.c
cp $d/exit $d/real/x0
chown -R 65534:65534 $d/real
n=$((share + 100))
t_is "nobody ran $n distinct names of a real program" \
	"$(asuser "$probe" execs $d/real $n -)" $n
folded=$(( $(vigil_stat subjects.folded) - folded0 ))
t_ok "nobody was held to its share: $folded of its execs share ? (>= 100)" \
	test "$folded" -ge 100
t_ok "but no more than beyond its share ($folded <= $((n - share + 20)))" \
	test "$folded" -le "$((n - share + 20))"
last=$d/real/x$((n - 1))
t_is "its last program has no subject of its own" \
	"$(grep -c " $last [^ ]*\$" $VIGIL_FS/subjects)" 0

# 3. Others still get theirs.
cp $d/exit $d/other/x0
chown -R 65533:65533 $d/other
t_is "another user (65533) runs a new program" \
	"$(setpriv --reuid=65533 --regid=65533 --clear-groups "$probe" execs $d/other 1 -)" 1
t_is "it has its own subject" "$(grep -c " $d/other/x0 [^ ]*\$" $VIGIL_FS/subjects)" 1
cp $d/exit $d/root/x0
t_is "root runs a new program" "$("$probe" execs $d/root 1 -)" 1
t_is "it has its own subject" "$(grep -c " $d/root/x0 [^ ]*\$" $VIGIL_FS/subjects)" 1
t_ok "its exec by the probe and its own mapping are recorded under its name" \
	vigil_wait "uid=0 exe=\"$d/root/x0\""
ln -f /usr/bin/chfn $d/chfn 2>/dev/null || cp -p /usr/bin/chfn $d/chfn
chmod 4755 $d/chfn
asuser $d/chfn --help > /dev/null 2>&1
t_is "nobody's exec of a set-user-ID root program gets its own subject" \
	"$(grep -c " $d/chfn [^ ]*\$" $VIGIL_FS/subjects)" 1

# 4. Subjects go when their last tuple does. Reading the table first (as
# vigil snapshot does) lets go of the tuples whose record was held back.
cat $VIGIL_FS/learned > /dev/null
kb0=$(cat $VIGIL_FS/table_kb)
echo 16 > $VIGIL_FS/table_kb
echo "$kb0" > $VIGIL_FS/table_kb
sleep 1	# the tuples' RCU grace period
t_ok "after the table was emptied, nobody's subjects were freed ($(vigil_stat subjects))" \
	test "$(vigil_stat subjects)" -lt "$((before + share / 2))"
# 5. While vigil is off nothing is interned. A shell started while off has
# no subject: once learning is on, its own open is not seen (restart it),
# while the same shell started after is. Then, off again, nobody's 600
# execs of distinct names leave the subject count where it was.
mkdir -p $d/off
cp /usr/bin/dash $d/off/sh
echo data > $d/off/secret
vigil_mode off
$d/off/sh -c "while [ ! -e $d/off/go ]; do sleep 0.1; done; : < $d/off/secret; : > $d/off/done" &
sleep 1
t_is "a program started while vigil is off has no subject" \
	"$(grep -c " $d/off/sh [^ ]*\$" $VIGIL_FS/subjects)" 0
vigil_mode learn
touch $d/off/go
wait
t_ok "it ran to its end once learning was on" test -e $d/off/done
$d/off/sh -c ": < $d/off/secret"
t_ok "the same program started with learning on: its open is recorded" \
	vigil_wait "op=open access=r .*exe=\"$d/off/sh\" path=\"$d/off/secret\""
t_is "only once: the one started while off made no record" \
	"$(vigil_count "op=open access=r .*exe=\"$d/off/sh\" path=\"$d/off/secret\"")" 1
vigil_mode off
s0=$(vigil_stat subjects)
t_is "vigil off: nobody's 600 execs of distinct names" \
	"$(asuser "$probe" execs $d/real 600 -)" 600
t_ok "interned no subject ($s0 before, $(vigil_stat subjects) after)" \
	test "$(vigil_stat subjects)" -le "$s0"
vigil_mode learn

t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
