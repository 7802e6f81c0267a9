# Command-line traps of issue 15, each one reproduced: sourced by
# tests/unit/run after cli.sh (its helpers: t_cli, expect_rc, count,
# fake_sfs, $VIGIL, $cw, $fx), once per build.
# shellcheck shell=bash

# A database of the fixtures, made once per build.
trap_db() {
	local db=$cw/traps.db
	if [ ! -s "$db" ]; then
		"$VIGIL" --db "$db" ingest $fx/vigil-learn.log \
			$fx/vigil-generate.log > /dev/null
	fi
	echo "$db"
}

# Run CMD as an unprivileged user when we are root (nobody), else as is.
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
	else
		"$@"
	fi
}

# vigil --help prints every verb of the command table (--verbs).
t15_help_lists_verbs() {
	local v n=0
	expect_rc 0 "$VIGIL" --verbs
	cp "$cw/o" "$cw/verbs"
	expect_rc 0 "$VIGIL" --help
	while read -r v; do
		grep -Eq "^  $v( |$)" "$cw/o"
		n=$((n + 1))
	done < "$cw/verbs"
	[ "$n" -ge 11 ]
	grep -q '^  report ' "$cw/o"
	# each verb's help exits 0 and the help fits 80 columns
	while read -r v; do
		expect_rc 0 "$VIGIL" "$v" -h
	done < "$cw/verbs"
	[ "$("$VIGIL" --help | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 80 ]
}

# --db is accepted after every verb (before its -h).
t15_db_after_every_verb() {
	local v
	"$VIGIL" --verbs > "$cw/verbs"
	[ -s "$cw/verbs" ]
	while read -r v; do
		expect_rc 0 "$VIGIL" "$v" --db "$cw/unused.db" -h
	done < "$cw/verbs"
	[ ! -e "$cw/unused.db" ]
}

# generate -o never replaces a non-regular file: a device and a FIFO are
# written through, a symlink's target is replaced (the link stays), a
# folder is refused.
t15_generate_output_nonregular() {
	local db d=$cw/genout
	db=$(trap_db)
	rm -rf "$d"
	mkdir -p "$d"
	expect_rc 0 "$VIGIL" --db "$db" generate -o "$d/ref.policy"
	# a character device (a copy of /dev/null's, so that a broken vigil
	# cannot replace the real one); only root may make one
	if [ "$(id -u)" = 0 ]; then
		mknod "$d/null" c 1 3
		expect_rc 0 "$VIGIL" --db "$db" generate -o "$d/null"
		[ -c "$d/null" ]
	fi
	[ -c /dev/null ]
	expect_rc 0 "$VIGIL" --db "$db" generate -o /dev/null
	[ -c /dev/null ]
	# a FIFO: its reader gets the policy, the FIFO stays
	mkfifo "$d/fifo"
	cat "$d/fifo" > "$d/fifo.out" &
	expect_rc 0 "$VIGIL" --db "$db" generate -o "$d/fifo"
	wait
	[ -p "$d/fifo" ]
	# (the blast radius comments count live /proc entries: not compared)
	diff <(grep -v 'blast radius' "$d/ref.policy") <(grep -v 'blast radius' "$d/fifo.out")
	# a symlink: stays a link, its target gets the policy
	echo old > "$d/target"
	ln -s target "$d/link"
	expect_rc 0 "$VIGIL" --db "$db" generate -o "$d/link"
	[ -L "$d/link" ]
	diff <(grep -v 'blast radius' "$d/ref.policy") <(grep -v 'blast radius' "$d/target")
	# no temporary file left beside any of them
	ls "$d" | grep -v '^null$' > "$cw/genout.ls"
	printf 'fifo\nfifo.out\nlink\nref.policy\ntarget\n' | diff - "$cw/genout.ls"
	# a folder: refused
	mkdir "$d/dir"
	expect_rc 2 "$VIGIL" --db "$db" generate -o "$d/dir"
	grep -q "^vigil: generate: $d/dir: Is a directory" "$cw/e"
}

# Another program's SQLite file is refused by every verb and left
# byte-identical: no table, user_version or WAL added.
t15_foreign_sqlite_refused() {
	local d f=$cw/other.db v
	rm -f "$f"*
	sqlite3 "$f" 'CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES (1);'
	cp "$f" "$cw/other.orig"
	expect_rc 2 "$VIGIL" --db "$f" ingest $fx/vigil-learn.log
	grep -q "^vigil: ingest: --db $f: not a vigil database" "$cw/e"
	printf 'subject /usr/bin/x {\n\tfile r /etc/hostname\n}\n' > "$cw/ok.policy"
	for v in report generate "export --to apparmor -o $cw" "diff $cw/ok.policy"; do
		# shellcheck disable=SC2086
		expect_rc 2 "$VIGIL" --db "$f" $v
		grep -q "not a vigil database" "$cw/e"
	done
	d=$(fake_sfs)
	echo '# seq verdict op access count first last uid exe object' > "$d/learned"
	VIGIL_SECURITYFS=$d expect_rc 2 "$VIGIL" --db "$f" snapshot
	grep -q "not a vigil database" "$cw/e"
	cmp "$f" "$cw/other.orig"
	[ ! -e "$f-wal" ]
	[ ! -e "$f-shm" ]
	[ "$(sqlite3 "$f" 'PRAGMA user_version')" = 0 ]
	[ "$(sqlite3 "$f" 'PRAGMA journal_mode')" = delete ]
	# a file that is not SQLite at all: refused, named
	echo 'just text, not a database' > "$cw/text.db"
	expect_rc 2 "$VIGIL" --db "$cw/text.db" report
	grep -q "not a vigil database (not an SQLite file)" "$cw/e"
}

# Read-only verbs work on a database the user may only read, in a folder
# it may not write, and never write to it; nothing makes a database when
# there is nothing to store.
t15_readonly_database() {
	local db ro f rc
	db=$(trap_db)
	ro=$(mktemp -d /tmp/vigil-ro.XXXXXX)
	sqlite3 "$db" 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null
	cp "$db" "$ro/v.db"
	chmod 444 "$ro/v.db"
	chmod 555 "$ro"
	cp "$ro/v.db" "$cw/ro.orig"
	f=$(mktemp -d /tmp/vigil-ro-out.XXXXXX)
	chmod 777 "$f"
	as_user "$VIGIL" --db "$ro/v.db" report --format text > "$cw/ro.txt"
	grep -q '^vigil report: ' "$cw/ro.txt"
	as_user "$VIGIL" --db "$ro/v.db" generate -o "$f/g.policy"
	grep -q '^subject ' "$f/g.policy"
	# (exit 1: the would-be denial is not in the candidate)
	rc=0
	as_user "$VIGIL" --db "$ro/v.db" diff "$f/g.policy" > "$cw/ro.diff" || rc=$?
	[ $rc = 1 ]
	grep -q '^1 needed but missing, 0 allowed but never used$' "$cw/ro.diff"
	as_user "$VIGIL" --db "$ro/v.db" export --to apparmor -o "$f" > /dev/null
	as_user "$VIGIL" --db "$ro/v.db" export --to apparmor -o "$f" "$f/g.policy" > /dev/null
	as_user "$VIGIL" --db "$ro/v.db" report -o "$f/html" > /dev/null
	[ -s "$f/html/index.html" ]
	cmp "$ro/v.db" "$cw/ro.orig"
	[ "$(ls "$ro")" = v.db ]
	chmod 755 "$ro"
	rm -rf "$ro" "$f"
	# a missing database is never created by a reader, nor by ingest
	# of nothing readable
	for v in report generate "diff $cw/none.policy" "export --to apparmor -o $cw"; do
		# shellcheck disable=SC2086
		expect_rc 2 "$VIGIL" --db "$cw/none.db" $v
		[ ! -e "$cw/none.db" ]
	done
	expect_rc 2 "$VIGIL" --db "$cw/none.db" ingest /nonexistent
	grep -q '^vigil: ingest: /nonexistent: No such file or directory' "$cw/e"
	[ ! -e "$cw/none.db" ]
}

# report: text and JSON go to -o FILE; bad dates, an empty window and an
# unknown subject are usage errors (exit 2) naming the bad value.
t15_report_options() {
	local db
	db=$(trap_db)
	rm -f "$cw/r.txt" "$cw/r.json"
	expect_rc 0 "$VIGIL" --db "$db" report --format text
	cp "$cw/o" "$cw/r.stdout"
	expect_rc 0 "$VIGIL" --db "$db" report --format text -o "$cw/r.txt"
	cmp "$cw/r.stdout" "$cw/r.txt"
	[ ! -s "$cw/o" ]
	expect_rc 0 "$VIGIL" --db "$db" report --format json -o "$cw/r.json"
	[ "$(jq .records "$cw/r.json")" = "$(count "$db" 'SELECT count(*) FROM records')" ]
	expect_rc 2 "$VIGIL" --db "$db" report --since 2026-02-30
	grep -q "2026-02-30" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" report --until 2025-04-31T10:00
	expect_rc 0 "$VIGIL" --db "$db" report --format json --since 2024-02-29
	expect_rc 2 "$VIGIL" --db "$db" report --since 2026-12-03 --until 2026-12-01
	grep -q "^vigil: report: --since is after --until" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" report --format text --subject /no/such
	grep -q "^vigil: report: subject '/no/such' was never observed" "$cw/e"
	expect_rc 0 "$VIGIL" --db "$db" report --format text --subject /usr/bin/cat
	expect_rc 2 "$VIGIL" --db "$db" report --format xml
	grep -q "^vigil: report: --format xml: unknown format" "$cw/e"
}

# The text report marks every cut: a subject or object cut from the left
# starts with "...", no sentence is cut, and it fits 80 columns.
t15_report_text_cuts() {
	local d db=$cw/cuts.db long=/tmp/vigil-demo/a/rather/long/folder/name/for/the/program/of/the/demo/bin/demo-server
	rm -f "$db"*
	cp "$(trap_db)" "$db"
	sqlite3 "$db" "UPDATE records SET exe = '$long', object = '$long.conf' WHERE exe = '/usr/bin/cat'"
	d=$(fake_sfs)
	printf '# seq verdict op access count first last uid exe object\n' > "$d/learned"
	for i in 4 5 6 7 8; do
		echo "$i learned open r 1 1796284357 1796284357 0 /usr/bin/lost /etc/lost$i" >> "$d/learned"
	done
	VIGIL_SECURITYFS=$d expect_rc 1 "$VIGIL" --db "$db" snapshot
	expect_rc 0 "$VIGIL" --db "$db" report --format text
	[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$cw/o")" -le 80 ]
	grep -q "^\.\.\.${long: -33} " "$cw/o"
	grep -q "^  \.\.\.${long: -58}\.conf " "$cw/o"
	# the loss sentence is whole: joined again, it ends as JSON says
	tr '\n' ' ' < "$cw/o" | tr -s ' ' > "$cw/joined"
	grep -q 'lost records: 5 of 5 kernel tuples (seq at or below the last ingested, [0-9]*), and 0 not ingested yet (seq above it: run vigil ingest); seq gaps: [0-9]*' "$cw/joined"
	# no line ends in the middle of a word cut without a marker: every
	# subject line is a whole name or starts with ...
	awk 'f && NF == 0 { exit } f { print $1 } /^subject /{ f = 1 }' "$cw/o" > "$cw/names"
	[ -s "$cw/names" ]
	if grep -v '^/\|^\.\.\.\|^?' "$cw/names"; then return 1; fi
}

# Loss: a kernel tuple without a record is lost when its seq is at or
# below the last one ingested, only not ingested yet above it.
t15_report_lost_vs_not_ingested() {
	local d db=$cw/loss.db
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log
	d=$(fake_sfs)
	{
		echo '# seq verdict op access count first last uid exe object'
		echo '12 learned open r 3 1796284356 1796284400 0 /usr/bin/cat /etc/hostname'
		echo '5 learned open r 1 1796284357 1796284357 0 /usr/bin/cat /etc/lost-below'
		for s in 40 41 42; do
			echo "$s learned open r 1 1796284357 1796284357 0 /usr/bin/cat /etc/later$s"
		done
	} > "$d/learned"
	VIGIL_SECURITYFS=$d expect_rc 1 "$VIGIL" --db "$db" snapshot
	expect_rc 0 "$VIGIL" --db "$db" report --format json
	[ "$(jq .snapshot.missing "$cw/o")" = 4 ]
	[ "$(jq .snapshot.lost "$cw/o")" = 1 ]
	[ "$(jq .snapshot.not_ingested "$cw/o")" = 3 ]
	[ "$(jq .snapshot.last_ingested_seq "$cw/o")" = 28 ]
	expect_rc 0 "$VIGIL" --db "$db" report --format text
	tr '\n' ' ' < "$cw/o" | tr -s ' ' > "$cw/joined"
	grep -q 'lost records: 1 of 5 kernel tuples (seq at or below the last ingested, 28), and 3 not ingested yet' "$cw/joined"
	# only not ingested yet: the HTML page does not warn of loss
	grep -v 'lost-below' "$d/learned" > "$d/l2"
	mv "$d/l2" "$d/learned"
	VIGIL_SECURITYFS=$d expect_rc 1 "$VIGIL" --db "$db" snapshot
	expect_rc 0 "$VIGIL" --db "$db" report --format json
	[ "$(jq .snapshot.lost "$cw/o")" = 0 ]
	[ "$(jq .snapshot.not_ingested "$cw/o")" = 3 ]
}

# The snapshot stores audit's own lost counter (AUDIT_GET through
# libaudit) and the report shows it. Read for real from this machine's
# kernel and compared with auditctl -s; as nobody it cannot be read
# (EPERM): stored as NULL, said so, the snapshot still taken.
# VIGIL_AUDIT_LOST stands for the kernel's answer where a fixed one is
# needed.
t15_snapshot_audit_lost() {
	local d db=$cw/alost.db a b u v
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log
	d=$(fake_sfs)
	{
		echo '# seq verdict op access count first last uid exe object'
		echo '12 learned open r 3 1796284356 1796284400 0 /usr/bin/cat /etc/hostname'
	} > "$d/learned"
	if [ "$(id -u)" = 0 ] && a=$(auditctl -s 2> /dev/null | sed -n 's/^lost //p') && [ -n "$a" ]; then
		VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" --db "$db" snapshot
		b=$(auditctl -s | sed -n 's/^lost //p')
		grep -q "; 0 malformed; audit lost [0-9]* records since boot$" "$cw/o"
		v=$(count "$db" 'SELECT audit_lost FROM snapshots ORDER BY id DESC LIMIT 1')
		[ "$v" -ge "$a" ] && [ "$v" -le "$b" ]
		expect_rc 0 "$VIGIL" --db "$db" report --format json
		[ "$(jq .snapshot.audit_lost "$cw/o")" = "$v" ]
	else
		echo "# no auditctl -s here: the real reading is not compared"
	fi
	# an unprivileged snapshot: the counter cannot be read
	u=$(mktemp -d /tmp/vigil-alost.XXXXXX)
	mkdir "$u/sfs" "$u/db"
	cp "$d"/* "$u/sfs/"
	chmod -R a+rX "$u"
	chmod 777 "$u/db"
	VIGIL_SECURITYFS=$u/sfs as_user "$VIGIL" --db "$u/db/a.db" snapshot > "$cw/o" 2> "$cw/e" || true
	grep -q "^vigil: snapshot: warning: audit's own lost counter not read: Operation not permitted$" "$cw/e"
	grep -q "; audit's lost counter not read$" "$cw/o"
	[ "$(count "$u/db/a.db" 'SELECT audit_lost IS NULL FROM snapshots')" = 1 ]
	rm -rf "$u"
	# a fixed answer: JSON, text and HTML show it; loss is warned of
	VIGIL_AUDIT_LOST=42 VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" --db "$db" snapshot
	grep -q '; audit lost 42 records since boot$' "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" report --format json
	[ "$(jq .snapshot.audit_lost "$cw/o")" = 42 ]
	[ "$(jq .snapshot.lost "$cw/o")" = 0 ]
	expect_rc 0 "$VIGIL" --db "$db" report --format text
	tr '\n' ' ' < "$cw/o" | tr -s ' ' > "$cw/joined"
	grep -q "audit's own lost counter at the snapshot: 42 since boot" "$cw/joined"
	VIGIL_AUDIT_LOST=EPERM VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" --db "$db" snapshot
	expect_rc 0 "$VIGIL" --db "$db" report --format json
	[ "$(jq .snapshot.audit_lost "$cw/o")" = null ]
}

# Convergence and random names: a service that makes a new mktemp name on
# every run converges once it does nothing else new (generate folds those
# names into one state.* rule); one that makes a truly new access in
# its last run is still learning. Ten runs, 100 s apart.
t15_report_converged_random_names() {
	local db=$cw/conv.db log=$cw/conv.log i t seq=1 names
	names=(Ab3dE9 x9Kq2M Qw7eRt Z1x2C3 mN8bV6 pL0kJ4 hG5fD2 tY6uI1 oP3aS7 cV9bN0)
	rm -f "$db"* "$log"
	rec() { # TIME EXE OP ACCESS PATH
		printf 'type=KERNEL_OTHER msg=audit(%s.%03d:%d): vigil=1 seq=%d verdict=learned op=%s access=%s uid=0 exe="%s" path="%s" target=? pid=%d comm="%s"\n' \
			"$1" $((seq % 1000)) "$seq" "$seq" "$3" "$4" "$2" "$5" $((1000 + seq)) "${2##*/}" >> "$log"
		seq=$((seq + 1))
	}
	for i in 0 1 2 3 4 5 6 7 8 9; do
		t=$((1796300000 + i * 100))
		for x in rndsvc grower; do
			if [ $i = 0 ]; then
				rec $t /usr/bin/$x open r /etc/$x.conf
			fi
			rec $t /usr/bin/$x create c /var/lib/$x/state.${names[$i]}
		done
	done
	rec 1796300900 /usr/bin/grower open r /etc/grower-new.conf
	expect_rc 0 "$VIGIL" --db "$db" ingest "$log"
	# generate folds the names: one rule each
	mkdir -p "$cw/convroot"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/convroot"
	[ "$(grep -c 'state\.\*$' "$cw/o")" = 2 ]
	expect_rc 0 "$VIGIL" --db "$db" report --format json
	[ "$(jq -r '.subjects[] | select(.exe == "/usr/bin/rndsvc") | .converged' "$cw/o")" = true ]
	[ "$(jq -r '.subjects[] | select(.exe == "/usr/bin/rndsvc") | .last_new_ms' "$cw/o")" = 1796300000002 ]
	[ "$(jq -r '.subjects[] | select(.exe == "/usr/bin/grower") | .converged' "$cw/o")" = false ]
	[ "$(jq -r '.subjects[] | select(.exe == "/usr/bin/grower") | .last_new_ms' "$cw/o")" = 1796300900023 ]
	# the distinct accesses are still all counted
	[ "$(jq -r '.subjects[] | select(.exe == "/usr/bin/rndsvc") | .learned' "$cw/o")" = 11 ]
	expect_rc 0 "$VIGIL" --db "$db" report --format text
	tr '\n' ' ' < "$cw/o" | tr -s ' ' > "$cw/joined"
	grep -q '/usr/bin/rndsvc .*converged' "$cw/joined"
	# names that differ in fewer than half of their random bytes are
	# new accesses (python2/python3-like, not mktemp): still learning
	rm -f "$db"* "$log"
	seq=1
	rec 1796300000 /usr/bin/near create c /var/lib/near/state.Ab3dE9
	rec 1796300900 /usr/bin/near create c /var/lib/near/state.Ab3dE8
	expect_rc 0 "$VIGIL" --db "$db" ingest "$log"
	expect_rc 0 "$VIGIL" --db "$db" report --format json
	[ "$(jq -r '.subjects[0].converged' "$cw/o")" = false ]
}

# load -n checks net objects as the kernel writes them.
t15_load_net_objects() {
	local o
	for o in inet:stream:99999 inet:stream:-5 nosuchfamily:weird:xyz \
		inet6:dgram:http unix inet:bogus:80; do
		printf 'subject /usr/bin/x {\n\tnet bind %s\n}\n' "$o" > "$cw/net.policy"
		expect_rc 2 "$VIGIL" load -n "$cw/net.policy"
		grep -q "^vigil: load: $cw/net.policy:2: " "$cw/e"
	done
	for o in inet:stream:65535 inet:stream:0 inet6:dgram:53 'inet:stream:*' \
		unix:stream:/run/x.sock unix:dgram:@abstract af38:seqpacket \
		netlink:raw packet:type10 '*' '{inet,inet6}:stream:80'; do
		printf 'subject /usr/bin/x {\n\tnet bind %s\n}\n' "$o" > "$cw/net.policy"
		expect_rc 0 "$VIGIL" load -n "$cw/net.policy"
	done
}

# A control character (newline) in the --db path: refused up front with
# the path shown escaped, never "a bug", never written into a policy.
t15_db_path_newline() {
	local db
	db="$cw/new
line.db"
	expect_rc 2 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log
	grep -q 'new\\x0aline.db: the path has a control character' "$cw/e"
	[ ! -e "$db" ]
	cp "$(trap_db)" "$db"
	expect_rc 2 "$VIGIL" --db "$db" generate
	if grep -q 'a bug' "$cw/e"; then return 1; fi
	[ ! -s "$cw/o" ]
	rm -rf "$cw/nlexp"
	mkdir "$cw/nlexp"
	expect_rc 2 "$VIGIL" --db "$db" export --to apparmor -o "$cw/nlexp"
	[ -z "$(ls "$cw/nlexp")" ]
	rm -f "$db"
}

# Every message: "vigil: VERB: ...", naming the cause and the bad value.
t15_messages() {
	local db
	db=$(trap_db)
	expect_rc 2 "$VIGIL" --db "$cw" report
	grep -q "^vigil: report: --db $cw: is a folder" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$cw" ingest $fx/vigil-learn.log
	grep -q "^vigil: ingest: --db $cw: is a folder" "$cw/e"
	VIGIL_SECURITYFS=$(fake_sfs) expect_rc 2 "$VIGIL" mode bogus
	grep -q "^vigil: mode: unknown mode 'bogus'" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" export -o "$cw"
	grep -q "^vigil: export: --to TARGET is required" "$cw/e"
	expect_rc 2 "$VIGIL" run --landlock "$cw/none.json" -- true
	grep -q "^vigil: run: $cw/none.json: " "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" diff "$cw/none.policy"
	grep -q "^vigil: diff: $cw/none.policy: No such file" "$cw/e"
	# every line of these errors carries the prefix (usage lines aside)
	printf 'subject /a {\n\tfile q /x\n}\n' > "$cw/bad.policy"
	expect_rc 2 "$VIGIL" --db "$db" diff "$cw/bad.policy"
	grep -q "^vigil: diff: $cw/bad.policy:2: access 'q'" "$cw/e"
	expect_rc 2 "$VIGIL" load -n "$cw/bad.policy"
	if grep -v '^vigil: load: ' "$cw/e"; then return 1; fi
	expect_rc 1 "$VIGIL" --db "$cw/m.db" ingest $fx/malformed.log
	if grep -v '^vigil: ingest: ' "$cw/e"; then return 1; fi
	rm -f "$cw/m.db"*
}

# "-" is standard input for every verb that reads a file.
t15_stdin_dash() {
	local db
	db=$(trap_db)
	printf 'subject /usr/bin/x {\n\tfile r /etc/hostname\n}\n' > "$cw/s.policy"
	expect_rc 0 "$VIGIL" load -n - < "$cw/s.policy"
	expect_rc 0 "$VIGIL" load --dump - < "$cw/s.policy"
	grep -q '^subject /usr/bin/x' "$cw/o"
	"$VIGIL" --db "$db" generate > "$cw/g.policy"
	expect_rc 1 "$VIGIL" --db "$db" diff "$cw/g.policy"
	cp "$cw/o" "$cw/diff.file"
	expect_rc 1 "$VIGIL" --db "$db" diff - < "$cw/g.policy"
	cmp "$cw/diff.file" "$cw/o"
	expect_rc 1 "$VIGIL" --db "$db" diff - < "$cw/s.policy"
	rm -rf "$cw/dashexp"
	mkdir "$cw/dashexp"
	expect_rc 0 "$VIGIL" --db "$db" export --to apparmor -o "$cw/dashexp" - < "$cw/g.policy"
	[ -n "$(ls "$cw/dashexp")" ]
	rm -f "$cw/dash.db"*
	expect_rc 0 "$VIGIL" --db "$cw/dash.db" ingest - < $fx/vigil-learn.log
	[ "$(count "$cw/dash.db" 'SELECT count(*) FROM records')" = 20 ]
	echo '{' | expect_rc 2 "$VIGIL" run --landlock - -- true
	grep -q '^vigil: run: -: line ' "$cw/e"
}

# export -o DIR/ prints (and writes) DIR/NAME, never DIR//NAME.
t15_export_dir_slash() {
	local db
	db=$(trap_db)
	rm -rf "$cw/slash"
	mkdir "$cw/slash"
	expect_rc 0 "$VIGIL" --db "$db" export --to apparmor -o "$cw/slash/"
	[ -s "$cw/o" ]
	not grep -q '//' "$cw/o"
	grep -q "^$cw/slash/usr.bin.cat\$" "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" export --to landlock -o "$cw/slash///"
	not grep -q '//' "$cw/o"
	while read -r f; do [ -s "$f" ]; done < "$cw/o"
}

# status prints the mode once.
t15_status_mode_once() {
	VIGIL_SECURITYFS=$(fake_sfs) expect_rc 0 "$VIGIL" status
	[ "$(grep -c '^mode ' "$cw/o")" = 1 ]
	grep -q '^records.seq 28$' "$cw/o"
}

# Progress on a terminal for a long ingest (bytes read of the total);
# none when standard error is not a terminal.
# A program the candidate lets a subject run (file x) with no block of its
# own when that subject runs it: every enforcing module runs it under the
# subject's rules (AppArmor ix), vigil's observe mode does not judge it
# (PostgreSQL's "sh -c locale -a" in 93-next-postgres's first trial).
t35_export_unnamed_child() {
	printf 'subject /usr/sbin/svc {\n\tfile rx /usr/bin/dash\n\tfile x /usr/bin/{a,b}\n\tfile x /usr/sbin/svc\n\tfile x /usr/bin/named\n}\nsubject /usr/bin/named via /usr/sbin/svc {\n}\n' > "$cw/uc.policy"
	rm -rf "$cw/uc-aa"
	expect_rc 0 "$VIGIL" export --to apparmor -o "$cw/uc-aa" "$cw/uc.policy"
	grep -q "^vigil: export: warning: $cw/uc.policy:1: subject /usr/sbin/svc runs /usr/bin/dash (file x), which no block names when it runs it: an enforcing module runs it under /usr/sbin/svc's own rules" "$cw/e"
	[ "$(grep -c 'which no block names' "$cw/e")" = 1 ]
	not grep -q 'runs /usr/bin/dash, ' "$cw/e"
	# with its block (via the subject), nothing to say
	printf 'subject /usr/bin/dash via /usr/sbin/svc {\n}\n' >> "$cw/uc.policy"
	rm -rf "$cw/uc-aa"
	expect_rc 0 "$VIGIL" export --to landlock -o "$cw/uc-aa" "$cw/uc.policy"
	not grep -q 'which no block names' "$cw/e"
}

t15_ingest_progress() {
	local i log=$cw/big.log
	rm -f "$cw/prog.db"* "$cw/prog2.db"*
	: > "$log"
	for i in $(seq 1 400); do cat $fx/vigil-learn.log; done >> "$log"
	[ "$(wc -l < "$log")" -gt 8192 ]
	script -qec "$VIGIL --db $cw/prog.db ingest $log" /dev/null > "$cw/tty.out"
	grep -q "vigil: ingest: $log: [0-9.]* of [0-9.]* MiB ([0-9]*%)" "$cw/tty.out"
	expect_rc 0 "$VIGIL" --db "$cw/prog2.db" ingest "$log"
	if grep -q 'MiB' "$cw/e"; then return 1; fi
	rm -f "$log" "$cw/prog.db"* "$cw/prog2.db"*
}

# A compressed rotation (gzip, xz, zstd, bzip2) is named as compressed,
# with the command that reads it, instead of a line per NUL byte; alone
# it makes no database; from standard input too. Issue 26 section 3.
t26_ingest_compressed() {
	local d=$cw/gz db
	rm -rf "$d"
	mkdir -p "$d"
	db=$d/v.db
	cp $fx/vigil-learn.log "$d/a.log.2"
	gzip "$d/a.log.2"
	expect_rc 2 "$VIGIL" --db "$db" ingest "$d/a.log.2.gz"
	grep -q "^vigil: ingest: $d/a.log.2.gz: compressed (gzip): not read; to read it: zcat $d/a.log.2.gz | vigil --db $db ingest -\$" "$cw/e"
	not grep -q 'NUL byte' "$cw/e"
	[ ! -e "$db" ]
	# the command it gives reads it
	zcat "$d/a.log.2.gz" | expect_rc 0 "$VIGIL" --db "$db" ingest -
	[ "$(count "$db" 'SELECT count(*) FROM records')" = 20 ]
	# beside a plain log: that one is read, exit 1
	expect_rc 1 "$VIGIL" --db "$db" ingest "$d/a.log.2.gz" $fx/foreign.log
	grep -q 'a.log.2.gz: compressed (gzip)' "$cw/e"
	# standard input
	expect_rc 2 "$VIGIL" --db "$db" ingest - < "$d/a.log.2.gz"
	grep -q '^vigil: ingest: -: compressed (gzip): not read; to read it: ... | zcat | vigil' "$cw/e"
	# the other kinds, by their magic; a hostile name is quoted and escaped
	printf '\3757zXZ\0\0\4\346' > "$d/b.xz"
	printf '\50\265\57\375\44\0' > "$d/c.zst"
	printf 'BZh91AY&SY' > "$d/d.bz2"
	printf '\37\213\10\0' > "$d/it's"$'\e[2J'
	expect_rc 2 "$VIGIL" --db "$db" ingest "$d/b.xz" "$d/c.zst" "$d/d.bz2" "$d/it's"$'\e[2J'
	grep -q "b.xz: compressed (xz): not read; to read it: xzcat $d/b.xz |" "$cw/e"
	grep -q "c.zst: compressed (zstd): not read; to read it: zstdcat $d/c.zst |" "$cw/e"
	grep -q "d.bz2: compressed (bzip2): not read; to read it: bzcat $d/d.bz2 |" "$cw/e"
	grep -qF "it's\\x1b[2J: compressed (gzip): not read; to read it: zcat '$d/it'\\''s\\x1b[2J' |" "$cw/e"
	not grep -q $'\e' "$cw/e"
	rm -rf "$d"
}

# An endless input is bounded with a message naming it and the line:
# /dev/zero (no newline) and a stream of lines that are no records; what
# was read before is kept. Issue 26 section 3.
t26_ingest_endless() {
	local db=$cw/endless.db
	rm -f "$db"*
	expect_rc 2 timeout 60 "$VIGIL" --db "$db" ingest /dev/zero
	grep -q '^vigil: ingest: /dev/zero:1: more than 1 MiB without a newline: not a text audit log' "$cw/e"
	[ "$(wc -l < "$cw/e")" = 1 ]
	# records first, then endless junk: the records are kept
	{ cat $fx/vigil-learn.log; yes; } | expect_rc 2 timeout 60 "$VIGIL" --db "$db" ingest -
	grep -q '^vigil: ingest: -:10035: 10000 lines in a row that are no audit record' "$cw/e"
	grep -q ' 20 vigil records stored' "$cw/o"
	[ "$(count "$db" 'SELECT count(*) FROM records')" = 20 ]
	# a regular file is finite: read to its end whatever it holds
	{ cat $fx/vigil-learn.log; yes | head -n 12000; cat $fx/foreign.log; } > "$cw/junk.log"
	expect_rc 1 "$VIGIL" --db "$db" ingest "$cw/junk.log"
	[ "$(count "$db" 'SELECT count(*) FROM foreign_records')" -gt 0 ]
	rm -f "$db"* "$cw/junk.log"
}

t_cli "traps: --help lists every verb of the command table" t15_help_lists_verbs
t_cli "traps: --db is accepted after every verb" t15_db_after_every_verb
t_cli "traps: generate -o writes through a device, FIFO or symlink, never replaces it" t15_generate_output_nonregular
t_cli "traps: another program's SQLite file is refused and left untouched" t15_foreign_sqlite_refused
t_cli "traps: read-only verbs on a read-only database; no database made from nothing" t15_readonly_database
t_cli "traps: report -o FILE for text/JSON; bad dates, empty window, unknown subject exit 2" t15_report_options
t_cli "traps: text report marks every cut" t15_report_text_cuts
t_cli "traps: report tells lost records from not ingested yet" t15_report_lost_vs_not_ingested
t_cli "traps: report: new random names each run are no new access for convergence" t15_report_converged_random_names
t_cli "traps: snapshot stores audit's own lost counter, report shows it" t15_snapshot_audit_lost
t_cli "traps: load -n checks net families, types and ports" t15_load_net_objects
t_cli "traps: a newline in the --db path is refused, not a bug" t15_db_path_newline
t_cli "traps: one message prefix naming the cause and the bad value" t15_messages
t_cli "traps: - reads standard input for every verb reading a file" t15_stdin_dash
t_cli "traps: export -o DIR/ prints no //" t15_export_dir_slash
t_cli "traps: status prints the mode once" t15_status_mode_once
t_cli "traps: ingest shows progress on a terminal only" t15_ingest_progress
t_cli "traps: export names a program a subject runs that no block names" t35_export_unnamed_child
t_cli "traps: ingest names a compressed log and the command that reads it" t26_ingest_compressed
t_cli "traps: ingest bounds an endless input with a message, keeps what it read" t26_ingest_endless
