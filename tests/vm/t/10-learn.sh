# Learn mode: one record per distinct access, repeats only counted.
. "$(dirname "$0")/../lib.sh"

cat=$(vigil_subject cat)
vigil_mode learn
t_is "mode reads back as learn" "$(cat $VIGIL_FS/mode)" learn

# Run by a shell started with learning on: this test's own shell was
# started while vigil was off, has no subject, and its execs are not seen.
sh -c 'for _ in 1 2 3 4 5 6 7; do "$1" /etc/hostname > /dev/null; done' sh "$cat"
pat="op=open access=r .*exe=\"$cat\" path=\"/etc/hostname\""
t_ok "a record for $cat reading /etc/hostname" vigil_wait "$pat"
vigil_settle
t_is "exactly one record for seven reads" "$(vigil_count "$pat")" 1

line=$(grep -a " open r .* $cat /etc/hostname [^ ]*\$" "$VIGIL_FS/learned")
t_match "the learned table has the tuple" "$line" '^[0-9]+ learned open r '
t_is "its count is the number of reads" "$(echo "$line" | awk '{print $5}')" 7

rec=$(vigil_lines "$pat" | head -n1)
for f in 'vigil=1' 'seq=[0-9]+' 'verdict=learned' 'op=open' 'access=r' \
	'uid=0' "exe=\"$cat\"" 'path="/etc/hostname"' 'target=\?' \
	'pid=[0-9]+' 'comm="cat"'; do
	t_match "the record carries $f" "$rec" " $f( |$)"
done
t_match "the record is vigil's own type, not AVC" "$rec" '^type=KERNEL_OTHER '
t_match "vigil= is the first field" "$rec" '^type=KERNEL_OTHER msg=audit\([0-9.:]+\): vigil=1 '

# The exec of the copy and the mmap of its libraries are learned too.
t_ok "exec of $cat by the shell is recorded" vigil_wait "op=exec access=x .*path=\"$cat\""
t_ok "mmap PROT_EXEC of libc by $cat is recorded" \
	vigil_wait "op=mmap access=m .*exe=\"$cat\" path=\"[^\"]*libc[.-]"

# A write is a different access, so a different tuple: made by the
# subject itself (tee opens its file), not by the shell's redirect.
tee=$(vigil_subject tee)
"$tee" /tmp/vigil-t/10-out < /etc/hostname > /dev/null
t_ok "open for write (O_CREAT|O_TRUNC) is its own tuple, with c" \
	vigil_wait "op=open access=wc .*exe=\"$tee\" path=\"/tmp/vigil-t/10-out\""

# Off: nothing more is recorded.
vigil_mode off
"$cat" /etc/os-release > /dev/null
vigil_mode learn
t_ok "a sentinel access after the mode is back is recorded" vigil_sentinel "$cat"
t_is "nothing is recorded while off" "$(vigil_count "exe=\"$cat\" path=\"/etc/os-release\"")" 0
t_done
