# Hostile writes to securityfs: each rejected with the right errno, the old
# state kept, nothing half-loaded, no kernel warning.
. "$(dirname "$0")/../lib.sh"

P=$VIGIL_FS/policy
good="subject /usr/bin/true observe {
	file r /etc/hostname
}"
vigil_load "$good"
dump=$(cat $P)
t_match "the good policy is loaded" "$dump" "^subject /usr/bin/true observe"
gen=$(vigil_stat policy.generation)

# write1 FILE: one write(2) of stdin, printing dd's error if any.
write1() { dd of="$1" bs=16M count=1 iflag=fullblock 2>&1 | grep -o 'error writing.*' || true; }

t_match "random bytes are refused" "$(head -c 4096 /dev/urandom | write1 $P)" 'Invalid argument'
t_match "a NUL byte is refused" "$(printf 'subject /x {\n\0}\n' | write1 $P)" 'Invalid argument'
t_match "the NUL is located" "$(cat $VIGIL_FS/policy_errors)" '^line 2: '
t_match "a 10 MiB write is refused with E2BIG" "$(head -c 10485760 /dev/zero | write1 $P)" 'Argument list too long'
t_match "a write past offset 0 is refused" \
	"$(printf '%s\n' "$good" | dd of=$P bs=1 seek=3 conv=notrunc 2>&1)" 'Invalid argument'
t_match "CRLF and unterminated blocks are located" \
	"$(printf 'subject /x {\r\n\tfile r /a\r\n' | write1 $P; cat $VIGIL_FS/policy_errors)" 'line [0-9]+: '
t_is "after all that the old policy is in force" "$(cat $P)" "$dump"
t_is "and the generation never moved" "$(vigil_stat policy.generation)" "$gen"

t_match "mode: garbage refused" "$(printf 'learn\0' | write1 $VIGIL_FS/mode)" 'Invalid argument'
t_match "mode: 1 MiB refused with E2BIG" "$(head -c 1048576 /dev/zero | write1 $VIGIL_FS/mode)" 'Argument list too long'

out=$("$VIGIL_PROBE" fdpass $VIGIL_FS/mode off)
t_is "a descriptor opened without CAP_MAC_ADMIN, written by a privileged process: EPERM" "$out" EPERM
out=$("$VIGIL_PROBE" fdpass $P "$good")
t_is "the same for the policy file" "$out" EPERM
out=$( { printf 'subject /usr/bin/true {\n'; sleep 0.1; printf '}\n'; } | dd of=$P bs=16M 2>&1)
t_match "a policy split over two writes: the rest is refused" "$out" 'Invalid argument'
vigil_load "$good"
t_is "the policy is unchanged" "$(cat $P)" "$dump"

# Two writers at once: every load is whole, the result one of the two.
a="subject /usr/bin/a {
	file r /etc/a
}"
b="subject /usr/bin/b {
	file rw /etc/b
	cap use chown
}"
gen=$(vigil_stat policy.generation)
# Each load is one dd (one open, one write(2)), each read one cat of both
# files; the writers' "error writing" lines are kept by one grep at the
# end, not one a load (under TCG a program started costs ~70 ms: the
# programs, not the loads, were this test's time).
for i in $(seq 100); do printf '%s\n' "$a" | dd of=$P bs=16M count=1 iflag=fullblock 2>&1; done |
	grep -o 'error writing.*' > /tmp/vigil-t/45a &
for i in $(seq 100); do printf '%s\n' "$b" | dd of=$P bs=16M count=1 iflag=fullblock 2>&1; done |
	grep -o 'error writing.*' > /tmp/vigil-t/45b &
for i in $(seq 100); do cat $P $VIGIL_FS/stats > /tmp/vigil-t/45r.$((i % 3)); done
wait
t_is "no concurrent write failed" "$(cat /tmp/vigil-t/45a /tmp/vigil-t/45b)" ""
final=$(cat $P)
vigil_load "$a"; da=$(cat $P)
vigil_load "$b"; db=$(cat $P)
t_ok "the final policy is one of the two, whole" test "$final" = "$da" -o "$final" = "$db"
t_is "202 loads, 202 generations" "$(vigil_stat policy.generation)" "$((gen + 202))"

echo '# nothing' > $P
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
