# stats reconcile with the audit log: every first sighting is either in the
# log or counted lost, and seq numbers have no gaps.
. "$(dirname "$0")/../lib.sh"

vigil_mode learn
true=$(vigil_subject true /bin/true)
for i in $(seq 20); do "$true"; done
sleep 0.5
vigil_mode off
vigil_settle

emitted=$(vigil_stat records.emitted)
lost=$(vigil_stat records.lost)
seq_last=$(vigil_stat records.seq)
in_log=$(vigil_count 'verdict=(learned|would-deny)')
t_ok "some records were emitted" test "$emitted" -gt 0
t_is "records.emitted equals the vigil records in audit.log" "$in_log" "$emitted"
t_is "every numbered sighting was emitted or lost" "$((emitted + lost))" "$seq_last"
seqs=$(vigil_lines | grep -ao ' seq=[0-9]*' | cut -d= -f2 | sort -n)
t_is "seq numbers are unique" "$(echo "$seqs" | uniq -d | wc -l)" 0
t_is "seq numbers have no gap (1..N, N = records.seq)" \
	"$(echo "$seqs" | awk 'NR != $1 { bad = 1 } END { print bad ? "gap" : NR }')" "$seq_last"
t_is "nothing lost with a large backlog" "$lost" 0
t_ok "hook counters count calls" test "$(vigil_stat hook.open)" -gt 0
t_ok "repeats were suppressed" test "$(vigil_stat records.suppressed)" -gt 0
t_match "subjects lists $true with 20 execs" "$(grep -a " $true [^ ]*\$" $VIGIL_FS/subjects)" '^20 '
learned_rows=$(grep -vc '^#' $VIGIL_FS/learned)
t_is "table.entries equals the rows of learned" "$(vigil_stat table.entries)" "$learned_rows"
vigil_mode learn
t_done
