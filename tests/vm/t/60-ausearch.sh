# ausearch finds vigil's records by type and prints every field readably.
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/60
mkdir -p "$d"
cat=$(vigil_subject cat)
vigil_mode learn
printf x > "$d/with space"
"$cat" "$d/with space" > /dev/null
t_ok "a record for a path with a space" vigil_wait "exe=\"$cat\" path=[0-9A-F]+ "
vigil_settle
out=$(ausearch -i -m KERNEL_OTHER 2>/dev/null | grep -a "exe=$cat " | grep -a "with space")
t_match "ausearch -m KERNEL_OTHER finds it" "$out" 'type=KERNEL_OTHER'
t_match "ausearch -i decodes the hex path" "$out" "path=$d/with space"
t_match "ausearch -i prints the verdict as is" "$out" 'verdict=learned'
t_match "ausearch -i prints op and access as they are" "$out" 'op=open access=r '
t_match "ausearch -i shows the uid as a name" "$out" 'uid=root'
t_match "ausearch -i prints comm" "$out" 'comm=cat'
capline=$(ausearch -i -m KERNEL_OTHER 2>/dev/null | grep -a 'op=capable' | head -n1)
t_match "ausearch -i names the capability" "$capline" 'capability=[a-z_]+'
t_ok "ausearch --raw keeps them" sh -c "ausearch --raw -m KERNEL_OTHER | grep -q ' vigil=1 '"
t_done
