# vigil review (issue 26 §2) end to end: sourced by tests/unit/run after
# cli.sh, cli-traps.sh and cli-escape.sh (their helpers: t_cli, expect_rc,
# not, trap_db, hostile_db, term_safe, $VIGIL, $cw, $fx), once per build.
# docs/review.md describes the verb.
# shellcheck shell=bash

# A hand-edited candidate for the fixtures' /usr/bin/demo and cat.
review_candidate() {
	cat > "$1" <<'EOF'
# my candidate, hand-edited
subject /usr/bin/demo {
	# hand note: main config
	file r /etc/demo/main.conf
}
subject /usr/bin/cat {
	file r /etc/hostname
}
EOF
}

# Answers from standard input: everything allowed as seen gives a
# candidate the kernel's parser takes and that lacks nothing; a second
# review has no question; hand edits kept.
t26_review_answers_all() {
	local db d=$cw/review n
	db=$(trap_db)
	rm -rf "$d"
	mkdir -p "$d"
	review_candidate "$d/c.policy"
	cp "$d/c.policy" "$d/c0.policy"
	expect_rc 1 "$VIGIL" --db "$db" review -n "$d/c.policy"
	n=$(sed -n '1s/^.*: \([0-9]*\) questions about .*/\1/p' "$cw/o")
	[ "$n" -ge 20 ]
	[ "$(grep -c '^\[[0-9]*/[0-9]*\] Severity: ' "$cw/o")" = "$n" ]
	# the riskiest first: every high before any medium or routine
	grep -o 'Severity: [a-z]*' "$cw/o" | uniq | tr '\n' ' ' > "$d/order"
	[ "$(cat "$d/order")" = "Severity: high Severity: medium Severity: routine " ]
	cmp "$d/c.policy" "$d/c0.policy"	# a dry run writes nothing
	yes a | head -n "$n" > "$d/answers"
	expect_rc 0 "$VIGIL" --db "$db" review --answers - "$d/c.policy" < "$d/answers"
	grep -q "^$n allowed as seen, 0 as a glob" "$cw/o"
	expect_rc 0 "$VIGIL" load -n "$d/c.policy"
	expect_rc 0 "$VIGIL" --db "$db" review -n "$d/c.policy"
	grep -q ': 0 questions about 0 accesses it lacks$' "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" diff "$d/c.policy"
	grep -q '^0 needed but missing, 0 allowed but never used$' "$cw/o"
	# every line of the hand-edited candidate is still there, in order
	[ "$(grep -vxF -f "$d/c.policy" "$d/c0.policy" | wc -l)" = 0 ]
	grep -A1 -xF '	# hand note: main config' "$d/c.policy" | grep -qxF '	file r /etc/demo/main.conf'
}

# Leave out, then review again: never asked again; globs as answers.
t26_review_left_out() {
	local db d=$cw/review
	db=$(trap_db)
	rm -rf "$d"
	mkdir -p "$d"
	review_candidate "$d/c.policy"
	# the first question is /etc/shadow (sensitive): d, as aa-logprof's deny
	printf 'd\nf\n' > "$d/answers"
	expect_rc 1 "$VIGIL" --db "$db" review --answers "$d/answers" "$d/c.policy"
	grep -q '^0 allowed as seen, 0 as a glob (0 rules added), 1 left out' "$cw/o"
	grep -qxF '	# vigil review: left out /usr/bin/demo file r /etc/shadow' "$d/c.policy"
	expect_rc 1 "$VIGIL" --db "$db" review -n "$d/c.policy"
	grep -q ', 1 left out earlier$' "$cw/o"
	not grep -q 'shadow' "$cw/o"
	# a glob question answered g: the glob, not the objects
	expect_rc 1 "$VIGIL" --db "$db" review -n "$d/c.policy"
	grep -q 'glob:    file r /etc/demo/conf.d/\*$' "$cw/o"
}

# A real terminal (script(1)): the prompt, a bad answer asked again, the
# evidence, then allowed and written; q writes nothing.
t26_review_terminal() {
	local db d=$cw/review rc=0
	db=$(trap_db)
	rm -rf "$d"
	mkdir -p "$d"
	review_candidate "$d/c.policy"
	cp "$d/c.policy" "$d/c0.policy"
	# exit 1: questions were skipped
	printf 'x\nl\ne\na\nf\n' | script -qec "$VIGIL --db $db review $d/c.policy" /dev/null > "$d/tty.out" || rc=$?
	[ "$rc" = 1 ]
	grep -q "(A)llow as seen / (L)eave out / (E)vidence / (S)kip / (F)inish / (Q)uit \[S\]:   'x'? " "$d/tty.out"
	grep -q 'mount mount /mnt: count 1, first ' "$d/tty.out"	# evidence
	grep -q '1 allowed as seen, 0 as a glob (1 rule added), 1 left out' "$d/tty.out"
	grep -qxF 'subject /usr/bin/mount {' "$d/c.policy"
	grep -qxF '	mount mount /mnt' "$d/c.policy"
	review_candidate "$d/c.policy"
	rc=0
	printf 'a\nq\n' | script -qec "$VIGIL --db $db review $d/c.policy" /dev/null > "$d/tty.out" || rc=$?
	[ "$rc" = 1 ]
	grep -q 'quit: nothing written' "$d/tty.out"
	cmp "$d/c.policy" "$d/c0.policy"
	# no terminal and no --answers: a usage error
	expect_rc 2 "$VIGIL" --db "$db" review "$d/c.policy" < /dev/null
	grep -q 'standard input is not a terminal: give --answers FILE|- or --dry-run' "$cw/e"
}

# Hostile names: every question on the terminal escaped; allowing all of
# them writes a candidate the parser takes.
t26_review_hostile() {
	local db d=$cw/review n
	db=$(hostile_db)
	rm -rf "$d"
	mkdir -p "$d"
	echo '# empty' > "$d/c.policy"
	expect_rc 1 "$VIGIL" --db "$db" review -n "$d/c.policy"
	term_safe "$cw/o"
	grep -qF 'Subject: /tmp/\x1b]0;PWNED\x07\x1b[2J\x1b[31mevil' "$cw/o"
	n=$(sed -n '1s/^.*: \([0-9]*\) questions about .*/\1/p' "$cw/o")
	# through a terminal as well (exit 1: questions)
	script -qec "$VIGIL --db $db review -n $d/c.policy" /dev/null > "$d/tty.out" || true
	tr -d '\r' < "$d/tty.out" > "$d/tty.txt"	# the terminal's CR LF
	term_safe "$d/tty.txt"
	grep -qF 'Subject: /tmp/\x1b]0;PWNED\x07\x1b[2J\x1b[31mevil' "$d/tty.txt"
	yes a | head -n "$n" > "$d/answers"
	expect_rc 0 "$VIGIL" --db "$db" review --answers "$d/answers" "$d/c.policy"
	term_safe "$cw/o"
	expect_rc 0 "$VIGIL" load -n "$d/c.policy"
	expect_rc 0 "$VIGIL" --db "$db" review -n "$d/c.policy"
}

# Interrupted while asking: the candidate is untouched, no temporary file.
t26_review_interrupted() {
	local db d=$cw/review rc=0 pid wpid i
	db=$(trap_db)
	rm -rf "$d"
	mkdir -p "$d"
	review_candidate "$d/c.policy"
	cp "$d/c.policy" "$d/c0.policy"
	mkfifo "$d/fifo"
	# a writer that holds the FIFO open after one answer
	( exec 3> "$d/fifo"; echo a >&3; sleep 120 ) &
	wpid=$!
	"$VIGIL" --db "$db" review --answers "$d/fifo" "$d/c.policy" > "$d/o" 2>&1 &
	pid=$!
	# SIGTERM once it waits for the second answer (up to 60 s; a
	# background job of a script ignores SIGINT, as POSIX says)
	for i in $(seq 600); do
		grep -q '^\[2/' "$d/o" && break
		sleep 0.1
	done
	kill -TERM "$pid"
	wait "$pid" || rc=$?
	kill "$wpid"
	wait "$wpid" || true
	[ "$rc" = 143 ]
	grep -q '^\[2/' "$d/o"
	cmp "$d/c.policy" "$d/c0.policy"
	[ "$(find "$d" -name 'c.policy.*' | wc -l)" = 0 ]
}

# An AppArmor complain trial (vigil trial --to apparmor, no vigil observe):
# its ALLOWED records are asked about as vigil's would-be denials are,
# grouped (two modules of one folder: one question offering DIR/*) and
# ranked (a sensitive read and a raw socket first, a capability, then its
# own files); the optional check is not asked about; answers from a file.
# Records as AppArmor writes them on 6.1 (see c_generate_update_apparmor).
t26_review_apparmor() {
	local db=$cw/revaa.db d=$cw/revaa t=1796290000 a k
	rm -rf "$db"* "$d"
	mkdir -p "$d/root"
	kvd_run "$d/learn.log" $t 811 1
	kvd_run "$d/learn.log" $((t + 100)) 1207 11
	expect_rc 0 "$VIGIL" --db "$db" ingest "$d/learn.log"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$d/root" -o "$d/c.policy"
	expect_rc 0 "$VIGIL" --db "$db" review -n "$d/c.policy"
	grep -q ': 0 questions about 0 accesses it lacks$' "$cw/o"
	a='type=AVC msg=audit'
	k='apparmor="ALLOWED"'
	{
		echo "$a($((t + 301)).000:71): $k operation=\"open\" profile=\"usr.sbin.kvd\" name=\"/var/lib/kvd/modules/acl.so\" pid=2210 comm=\"kvd\" requested_mask=\"r\" denied_mask=\"r\" fsuid=0 ouid=0"
		echo "$a($((t + 302)).000:72): $k operation=\"open\" profile=\"usr.sbin.kvd\" name=\"/var/lib/kvd/modules/geo.so\" pid=2210 comm=\"kvd\" requested_mask=\"r\" denied_mask=\"r\" fsuid=0 ouid=0"
		echo "$a($((t + 303)).000:73): $k operation=\"capable\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" capability=24  capname=\"sys_resource\""
		echo "$a($((t + 304)).000:74): $k operation=\"create\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" family=\"netlink\" sock_type=\"raw\" protocol=0 requested_mask=\"create\" denied_mask=\"create\""
		echo "$a($((t + 305)).000:75): $k operation=\"open\" profile=\"usr.sbin.kvd\" name=\"/etc/shadow\" pid=2210 comm=\"kvd\" requested_mask=\"r\" denied_mask=\"r\" fsuid=0 ouid=0"
		echo "$a($((t + 306)).000:76): $k operation=\"capable\" info=\"optional: no audit\" error=-1 profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" capability=12  capname=\"net_admin\""
	} > "$d/trial.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$d/trial.log"
	cp "$d/c.policy" "$d/c0.policy"
	expect_rc 1 "$VIGIL" --db "$db" review -n "$d/c.policy"
	[ "$(head -n 1 "$cw/o")" = "$d/c.policy: 4 questions about 5 accesses it lacks; AppArmor's trial: 5 ALLOWED records read as would-be denials, 1 optional check and 0 other records not asked about" ]
	[ "$(grep '^\[' "$cw/o" | tr '\n' '|')" = "[1/4] Severity: high (a sensitive object)|[2/4] Severity: high (raw network access)|[3/4] Severity: medium (a capability)|[4/4] Severity: routine (its own files)|" ]
	[ "$(grep -c "^  Seen: .*; AppArmor's trial showed it$" "$cw/o")" = 4 ]
	grep -qxF '   2 - glob:    file r /var/lib/kvd/modules/*' "$cw/o"
	not grep -q net_admin "$cw/o"
	cmp "$d/c.policy" "$d/c0.policy"
	# the evidence, then: leave out, allow, allow, the glob
	printf 'e\nl\na\na\ng\n' > "$d/answers"
	expect_rc 0 "$VIGIL" --db "$db" review --answers "$d/answers" "$d/c.policy"
	grep -q "^    file r /etc/shadow: count 1, first .*, pid 2210; AppArmor's trial showed it$" "$cw/o"
	grep -q '^2 allowed as seen, 1 as a glob (3 rules added), 1 left out, 0 skipped: written to ' "$cw/o"
	grep -qxF '	# vigil review: left out /usr/sbin/kvd file r /etc/shadow' "$d/c.policy"
	for r in 'net socket netlink:raw' 'cap use sys_resource' 'file r /var/lib/kvd/modules/*'; do
		grep -B1 -xF "	$r" "$d/c.policy" | grep -q "^	# vigil review: .*; AppArmor's trial showed it$"
	done
	not grep -q 'net_admin\|^	file r /etc/shadow$' "$d/c.policy"
	expect_rc 0 "$VIGIL" load -n "$d/c.policy"
	expect_rc 0 "$VIGIL" --db "$db" review -n "$d/c.policy"
	grep -q ': 0 questions about 0 accesses it lacks, 1 left out earlier; ' "$cw/o"
}

t_cli "review: answers from stdin allow all: load -n takes it, nothing left, hand edits kept" t26_review_answers_all
t_cli "review: an AppArmor complain trial's records asked about, grouped and ranked; answers from a file" t26_review_apparmor
t_cli "review: left out is remembered in the candidate, never asked again" t26_review_left_out
t_cli "review: a real terminal: prompt, bad answer, evidence, write; q writes nothing" t26_review_terminal
t_cli "review: hostile names escaped on the terminal, written in policy form" t26_review_hostile
t_cli "review: interrupted while asking: candidate untouched, no temporary file" t26_review_interrupted
