# stats reconcile with the audit log: every first sighting is either in the
# log or counted lost, and seq numbers have no gaps. In its place in the
# suite it reconciles the whole boot; run after a test that replaced the
# log (88-million), had records held back (86-flood, 90-stress) or lost
# (87-loss), it reconciles what happened from its own start, the counters
# read then.
. "$(dirname "$0")/../lib.sh"

vigil_mode learn
vigil_settle
sv() { echo "$st" | awk -v k="$1" '$1 == k { print $2 }'; }
st=$(cat $VIGIL_FS/stats)
first=$(vigil_seqs | head -n 1)
if [ "$(sv records.held)" = 0 ] && [ "$(sv records.lost)" = 0 ] &&
	[ "${first:-1}" = 1 ]; then
	e0=0 l0=0 h0=0 s0=0
	t_diag "reconciling the whole boot"
else
	e0=$(sv records.emitted) l0=$(sv records.lost) h0=$(sv records.held) s0=$(sv records.seq)
	t_diag "reconciling from seq $s0 (the log starts at seq ${first:-none}; before: $(sv records.held) held back, $(sv records.lost) lost)"
fi
true=$(vigil_subject true /bin/true)
for i in $(seq 20); do "$true"; done
sleep 0.5
vigil_mode off
vigil_settle

st=$(cat $VIGIL_FS/stats)
emitted=$(( $(sv records.emitted) - e0 ))
lost=$(( $(sv records.lost) - l0 ))
held=$(( $(sv records.held) - h0 ))
seq_last=$(sv records.seq)
seqs=$(vigil_seqs | awk -v s0="$s0" -v s1="$seq_last" '$1 > s0 && $1 <= s1')
in_log=$(echo "$seqs" | grep -c .)
t_ok "some records were emitted" test "$emitted" -gt 0
t_is "records.emitted equals the vigil records in audit.log" "$in_log" "$emitted"
t_is "every numbered sighting was emitted, lost or held back" \
	"$((emitted + lost + held))" "$((seq_last - s0))"
t_is "seq numbers are unique" "$(echo "$seqs" | uniq -d | wc -l)" 0
t_is "seq numbers have no gap ($((s0 + 1))..N, N = records.seq)" \
	"$(echo "$seqs" | awk -v s0="$s0" 'NR + s0 != $1 { bad = 1 } END { print bad ? "gap" : NR + s0 }')" "$seq_last"
t_is "nothing lost with a large backlog" "$lost" 0
t_ok "hook counters count calls" test "$(vigil_stat hook.open)" -gt 0
t_ok "repeats were suppressed" test "$(vigil_stat records.suppressed)" -gt 0
t_match "subjects lists $true with 20 execs" "$(grep -a " $true [^ ]*\$" $VIGIL_FS/subjects)" '^20 '
learned_rows=$(grep -vc '^#' $VIGIL_FS/learned)
t_is "table.entries equals the rows of learned" "$(vigil_stat table.entries)" "$learned_rows"
vigil_mode learn
t_done
