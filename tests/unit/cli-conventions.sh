# The conventions admins have in their fingers and the traps left (issue
# 26, parts 3 and 4): sourced by tests/unit/run after cli.sh (its helpers:
# t_cli, expect_rc, not, $VIGIL, $cw, $fx, $top), once per build.
# shellcheck shell=bash

# -V is --version, as everywhere.
k_version() {
	expect_rc 0 "$VIGIL" -V
	grep -q '^vigil [0-9]' "$cw/o"
	cp "$cw/o" "$cw/v1"
	expect_rc 0 "$VIGIL" --version
	cmp "$cw/o" "$cw/v1"
	expect_rc 0 "$VIGIL" --help
	grep -q -- '-V, --version' "$cw/o"
	grep -q 'BR \\-V ", " \\-\\-version' "$top/docs/vigil.8"
}

# --subject NAME without a slash: the one observed executable of that
# basename (as ausearch -x); several: an error listing them.
k_subject_basename() {
	local db=$cw/basename.db
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log $fx/vigil-enriched.log
	expect_rc 0 "$VIGIL" --db "$db" report --format json --subject nginx
	[ "$(jq -r '[.subjects[].exe] | join(" ")' "$cw/o")" = /usr/sbin/nginx ]
	expect_rc 0 "$VIGIL" --db "$db" generate --subject nginx
	grep -q '^subject /usr/sbin/nginx ' "$cw/o"
	[ "$(grep -c '^subject ' "$cw/o")" = 1 ]
	expect_rc 2 "$VIGIL" --db "$db" report --format text --subject cat
	grep -q "^vigil: report: --subject cat: 3 observed executables are named cat: /tmp/vigil-t/10-learn/cat, /tmp/vigil-t/30-observe/cat, /usr/bin/cat (name one)$" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" report --format text --subject nosuch
	grep -q "^vigil: report: subject 'nosuch' was never observed$" "$cw/e"
	# a path is taken as it is
	expect_rc 0 "$VIGIL" --db "$db" report --format json --subject /usr/bin/cat
	[ "$(jq -r '[.subjects[].exe] | join(" ")' "$cw/o")" = /usr/bin/cat ]
}

# report -o DIR never replaces what DIR holds (an earlier report).
k_report_no_overwrite() {
	local db=$cw/over.db d=$cw/over
	rm -rf "$db"* "$d"
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log
	expect_rc 0 "$VIGIL" --db "$db" report -o "$d"
	cp "$d/index.html" "$cw/over.html"
	echo 'kept' > "$d/data/note"
	expect_rc 2 "$VIGIL" --db "$db" report -o "$d"
	grep -q "^vigil: report: -o $d: exists and is not empty: a report never replaces files (remove it or name another folder)$" "$cw/e"
	cmp "$d/index.html" "$cw/over.html"
	[ "$(cat "$d/data/note")" = kept ]
	# an empty folder is fine
	rm -rf "$d"
	mkdir "$d"
	expect_rc 0 "$VIGIL" --db "$db" report -o "$d"
	[ -s "$d/index.html" ]
}

# "make" then "make install PREFIX=/usr": the binary looks for its report
# scripts under the new DATADIR (the object that holds it is rebuilt).
k_datadir_rebuild() {
	local t=$cw/datadir bin
	rm -rf "$t"
	mkdir -p "$t"
	cp -a "$top/analyzer" "$t/analyzer"
	ln -s "$top/kernel" "$t/kernel"
	cp "$top/VERSION" "$t/" 2>/dev/null || true
	bin=vigil
	case $VIGIL in *-asan) bin=vigil-asan ;; esac
	make -s -C "$t/analyzer" "$bin" > /dev/null
	make -s -C "$t/analyzer" "$bin" PREFIX=/opt/k26 > /dev/null
	grep -q '/opt/k26/share/vigil/reports' "$t/analyzer/$bin"
	not grep -q '/usr/local/share/vigil/reports' "$t/analyzer/$bin"
	rm -rf "$t"
}

# The man page's EXIT STATUS says what vigil run exits with.
k_exit_status_doc() {
	sed -n '/^\.SH EXIT STATUS/,/^\.SH EXAMPLES/p' "$top/docs/vigil.8" > "$cw/es"
	grep -q '^\.B 126$' "$cw/es"
	grep -q '^\.B 127$' "$cw/es"
	grep -q '^\.BR run ", " ' "$cw/es" || grep -q '^\.B run$' "$cw/es"
}

# vigil subjects: every subject, its counts, runs, uids, first and last
# record, and learning: one run is "seen once", never "converged".
k_subjects() {
	local db=$cw/subjects.db
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log $fx/vigil-uids.log
	expect_rc 0 "$VIGIL" --db "$db" subjects
	head -n 1 "$cw/o" | grep -q '^learning  *records learned  denied  runs first  *last  *uids  *subject$'
	[ "$(($(wc -l < "$cw/o") - 1))" = "$(count "$db" 'SELECT count(DISTINCT exe) FROM records')" ]
	grep -Eq '^still learning +12 +9 +0 +3 2026-12-03T09:43:21Z 2026-12-03T09:43:22Z 0,33,1000 +/usr/sbin/uidsvc$' "$cw/o"
	grep -Eq '^seen once +3 +3 +0 +1 .* 0 +/usr/bin/cat$' "$cw/o"
	not grep -q '^converged .* /usr/bin/cat$' "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" subjects --format json --subject uidsvc
	jq -e '.subjects == [{"exe":"/usr/sbin/uidsvc","records":12,"learned":9,"would_deny":0,"runs":3,"uids":[0,33,1000],"uids_complete":true,"first_ms":1796291001201,"last_ms":1796291002501,"last_new_ms":1796291002501,"learning":"still learning"}]' "$cw/o" > /dev/null
	expect_rc 0 "$VIGIL" --db "$db" subjects --format json
	[ "$(jq '[.subjects[] | select(.runs == 1 and .learning != "seen once")] | length' "$cw/o")" = 0 ]
	expect_rc 2 "$VIGIL" --db "$db" subjects --format html
	expect_rc 2 "$VIGIL" --db "$db" subjects --subject /no/such
	"$VIGIL" --verbs | grep -qx subjects
	grep -q '^\\fBsubjects\\fR' "$top/docs/vigil.8"
}

# generate refuses an empty window, as report does; offsets from UTC.
k_generate_window() {
	local db=$cw/window.db
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log
	expect_rc 2 "$VIGIL" --db "$db" generate --since 2026-12-04 --until 2026-12-03
	grep -q '^vigil: generate: --since is after --until: the window is empty$' "$cw/e"
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --since 2026-12-03T08:52:37+01:00
	grep -v '^# database: ' "$cw/o" > "$cw/w1"
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --since 2026-12-03T07:52:37Z
	grep -v '^# database: ' "$cw/o" | cmp - "$cw/w1"
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --since 2026-12-03T07:52:38Z
	not cmp "$cw/o" "$cw/w1"
	expect_rc 2 "$VIGIL" --db "$db" generate --since 2026-12-03T09:00+1
}

# Read-only verbs leave no -wal/-shm beside the database (ingest's own
# close removes them; a read-only connection could not).
k_readonly_no_wal() {
	local db=$cw/nowal.db
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log
	[ ! -e "$db-wal" ] && [ ! -e "$db-shm" ]
	expect_rc 0 "$VIGIL" --db "$db" report --format text
	expect_rc 0 "$VIGIL" --db "$db" subjects
	expect_rc 0 "$VIGIL" --db "$db" generate -o "$cw/nowal.policy"
	expect_rc 0 "$VIGIL" --db "$db" diff "$cw/nowal.policy"
	expect_rc 0 "$VIGIL" --db "$db" review -n "$cw/nowal.policy"
	[ ! -e "$db-wal" ] && [ ! -e "$db-shm" ]
	# the database is whole, still in WAL mode
	[ "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok ]
	[ "$(sqlite3 "$db" 'PRAGMA journal_mode')" = wal ]
}

# A port written with a leading zero never matches (records write 8089).
k_port_leading_zero() {
	printf 'subject /x {\n\tnet bind inet:stream:08089\n}\n' > "$cw/port.policy"
	expect_rc 2 "$VIGIL" load -n "$cw/port.policy"
	grep -qF "port.policy:2: invalid port '08089' (no leading zero)" "$cw/e"
	printf 'subject /x {\n\tnet bind inet:stream:0\n}\n' > "$cw/port.policy"
	expect_rc 0 "$VIGIL" load -n "$cw/port.policy"
}

# A second block for the same subject is never used: load and export say
# so, naming both lines.
k_repeated_block() {
	printf 'subject /x {\n\tfile r /a\n}\nsubject /y {\n}\nsubject /x {\n\tfile r /b\n}\n' > "$cw/rep.policy"
	expect_rc 0 "$VIGIL" load -n "$cw/rep.policy"
	grep -qx "vigil: load: warning: $cw/rep.policy:6: a second block for subject /x (the first is at line 1): the kernel uses the first only, these rules are never used" "$cw/e"
	rm -rf "$cw/rep.out"
	VIGIL_DB=$cw/none.db expect_rc 0 "$VIGIL" export --to apparmor -o "$cw/rep.out" "$cw/rep.policy"
	grep -q "rep.policy:6: a second block for subject /x (the first is at line 1)" "$cw/e"
	not grep -q ' /b ' "$cw/rep.out/x"
	# a via block of its own is no repeat
	printf 'subject /x via /p {\n}\nsubject /x {\n}\nsubject /p {\n}\n' > "$cw/rep.policy"
	expect_rc 0 "$VIGIL" load -n "$cw/rep.policy"
	not grep -q 'second block' "$cw/e"
}

# A filter that leaves a named subject nothing: "no matches", exit 1 (as
# ausearch), never "No such file or directory".
k_filter_no_matches() {
	local db=$cw/nomatch.db
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log
	expect_rc 1 "$VIGIL" --db "$db" generate --subject /usr/bin/cat --uid 1000
	grep -qx 'vigil: generate: --subject /usr/bin/cat: no matches: none of its observations passes the filters (time window, --uid, --mntns, via)' "$cw/e"
	expect_rc 1 "$VIGIL" --db "$db" generate --subject /usr/bin/cat --since 2027-01-01
	expect_rc 1 "$VIGIL" --db "$db" generate --subject /usr/bin/cat --mntns 5
	expect_rc 1 "$VIGIL" --db "$db" diff --subject /usr/bin/cat --uid 1000 /dev/null
	grep -q 'no matches' "$cw/e"
	not grep -q 'No such file' "$cw/e"
}

# --sensitive - reads the list from standard input.
k_sensitive_stdin() {
	local db=$cw/sens.db
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log $fx/vigil-generate.log
	expect_rc 0 "$VIGIL" --db "$db" generate --subject /usr/bin/demo < /dev/null
	grep -q '^	file r /etc/demo/conf.d/\*$' "$cw/o"
	echo '/etc/demo/conf.d/c.conf' > "$cw/sens.list"
	expect_rc 0 "$VIGIL" --db "$db" generate --subject /usr/bin/demo --sensitive - < "$cw/sens.list"
	not grep -q '^	file r /etc/demo/conf.d/\*$' "$cw/o"
	grep -q '^	file r /etc/demo/conf.d/c.conf$' "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" generate --subject /usr/bin/demo --sensitive "$cw/sens.list"
	not grep -q '^	file r /etc/demo/conf.d/\*$' "$cw/o"
}

# status --format json: the mode and every counter, numbers as numbers;
# a value that is no number is a string, escaped; --format checked.
k_status_json() {
	local d
	d=$(fake_sfs)
	printf 'weird x\033]0;t\007y\n' >> "$d/stats"
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" status --format json
	json_strict "$cw/o"
	[ "$(jq -c . "$cw/o")" = '{"version":1,"mode":"learn","stats":{"records.seq":28,"records.lost":0,"weird":"x\u001b]0;t\u0007y"}}' ]
	not grep -q $'\e' "$cw/o"
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" status --format text
	grep -q '^mode learn$' "$cw/o"
	grep -qF 'weird x\x1b]0;t\x07y' "$cw/o"
	not grep -q $'\e' "$cw/o"
	VIGIL_SECURITYFS=$d expect_rc 2 "$VIGIL" status --format yaml
	grep -q '^vigil: status: --format yaml: unknown format (text or json)$' "$cw/e"
}

# diff --format json: every missing rule and unused line as an object,
# AppArmor's records, the counts; hostile names decoded exactly; the
# exit status as the text's.
k_diff_json() {
	local db d=$cw/diffjson
	db=$(hostile_db)
	rm -rf "$d"
	mkdir -p "$d"
	expect_rc 0 "$VIGIL" --db "$db" generate -o "$d/cand.policy"
	printf 'subject /usr/bin/never {\n\tfile r /never/used\n}\n' >> "$d/cand.policy"
	expect_rc 1 "$VIGIL" --db "$db" diff --format json "$d/cand.policy"
	json_strict "$cw/o"
	[ "$(wc -l < "$cw/o")" = 1 ]
	[ "$(jq '.version' "$cw/o")" = 1 ]
	[ "$(jq '.missing_count' "$cw/o")" = 13 ]
	[ "$(jq '.missing | length' "$cw/o")" = 13 ]
	[ "$(jq '.unused_count' "$cw/o")" = 1 ]
	[ "$(jq -c '.unused[0] | [.line, .rule, .subject, .unused_access, .partly_used]' "$cw/o")" = "[$(grep -n '^	file r /never/used$' "$d/cand.policy" | cut -d: -f1),\"file r /never/used\",\"/usr/bin/never\",\"r\",false]" ]
	[ "$(jq '.apparmor.allowed + .apparmor.denied' "$cw/o")" = 5 ]
	[ "$(jq '[.apparmor.records[].count] | add' "$cw/o")" = 5 ]
	jq -e '.apparmor.records[] | select(.object == "/etc/\u001b]0;PWNED\u0007\u001b[2J\u001b[31mx" and .verdict == "ALLOWED" and .profile == "tmp.plain")' "$cw/o" > /dev/null
	jq -e '.missing[] | select(.class and .access and .object and .count > 0 and (.first | test("Z$")) and (.uids | type == "array"))' "$cw/o" > /dev/null
	not grep -q $'\e' "$cw/o"
	# the same counts as the text
	expect_rc 1 "$VIGIL" --db "$db" diff "$d/cand.policy"
	grep -q '^13 needed but missing, 1 allowed but never used, 5 AppArmor records$' "$cw/o"
	expect_rc 2 "$VIGIL" --db "$db" diff --format csv "$d/cand.policy"
	rm -rf "$d"
}

# generate --format json: the rules with their evidence and the policy
# text (the same as without --format); hostile names exact (_hex beside a
# name that is not UTF-8); -o writes it; --update refuses it.
k_generate_json() {
	local db d=$cw/genjson
	db=$(hostile_db)
	rm -rf "$d"
	mkdir -p "$d/root"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$d/root" -o "$d/cand.policy"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$d/root" --format json
	json_strict "$cw/o"
	not grep -q $'\e' "$cw/o"
	cp "$cw/o" "$d/g.json"
	jq -j .policy "$d/g.json" > "$d/from-json.policy"
	diff -u "$d/cand.policy" "$d/from-json.policy"
	[ "$(jq '.subjects | length' "$d/g.json")" = "$(grep -c '^subject ' "$d/cand.policy")" ]
	[ "$(jq '[.subjects[].rules | length] | add' "$d/g.json")" -gt 0 ]
	[ "$(jq '[.subjects[] | select(.exe_hex) | .exe_hex[0:20]] | sort | join(" ")' "$d/g.json")" = '"2F746D702F626164FFFE 2F746D702F6E65770A6C"' ]
	jq -e '.subjects[] | select(.exe == "/tmp/\u001b]0;PWNED\u0007\u001b[2J\u001b[31mevil" and .exe_hex == null)' "$d/g.json" > /dev/null
	jq -e '.subjects[0].rules[0] | (.class | type == "string") and (.access | type == "string") and (.glob | type == "string") and (.count > 0) and (.examples | length > 0) and (.uids | type == "array")' "$d/g.json" > /dev/null
	[ "$(jq .records "$d/g.json")" = "$(sed -n 's/^# \([0-9]*\) records: .*/\1/p' "$d/cand.policy")" ]
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$d/root" --format json -o "$d/o.json"
	cmp "$d/g.json" "$d/o.json"
	# with --update the JSON goes to stdout: -o - cannot take the policy
	expect_rc 2 "$VIGIL" --db "$db" generate --format json --update "$d/cand.policy" -o -
	grep -q -- '--update: --format json writes the JSON to standard output: -o - does not apply' "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" generate --format xml
	rm -rf "$d"
}

# generate --update --format json (issue 26 §3): the candidate rewritten
# as without it, and on stdout one object with each change (kind, block,
# line, rule, evidence, the exact lines inserted), the counts and the
# updated policy; a hostile name learned after the candidate (escape
# sequences, a newline that would start a rule) stays one escaped object.
k_generate_update_json() {
	local db=$cw/updjson.db d=$cw/updjson t=1796290000 h
	rm -rf "$db"* "$d"
	mkdir -p "$d/root"
	kvd_run "$d/1.log" $t 811 1
	kvd_run "$d/1.log" $((t + 100)) 1207 11
	expect_rc 0 "$VIGIL" --db "$db" ingest "$d/1.log"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$d/root" -o "$d/c.policy"
	# the review: /etc/motd removed by hand
	sed -i -e '/^	# count 2, .*$/{N;/\n	file r \/etc\/motd$/d}' "$d/c.policy"
	not grep -q motd "$d/c.policy"
	h=$(printf '/var/lib/kvd/\e]0;x\a\n\tfile r /etc/shadow' | od -An -tx1 | tr -d ' \n' | tr a-f A-F)
	{
		echo "type=KERNEL_OTHER msg=audit($((t + 310)).000:41): vigil=1 seq=41 verdict=learned op=open access=r uid=0 exe=\"/usr/sbin/kvd\" path=\"/etc/kvd/extra.conf\" target=? pid=2210 comm=\"kvd\""
		echo "type=KERNEL_OTHER msg=audit($((t + 311)).000:42): vigil=1 seq=42 verdict=would-deny op=open access=r uid=0 exe=\"/usr/sbin/kvd\" path=\"/etc/kvd/modules.conf\" target=? pid=2210 comm=\"kvd\""
		echo "type=KERNEL_OTHER msg=audit($((t + 312)).000:43): vigil=1 seq=43 verdict=would-deny op=open access=r uid=0 exe=\"/usr/sbin/kvd\" path=\"/etc/shadow\" target=? pid=2210 comm=\"kvd\""
		echo "type=KERNEL_OTHER msg=audit($((t + 313)).000:44): vigil=1 seq=44 verdict=learned op=open access=w uid=0 exe=\"/usr/sbin/kvd\" path=$h target=? pid=2210 comm=\"kvd\""
	} > "$d/2.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$d/2.log"
	cp "$d/c.policy" "$d/text.policy"
	cp "$d/c.policy" "$d/c0.policy"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$d/root" --update "$d/text.policy"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$d/root" --update "$d/c.policy" --format json
	json_strict "$cw/o"
	not grep -q $'\e' "$cw/o"
	cp "$cw/o" "$d/u.json"
	# the candidate is written as without --format json; .policy is it
	diff -u "$d/text.policy" "$d/c.policy"
	jq -j .policy "$d/u.json" | cmp - "$d/c.policy"
	jq -e --arg c "$d/c.policy" '.candidate == $c and .written == $c and .added == 2 and .proposed == 1 and .left_out == 1 and .sensitive == 1 and .apparmor == {"merged":0,"optional":0,"other":0}' "$d/u.json" > /dev/null
	[ "$(jq -r '.changes | map(.kind + " " + .class + " " + .access + " " + .glob) | join("|")' "$d/u.json")" = \
		'added file r /etc/kvd/extra.conf|proposed file r /etc/kvd/modules.conf|left_out file r /etc/motd|sensitive file r /etc/shadow|added file w /var/lib/kvd/\x1b]0;x\x07\x0a\x09file\ r\ /etc/shadow' ]
	jq -e '.changes[] | select(.kind == "proposed") | .count == 1 and .first == "2026-12-03T09:31:51Z" and .uids == [0] and .subject == "/usr/sbin/kvd" and .via == null' "$d/u.json" > /dev/null
	jq -e '.changes[] | select(.kind == "left_out") | .count == null and (.text | startswith("\t# vigil: left out: file r /etc/motd\t# "))' "$d/u.json" > /dev/null
	# each change's text is in the candidate, before the line it names
	# (numbered in the candidate as it was)
	for i in $(seq 0 4); do
		jq -j ".changes[$i].text" "$d/u.json" > "$d/t"
		grep -qxF -f "$d/t" "$d/c.policy"
		[ "$(sed -n "$(jq ".changes[$i].line" "$d/u.json")p" "$d/c0.policy" | grep -c '^	file \|^	# count \|^	# why\|^}')" = 1 ]
	done
	expect_rc 0 "$VIGIL" load -n "$d/c.policy"
	# -o FILE: written there, named in the JSON; the candidate untouched
	cp "$d/c0.policy" "$d/c.policy"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$d/root" --update "$d/c.policy" --format json -o "$d/new.policy"
	cmp "$d/c.policy" "$d/c0.policy"
	jq -e --arg n "$d/new.policy" '.written == $n' "$cw/o" > /dev/null
	diff -u "$d/text.policy" "$d/new.policy"
}

# --boot list --format json (generate and report): the boots as objects.
k_boot_list_json() {
	local db=$cw/bootjson.db want
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-boots.log
	want='{"version":1,"database":"'$db'","boots":[{"number":1,"from_latest":-2,"first":"2026-12-03T09:26:41Z","last":"2026-12-03T09:26:46Z","first_ms":1796290001100,"last_ms":1796290006000,"records":5},{"number":2,"from_latest":-1,"first":"2026-12-03T09:28:20Z","last":"2026-12-03T09:28:20Z","first_ms":1796290100000,"last_ms":1796290100500,"records":2},{"number":3,"from_latest":0,"first":"2026-12-03T09:30:00Z","last":"2026-12-03T09:30:00Z","first_ms":1796290200000,"last_ms":1796290200000,"records":1}]}'
	expect_rc 0 "$VIGIL" --db "$db" generate --boot list --format json
	json_strict "$cw/o"
	[ "$(cat "$cw/o")" = "$want" ]
	expect_rc 0 "$VIGIL" --db "$db" report --boot list --format json
	[ "$(cat "$cw/o")" = "$want" ]
	# the text as it was
	expect_rc 0 "$VIGIL" --db "$db" generate --boot list
	grep -q '^3 0 2026-12-03T09:30:00Z .. 2026-12-03T09:30:00Z 1$' "$cw/o"
	rm -f "$db"*
}

# snapshot --format json: the summary line's figures as one object.
k_snapshot_json() {
	local d db=$cw/snapjson.db
	d=$(fake_sfs)
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log
	{
		echo '12 learned open r 3 1796284356 1796284400 0 /usr/bin/cat /etc/hostname'
		echo '99 learned open r 1 1796284357 1796284357 0 /usr/bin/cat /etc/lost'
		echo 'garbage line'
	} > "$d/learned"
	printf 'mode learn\ntable.pin_refused 37\n' > "$d/stats"
	VIGIL_SECURITYFS=$d expect_rc 1 "$VIGIL" --db "$db" snapshot --format json
	json_strict "$cw/o"
	[ "$(jq -c '[.version, .snapshot, .tuples, .missing, .malformed, .pin_refused]' "$cw/o")" = '[1,1,2,1,1,37]' ]
	jq -e '(.audit_lost == null or (.audit_lost | type == "number")) and (.host | type == "string")' "$cw/o" > /dev/null
	grep -q 'learned:3: malformed tuple' "$cw/e"
	VIGIL_SECURITYFS=$d expect_rc 2 "$VIGIL" --db "$db" snapshot --format html
	[ "$(count "$db" 'SELECT count(*) FROM snapshots')" = 1 ]
	rm -f "$db"*
}

# trial --report --format json: the target's and vigil's would-be denials
# as one object, the counts and exit status as the text's; hostile names
# exact in vigil's list, as terminal text in the target's notes.
k_trial_report_json() {
	local db d=$cw/trialjson
	db=$(hostile_db)
	rm -rf "$d"
	mkdir -p "$d"
	printf 'start 1\ncandidate /x.policy\nprofile tmp.plain\t%s\t/tmp/plain\nsubject /tmp/plain\n' \
		"$d/tmp.plain" > "$d/trial.state"
	expect_rc 1 "$VIGIL" --db "$db" trial --report "$d" --format json
	json_strict "$cw/o"
	not grep -q $'\e' "$cw/o"
	[ "$(jq -c '[.version, .target, .start_ms, .target_count, .vigil_count, (.target_denied | length), (.vigil_would_deny | length)]' "$cw/o")" = '[1,"AppArmor",1,5,3,5,3]' ]
	jq -e '.target_denied | index("tmp.plain: open /etc/\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mx (r)")' "$cw/o" > /dev/null
	jq -e '.vigil_would_deny[] | select(.exe == "/tmp/plain" and .op == "open" and .access == "w" and .object_hex == "2F746D702F655F7B317D5E3240FFC328" and .count == 1)' "$cw/o" > /dev/null
	expect_rc 1 "$VIGIL" --db "$db" trial --report "$d"
	grep -q '^5 AppArmor, 3 vigil would-be denials' "$cw/o"
	expect_rc 2 "$VIGIL" --db "$db" trial --stop "$d" --format json
	grep -q 'format json: only with --report' "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" trial --report "$d" --format xml
	rm -rf "$d"
}

# bash completion: --format offered by every verb that has it, with the
# formats that verb takes.
k_completion_format() {
	bash -c '
		. "$1"
		for v in status snapshot diff generate trial subjects report; do
			COMP_WORDS=("$2" "$v" --fo); COMP_CWORD=2; _vigil
			[ "${COMPREPLY[*]}" = --format ] || { echo "$v: ${COMPREPLY[*]}"; exit 1; }
		done
		COMP_WORDS=("$2" status --format ""); COMP_CWORD=3; _vigil
		[ "${COMPREPLY[*]}" = "text json" ]
		COMP_WORDS=("$2" report --format ""); COMP_CWORD=3; _vigil
		[ "${COMPREPLY[*]}" = "html text json" ]
	' - analyzer/vigil.bash-completion "$VIGIL"
}

# ingest --checkpoint FILE (as ausearch's): the newest event of each node
# kept in FILE after a run; the next run skips what is older; a bad FILE
# is refused before a database is made.
k_ingest_checkpoint() {
	local db=$cw/cp.db cp=$cw/cp.state
	rm -f "$db"* "$cp" "$cw/cp2.db"*
	# (a pipe: a redirected file would be resumed by its position)
	cat $fx/vigil-learn.log |
		expect_rc 0 "$VIGIL" --db "$db" ingest --checkpoint "$cp" -
	[ "$(grep -v '^#' "$cp")" = '- 1796284357701 73' ]
	# the same stream again: only the checkpoint's own event is read
	cat $fx/vigil-learn.log |
		expect_rc 0 "$VIGIL" --db "$db" ingest --checkpoint "$cp" -
	grep -q '^vigil ingest: 1 events read, 0 vigil records stored, 1 duplicates skipped' "$cw/o"
	# old and new: the new records only
	cat $fx/vigil-learn.log $fx/vigil-generate.log |
		expect_rc 0 "$VIGIL" --db "$db" ingest --checkpoint "$cp" -
	grep -q ' 40 vigil records stored, 1 duplicates skipped' "$cw/o"
	[ "$(count "$db" 'SELECT count(*) FROM records')" = 60 ]
	[ "$(grep -v '^#' "$cp")" = '- 1796290040540 540' ]
	# one line per node
	sed 's/^type=/node=hostA type=/' $fx/vigil-learn.log |
		expect_rc 0 "$VIGIL" --db "$db" ingest --checkpoint "$cp" -
	grep -q '^hostA 1796284357701 73$' "$cp"
	grep -q '^- 1796290040540 540$' "$cp"
	echo 'not a checkpoint' > "$cw/bad.state"
	expect_rc 2 "$VIGIL" --db "$cw/cp2.db" ingest --checkpoint "$cw/bad.state" $fx/vigil-learn.log
	grep -q "^vigil: ingest: --checkpoint $cw/bad.state:1: not 'NODE TIME_MS SERIAL'\$" "$cw/e"
	[ ! -e "$cw/cp2.db" ]
	rm -f "$db"* "$cp" "$cw/bad.state"
}

# ingest without a file reads auditd's log_file (auditd.conf, here
# $VIGIL_AUDITD_CONF) and its rotations, oldest first.
k_ingest_auditd_conf() {
	local d=$cw/auditconf
	rm -rf "$d"
	mkdir -p "$d/log"
	cp $fx/vigil-learn.log "$d/log/my.log.1"
	cp $fx/vigil-generate.log "$d/log/my.log"
	printf '# auditd.conf\nlocal_events = yes\n  log_file =  %s/log/my.log  \nlog_format = ENRICHED\n' "$d" > "$d/auditd.conf"
	VIGIL_AUDITD_CONF=$d/auditd.conf expect_rc 0 "$VIGIL" --db "$d/v.db" ingest
	[ "$(count "$d/v.db" 'SELECT count(*) FROM records')" = 60 ]
	[ "$(count "$d/v.db" 'SELECT group_concat(path, " ") FROM (SELECT path FROM sources ORDER BY rowid)')" = "$d/log/my.log.1 $d/log/my.log" ]
	# a relative log_file: said, the default read
	printf 'log_file = my.log\n' > "$d/rel.conf"
	# (exit 2 unless this machine has that log: not checked)
	VIGIL_AUDITD_CONF=$d/rel.conf "$VIGIL" --db "$d/w.db" ingest \
		> "$cw/o" 2> "$cw/e" || true
	grep -q "rel.conf:1: log_file my.log is not an absolute path: reading /var/log/audit/audit.log" "$cw/e"
	rm -rf "$d"
}

# report, subjects and diff --checkpoint FILE (ausearch's): the first run
# reads every record and leaves the newest of each host in FILE; a later
# one reads only the records after it, per host (two hosts' serials are
# the same numbers); a damaged FILE is named with its line (exit 2) and
# kept as it was.
k_checkpoint_readers() {
	local db=$cw/cpr.db cp=$cw/cpr.state d=$cw/cpr
	rm -rf "$db"* "$cp" "$d"
	mkdir -p "$d"
	{
		sed 's/^type=/node=web1 type=/' $fx/vigil-learn.log
		sed 's/^type=/node=web2 type=/' $fx/vigil-learn.log
	} > "$d/a.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$d/a.log"
	expect_rc 0 "$VIGIL" --db "$db" generate --all-nodes
	cp "$cw/o" "$d/c.policy"
	expect_rc 0 "$VIGIL" --db "$db" subjects --all-nodes --format json --checkpoint "$cp"
	[ "$(jq '[.subjects[].records] | add' "$cw/o")" = 38 ]
	[ "$(grep -v '^#' "$cp")" = "$(printf 'web1 1796284357701 73\nweb2 1796284357701 73')" ]
	# nothing new: no matches, the file as it was
	cp "$cp" "$d/cp0"
	expect_rc 1 "$VIGIL" --db "$db" subjects --all-nodes --checkpoint "$cp"
	grep -q '^vigil: subjects: no matches: no record since the checkpoint$' "$cw/e"
	cmp "$cp" "$d/cp0"
	# web1 later; web2 at its cut-off's time with the next serial, and
	# again with the cut-off's own serial (an event read already)
	{
		sed 's/^type=/node=web1 type=/' $fx/vigil-generate.log | sed -n 1,2p
		echo 'node=web2 type=KERNEL_OTHER msg=audit(1796284357.701:74): vigil=1 seq=2001 verdict=learned op=exec access=x uid=0 exe="/usr/bin/zsh" path="/usr/bin/z1" target=? pid=690 comm="zsh"'
		echo 'node=web2 type=KERNEL_OTHER msg=audit(1796284357.701:73): vigil=1 seq=2002 verdict=learned op=exec access=x uid=0 exe="/usr/bin/old" path="/usr/bin/z2" target=? pid=691 comm="old"'
	} > "$d/b.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$d/b.log"
	expect_rc 0 "$VIGIL" --db "$db" subjects --all-nodes --format json --checkpoint "$cp"
	[ "$(jq -r '[.subjects[] | "\(.exe):\(.records)"] | sort | join(" ")' "$cw/o")" = '/usr/bin/bash:2 /usr/bin/zsh:1' ]
	[ "$(grep -v '^#' "$cp")" = "$(printf 'web1 1796290002502 502\nweb2 1796284357701 74')" ]
	# report: --node moves that host's cut-off only; the next run of
	# the same question reads nothing
	printf '# hand made\nweb2 1796284357701 73\n' > "$d/cp2"
	expect_rc 0 "$VIGIL" --db "$db" report --node web1 --format json --checkpoint "$d/cp2"
	[ "$(jq .records "$cw/o")" = 22 ]
	[ "$(grep -v '^#' "$d/cp2")" = "$(printf 'web1 1796290002502 502\nweb2 1796284357701 73')" ]
	expect_rc 0 "$VIGIL" --db "$db" report --node web2 --format json --checkpoint "$d/cp2"
	[ "$(jq -r '[.subjects[].exe] | join(" ")' "$cw/o")" = /usr/bin/zsh ]
	expect_rc 0 "$VIGIL" --db "$db" report --all-nodes --format json --checkpoint "$d/cp2"
	[ "$(jq .records "$cw/o")" = 0 ]
	# diff: what the new records need, no rule called unused
	expect_rc 1 "$VIGIL" --db "$db" diff --all-nodes --checkpoint "$d/cp3" "$d/c.policy"
	grep -q 'allowed but never used' "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" diff --all-nodes --checkpoint "$d/cp3" "$d/c.policy"
	grep -q '^0 needed but missing since the checkpoint$' "$cw/o"
	sed 's/^type=/node=web1 type=/' $fx/vigil-generate.log | sed -n 3,6p > "$d/c.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$d/c.log"
	expect_rc 1 "$VIGIL" --db "$db" diff --all-nodes --checkpoint "$d/cp3" "$d/c.policy"
	grep -q '^subject /usr/bin/demo ' "$cw/o"
	grep -q '^2 needed but missing since the checkpoint$' "$cw/o"
	not grep -q 'never used' "$cw/o"
	grep -q '^web1 1796290006506 506$' "$d/cp3"
	# a damaged file: FILE:LINE, exit 2, nothing read or written
	printf 'web1 1796290002502 502\nweb2 17962843577O1 74\n' > "$d/bad"
	cp "$d/bad" "$d/bad0"
	expect_rc 2 "$VIGIL" --db "$db" report --all-nodes --format text --checkpoint "$d/bad"
	grep -q "^vigil: report: --checkpoint $d/bad:2: not 'NODE TIME_MS SERIAL'\$" "$cw/e"
	[ ! -s "$cw/o" ]
	cmp "$d/bad" "$d/bad0"
	printf '# two\nweb1 1 1\n\nweb1 2 2\n' > "$d/bad"
	expect_rc 2 "$VIGIL" --db "$db" subjects --all-nodes --checkpoint "$d/bad"
	grep -q "^vigil: subjects: --checkpoint $d/bad:4: NODE twice\$" "$cw/e"
	printf 'web1 1 1 1\n' > "$d/bad"
	expect_rc 2 "$VIGIL" --db "$db" diff --all-nodes --checkpoint "$d/bad" "$d/c.policy"
	grep -q "^vigil: diff: --checkpoint $d/bad:1: not 'NODE TIME_MS SERIAL'\$" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" subjects --all-nodes --checkpoint "$d/none/cp"
	grep -q "^vigil: subjects: --checkpoint $d/none/cp: No such file or directory\$" "$cw/e"
	rm -rf "$db"* "$cp" "$d"
}

# A host's name is written so that the file reads back: records without
# node= as -, a space or a control byte (and a host named -) as \ooo.
k_checkpoint_names() {
	local db=$cw/cpn.db d=$cw/cpn
	rm -rf "$db"* "$d"
	mkdir -p "$d"
	{
		cat $fx/vigil-learn.log
		sed 's/^type=/node=- type=/' $fx/vigil-learn.log
		sed 's/^type=/node=a\\b type=/' $fx/vigil-learn.log
	} > "$d/a.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$d/a.log"
	[ "$(count "$db" 'SELECT count(DISTINCT node) FROM records')" = 3 ]
	expect_rc 0 "$VIGIL" --db "$db" subjects --all-nodes --checkpoint "$d/cp"
	[ "$(grep -v '^#' "$d/cp")" = "$(printf -- '- 1796284357701 73\n\\055 1796284357701 73\na\\134b 1796284357701 73')" ]
	expect_rc 1 "$VIGIL" --db "$db" subjects --all-nodes --checkpoint "$d/cp"
	printf 'a\\9b 1 1\n' > "$d/bad"
	expect_rc 2 "$VIGIL" --db "$db" subjects --all-nodes --checkpoint "$d/bad"
	grep -q "^vigil: subjects: --checkpoint $d/bad:1: NODE: a byte not printable ASCII or a bad" "$cw/e"
	rm -rf "$db"* "$d"
}

t_cli k_readonly_no_wal k_readonly_no_wal
t_cli k_port_leading_zero k_port_leading_zero
t_cli k_repeated_block k_repeated_block
t_cli k_filter_no_matches k_filter_no_matches
t_cli k_sensitive_stdin k_sensitive_stdin
t_cli k_generate_window k_generate_window
t_cli k_version k_version
t_cli k_subjects k_subjects
t_cli k_subject_basename k_subject_basename
t_cli k_report_no_overwrite k_report_no_overwrite
t_cli k_datadir_rebuild k_datadir_rebuild
t_cli k_exit_status_doc k_exit_status_doc
t_cli k_status_json k_status_json
t_cli k_diff_json k_diff_json
t_cli k_generate_json k_generate_json
t_cli k_generate_update_json k_generate_update_json
t_cli k_boot_list_json k_boot_list_json
t_cli k_snapshot_json k_snapshot_json
t_cli k_trial_report_json k_trial_report_json
t_cli k_completion_format k_completion_format
t_cli k_ingest_checkpoint k_ingest_checkpoint
t_cli k_ingest_auditd_conf k_ingest_auditd_conf
t_cli k_checkpoint_readers k_checkpoint_readers
t_cli k_checkpoint_names k_checkpoint_names
