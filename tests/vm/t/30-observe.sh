# Observe mode: a candidate policy's would-be denials are recorded, nothing
# is denied, subjects it does not name fall back to the global mode.
. "$(dirname "$0")/../lib.sh"

cat=$(vigil_subject cat)
other=$(vigil_subject head)
cat > /tmp/vigil-t/30.policy <<POL
# allow the hostname only
subject $cat observe {
	file r /etc/hostname
	file m /usr/lib/**
	file r /usr/lib/**
	file r /etc/ld.so.cache
}
POL
vigil_mode learn
t_ok "the policy loads" sh -c "cat /tmp/vigil-t/30.policy > $VIGIL_FS/policy"
t_is "policy_errors is empty after a good load" "$(cat $VIGIL_FS/policy_errors)" ""
gen=$(vigil_stat policy.generation)

out=$("$cat" /etc/passwd)
t_is "the read the policy would deny still succeeds" "$?" 0
t_match "and returns the file" "$out" '^root:'
"$cat" /etc/hostname > /dev/null
"$cat" /etc/passwd > /dev/null
t_ok "would-deny recorded for /etc/passwd" \
	vigil_wait "verdict=would-deny op=open access=r .*exe=\"$cat\" path=\"/etc/passwd\""
t_ok "a sentinel access after them is recorded" vigil_sentinel "$cat"
t_is "only once for two reads" \
	"$(vigil_count "verdict=would-deny op=open access=r .*exe=\"$cat\" path=\"/etc/passwd\"")" 1
t_is "nothing recorded for the allowed /etc/hostname" \
	"$(vigil_count "exe=\"$cat\" path=\"/etc/hostname\"")" 0
t_is "no learned records for the observed subject" \
	"$(vigil_count "verdict=learned .*exe=\"$cat\"")" 0
line=$(grep -a " would-deny open r .* $cat /etc/passwd [^ ]*\$" "$VIGIL_FS/learned")
t_is "the table counts both would-be denials" "$(echo "$line" | awk '{print $5}')" 2
# A would-be denial's repeat is counted by the slow path (the fast paths
# leave it): the subject's would_deny is the sum of its would-deny tuples'
# counts, repeats included.
t_is "the subject's would_deny counts each would-be denial's repeats" \
	"$(awk -v e="$cat" '$6 == e { s += $4 } END { print s + 0 }' "$VIGIL_FS/subjects")" \
	"$(awk -v e="$cat" '$2 == "would-deny" && $10 == e { s += $5 } END { print s + 0 }' "$VIGIL_FS/learned")"

# A subject the policy does not name is learned (global mode).
"$other" -n1 /etc/hostname > /dev/null
t_ok "an unnamed subject falls back to the global mode (learn)" \
	vigil_wait "verdict=learned op=open access=r .*exe=\"$other\" path=\"/etc/hostname\""

# Global observe: unnamed subjects have nothing to be judged against.
vigil_mode observe
before=$(awk -v e="$other" '$6 == e { print $2 }' "$VIGIL_FS/subjects")
"$other" -n1 /etc/os-release > /dev/null
t_ok "a sentinel access (the named subject's would-deny) is recorded" vigil_sentinel "$cat"
t_is "global observe records nothing for an unnamed subject" \
	"$(vigil_count "exe=\"$other\" path=\"/etc/os-release\"")" 0
after=$(awk -v e="$other" '$6 == e { print $2 }' "$VIGIL_FS/subjects")
t_ok "but counts that subject's own accesses ($before -> $after events)" \
	test "${after:-0}" -gt "${before:-0}"
vigil_mode learn

# Replacing the policy: a new generation judges afresh.
cat > /tmp/vigil-t/30b.policy <<POL
subject $cat observe {
	file r /etc/{hostname,passwd}
	file rm /usr/lib/**
	file r /etc/ld.so.cache
}
POL
t_ok "a second policy loads" sh -c "cat /tmp/vigil-t/30b.policy > $VIGIL_FS/policy"
t_is "the generation moved on" "$(vigil_stat policy.generation)" "$((gen + 1))"
"$cat" /etc/passwd /etc/group > /dev/null
t_ok "the new policy's denial (/etc/group) is recorded" \
	vigil_wait "verdict=would-deny op=open access=r .*exe=\"$cat\" path=\"/etc/group\""
t_ok "a sentinel access after them is recorded" vigil_sentinel "$cat"
t_is "the now-allowed /etc/passwd is not recorded again" \
	"$(vigil_count "verdict=would-deny .*exe=\"$cat\" path=\"/etc/passwd\"")" 1
t_match "the canonical dump reads back" "$(cat $VIGIL_FS/policy)" "file r /etc/\{hostname,passwd\}"

# A policy with no block unloads every block.
t_ok "a policy of only a comment loads" sh -c "echo '# nothing' > $VIGIL_FS/policy"
t_is "the dump is empty" "$(cat $VIGIL_FS/policy)" ""
t_done
