# Names any local user chooses, in every output (issue 26): sourced by
# tests/unit/run after cli.sh (its helpers: t_cli, expect_rc, not, $VIGIL,
# $cw, $fx), once per build. tests/fixtures/hostile.log (gen-hostile) holds
# executables and objects named with terminal escapes (OSC title, clear,
# colour), C1 controls raw and in UTF-8, invalid UTF-8, a right-to-left
# override, newlines, quotes, backslashes, gnuplot markup, HTML and a rule
# smuggled after a newline. docs/report.md, "Names from records", gives
# the rule of each output.
# shellcheck shell=bash

# A database of the hostile fixture, made once per build.
hostile_db() {
	local db=$cw/hostile.db
	if [ ! -s "$db" ]; then
		"$VIGIL" --db "$db" ingest $fx/hostile.log > /dev/null
	fi
	echo "$db"
}

# Terminal text: no ESC, no other C0 control but newline and tab, no DEL,
# UTF-8 throughout, no C1 control and no bidirectional override in it.
term_safe() {
	[ "$(LC_ALL=C grep -c $'\e' "$1")" = 0 ]
	[ "$(LC_ALL=C tr -d '\n\t' < "$1" | LC_ALL=C grep -c '[[:cntrl:]]')" = 0 ]
	iconv -f UTF-8 -t UTF-8 "$1" > /dev/null
	[ "$(LC_ALL=C grep -cP '\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]' "$1")" = 0 ]
}

# Strict JSON: UTF-8 (no surrogate escapes), then parsed.
json_strict() {
	python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1"
}

# report --format text: every name escaped, shown visibly.
e_report_text() {
	local db
	db=$(hostile_db)
	expect_rc 0 "$VIGIL" --db "$db" report --format text
	term_safe "$cw/o"
	grep -qF ']0;PWNED\x07\x1b[2J\x1b[31mevil ' "$cw/o"
	grep -qF '/etc/\x1b]0;PWNED\x07\x1b[2J\x1b[31mx ' "$cw/o"
	grep -qF '/tmp/new\x0aline\xc2\x9b31m\x9b32m' "$cw/o"
	grep -qF '/tmp/\xe2\x80\xaecod.exe' "$cw/o"
	grep -qF '/tmp/a\x0a}\x0asubject /usr/bin/victim' "$cw/o"
	# one line per subject (5) and per top object (5): no name broke one
	[ "$(grep -c ' converged \| still learning ' "$cw/o")" = 5 ]
	# -o FILE writes the same
	expect_rc 0 "$VIGIL" --db "$db" report --format text -o "$cw/rt.txt"
	term_safe "$cw/rt.txt"
}

# report --format json: valid UTF-8 and JSON; a name that is not UTF-8 has
# its exact bytes beside it (KEY_hex).
e_report_json() {
	local db
	db=$(hostile_db)
	expect_rc 0 "$VIGIL" --db "$db" report --format json
	json_strict "$cw/o"
	[ "$(LC_ALL=C grep -c $'\e' "$cw/o")" = 0 ]
	python3 - "$cw/o" <<'EOF'
import json, sys
d = json.loads(open(sys.argv[1], 'rb').read().decode('utf-8'))
exes = {}
for s in d['subjects']:
    raw = bytes.fromhex(s['exe_hex']) if 'exe_hex' in s else s['exe'].encode()
    exes[raw] = s
want = [b'/tmp/\x1b]0;PWNED\x07\x1b[2J\x1b[31mevil',
        b'/tmp/bad\xff\xfe_x^2{y}@&~"q\'\\</script><script>alert(1)</script>',
        b'/tmp/new\nline\xc2\x9b31m\x9b32m', b'/tmp/\xe2\x80\xaecod.exe',
        b'/tmp/plain']
assert sorted(exes) == sorted(want), sorted(exes)
# UTF-8 names are as they are, no _hex beside them
assert 'exe_hex' not in exes[want[0]] and exes[want[0]]['exe'] == want[0].decode()
assert 'exe_hex' in exes[want[1]] and '\ufffd' in exes[want[1]]['exe']
objs = {bytes.fromhex(o['object_hex']) if 'object_hex' in o else o['object'].encode() for o in d['top_objects']}
assert b'/tmp/e_{1}^2@\xff\xc3(' in objs, objs
assert d['apparmor']['allowed'] == 5, d['apparmor']
EOF
}

# report (HTML): entities in the page, XML-valid SVG, gnuplot labels drawn
# as written (no enhanced-text markup, no quote cut).
e_report_html() {
	local db f d=$cw/hostile-html
	db=$(hostile_db)
	rm -rf "$d"
	expect_rc 0 "$VIGIL" --db "$db" report -o "$d"
	f=$d/index.html
	iconv -f UTF-8 -t UTF-8 "$f" > /dev/null
	[ "$(LC_ALL=C grep -c $'\e\|\x7f' "$f")" = 0 ]
	[ "$(grep -c '<script>' "$f")" = 0 ]
	[ "$(grep -c '<img src=x' "$f")" = 0 ]
	grep -qF '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;' "$f"
	grep -qF '<td>/tmp/\x1b]0;PWNED\x07\x1b[2J\x1b[31mevil</td>' "$f"
	for f in "$d"/*.svg; do
		python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$f"
	done
	grep -qF '<text>/tmp/e_{1}^2@\xff\xc3(</text>' "$d/top-objects.svg"
	grep -qF '<text>/tmp/glob*?[x]{a,b} #c,\x22q\x22'"'"'\e\x7f</text>' "$d/top-objects.svg"
	grep -qF '<text>\x1b]0;PWNED\x07\x1b[2J\x1b[31mevil</text>' "$d/discovery.svg"
	[ "$(grep -c '<script>' "$d"/*.svg | awk -F: '{ n += $2 } END { print n }')" = 0 ]
}

# generate and diff: the candidate escapes every byte that is not
# printable UTF-8 (\xHH), parses, and no name adds a rule or a block.
e_generate_diff() {
	local db d=$cw/hostile-gen
	db=$(hostile_db)
	mkdir -p "$d"
	expect_rc 0 "$VIGIL" --db "$db" generate -o "$d/cand.policy"
	term_safe "$d/cand.policy"
	[ "$(grep -c '^subject ' "$d/cand.policy")" = 5 ]
	[ "$(grep -c 'victim' "$d/cand.policy")" = 5 ]
	[ "$(grep -c '^subject /usr/bin/victim' "$d/cand.policy")" = 0 ]
	grep -qF 'subject /tmp/bad\xff\xfe_x^2\{y\}@&~"q'"'"'\\</script>' "$d/cand.policy"
	grep -qF 'subject /tmp/new\x0aline\xc2\x9b31m\x9b32m {' "$d/cand.policy"
	expect_rc 0 "$VIGIL" load -n "$d/cand.policy"
	# the names read back are the records' names: only the would-be
	# denials are missing
	expect_rc 1 "$VIGIL" --db "$db" diff "$d/cand.policy"
	term_safe "$cw/o"
	grep -q '^13 needed but missing, 0 allowed but never used, 5 AppArmor records$' "$cw/o"
	grep -qF 'ALLOWED tmp.plain: open /etc/\x1b]0;PWNED\x07\x1b[2J\x1b[31mx (r)' "$cw/o"
}

# export: every target's files pass their validators; JSON is UTF-8; a
# name Landlock's JSON cannot carry is left out, said in the text file.
e_export() {
	local db t f d=$cw/hostile-exp
	db=$(hostile_db)
	rm -rf "$d"
	for t in apparmor selinux landlock tomoyo systemd; do
		mkdir -p "$d/$t"
		expect_rc 0 "$VIGIL" --db "$db" export --to $t -o "$d/$t"
	done
	for f in "$d"/apparmor/*; do
		apparmor_parser -QK "$f"
		[ "$(grep -c '^profile ' "$f")" = 1 ]
	done
	for f in "$d"/selinux/*.te; do
		checkmodule -M -m -o "${f%.te}.mod" "$f" > /dev/null
	done
	tomoyo-checkpolicy d < "$d/tomoyo/tomoyo-domain_policy.conf" > "$cw/tc" 2>&1
	grep -q ' 0 Error  *0 Warning' "$cw/tc"
	tomoyo-checkpolicy e < "$d/tomoyo/tomoyo-exception_policy.conf" > "$cw/tc" 2>&1
	grep -q ' 0 Error  *0 Warning' "$cw/tc"
	for f in "$d"/landlock/*.json; do
		json_strict "$f"
	done
	grep -qF 'execute /tmp/new\x0aline\xc2\x9b31m\x9b32m: not UTF-8' "$d"/landlock/tmp.new_line*.txt
	for f in "$d"/*/*; do
		# SELinux's compiled modules are binary
		case $f in *.mod | *.pp) continue ;; esac
		[ "$(LC_ALL=C grep -c $'\e' "$f")" = 0 ]
		iconv -f UTF-8 -t UTF-8 "$f" > /dev/null
	done
}

# Messages quote a name as terminal text.
e_messages() {
	local db
	db=$(hostile_db)
	expect_rc 2 "$VIGIL" --db "$db" report --format text \
		--subject "$(printf '/tmp/\e]0;PWNED\a\e[2J\x9bx')"
	term_safe "$cw/e"
	grep -qF "subject '/tmp/\\x1b]0;PWNED\\x07\\x1b[2J\\x9bx' was never observed" "$cw/e"
}

# trial --report: AppArmor's and vigil's would-be denials as terminal text.
e_trial_report() {
	local db d=$cw/hostile-trial
	db=$(hostile_db)
	mkdir -p "$d"
	printf 'start 1\ncandidate /x.policy\nprofile tmp.plain\t%s\t/tmp/plain\nsubject /tmp/plain\n' \
		"$d/tmp.plain" > "$d/trial.state"
	expect_rc 1 "$VIGIL" --db "$db" trial --report "$d"
	term_safe "$cw/o"
	grep -qF '	tmp.plain: open /etc/\x1b]0;PWNED\x07\x1b[2J\x1b[31mx (r)' "$cw/o"
	grep -qF '	/tmp/plain: open w /tmp/e_{1}^2@\xff\xc3( (1)' "$cw/o"
	grep -q '^5 AppArmor, 3 vigil would-be denials' "$cw/o"
	# a name with a tab or a newline in the state file: escaped, read back
	printf 'start 1\ncandidate /x.policy\nprofile tmp.plain\t%s\t/tmp/plain\nsubject /tmp/new\\x0aline\\xc2\\x9b31m\\x9b32m\n' \
		"$d/tmp.plain" > "$d/trial.state"
	expect_rc 1 "$VIGIL" --db "$db" trial --report "$d"
	grep -qF '	/tmp/new\x0aline\xc2\x9b31m\x9b32m: open w ' "$cw/o"
}

# AppArmor records of the profiles vigil's export names (profile tmp.x.y
# "/tmp/x/y"), from a real trial in the VM (tests/fixtures/vm/
# capture-trial): report --subject and diff find them.
e_apparmor_export_names() {
	local db=$cw/aa-trial.db d=$cw/aa-trial
	rm -rf "$db"* "$d"
	mkdir -p "$d"
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vm/apparmor-trial.log
	grep -q 'profile="tmp.x.y"' $fx/vm/apparmor-trial.log
	expect_rc 0 "$VIGIL" --db "$db" report --format json --subject /tmp/x/y
	python3 -c 'import json, sys; a = json.load(open(sys.argv[1]))["apparmor"]; assert a["allowed"] >= 1 and all(t["profile"].startswith("tmp.x.y") for t in a["top"]), a' "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" report --format text --subject /tmp/x/y
	grep -q 'ALLOWED tmp.x.y: open /etc/passwd (r)' "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" generate --subject /tmp/x/y -o "$d/cand.policy"
	expect_rc 1 "$VIGIL" --db "$db" diff "$d/cand.policy"
	grep -q 'ALLOWED tmp.x.y: open /etc/passwd (r)' "$cw/o"
	# the name the export gives the profile is the one matched
	mkdir -p "$d/aa"
	expect_rc 0 "$VIGIL" --db "$db" export --to apparmor -o "$d/aa" "$d/cand.policy"
	grep -q '^profile tmp.x.y "/tmp/x/y" {$' "$d/aa/tmp.x.y"
}

t_cli e_report_text e_report_text
t_cli e_report_json e_report_json
t_cli e_report_html e_report_html
t_cli e_generate_diff e_generate_diff
t_cli e_export e_export
t_cli e_messages e_messages
t_cli e_trial_report e_trial_report
t_cli e_apparmor_export_names e_apparmor_export_names
