# Command-line tests of vigil, sourced by tests/unit/run with VIGIL (the
# binary), work (a scratch folder), top, cli_prefix and t_ok/t_fail set.
# Each test is a function; its output goes to a log shown on failure.
# shellcheck shell=bash

fx=tests/fixtures
ref=$top/tests/fixtures/ref
cw=$work/$cli_prefix
mkdir -p "$cw"
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
unset VIGIL_DB VIGIL_SECURITYFS VIGIL_INGEST_BATCH VIGIL_TEST_CRASH_AFTER

t_cli() {
	local name=$1 rc
	shift
	# Bash ignores set -e inside an if test or an && / || list, down into
	# the functions called there: the test runs as a plain command, so
	# that any failing step fails it.
	( cd "$top" || exit 1; set -e; "$@" ) > "$cw/log" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then
		t_ok "$cli_prefix/$name"
	else
		t_fail "$cli_prefix/$name" "$cw/log"
	fi
}

# expect_rc RC CMD...: CMD must exit RC (its output in $cw/o, $cw/e).
# not CMD...: fails when CMD succeeds. A test body runs under set -e, which
# ignores a command negated with "!": "! grep -q X F" could never fail.
not() {
	if "$@"; then
		return 1
	fi
}

expect_rc() {
	local want=$1 rc=0
	shift
	"$@" > "$cw/o" 2> "$cw/e" || rc=$?
	if [ "$rc" != "$want" ]; then
		echo "exit $rc, expected $want: $*"
		cat "$cw/o" "$cw/e"
		return 1
	fi
}

# dump DB: the data tables, as sqlite3 .dump prints them.
dump() {
	local t
	for t in records foreign_records sources; do
		sqlite3 "$1" ".dump $t"
	done
}

count() {
	sqlite3 "$1" "$2"
}

# golden NAME FILE: FILE must equal tests/fixtures/ref/NAME.
golden() {
	diff -u "$ref/$1" "$2"
}

c_usage() {
	expect_rc 0 "$VIGIL" --version
	grep -q '^vigil ' "$cw/o"
	expect_rc 0 "$VIGIL" --help
	grep -q 'ingest' "$cw/o"
	expect_rc 0 "$VIGIL" -h
	expect_rc 2 "$VIGIL"
	expect_rc 2 "$VIGIL" frobnicate
	grep -q "unknown verb" "$cw/e"
	expect_rc 2 "$VIGIL" --no-such-option
	expect_rc 0 "$VIGIL" ingest -h
	expect_rc 2 "$VIGIL" ingest --bogus
	expect_rc 2 "$VIGIL" mode sideways
}

c_ingest_learn() {
	local db=$cw/learn.db
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log
	golden learn.summary "$cw/o"
	[ "$(count "$db" 'SELECT count(*) FROM records')" = 20 ]
	# hex strings decoded, ? as NULL, extras kept, object per op class
	[ "$(count "$db" "SELECT path FROM records WHERE seq = 13")" = "/tmp/a b " ]
	[ "$(count "$db" "SELECT exe || '|' || comm FROM records WHERE seq = 14")" = "/home/users/my tool/bin/run|my run" ]
	[ "$(count "$db" "SELECT count(*) FROM records WHERE seq = 14 AND path = '/tmp/line' || char(10) || 'break'")" = 1 ]
	[ "$(count "$db" "SELECT object || '|' || extra FROM records WHERE seq = 15")" = "net_bind_service|capability=10" ]
	[ "$(count "$db" "SELECT count(*) FROM records WHERE seq = 28 AND exe IS NULL")" = 1 ]
	[ "$(count "$db" "SELECT object FROM records WHERE seq = 18")" = "unix:stream:/run/php/php-fpm.sock" ]
	[ "$(count "$db" "SELECT time_ms || ':' || serial FROM records WHERE seq = 12")" = "1796284356690:57" ]
	# the --db after the verb and VIGIL_DB work too
	rm -f "$cw/env.db"*
	VIGIL_DB=$cw/env.db expect_rc 0 "$VIGIL" ingest $fx/vigil-learn.log
	[ "$(count "$cw/env.db" 'SELECT count(*) FROM records')" = 20 ]
	rm -f "$cw/opt.db"*
	expect_rc 0 "$VIGIL" ingest --db "$cw/opt.db" $fx/vigil-learn.log
	[ "$(count "$cw/opt.db" 'SELECT count(*) FROM records')" = 20 ]
}

c_idempotent() {
	local db=$cw/idem.db
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log $fx/foreign.log
	dump "$db" > "$cw/d1"
	# same files: nothing read again (positions)
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log $fx/foreign.log
	grep -q ' 0 events read, 0 vigil records stored' "$cw/o"
	dump "$db" > "$cw/d2"
	diff -u "$cw/d1" "$cw/d2"
	# the same content from stdin (no position): all duplicates
	cat $fx/vigil-learn.log | expect_rc 0 "$VIGIL" --db "$db" ingest -
	grep -q ' 0 vigil records stored, 20 duplicates skipped' "$cw/o"
	# a copy (another inode) of both: nothing new
	cp $fx/vigil-learn.log "$cw/copy.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/copy.log" $fx/foreign.log
	diff -u <(grep -v 'INSERT INTO sources' "$cw/d1") \
		<(dump "$db" | grep -v 'INSERT INTO sources')
}

c_rotated_overlap() {
	local db=$cw/rot.db
	rm -f "$db"* "$cw/learn-only.db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/rotated/audit.log.1 $fx/rotated/audit.log
	grep -q ' 20 vigil records stored, 3 duplicates skipped' "$cw/o"
	expect_rc 0 "$VIGIL" --db "$cw/learn-only.db" ingest $fx/vigil-learn.log
	diff -u <(sqlite3 "$cw/learn-only.db" '.dump records') \
		<(sqlite3 "$db" '.dump records')
}

c_rotation_follows_inode() {
	local db=$cw/follow.db d=$cw/follow
	rm -rf "$db"* "$d"
	mkdir -p "$d"
	head -n 10 $fx/vigil-learn.log > "$d/audit.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$d/audit.log"
	[ "$(count "$db" 'SELECT count(*) FROM records')" = 3 ]
	# auditd appends, then rotates: audit.log -> audit.log.1 (same inode)
	sed -n '11,20p' $fx/vigil-learn.log >> "$d/audit.log"
	mv "$d/audit.log" "$d/audit.log.1"
	sed -n '21,$p' $fx/vigil-learn.log > "$d/audit.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$d/audit.log.1" "$d/audit.log"
	# only the new lines were read: no duplicates
	grep -q ' 17 vigil records stored, 0 duplicates skipped' "$cw/o"
	[ "$(count "$db" 'SELECT count(*) FROM records')" = 20 ]
	[ "$(count "$db" "SELECT count(*) FROM sources WHERE path LIKE '%audit.log.1'")" = 1 ]
	# truncated and rewritten in place (same inode): read from the start
	: > "$d/audit.log.1"
	sed -n '1,3p' $fx/foreign.log > "$d/audit.log.1"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$d/audit.log.1"
	grep -q 'reading it from the start' "$cw/e"
	grep -q '2 AppArmor, 0 SELinux' "$cw/o"
}

c_foreign() {
	local db=$cw/foreign.db
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/foreign.log
	golden foreign.summary "$cw/o"
	[ "$(count "$db" "SELECT group_concat(kind || '=' || records, ' ') FROM (SELECT * FROM foreign_counts ORDER BY kind)")" = "apparmor=2 landlock=4 other=3 selinux=1" ]
	[ "$(count "$db" "SELECT verdict FROM records")" = would-deny ]
}

c_enriched() {
	local db=$cw/enriched.db
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-enriched.log
	golden enriched.summary "$cw/o"
	[ "$(count "$db" "SELECT extra FROM records WHERE seq = 317")" = "capability=33" ]
	[ "$(count "$db" "SELECT object FROM records WHERE seq = 908")" = "(memory)" ]
	# the ENRICHED part is not stored
	[ "$(count "$db" "SELECT count(*) FROM foreign_records WHERE text GLOB '*FSUID=*' OR text GLOB '* ' OR instr(text, char(29))")" = 0 ]
}

c_malformed() {
	local db=$cw/bad.db
	rm -f "$db"*
	expect_rc 1 "$VIGIL" --db "$db" ingest $fx/malformed.log
	golden malformed.summary "$cw/o"
	golden malformed.stderr "$cw/e"
	[ "$(count "$db" 'SELECT group_concat(seq) FROM (SELECT seq FROM records ORDER BY seq)')" = "40,45,46,47,49,50" ]
	# the unterminated last line was left; once completed it is stored
	cp $fx/malformed.log "$cw/grow.log"
	expect_rc 1 "$VIGIL" --db "$db" ingest "$cw/grow.log"
	echo >> "$cw/grow.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/grow.log"
	grep -q ' 1 vigil records stored, 0 duplicates skipped.* 0 malformed$' "$cw/o"
	# not an audit log at all, a folder, a missing file: exit 2
	expect_rc 2 "$VIGIL" --db "$db" ingest $fx/notaudit.txt
	grep -q '3 malformed' "$cw/o"
	expect_rc 2 "$VIGIL" --db "$db" ingest $fx
	expect_rc 2 "$VIGIL" --db "$db" ingest "$cw/no-such-file"
	grep -q 'no-such-file: No such file' "$cw/e"
	# one missing among good ones: a finding, the rest is read
	rm -f "$cw/bad2.db"*
	expect_rc 1 "$VIGIL" --db "$cw/bad2.db" ingest "$cw/no-such-file" $fx/vigil-learn.log
	grep -q ' 20 vigil records stored' "$cw/o"
	# an empty file is fine
	: > "$cw/empty.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/empty.log"
	# random bytes never crash
	head -c 300000 /dev/urandom > "$cw/random.bin"
	expect_rc 2 "$VIGIL" --db "$db" ingest "$cw/random.bin"
	# records cut at every length never crash and are never stored half
	local line i
	line=$(sed -n 2p $fx/vigil-learn.log)
	: > "$cw/cuts.log"
	for ((i = 1; i < ${#line}; i += 3)); do
		printf '%s\n' "${line:0:i}" >> "$cw/cuts.log"
	done
	rm -f "$cw/cuts.db"*
	i=0
	"$VIGIL" --db "$cw/cuts.db" ingest "$cw/cuts.log" > "$cw/o" 2>&1 || i=$?
	[ $i -le 2 ]
	[ "$(count "$cw/cuts.db" 'SELECT count(*) FROM records')" -le 1 ]
}

# The malformed corpus (tests/fixtures/malformed/gen): each case alone
# into a fresh database gives exactly the outcome in ./expected (exit
# code, counts, reasons), the rows stored equal the count reported, the
# database passes integrity_check, and memory stays bounded whatever the
# line (1 MiB fields, 10,000 fields, 100,000 lines).
c_malformed_corpus() {
	local d=$cw/malformed f name rc sum why rss db=$cw/mc.db max=0 limit
	rm -rf "$d"
	tests/fixtures/malformed/gen "$d/in" > /dev/null
	[ "$(ls "$d/in" | wc -l)" -ge 200 ]
	# The same bytes on every machine, whichever awk or locale it has.
	(cd "$d/in" && sha256sum --quiet -c "$top/tests/fixtures/malformed/sha256sums")
	[ "$(ls "$d/in" | wc -l)" = "$(wc -l < tests/fixtures/malformed/sha256sums)" ]
	# under ASan, its shadow memory and quarantine come on top
	case $cli_prefix in asan/*) limit=262144 ;; *) limit=16384 ;; esac
	for f in "$d"/in/*.log; do
		name=$(basename "$f" .log)
		rm -f "$db"*
		rc=0
		/usr/bin/time -q -f %M -o "$d/rss" "$VIGIL" --db "$db" ingest "$f" \
			> "$d/o" 2> "$d/e" || rc=$?
		sum=$(sed -E 's/^vigil ingest: ([0-9]+) events read, ([0-9]+) vigil records stored, ([0-9]+) duplicates skipped, foreign records: ([0-9]+) AppArmor, ([0-9]+) SELinux, ([0-9]+) Landlock, ([0-9]+) other; ([0-9]+) malformed.*/events=\1 stored=\2 dup=\3 foreign=\4+\5+\6+\7 malformed=\8/' "$d/o")
		why=$(sed -nE 's/^vigil: ingest: [^ ]*:[0-9]+: malformed record: //p' "$d/e" | sort -u | paste -sd';')
		echo "$name rc=$rc $sum [$why]" >> "$d/got"
		case $sum in *stored=*) ;; *) echo "$name: no summary: $(cat "$d/o" "$d/e")"; return 1 ;; esac
		if [ -f "$db" ]; then
			[ "$(count "$db" 'PRAGMA integrity_check')" = ok ] ||
				{ echo "$name: integrity_check failed"; return 1; }
			[ "stored=$(count "$db" 'SELECT count(*) FROM records')" = \
				"$(grep -o 'stored=[0-9]*' <<< "$sum")" ] ||
				{ echo "$name: rows differ from the summary"; return 1; }
		fi
		rss=$(cat "$d/rss")
		[ "$rss" -gt "$max" ] && max=$rss
		[ "$rss" -le "$limit" ] || { echo "$name: $rss KiB resident, over $limit"; return 1; }
	done
	diff -u tests/fixtures/malformed/expected "$d/got"
	echo "largest resident set: $max KiB"
}

# vigil records and syscall context: N lines, serials from FIRST.
gen_log() {
	local n=$1 first=$2 i
	for ((i = first; i < first + n; i++)); do
		if ((i % 3)); then
			printf 'type=KERNEL_OTHER msg=audit(1796291000.%03d:%d): vigil=1 seq=%d verdict=learned op=open access=r uid=0 exe="/usr/bin/t%d" path="/data/file-%d" target=? pid=%d comm="t"\n' $((i % 1000)) "$i" "$i" $((i % 40)) "$i" $((i % 500 + 100))
		else
			printf 'type=SYSCALL msg=audit(1796291000.%03d:%d): arch=c000003e syscall=257 success=yes exit=3 items=1 pid=%d comm="t"\n' $((i % 1000)) "$i" $((i % 500 + 100))
		fi
	done
}

# kill -9 at 100 random points of ingests that follow a log as auditd
# rotates it (audit.log -> audit.log.1 -> audit.log.2) between and after
# the kills: once every generation is read, the database equals a clean
# run's row for row and passes integrity_check.
c_kill9_rotating() {
	local d=$cw/rot p rc k1 k2 files kills=0
	rm -rf "$d"
	mkdir -p "$d/parts"
	gen_log 900 1 > "$d/parts/1"
	gen_log 900 901 > "$d/parts/2"
	gen_log 900 1801 > "$d/parts/3"
	# rotate N: what auditd does, then the next generation is written
	rotate() {
		[ -e "$d/w/audit.log.1" ] && mv "$d/w/audit.log.1" "$d/w/audit.log.2"
		mv "$d/w/audit.log" "$d/w/audit.log.1"
		cp "$d/parts/$1" "$d/w/audit.log"
	}
	ingest_all() { # [crash point]
		files=()
		local f
		for f in "$d"/w/audit.log.2 "$d"/w/audit.log.1 "$d"/w/audit.log; do
			[ -e "$f" ] && files+=("$f")
		done
		VIGIL_INGEST_BATCH=40 VIGIL_TEST_CRASH_AFTER=${1:-} \
			"$VIGIL" --db "$d/v.db" ingest "${files[@]}" > /dev/null 2>&1
	}
	# the clean run: each generation read whole before the rotation
	rm -rf "$d/w" "$d/v.db"*
	mkdir -p "$d/w"
	cp "$d/parts/1" "$d/w/audit.log"
	ingest_all
	rotate 2
	ingest_all
	rotate 3
	ingest_all
	sqlite3 "$d/v.db" '.dump records' > "$d/clean.dump"
	[ "$(count "$d/v.db" 'SELECT count(*) FROM records')" = 1800 ]
	RANDOM=8
	for ((p = 0; kills < 100; p++)); do
		rm -rf "$d/w" "$d/v.db"*
		mkdir -p "$d/w"
		cp "$d/parts/1" "$d/w/audit.log"
		k1=$((RANDOM % 900 + 1))
		k2=$((RANDOM % 1800 + 1))
		rc=0
		ingest_all $k1 || rc=$?
		[ $rc = 137 ] || [ $k1 = 900 ] || { echo "point $p: exit $rc, not killed at line $k1"; return 1; }
		[ $rc = 137 ] && kills=$((kills + 1))
		[ "$(stat -c %a "$d/v.db")" = 600 ] || { echo "database mode $(stat -c %a "$d/v.db")"; return 1; }
		[ ! -e "$d/v.db-wal" ] || [ "$(stat -c %a "$d/v.db-wal")" = 600 ] ||
			{ echo "-wal mode $(stat -c %a "$d/v.db-wal")"; return 1; }
		rotate 2
		rc=0
		ingest_all $k2 || rc=$?
		[ $rc = 137 ] || [ $rc = 0 ] || { echo "point $p: exit $rc at line $k2"; return 1; }
		[ $rc = 137 ] && kills=$((kills + 1))
		rotate 3
		ingest_all || { echo "point $p: the final run failed"; return 1; }
		sqlite3 "$d/v.db" '.dump records' > "$d/k.dump"
		diff -u "$d/clean.dump" "$d/k.dump" > /dev/null ||
			{ echo "kills at lines $k1 and $k2: database differs"; return 1; }
		[ "$(count "$d/v.db" 'PRAGMA integrity_check')" = ok ]
	done
	echo "$kills kills over $p rotations"
}

# A full disk and a read-only database: a clear error naming the
# problem, exit 2, and a consistent database that a later run completes.
# (A mount namespace of its own: a user namespace when not root.)
c_full_disk() {
	local d=$cw/full own
	rm -rf "$d"
	mkdir -p "$d/m"
	gen_log 30000 1 > "$d/big.log"
	own=-m
	[ "$(id -u)" = 0 ] || own=-rm
	unshare $own bash -euc '
		d=$1 VIGIL=$2
		mount -t tmpfs -o size=1m tmpfs "$d/m"
		rc=0
		VIGIL_INGEST_BATCH=1000 "$VIGIL" --db "$d/m/v.db" ingest "$d/big.log" 2> "$d/e" || rc=$?
		cat "$d/e"
		[ $rc = 2 ]
		grep -q "v.db: database or disk is full" "$d/e"
		grep -q "rolled back" "$d/e"
		[ "$(sqlite3 "$d/m/v.db" "PRAGMA integrity_check")" = ok ]
		kept=$(sqlite3 "$d/m/v.db" "SELECT count(*) FROM records")
		line=$(sqlite3 "$d/m/v.db" "SELECT line FROM sources")
		echo "full after $kept records, position at line $line"
		[ "$kept" -gt 0 ]
		[ "$line" -gt 0 ]
		[ $((line % 1000)) = 0 ]
		# the rows kept are exactly those of the lines before the position
		[ "$kept" = "$(head -n "$line" "$d/big.log" | grep -c KERNEL_OTHER)" ]
		mount -o remount,size=64m "$d/m"
		"$VIGIL" --db "$d/m/v.db" ingest "$d/big.log" > /dev/null
		[ "$(sqlite3 "$d/m/v.db" "SELECT count(*) FROM records")" = 20000 ]
		mount -o remount,ro "$d/m"
		rc=0
		"$VIGIL" --db "$d/m/v.db" ingest "$d/big.log" 2> "$d/e" || rc=$?
		cat "$d/e"
		[ $rc = 2 ]
		grep -q "v.db: cannot write to the database (Read-only file system)" "$d/e"
	' - "$d" "$VIGIL"
}

# A new database is created 0600 whatever the umask.
c_db_mode() {
	rm -f "$cw/mode.db"*
	(umask 000 && "$VIGIL" --db "$cw/mode.db" ingest $fx/vigil-learn.log > /dev/null)
	[ "$(stat -c %a "$cw/mode.db")" = 600 ]
}

c_newer_db_refused() {
	local db=$cw/newer.db
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log
	sqlite3 "$db" 'PRAGMA user_version = 99'
	expect_rc 2 "$VIGIL" --db "$db" ingest $fx/foreign.log
	grep -q 'schema version 99, newer than this vigil' "$cw/e"
	: > "$cw/notadb.db"
	echo "not a database at all, just some text that is long enough to matter" > "$cw/notadb.db"
	expect_rc 2 "$VIGIL" --db "$cw/notadb.db" ingest $fx/foreign.log
}

# kill -9 at many points of a run, then rerun: the same data as a clean run.
c_kill9() {
	local clean=$cw/clean.db inputs k rc
	inputs=("$fx/vigil-learn.log" "$fx/foreign.log" "$fx/vigil-enriched.log" "$fx/malformed.log")
	rm -f "$clean"*
	VIGIL_INGEST_BATCH=3 "$VIGIL" --db "$clean" ingest "${inputs[@]}" > /dev/null 2>&1 || true
	dump "$clean" > "$cw/clean.dump"
	[ "$(count "$clean" 'SELECT count(*) FROM records')" -gt 20 ]
	for k in 1 2 3 4 5 7 11 17 23 31 35 36 40 47 50 53 60 64; do
		rm -f "$cw/k.db"*
		rc=0
		VIGIL_INGEST_BATCH=3 VIGIL_TEST_CRASH_AFTER=$k \
			"$VIGIL" --db "$cw/k.db" ingest "${inputs[@]}" > /dev/null 2>&1 || rc=$?
		if [ $rc != 137 ]; then
			echo "crash point $k: exit $rc, expected 137 (SIGKILL)"
			return 1
		fi
		VIGIL_INGEST_BATCH=3 "$VIGIL" --db "$cw/k.db" ingest "${inputs[@]}" > /dev/null 2>&1 || true
		dump "$cw/k.db" > "$cw/k.dump"
		diff -u "$cw/clean.dump" "$cw/k.dump" || {
			echo "crash point $k: database differs"
			return 1
		}
	done
}

# A real kill -9 from outside, at a random moment of a bigger ingest.
c_kill9_live() {
	local big=$cw/big.log i j
	if [ ! -f "$big" ]; then
		for ((i = 0; i < 4000; i++)); do
			j=$((i * 3))
			printf 'type=KERNEL_OTHER msg=audit(1796290000.%03d:%d): vigil=1 seq=%d verdict=learned op=open access=r uid=0 exe="/usr/bin/t%d" path="/data/f%d" target=? pid=%d comm="t"\n' $((i % 1000)) $((j + 1)) $((i + 1)) $((i % 50)) "$i" $((i + 100))
			printf 'type=SYSCALL msg=audit(1796290000.%03d:%d): arch=c000003e syscall=257 success=yes exit=3 items=1 pid=%d comm="t" exe="/usr/bin/t%d"\n' $((i % 1000)) $((j + 1)) $((i + 100)) $((i % 50))
			printf 'type=AVC msg=audit(1796290000.%03d:%d): apparmor="ALLOWED" operation="open" profile="p%d" name="/x%d" pid=1 comm="x"\n' $((i % 1000)) $((j + 2)) $((i % 7)) "$i"
		done > "$big"
	fi
	rm -f "$cw/bigclean.db"*
	local t0 t1 us delay rc killed=0
	t0=$(date +%s%N)
	VIGIL_INGEST_BATCH=50 "$VIGIL" --db "$cw/bigclean.db" ingest "$big" > /dev/null 2>&1
	t1=$(date +%s%N)
	dump "$cw/bigclean.db" > "$cw/bigclean.dump"
	# Kill at 10%, 30%, 50% and 70% of a clean run's time on this machine.
	us=$(((t1 - t0) / 1000))
	for delay in $((us / 10)) $((us * 3 / 10)) $((us / 2)) $((us * 7 / 10)); do
		rm -f "$cw/live.db"*
		VIGIL_INGEST_BATCH=50 "$VIGIL" --db "$cw/live.db" ingest "$big" > /dev/null 2>&1 &
		sleep "$(printf '%d.%06d' $((delay / 1000000)) $((delay % 1000000)))"
		kill -9 $! 2> /dev/null || :
		rc=0
		wait $! 2> /dev/null || rc=$?
		[ $rc != 137 ] || killed=$((killed + 1))
		VIGIL_INGEST_BATCH=50 "$VIGIL" --db "$cw/live.db" ingest "$big" > /dev/null 2>&1
		dump "$cw/live.db" > "$cw/live.dump"
		diff -u "$cw/bigclean.dump" "$cw/live.dump" > /dev/null || {
			echo "kill after ${delay} us: database differs"
			return 1
		}
	done
	# At least one run was killed mid-ingest (exit 137), or nothing was tested.
	echo "killed by SIGKILL: $killed of 4 runs (clean run $us us)"
	[ "$killed" -ge 1 ]
	[ "$(count "$cw/live.db" 'SELECT count(*) FROM records')" = 4000 ]
}

# A fake securityfs folder for the kernel verbs.
fake_sfs() {
	local d=$cw/sfs
	rm -rf "$d"
	mkdir -p "$d"
	echo learn > "$d/mode"
	printf 'mode learn\nrecords.seq 28\nrecords.lost 0\n' > "$d/stats"
	: > "$d/policy"
	: > "$d/policy_errors"
	echo "$d"
}

c_status_mode() {
	local d
	d=$(fake_sfs)
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" status
	grep -q '^mode learn$' "$cw/o"
	grep -q '^records.seq 28$' "$cw/o"
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" mode observe
	[ "$(cat "$d/mode")" = observe ]
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" mode
	grep -q '^observe$' "$cw/o"
	VIGIL_SECURITYFS=$d expect_rc 2 "$VIGIL" mode enforce
	[ "$(cat "$d/mode")" = observe ]
	VIGIL_SECURITYFS=$cw/nowhere expect_rc 2 "$VIGIL" status
	grep -q 'is this kernel running vigil' "$cw/e"
}

c_owners() {
	local d f=$cw/subuid
	d=$(fake_sfs)
	printf '# comment\nroot:100000:65536\n2000:300000:10\n\nnosuchuser-x:400000:5\n' > "$f"
	: > "$d/owners"
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" owners --subuid "$f"
	[ "$(cat "$d/owners")" = "$(printf '100000 65536 0\n300000 10 2000')" ]
	grep -q "subuid:5: no user 'nosuchuser-x'" "$cw/e"
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" owners -n --subuid "$f"
	grep -q '^300000 10 2000$' "$cw/o"
	printf 'alice:100000\n' > "$f"
	printf 'kept\n' > "$d/owners"
	VIGIL_SECURITYFS=$d expect_rc 2 "$VIGIL" owners --subuid "$f"
	grep -q 'subuid:1: expected NAME:FIRST:COUNT' "$cw/e"
	[ "$(cat "$d/owners")" = kept ]
	printf 'root:x:5\n' > "$f"
	VIGIL_SECURITYFS=$d expect_rc 2 "$VIGIL" owners --subuid "$f"
	grep -q "subuid:1: FIRST 'x' is not a uid" "$cw/e"
	printf 'root:4294967290:10\n' > "$f"
	VIGIL_SECURITYFS=$d expect_rc 2 "$VIGIL" owners --subuid "$f"
	grep -q "subuid:1: COUNT '10' is not a count of uids from 4294967290" "$cw/e"
	VIGIL_SECURITYFS=$d expect_rc 2 "$VIGIL" owners --subuid "$cw/nowhere"
	grep -q 'nowhere: No such file or directory' "$cw/e"
	VIGIL_SECURITYFS=$cw/nowhere expect_rc 2 "$VIGIL" owners -n --subuid "$cw/nowhere"
	printf 'root:100000:65536\n' > "$f"
	VIGIL_SECURITYFS=$cw/nowhere expect_rc 2 "$VIGIL" owners --subuid "$f"
	grep -q "owners file is needed" "$cw/e"
	expect_rc 2 "$VIGIL" owners extra
}

c_load() {
	local d
	d=$(fake_sfs)
	printf 'subject /usr/bin/cat {\n  file r /etc/hostname\n}\n' > "$cw/good.policy"
	printf 'subject /usr/bin/cat {\n  fiel r /etc/hostname\n}\n' > "$cw/bad.policy"
	VIGIL_SECURITYFS=$d expect_rc 2 "$VIGIL" load "$cw/bad.policy"
	grep -q "^vigil: load: $cw/bad.policy:2: " "$cw/e"
	[ ! -s "$d/policy" ]	# the kernel was not touched
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" load -n "$cw/good.policy"
	[ ! -s "$d/policy" ]
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" load "$cw/good.policy"
	cmp "$cw/good.policy" "$d/policy"
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" load --dump "$cw/good.policy"
	grep -q 'subject /usr/bin/cat' "$cw/o"
	# the kernel rejects it (EINVAL): policy_errors is shown
	if [ "$cli_prefix" = cli ]; then
		echo "line 2: rule class needs a file object" > "$d/policy_errors"
		LD_PRELOAD=$top/tests/unit/build/fake_einval.so \
			FAKE_EINVAL_PATH=$d/policy VIGIL_SECURITYFS=$d \
			expect_rc 2 "$VIGIL" load "$cw/good.policy"
		grep -q "^vigil: load: $cw/good.policy: the kernel rejected the policy: line 2: rule class needs a file object$" "$cw/e"
	fi
	VIGIL_SECURITYFS=$d expect_rc 2 "$VIGIL" load "$cw/no-such.policy"
	VIGIL_SECURITYFS=$d expect_rc 2 "$VIGIL" load
	# the kernel side unwritable: an error, exit 2
	rm -f "$d/policy"
	mkdir "$d/policy"
	VIGIL_SECURITYFS=$d expect_rc 2 "$VIGIL" load "$cw/good.policy"
}

c_snapshot() {
	local d db=$cw/snap.db
	d=$(fake_sfs)
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log
	{
		echo '# seq verdict op access count first last uid exe object'
		echo '12 learned open r 3 1796284356 1796284400 0 /usr/bin/cat /etc/hostname'
		echo '13 learned create c 1 1796284357 1796284357 1000 /usr/bin/touch /tmp/a\040b\040'
		echo '14 learned open w 1 1796284357 1796284357 1000 /home/users/my\040tool/bin/run /tmp/line\012break'
		echo '15 learned capable use 1 1796284357 1796284357 0 /usr/sbin/nginx net_bind_service'
		echo '28 learned open a 1 1796284357 1796284357 0 ? /var/log/x.log'
		echo '0 allowed open r 9 1796284357 1796284357 0 /usr/bin/cat /etc/passwd'
	} > "$d/learned"
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" --db "$db" snapshot
	grep -q '^vigil snapshot: 6 tuples in the kernel table, 0 missing' "$cw/o"
	if grep -q 'pin_refused' "$cw/e"; then return 1; fi
	# Lost records whose tuple the kernel could not keep: said, not hidden.
	printf 'mode learn\ntable.pin_refused 0\n' > "$d/stats"
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" --db "$db" snapshot
	if grep -q 'pin_refused' "$cw/e"; then return 1; fi
	printf 'mode learn\ntable.pinned 4\ntable.pin_refused 37\nrecords.lost 40\n' > "$d/stats"
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" --db "$db" snapshot
	grep -q '37 lost records since boot found no room to be kept for a snapshot (table.pin_refused)' "$cw/e"
	echo '99 learned open r 1 1796284357 1796284357 0 /usr/bin/cat /etc/lost' >> "$d/learned"
	echo 'garbage line' >> "$d/learned"
	VIGIL_SECURITYFS=$d expect_rc 1 "$VIGIL" --db "$db" snapshot
	grep -q '^vigil snapshot: 7 tuples in the kernel table, 1 missing' "$cw/o"
	grep -q 'learned:9: malformed tuple' "$cw/e"
	[ "$(count "$db" 'SELECT count(*) FROM snapshots')" = 4 ]
	[ "$(count "$db" 'SELECT count(*) FROM kernel_tuples')" = 25 ]
}

c_plugin() {
	local db=$cw/plugin.db pid
	rm -f "$db"* "$cw/ingest-ref.db"*
	expect_rc 0 "$VIGIL" --db "$db" plugin < $fx/vigil-learn.log
	grep -q ' 20 vigil records stored' "$cw/o"
	expect_rc 0 "$VIGIL" --db "$cw/ingest-ref.db" ingest $fx/vigil-learn.log
	diff -u <(sqlite3 "$cw/ingest-ref.db" .dump\ records) <(sqlite3 "$db" .dump\ records)
	# ENRICHED and foreign records through the plugin too
	expect_rc 0 "$VIGIL" --db "$db" plugin < $fx/vigil-enriched.log
	grep -q ' 6 vigil records stored.* 1 AppArmor' "$cw/o"
	# SIGTERM while auditd still holds the pipe open: commit and exit 0
	rm -f "$db"* "$cw/fifo"
	mkfifo "$cw/fifo"
	"$VIGIL" --db "$db" plugin < "$cw/fifo" > "$cw/o" 2> "$cw/e" &
	pid=$!
	exec 9> "$cw/fifo"
	cat $fx/foreign.log >&9
	sleep 1.5
	kill -HUP $pid
	cat $fx/vigil-learn.log >&9
	sleep 1.5
	kill -TERM $pid
	local rc=0
	wait $pid || rc=$?
	exec 9>&-
	[ $rc = 0 ] || { echo "plugin exited $rc"; cat "$cw/o" "$cw/e"; return 1; }
	[ "$(count "$db" 'SELECT count(*) FROM records')" = 21 ]
	[ "$(count "$db" 'SELECT count(*) FROM foreign_records')" = 10 ]
}

# generate: a policy from the fixtures, deterministic, parsed, golden.
c_generate() {
	local db=$cw/gen.db
	rm -f "$db"* "$cw"/gen*.policy
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log \
		$fx/vigil-enriched.log $fx/vigil-generate.log
	# globs are judged against an empty tree: the same on every machine
	rm -rf "$cw/groot"
	mkdir -p "$cw/groot"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/groot"
	cp "$cw/o" "$cw/gen1.policy"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/groot" \
		-o "$cw/gen2.policy"
	[ ! -s "$cw/o" ]
	cmp "$cw/gen1.policy" "$cw/gen2.policy"
	grep -q "^# database: $db\$" "$cw/gen1.policy"
	sed -e '/^# database: /d' -e "s|$cw/groot|ROOT|" "$cw/gen1.policy" \
		> "$cw/gen.cmp"
	golden generate.policy "$cw/gen.cmp"
	# the shared parser accepts it (load --dump loads nothing)
	expect_rc 0 "$VIGIL" load --dump "$cw/gen1.policy"
	grep -q '^subject /usr/sbin/nginx {$' "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/groot" \
		-o "$cw/gen3.policy"
	sed -e '/^# database: /d' -e "s|$cw/groot|ROOT|" "$cw/gen3.policy" \
		> "$cw/gen.cmp"
	golden generate-strict.policy "$cw/gen.cmp"
	expect_rc 0 "$VIGIL" load --dump "$cw/gen3.policy"
	# a trial's would-deny records (the /etc/shadow read) are rules only
	# when asked
	not grep -q '^	file r /etc/shadow$' "$cw/gen1.policy"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/groot" \
		--include-would-deny -o "$cw/gen4.policy"
	grep -q '^	file r /etc/shadow$' "$cw/gen4.policy"
	grep -q '^# made from: learned and would-deny records;' "$cw/gen4.policy"
	expect_rc 0 "$VIGIL" --db "$db" generate --subject /usr/sbin/nginx \
		--subject /usr/bin/cat
	[ "$(grep -c '^subject ' "$cw/o")" = 2 ]
	# --children: the subjects bash ran (cat, demo), not true (never a
	# subject itself)
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/groot" \
		--subject /usr/bin/bash --children
	[ "$(grep '^subject ' "$cw/o" | tr '\n' ' ')" = "subject /usr/bin/bash { subject /usr/bin/cat { subject /usr/bin/demo { " ]
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/groot" \
		--subject /usr/bin/bash
	[ "$(grep -c '^subject ' "$cw/o")" = 1 ]
	expect_rc 2 "$VIGIL" --db "$db" generate --subject /no/such
	grep -q "subject '/no/such' was never observed" "$cw/e"
	# a --root that is not there judges nothing: an error naming it
	expect_rc 2 "$VIGIL" --db "$db" generate --root "$cw/no-such-root"
	grep -q "^vigil: generate: --root $cw/no-such-root: No such file or directory\$" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" generate --root "$db"
	grep -q "^vigil: generate: --root $db: not a folder\$" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" generate -o "$cw/no/dir/x.policy"
	expect_rc 2 "$VIGIL" --db "$db" generate --bogus
	expect_rc 2 "$VIGIL" --db "$db" generate extra
	expect_rc 0 "$VIGIL" generate -h
	# no database: an error, and none is created
	expect_rc 2 "$VIGIL" --db "$cw/none.db" generate
	[ ! -e "$cw/none.db" ]
}

# generate --uid and the uid evidence (issue 14): each rule lists the uids
# it was seen under, --uid keeps only those uids' observations, and a rule
# seen only under uids the subject never ran as is flagged. The fixture:
# /usr/sbin/uidsvc run by systemd as root, dropping to www-data (33), and
# run again by uid 1000 with its own config; /usr/bin/userprog run by
# users 1000 (busiest) and 1001.
# --children through a program others run too (issue 24's 93-next-run in a
# full boot): git runs dash for a push; the harness's own dash runs grep;
# grep also ran before any chain existed (records without via=). grep ran
# nothing under git: it gets no block, above all not a plain one that would
# apply to every grep (its would-be denials in the trial were the
# harness's). dash gets its block via git.
c_generate_children_shared() {
	local db=$cw/shared.db l=$cw/shared.log
	rm -f "$db"*
	cat > "$l" <<'LOG'
type=KERNEL_OTHER msg=audit(1796616160.701:265): vigil=1 seq=1 verdict=learned op=open access=r uid=0 exe="/usr/bin/grep" path="/etc/ld.so.cache" target=? pid=560 comm="grep"
type=KERNEL_OTHER msg=audit(1796616200.100:300): vigil=1 seq=2 verdict=learned op=exec access=x uid=0 exe="/opt/t/git" path="/usr/bin/dash" target=? pid=600 comm="git" via="/usr/bin/timeout//usr/bin/bash"
type=KERNEL_OTHER msg=audit(1796616200.200:301): vigil=1 seq=3 verdict=learned op=open access=r uid=0 exe="/usr/bin/dash" path="/etc/passwd" target=? pid=600 comm="sh" via="/usr/bin/timeout//usr/bin/bash//opt/t/git"
type=KERNEL_OTHER msg=audit(1796616200.300:302): vigil=1 seq=4 verdict=learned op=open access=r uid=0 exe="/opt/t/git" path="/opt/t/repo/HEAD" target=? pid=601 comm="git" via="/usr/bin/timeout//usr/bin/bash"
type=KERNEL_OTHER msg=audit(1796616201.100:303): vigil=1 seq=5 verdict=learned op=exec access=x uid=0 exe="/usr/bin/dash" path="/usr/bin/grep" target=? pid=700 comm="sh" via="/usr/bin/timeout//usr/bin/bash"
type=KERNEL_OTHER msg=audit(1796616201.200:304): vigil=1 seq=6 verdict=learned op=open access=r uid=0 exe="/usr/bin/grep" path="/var/log/audit/audit.log" target=? pid=700 comm="grep" via="/usr/bin/timeout//usr/bin/bash//usr/bin/dash"
LOG
	expect_rc 0 "$VIGIL" --db "$db" ingest "$l"
	expect_rc 0 "$VIGIL" --db "$db" generate --subject /opt/t/git --children
	[ "$(grep '^subject ' "$cw/o" | tr '\n' ' ')" = "subject /opt/t/git { subject /usr/bin/dash via /opt/t/git { " ]
	not grep -q 'grep\|audit.log' "$cw/o"
}

c_generate_boot() {
	local db=$cw/boots.db p=$cw/boots.policy
	rm -rf "$db"* "$cw/broot"
	mkdir -p "$cw/broot"
	# three boots: the serial and seq go back after a pause; inside the
	# first, a record out of seq order (a slow open's, 3 s later) and two
	# of one millisecond out of serial order stay in their boot
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-boots.log
	expect_rc 0 "$VIGIL" --db "$db" generate --boot list
	[ "$(grep -v '^#' "$cw/o")" = "1 -2 2026-12-03T09:26:41Z .. 2026-12-03T09:26:46Z 5
2 -1 2026-12-03T09:28:20Z .. 2026-12-03T09:28:20Z 2
3 0 2026-12-03T09:30:00Z .. 2026-12-03T09:30:00Z 1" ]
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/broot" --boot 1 -o "$p"
	grep -q 'first.conf' "$p"
	grep -q 'after-slow' "$p"
	grep -q 'same-ms' "$p"
	not grep -q 'second.conf\|third.conf' "$p"
	# a boot's window runs to the next boot's first record
	grep -q '^# made from: learned records, since 2026-12-03T09:26:41Z, until 2026-12-03T09:28:19Z' "$p"
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/broot" --boot -1 -o "$p"
	[ "$(grep -c '^	file' "$p")" = 2 ]
	grep -q 'second.conf' "$p"
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/broot" --boot 0 -o "$p"
	[ "$(grep '^	file' "$p")" = "	file r /etc/bootsvc/third.conf" ]
	# errors name the value and what is there
	expect_rc 2 "$VIGIL" --db "$db" generate --boot 4
	grep -q '^vigil: generate: --boot 4: .* holds 3 boots (1..3, or -2..0; --boot list shows them)$' "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" generate --boot -3
	expect_rc 2 "$VIGIL" --db "$db" generate --boot 1x
	grep -q "is not a boot number" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" generate --boot 1 --since today
	grep -q 'exclude each other' "$cw/e"
	# report: the same windows
	expect_rc 0 "$VIGIL" --db "$db" report --boot -1 --format json
	grep -q '^{"version":1,"first_ms":1796290100000,"last_ms":1796290100500,"records":2,' "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" report --boot list
	[ "$(grep -vc '^#' "$cw/o")" = 3 ]
}

# kvd_run LOG T0 PID SERIAL: one run of a key-value daemon as the kernel
# records it: a pid-numbered snapshot renamed over dump.rdb, its config,
# /etc/motd (serials SERIAL.., one second apart from T0).
kvd_run() {
	local log=$1 t=$2 pid=$3 n=$4 i=0 op acc obj
	for x in "open wc /var/lib/kvd/temp-$pid.rdb" \
		"rename d /var/lib/kvd/temp-$pid.rdb" \
		"rename c /var/lib/kvd/dump.rdb" "open r /etc/kvd/kvd.conf" \
		"open r /etc/motd"; do
		read -r op acc obj <<< "$x"
		echo "type=KERNEL_OTHER msg=audit($((t + i)).000:$((n + i))): vigil=1 seq=$((n + i)) verdict=learned op=$op access=$acc uid=0 exe=\"/usr/sbin/kvd\" path=\"$obj\" target=? pid=$pid comm=\"kvd\"" >> "$log"
		i=$((i + 1))
	done
}

# generate --update after an AppArmor complain trial alone (no vigil
# observe): its ALLOWED records are accesses the candidate lacks, proposed
# as a would-deny is; a sensitive one is marked, never proposed; an
# optional check (info="optional: no audit") and a network record are
# counted, not merged. Records as the 6.1 kernel writes them.
c_generate_update_apparmor() {
	local db=$cw/upda.db p=$cw/upda.policy t=1796290000 a
	rm -rf "$db"* "$p" "$cw/uaroot" "$cw"/upda*.log
	mkdir -p "$cw/uaroot"
	kvd_run "$cw/upda1.log" $t 811 1
	kvd_run "$cw/upda1.log" $((t + 100)) 1207 11
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/upda1.log"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/uaroot" -o "$p"
	cp "$p" "$cw/upda-edited.policy"
	a='apparmor="ALLOWED"'
	{
		echo "type=KERNEL_OTHER msg=audit($((t + 300)).000:61): vigil=1 seq=61 verdict=learned op=open access=r uid=0 exe=\"/usr/sbin/kvd\" path=\"/etc/kvd/kvd.conf\" target=? pid=2210 comm=\"kvd\""
		echo "type=AVC msg=audit($((t + 301)).000:62): $a operation=\"open\" profile=\"usr.sbin.kvd\" name=\"/var/lib/kvd/modules/acl.so\" pid=2210 comm=\"kvd\" requested_mask=\"r\" denied_mask=\"r\" fsuid=0 ouid=0"
		echo "type=AVC msg=audit($((t + 302)).000:63): $a operation=\"mknod\" profile=\"usr.sbin.kvd\" name=\"/var/lib/kvd/kvd.pid\" pid=2210 comm=\"kvd\" requested_mask=\"c\" denied_mask=\"c\" fsuid=0 ouid=0"
		echo "type=AVC msg=audit($((t + 303)).000:64): $a operation=\"capable\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" capability=24  capname=\"sys_resource\""
		echo "type=AVC msg=audit($((t + 304)).000:65): $a operation=\"capable\" info=\"optional: no audit\" error=-1 profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" capability=12  capname=\"net_admin\""
		echo "type=AVC msg=audit($((t + 305)).000:66): $a operation=\"open\" profile=\"usr.sbin.kvd\" name=\"/etc/shadow\" pid=2210 comm=\"kvd\" requested_mask=\"r\" denied_mask=\"r\" fsuid=0 ouid=0"
		echo "type=AVC msg=audit($((t + 306)).000:67): $a operation=\"create\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" family=\"inet\" sock_type=\"stream\" protocol=6 requested_mask=\"create\" denied_mask=\"create\""
		echo "type=AVC msg=audit($((t + 307)).000:68): $a operation=\"open\" profile=\"usr.sbin.other\" name=\"/etc/other.conf\" pid=2300 comm=\"other\" requested_mask=\"r\" denied_mask=\"r\" fsuid=0 ouid=0"
	} > "$cw/upda2.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/upda2.log"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/uaroot" --update "$p"
	grep -q "^vigil: generate: --update $p: 0 rules added, 4 proposed from a trial's would-deny, 0 left out by hand (marked), 1 sensitive would-deny never proposed, .*; AppArmor's trial: 5 ALLOWED records read as would-deny, 1 optional check and 1 other record (other profiles, peers not named, no vigil rule) not merged$" "$cw/e"
	grep -B2 '^	file r /var/lib/kvd/modules/acl.so$' "$p" | grep -q '^	# vigil: proposed by --update'
	grep -B2 '^	file c /var/lib/kvd/kvd.pid$' "$p" | grep -q '^	# vigil: proposed by --update'
	grep -B2 '^	cap use sys_resource$' "$p" | grep -q '^	# vigil: proposed by --update'
	grep -B2 '^	net socket inet:stream$' "$p" | grep -q '^	# vigil: proposed by --update'
	grep -q '^	# vigil: left out: file r /etc/shadow	# a trial.s would-deny of a sensitive object' "$p"
	not grep -q 'net_admin\|other.conf\|^	file r /etc/shadow$' "$p"
	# every line of the candidate kept
	diff <(grep -v '^# observed from ' "$cw/upda-edited.policy") \
		<(grep -v '^# observed from \|^# vigil: \|^	# vigil: \|acl.so\|kvd.pid\|sys_resource\|inet:stream\|^	# count 1, ' "$p")
	expect_rc 0 "$VIGIL" load --dump "$p"
	# a second update adds nothing more
	cp "$p" "$cw/upda-1.policy"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/uaroot" --update "$p"
	diff <(grep -v '^# vigil: updated' "$cw/upda-1.policy") <(grep -v '^# vigil: updated' "$p")
}

# generate --update after an AppArmor complain trial: its network, signal
# and ptrace records become vigil rules of the program that did them, as
# AppArmor writes them on 6.1 (net.c audit_net_cb: family, sock_type, no
# address but a bound socket's laddr/lport; ipc.c audit_signal_cb:
# requested_mask send/receive, signal=NAME|rtmin+N, peer=LABEL; task.c
# audit_ptrace_cb: read/trace, readby/tracedby from the tracee's side).
# Network: net socket FAMILY:TYPE (AppArmor's records and rules have no
# address; every net rule exports as "network FAMILY TYPE,"); signals and
# ptrace: the target's program from the peer's profile, the rule in the
# sender's or tracer's block also when the record is the target's
# (receive, tracedby). What names no program (peer="unconfined") or no
# signal vigil records (exists: kill(pid, 0)) is counted, not merged. A
# hostile path-named peer (hex, a newline and a brace) stays one object.
c_generate_update_apparmor_peers() {
	local db=$cw/updp.db p=$cw/updp.policy t=1796290000 a k h hx
	rm -rf "$db"* "$p" "$cw/uproot" "$cw"/updp*.log
	mkdir -p "$cw/uproot"
	kvd_run "$cw/updp1.log" $t 811 1
	kvd_run "$cw/updp1.log" $((t + 100)) 1207 11
	echo "type=KERNEL_OTHER msg=audit($((t + 101)).000:30): vigil=1 seq=30 verdict=learned op=open access=r uid=0 exe=\"/usr/sbin/kvd-helper\" path=\"/etc/kvd/helper.conf\" target=? pid=1300 comm=\"kvd-helper\"" >> "$cw/updp1.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/updp1.log"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/uproot" -o "$p"
	cp "$p" "$cw/updp-edited.policy"
	not grep -q '^	net \|^	signal \|^	ptrace ' "$p"
	a='type=AVC msg=audit'
	k='apparmor="ALLOWED"'
	h=$(printf '/tmp/e vil\n}\nsubject /x {')
	hx=$(printf '%s' "$h" | od -An -tx1 | tr -d ' \n' | tr a-f A-F)
	{
		echo "$a($((t + 301)).000:71): $k operation=\"create\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" family=\"inet\" sock_type=\"stream\" protocol=6 requested_mask=\"create\" denied_mask=\"create\""
		echo "$a($((t + 302)).000:72): $k operation=\"listen\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" laddr=127.0.0.1 lport=6379 family=\"inet\" sock_type=\"stream\" protocol=6 requested_mask=\"listen\" denied_mask=\"listen\""
		echo "$a($((t + 303)).000:73): $k operation=\"sendmsg\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" family=\"unix\" sock_type=\"dgram\" protocol=0 requested_mask=\"send\" denied_mask=\"send\""
		echo "$a($((t + 304)).000:74): $k operation=\"create\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" family=\"netlink\" sock_type=\"raw\" protocol=0 requested_mask=\"create\" denied_mask=\"create\""
		echo "$a($((t + 305)).000:75): $k operation=\"create\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" family=\"alg\" sock_type=\"seqpacket\" protocol=0 requested_mask=\"create\" denied_mask=\"create\""
		echo "$a($((t + 306)).000:76): $k operation=\"signal\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" requested_mask=\"send\" denied_mask=\"send\" signal=term peer=\"usr.sbin.kvd-helper\""
		echo "$a($((t + 307)).000:77): $k operation=\"signal\" profile=\"usr.sbin.kvd-helper\" pid=2210 comm=\"kvd\" requested_mask=\"receive\" denied_mask=\"receive\" signal=usr1 peer=\"usr.sbin.kvd\""
		echo "$a($((t + 308)).000:78): $k operation=\"signal\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" requested_mask=\"send\" denied_mask=\"send\" signal=rtmin+2 peer=\"usr.sbin.kvd-helper\""
		echo "$a($((t + 309)).000:79): $k operation=\"ptrace\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" requested_mask=\"read\" denied_mask=\"read\" peer=\"usr.sbin.kvd-helper\""
		echo "$a($((t + 310)).000:80): $k operation=\"ptrace\" profile=\"usr.sbin.kvd-helper\" pid=2210 comm=\"kvd\" requested_mask=\"tracedby\" denied_mask=\"tracedby\" peer=\"usr.sbin.kvd\""
		echo "$a($((t + 311)).000:81): $k operation=\"signal\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" requested_mask=\"send\" denied_mask=\"send\" signal=kill peer=$hx"
		# not merged: a target that runs unconfined, kill(pid, 0)
		echo "$a($((t + 312)).000:82): $k operation=\"signal\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" requested_mask=\"send\" denied_mask=\"send\" signal=hup peer=\"unconfined\""
		echo "$a($((t + 313)).000:83): $k operation=\"signal\" profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" requested_mask=\"send\" denied_mask=\"send\" signal=exists peer=\"usr.sbin.kvd-helper\""
	} > "$cw/updp2.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/updp2.log"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/uproot" --update "$p"
	grep -q "^vigil: generate: --update $p: 0 rules added, 7 proposed from a trial's would-deny, .*; AppArmor's trial: 11 ALLOWED records read as would-deny, 0 optional checks and 2 other records (other profiles, peers not named, no vigil rule) not merged$" "$cw/e"
	# each proposed, with its evidence, in the block of the program
	# that did it
	sed -n '/^subject \/usr\/sbin\/kvd {/,/^}/p' "$p" > "$cw/updp-kvd"
	for r in 'net socket inet:stream' 'net socket unix:dgram' \
		'net socket netlink:raw' 'net socket af38:seqpacket' \
		'signal usr1,term,sig34 /usr/sbin/kvd-helper' \
		'ptrace read,attach /usr/sbin/kvd-helper'; do
		grep -B2 -xF "	$r" "$cw/updp-kvd" | grep -q '^	# vigil: proposed by --update'
		grep -B1 -xF "	$r" "$cw/updp-kvd" | grep -q '^	# count [0-9]*, first 2026-'
	done
	[ "$(grep -c '^	net socket inet:stream$' "$p")" = 1 ]
	# the hostile peer: one rule, its name escaped in policy form
	grep -qxF '	signal kill /tmp/e\ vil\x0a\}\x0asubject\ /x\ \{' "$cw/updp-kvd"
	[ "$(grep -c '^subject ' "$p")" = 2 ]
	not grep -q 'hup\|exists\|unconfined' "$p"
	sed -n '/^subject \/usr\/sbin\/kvd-helper {/,/^}/p' "$p" > "$cw/updp-helper"
	not grep -q '^	net \|^	signal \|^	ptrace ' "$cw/updp-helper"
	expect_rc 0 "$VIGIL" load --dump "$p"
	# every line of the candidate kept; a second update adds nothing
	diff <(grep -v '^# observed from ' "$cw/updp-edited.policy") \
		<(grep -v '^# observed from \|^# vigil: \|^	# vigil: \|^	net \|^	signal \|^	ptrace \|^	# count [0-9]*, first 2026-12-03T09:31:' "$p")
	cp "$p" "$cw/updp-1.policy"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/uproot" --update "$p"
	diff <(grep -v '^# vigil: updated' "$cw/updp-1.policy") <(grep -v '^# vigil: updated' "$p")
	# the AppArmor export of the result allows what the trial showed
	expect_rc 0 "$VIGIL" export --to apparmor -o "$cw/updp-aa" "$p"
	grep -rq 'network inet stream,' "$cw/updp-aa"
	grep -rq 'signal (send) set=(.*term.*) peer=usr.sbin.kvd-helper,' "$cw/updp-aa"
}

c_generate_update() {
	local db=$cw/upd.db p=$cw/upd.policy t=1796290000
	rm -rf "$db"* "$p" "$cw/uroot" "$cw"/upd*.log
	mkdir -p "$cw/uroot"
	# learning: three runs
	kvd_run "$cw/upd1.log" $t 811 1
	kvd_run "$cw/upd1.log" $((t + 100)) 1207 11
	kvd_run "$cw/upd1.log" $((t + 200)) 1533 21
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/upd1.log"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/uroot" -o "$p"
	grep -q '^	file wcd /var/lib/kvd/temp-\*.rdb$' "$p"
	grep -q '^	file r /etc/motd$' "$p"
	# the review: /etc/motd removed (rule and comment), a comment added
	sed -i -e '/^	# count 3, .*$/{N;/\n	file r \/etc\/motd$/d}' \
		-e 's|^	file r /etc/kvd/kvd.conf$|	# the admin: checked\n&|' "$p"
	not grep -q 'motd' "$p"
	cp "$p" "$cw/upd-edited.policy"
	# the next run, and a trial in vigil observe (would-deny records)
	kvd_run "$cw/upd2.log" $((t + 300)) 2210 31
	{
		echo "type=KERNEL_OTHER msg=audit($((t + 310)).000:41): vigil=1 seq=41 verdict=learned op=open access=r uid=0 exe=\"/usr/sbin/kvd\" path=\"/etc/kvd/extra.conf\" target=? pid=2210 comm=\"kvd\""
		echo "type=KERNEL_OTHER msg=audit($((t + 311)).000:42): vigil=1 seq=42 verdict=would-deny op=open access=r uid=0 exe=\"/usr/sbin/kvd\" path=\"/etc/kvd/modules.conf\" target=? pid=2210 comm=\"kvd\""
		echo "type=KERNEL_OTHER msg=audit($((t + 312)).000:43): vigil=1 seq=43 verdict=would-deny op=open access=r uid=0 exe=\"/usr/sbin/kvd\" path=\"/etc/shadow\" target=? pid=2210 comm=\"kvd\""
	} >> "$cw/upd2.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/upd2.log"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/uroot" --update "$p"
	[ ! -s "$cw/o" ]
	grep -q "^vigil: generate: --update $p: 1 rule added, 1 proposed from a trial's would-deny, 1 left out by hand (marked), 1 sensitive would-deny never proposed, 1 new access a marker names" "$cw/e"
	# the admin's lines all there, in their order (the header's window
	# moved on); what was added, proposed and left out
	diff <(grep -v '^# observed from ' "$cw/upd-edited.policy") \
		<(grep -v '^# observed from \|^# vigil: \|^	# vigil: \|extra.conf\|modules.conf\|^	# count 1, ' "$p")
	grep -q '^# observed from 2026-12-03T09:26:40Z to 2026-12-03T09:31:52Z$' "$p"
	grep -q '^	# vigil: left out: file r /etc/motd	# observed while the candidate was made' "$p"
	grep -q '^	# vigil: left out: file r /etc/shadow	# a trial.s would-deny of a sensitive object' "$p"
	not grep -q '^	file r /etc/motd$\|^	file r /etc/shadow$' "$p"
	grep -B2 '^	file r /etc/kvd/extra.conf$' "$p" | grep -q '^	# vigil: added by --update'
	grep -B2 '^	file r /etc/kvd/modules.conf$' "$p" | grep -q '^	# vigil: proposed by --update'
	expect_rc 0 "$VIGIL" load --dump "$p"
	# what vigil diff says now: only the two left out
	expect_rc 1 "$VIGIL" --db "$db" diff "$p"
	grep -q '^2 needed but missing, 0 allowed but never used$' "$cw/o"
	grep -q '^	file r /etc/motd	' "$cw/o"
	grep -q '^	file r /etc/shadow	' "$cw/o"
	# again: nothing new, nothing changes but the update's line
	cp "$p" "$cw/upd-1.policy"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/uroot" --update "$p"
	diff <(grep -v '^# vigil: updated' "$cw/upd-1.policy") <(grep -v '^# vigil: updated' "$p")
	# errors: a candidate that does not parse, a missing one, --boot
	printf 'subject /usr/sbin/kvd {\n\tfile q /x\n}\n' > "$cw/upd-bad.policy"
	expect_rc 2 "$VIGIL" --db "$db" generate --update "$cw/upd-bad.policy"
	grep -q "^vigil: generate: $cw/upd-bad.policy:2: " "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" generate --update "$cw/nonexistent.policy"
	expect_rc 2 "$VIGIL" --db "$db" generate --update "$p" --boot 0
	grep -q -- '--update: --boot does not apply' "$cw/e"
}

c_report_apparmor() {
	local db=$cw/aa.db
	rm -rf "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-boots.log $fx/apparmor-trial.log
	# text: AppArmor's records beside vigil's, distinct ones counted
	expect_rc 0 "$VIGIL" --db "$db" report --format text
	grep -q '^AppArmor in the window: 5 ALLOWED (complain mode: what it would have denied), 1 DENIED:$' "$cw/o"
	grep -Eq '^  ALLOWED /usr/sbin/bootsvc: open /etc/bootsvc/extra.conf \(r\) +2$' "$cw/o"
	grep -Eq '^  ALLOWED /usr/sbin/bootsvc: capable net_admin +1$' "$cw/o"
	grep -Eq '^  DENIED /usr/sbin/bootsvc: open /etc/shadow \(r\) +1$' "$cw/o"
	# --subject: its profile and its children's (PROFILE//CHILD) only
	expect_rc 0 "$VIGIL" --db "$db" report --format text --subject /usr/sbin/bootsvc
	grep -q '^AppArmor in the window: 4 ALLOWED (complain mode: what it would have denied), 1 DENIED:$' "$cw/o"
	grep -Eq '^  ALLOWED /usr/sbin/bootsvc//null-/usr/bin/rm: exec /usr/bin/rm \(x\) +1$' "$cw/o"
	not grep -q other.conf "$cw/o"
	# a window: the latest boot runs to now, so the DENIED after its
	# last vigil record is in it
	expect_rc 0 "$VIGIL" --db "$db" report --format json --boot 0
	jq -e '.apparmor == {"allowed":0,"denied":1,"optional":0,"top":[{"verdict":"DENIED","profile":"/usr/sbin/bootsvc","operation":"open","object":"/etc/shadow","mask":"r","records":1}],"optional_checks":[]}' "$cw/o" > /dev/null
	expect_rc 0 "$VIGIL" --db "$db" report --format json --boot 1
	jq -e '.apparmor == {"allowed":0,"denied":0,"optional":0,"top":[],"optional_checks":[]}' "$cw/o" > /dev/null
	# no AppArmor record: no section in the text
	expect_rc 0 "$VIGIL" --db "$db" report --format text --boot 1
	not grep -q AppArmor "$cw/o"
	# html: the same table
	expect_rc 0 "$VIGIL" --db "$db" report -o "$cw/aarep"
	grep -q '<tr><td>DENIED</td><td>/usr/sbin/bootsvc</td><td>open</td><td>/etc/shadow</td><td>r</td><td class="n">1</td></tr>' "$cw/aarep/index.html"
}

# trial --report on AppArmor's optional checks (tests/fixtures/vm/
# apparmor-optional.log, from 93-next-redis's trial in the VM: redis-server
# opens /proc/sys/net/core/somaxconn, net_ctl_permissions() asks
# ns_capable_noaudit(CAP_NET_ADMIN), AppArmor's complain mode logs it with
# info="optional: no audit"; then the secret variant's /etc/shadow read):
# listed apart, not a would-be denial, so a trial with nothing else is clean.
c_trial_optional() {
	local db=$cw/aaopt.db db1=$cw/aaopt1.db d=$cw/aaopt
	local exe=/tmp/vigil-t/93-next-redis/redis-server
	rm -rf "$db"* "$db1"* "$d"
	mkdir -p "$d"
	printf 'start 1796594500000\ncandidate /x.policy\nprofile tmp.vigil-t.93-next-redis.redis-server\t%s\t%s\nsubject %s\n' \
		"$d/p" "$exe" "$exe" > "$d/trial.state"
	# the optional check alone: a clean trial (exit 0), the check listed
	head -n 8 $fx/vm/apparmor-optional.log > "$d/opt.log"
	grep -q 'info="optional: no audit"' "$d/opt.log"
	expect_rc 0 "$VIGIL" --db "$db1" ingest "$d/opt.log"
	expect_rc 0 "$VIGIL" --db "$db1" trial --report "$d"
	[ "$(sed -n 2p "$cw/o")" = "vigil (observe mode) would have denied:" ]
	grep -q "^AppArmor's optional checks (made without auditing: enforced, AppArmor denies them with no record" "$cw/o"
	grep -qx '	tmp.vigil-t.93-next-redis.redis-server: capable net_admin' "$cw/o"
	[ "$(tail -n 1 "$cw/o")" = "0 AppArmor, 0 vigil would-be denials since the trial started (run vigil ingest first); 1 optional check apart" ]
	# with the secret read: both would have denied it (exit 1), the
	# optional check still apart
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vm/apparmor-optional.log
	expect_rc 1 "$VIGIL" --db "$db" trial --report "$d"
	[ "$(sed -n 2p "$cw/o")" = "	tmp.vigil-t.93-next-redis.redis-server: open /etc/shadow (r)" ]
	grep -qx "	$exe: open r /etc/shadow (1)" "$cw/o"
	[ "$(grep -c 'net_admin' "$cw/o")" = 1 ]
	[ "$(tail -n 1 "$cw/o")" = "1 AppArmor, 1 vigil would-be denials since the trial started (run vigil ingest first); 1 optional check apart" ]
	# the same as JSON: the optional check in its own list and count
	expect_rc 1 "$VIGIL" --db "$db" trial --report "$d" --format json
	jq -e '.optional_count == 1 and .target_count == 1 and .vigil_count == 1 and
		.optional_checks[0].check == "tmp.vigil-t.93-next-redis.redis-server: capable net_admin" and
		(.target_denied | length) == 1' "$cw/o" > /dev/null
}

c_diff_apparmor() {
	local db=$cw/aadiff.db db0=$cw/aadiff0.db p=$cw/aadiff.policy
	rm -rf "$db"* "$db0"* "$cw/aaroot"
	mkdir -p "$cw/aaroot"
	expect_rc 0 "$VIGIL" --db "$db0" ingest $fx/vigil-boots.log
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-boots.log $fx/apparmor-trial.log
	expect_rc 0 "$VIGIL" --db "$db0" generate --root "$cw/aaroot" -o "$p"
	# no AppArmor record: the output of diff as it always was
	expect_rc 0 "$VIGIL" --db "$db0" diff "$p"
	[ "$(cat "$cw/o")" = "0 needed but missing, 0 allowed but never used" ]
	# the same policy and observations, with AppArmor's trial of it:
	# they differ (exit 1), its records for the subject's profile and
	# its children's, distinct, counted, the whole database
	expect_rc 1 "$VIGIL" --db "$db" diff "$p"
	grep -q '^AppArmor (whole database): 4 ALLOWED (complain mode: what it would have denied), 1 DENIED:$' "$cw/o"
	grep -q '^	ALLOWED /usr/sbin/bootsvc: open /etc/bootsvc/extra.conf (r)	# count 2$' "$cw/o"
	grep -q '^	ALLOWED /usr/sbin/bootsvc: capable net_admin	# count 1$' "$cw/o"
	grep -q '^	ALLOWED /usr/sbin/bootsvc//null-/usr/bin/rm: exec /usr/bin/rm (x)	# count 1$' "$cw/o"
	grep -q '^	DENIED /usr/sbin/bootsvc: open /etc/shadow (r)	# count 1$' "$cw/o"
	[ "$(tail -n 1 "$cw/o")" = "0 needed but missing, 0 allowed but never used, 5 AppArmor records" ]
	[ "$(wc -l < "$cw/o")" = 6 ]
	# a profile that is no compared subject's is not listed
	not grep -q other "$cw/o"
	expect_rc 1 "$VIGIL" --db "$db" diff --subject /usr/sbin/bootsvc "$p"
	grep -q '^	DENIED /usr/sbin/bootsvc: open /etc/shadow (r)	# count 1$' "$cw/o"
	# after diff's own sections: a rule dropped is missing, first
	grep -v '^	file r /etc/bootsvc/third.conf$' "$p" > "$p.less"
	expect_rc 1 "$VIGIL" --db "$db" diff "$p.less"
	[ "$(head -n 1 "$cw/o")" = "needed but missing:" ]
	[ "$(grep -n '^AppArmor' "$cw/o" | cut -d: -f1)" -gt 3 ]
	grep -q '^1 needed but missing, 0 allowed but never used, 5 AppArmor records$' "$cw/o"
}

# report and diff on AppArmor's optional checks (the real trial log of
# c_trial_optional): listed apart as trial --report lists them, under the
# same heading, in text and JSON, never among the ALLOWED records; diff
# exits 0 on them alone (no would-be denial), 1 when the /etc/shadow read
# of the secret variant is there too.
c_report_diff_optional() {
	local db=$cw/aaro.db db1=$cw/aaro1.db d=$cw/aaro p
	local prof=tmp.vigil-t.93-next-redis.redis-server
	local head="AppArmor's optional checks (made without auditing: enforced, AppArmor denies them with no record and the kernel takes its fallback; vigil records none; not would-be denials):"
	rm -rf "$db"* "$db1"* "$d"
	mkdir -p "$d/root"
	p=$d/redis.policy
	head -n 8 $fx/vm/apparmor-optional.log > "$d/opt.log"
	expect_rc 0 "$VIGIL" --db "$db1" ingest "$d/opt.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vm/apparmor-optional.log
	expect_rc 0 "$VIGIL" --db "$db1" generate --root "$d/root" -o "$p"
	# diff: the optional check alone is no difference (exit 0), apart
	expect_rc 0 "$VIGIL" --db "$db1" diff "$p"
	[ "$(cat "$cw/o")" = "$head
	$prof: capable net_admin	# count 1
0 needed but missing, 0 allowed but never used; 1 optional check apart" ]
	expect_rc 1 "$VIGIL" --db "$db" diff "$p"
	[ "$(cat "$cw/o")" = "AppArmor (whole database): 1 ALLOWED (complain mode: what it would have denied), 0 DENIED:
	ALLOWED $prof: open /etc/shadow (r)	# count 1
$head
	$prof: capable net_admin	# count 1
0 needed but missing, 0 allowed but never used, 1 AppArmor records; 1 optional check apart" ]
	expect_rc 1 "$VIGIL" --db "$db" diff --format json "$p"
	jq -e --arg p "$prof" '.apparmor == {"allowed":1,"denied":0,"optional":1,
		"records":[{"verdict":"ALLOWED","profile":$p,"operation":"open","object":"/etc/shadow","mask":"r","count":1}],
		"optional_checks":[{"profile":$p,"operation":"capable","object":"net_admin","count":1}]}' "$cw/o" > /dev/null
	expect_rc 0 "$VIGIL" --db "$db1" diff --format json "$p"
	jq -e '.apparmor.allowed == 0 and .apparmor.records == [] and .apparmor.optional == 1' "$cw/o" > /dev/null
	# report: the same, the ALLOWED section without it
	expect_rc 0 "$VIGIL" --db "$db" report --format text
	grep -q '^AppArmor in the window: 1 ALLOWED (complain mode: what it would have denied), 0 DENIED:$' "$cw/o"
	[ "$(grep -c net_admin "$cw/o")" = 1 ]
	[ "$(grep -A3 "^AppArmor's optional checks (made without auditing" "$cw/o" | tail -n 1)" = \
		"  $prof: capable net_admin                  1" ]
	expect_rc 0 "$VIGIL" --db "$db1" report --format text
	not grep -q '^AppArmor in the window' "$cw/o"
	grep -q "^AppArmor's optional checks (made without auditing" "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" report --format json
	jq -e --arg p "$prof" '.apparmor == {"allowed":1,"denied":0,"optional":1,
		"top":[{"verdict":"ALLOWED","profile":$p,"operation":"open","object":"/etc/shadow","mask":"r","records":1}],
		"optional_checks":[{"profile":$p,"operation":"capable","object":"net_admin","records":1}]}' "$cw/o" > /dev/null
	expect_rc 0 "$VIGIL" --db "$db" report -o "$d/rep"
	grep -q "<tr><td>$prof</td><td>capable</td><td>net_admin</td><td class=\"n\">1</td></tr>" "$d/rep/index.html"
	not grep -q "<td>ALLOWED</td><td>$prof</td><td>capable" "$d/rep/index.html"
}

# The uid class (issue 25 §2): a record with uclass=user stands for every
# user's uid; nobody (65534) is a system account.
c_generate_uclass() {
	local db=$cw/uclass.db p=$cw/uclass.policy
	rm -rf "$db"* "$cw/ucroot"
	mkdir -p "$cw/ucroot"
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-uclass.log
	[ "$(sqlite3 "$db" "select group_concat(uid || ':' || coalesce(uclass, '-'), ' ') from (select * from records order by seq)")" = "0:root 65534:system 100000:user 100001:user 100001:user 100000:user 100002:-" ]
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/ucroot" -o "$p"
	# nobody is a system uid: the service ran as it, its read unflagged
	grep -q '^# 3 accesses, .*; ran as uids 0, 65534$' "$p"
	grep -q '^	# FLAG: seen only under uid 100000 (class user), never a uid this subject ran as (0, 65534: classes root, system): review' "$p"
	# usertool ran as its busiest user uid, 100001: uid 100000's record
	# of the class user stands for it too, the old kernel's record
	# (no uclass=) of 100002 does not
	grep -q '^# 4 accesses, .*; ran as uid 100001$' "$p"
	[ "$(grep -A1 '# FLAG: ' "$p" | grep -v '^	#' | grep -v '^--' | tr '\n' '|')" = "	file r /home/*/old-kernel|	file r /home/*/.cache/stolen|" ]
	# --uid with a user's uid takes every record of the class user, and
	# only those of other users' uids
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/ucroot" --uid 1000 -o "$p"
	grep -q '^	file r /home/\*/shared$' "$p"
	grep -q '^	file r /home/\*/\.cache/stolen$' "$p"
	not grep -q 'old-kernel\|clsvc.conf\|nobody.db' "$p"
	not grep -q FLAG "$p"
	# --uid 0: root's only; --uid 65534: nobody's only
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/ucroot" --uid 0 -o "$p"
	grep -q '^	file r /etc/clsvc.conf$' "$p"
	not grep -q '/home/\|nobody.db' "$p"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/ucroot" --uid 65534 -o "$p"
	grep -q '^	file r /var/lib/clsvc/nobody.db$' "$p"
	not grep -q '/home/\|clsvc.conf' "$p"
}

# A mount namespace's number reused by the next one (issue 25 §7):
# mntnsid= tells them apart; --mntns N refuses a number two namespaces
# had, N:ID selects one; the learned file's NUMBER:ID column parses.
c_generate_mntns_reuse() {
	local db=$cw/mnr.db p=$cw/mnr.policy d
	rm -rf "$db"* "$cw/mnroot"
	mkdir -p "$cw/mnroot"
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-mntns-reuse.log
	[ "$(count "$db" "select group_concat(mntns || ':' || mntnsid, ' ') from (select * from records order by seq)")" = "4026532091:4 4026532091:4 4026532091:5 4026532091:5 4026532095:6 0:0" ]
	expect_rc 2 "$VIGIL" --db "$db" generate --root "$cw/mnroot" --mntns 4026532091 -o "$p"
	grep -qx 'vigil: generate: --mntns 4026532091: the number of 2 mount namespaces (reused after one died); name one as 4026532091:4, 4026532091:5' "$cw/e"
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/mnroot" --mntns 4026532091:4 -o "$p"
	grep -qx '	file r /srv/only1' "$p"
	grep -qx '	file r /srv/same' "$p"
	not grep -q 'only2\|svc\|alone\|hostname' "$p"
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/mnroot" --mntns 4026532091:5 -o "$p"
	grep -qx 'subject /usr/sbin/svc {' "$p"
	grep -qx '	file r /srv/only2' "$p"
	not grep -q 'only1\|/usr/bin/cat\|alone' "$p"
	# a number one namespace had: selected by it alone
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/mnroot" --mntns 4026532095 -o "$p"
	grep -qx '	file r /srv/alone' "$p"
	not grep -q 'same\|only' "$p"
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/mnroot" -o "$p"
	grep -qx '	file r /etc/hostname' "$p"
	not grep -q '/srv/' "$p"
	expect_rc 2 "$VIGIL" --db "$db" generate --mntns 4026532091:x
	expect_rc 2 "$VIGIL" --db "$db" generate --mntns 0:4
	expect_rc 2 "$VIGIL" --db "$db" generate --mntns :4
	# the snapshot's NUMBER:ID column; a record without mntnsid= (an
	# older kernel) is a third namespace of the number
	d=$(fake_sfs)
	{
		echo '# seq verdict op access count first last uid mntns exe object via'
		echo '707 learned open r 1 1796293004 1796293004 0 4026532091:5 /usr/sbin/svc /srv/snap -'
	} > "$d/learned"
	# (exit 1: its record is not in the database)
	VIGIL_SECURITYFS=$d expect_rc 1 "$VIGIL" --db "$db" snapshot
	grep -q '^vigil snapshot: 1 tuples in the kernel table, 1 missing' "$cw/o"
	[ "$(count "$db" "select mntns || ':' || mntnsid from kernel_tuples")" = 4026532091:5 ]
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/mnroot" --mntns 4026532091:5 -o "$p"
	grep -qx '	file r /srv/snap' "$p"
	echo '708 learned open r 1 1796293004 1796293004 0 4026532091:x /usr/sbin/svc /srv/bad -' >> "$d/learned"
	VIGIL_SECURITYFS=$d expect_rc 1 "$VIGIL" --db "$db" snapshot
	grep -q 'learned:3: bad mntns' "$cw/e"
	printf '%s\n' 'type=KERNEL_OTHER msg=audit(1796293005.101:709): vigil=1 seq=709 verdict=learned op=open access=r uid=0 exe="/usr/sbin/svc" path="/srv/old" target=? pid=730 comm="svc" mntns=4026532091 uclass=root' > "$cw/mnr-old.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/mnr-old.log"
	expect_rc 2 "$VIGIL" --db "$db" generate --mntns 4026532091
	grep -q 'the number of 3 mount namespaces .* 4026532091:0, 4026532091:4, 4026532091:5$' "$cw/e"
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/mnroot" --mntns 4026532091:0 -o "$p"
	grep -qx '	file r /srv/old' "$p"
	not grep -q 'only\|same' "$p"
}

# Abstract unix names of another network namespace (issue 25 §7):
# netns= keeps them out of the host's policy unless --netns all.
c_generate_netns() {
	local db=$cw/netns.db p=$cw/netns.policy d
	rm -rf "$db"* "$cw/nnroot"
	mkdir -p "$cw/nnroot"
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-netns.log
	[ "$(count "$db" "select group_concat(object || '/' || netns, ' ') from (select * from records order by seq)")" = "unix:stream:@bus/0 unix:stream:@bus/4097 unix:stream:@own/4097" ]
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/nnroot" -o "$p"
	grep -qx '	net connect unix:stream:@bus' "$p"
	not grep -q '@own' "$p"
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/nnroot" --netns all -o "$p"
	grep -qx '	net connect unix:stream:@own' "$p"
	expect_rc 2 "$VIGIL" --db "$db" generate --netns 4097
	grep -q "^vigil: generate: --netns: '4097': only 'all' is known" "$cw/e"
	# the learned file's 13th column
	d=$(fake_sfs)
	{
		echo '# seq verdict op access count first last uid mntns exe object via [netns]'
		echo '804 learned connect connect 1 1796294003 1796294003 100000 0 /usr/bin/client unix:stream:@snap - 4097'
	} > "$d/learned"
	VIGIL_SECURITYFS=$d expect_rc 1 "$VIGIL" --db "$db" snapshot
	[ "$(count "$db" "select object || '/' || netns from kernel_tuples")" = unix:stream:@snap/4097 ]
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/nnroot" -o "$p"
	not grep -q '@snap\|@own' "$p"
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --root "$cw/nnroot" --netns all -o "$p"
	grep -qx '	net connect unix:stream:@snap' "$p"
}

# Blocks by uid class (issue 25 §2): generate --uid writes "uid CLASS" on
# the block; load accepts it; diff and review judge each record by the
# block of its own uid class, as the kernel does.
c_uid_blocks() {
	local db=$cw/ublk.db p=$cw/ublk.policy
	rm -rf "$db"* "$cw/ubroot" "$cw/ublk-aa"
	mkdir -p "$cw/ubroot"
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-uclass.log
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/ubroot" --subject /usr/sbin/clsvc --uid 0 -o "$p"
	grep -qx 'subject /usr/sbin/clsvc uid root {' "$p"
	grep -q '^# only its accesses under uid class root (generate --uid): vigil judges no other uid' "$p"
	expect_rc 0 "$VIGIL" load -n "$p"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/ubroot" --subject /usr/sbin/clsvc --uid 0,nobody -o "$p"
	grep -qx 'subject /usr/sbin/clsvc uid root,system {' "$p"
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/ubroot" --subject /usr/sbin/clsvc -o "$cw/ublk-all.policy"
	grep -qx 'subject /usr/sbin/clsvc {' "$cw/ublk-all.policy"
	# diff: the user's read is lacked by root's block only for class user;
	# nobody's read too (no block judges class system)
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/ubroot" --subject /usr/sbin/clsvc --uid 0 -o "$p"
	expect_rc 1 "$VIGIL" --db "$db" diff --subject /usr/sbin/clsvc "$p"
	grep -q '^	file r /home/m/\.cache/stolen	.*; lacked for uid class user$' "$cw/o"
	grep -q '^	file r /var/lib/clsvc/nobody\.db	.*; lacked for uid class system$' "$cw/o"
	not grep -q 'clsvc.conf' "$cw/o"
	# a block for the class user after root's: the user's read is judged
	# by it, and it alone
	printf 'subject /usr/sbin/clsvc uid user {\n\tfile r /home/*/.cache/stolen\n}\nsubject /usr/sbin/clsvc uid system {\n}\n' >> "$p"
	expect_rc 0 "$VIGIL" load -n "$p"
	# the same program for other classes is no repeated block
	not grep -q 'a second block' "$cw/e"
	expect_rc 1 "$VIGIL" --db "$db" diff --subject /usr/sbin/clsvc "$p"
	not grep -q 'stolen' "$cw/o"
	grep -q '^	file r /var/lib/clsvc/nobody\.db	.*; lacked for uid class system$' "$cw/o"
	expect_rc 1 "$VIGIL" --db "$db" diff --subject /usr/sbin/clsvc --format json "$p"
	jq -e '[.missing[].object] == ["/var/lib/clsvc/nobody.db"]' "$cw/o" > /dev/null
	printf 'subject /usr/sbin/clsvc uid user {\n}\n' >> "$p"
	expect_rc 0 "$VIGIL" load -n "$p"
	grep -q 'a second block for subject /usr/sbin/clsvc' "$cw/e"
	# no export target tells uids apart: a program split by class is refused
	expect_rc 2 "$VIGIL" export --to apparmor -o "$cw/ublk-aa" "$p"
	grep -q "ublk.policy:15: subject /usr/sbin/clsvc has a block for uid class user and one for root (line 11): an export confines every uid's run" "$cw/e"
	[ ! -e "$cw/ublk-aa" ] || [ -z "$(ls "$cw/ublk-aa")" ]
	# one class's block alone exports (and the candidate says what that means)
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/ubroot" --subject /usr/sbin/clsvc --uid 0 -o "$p"
	expect_rc 0 "$VIGIL" export --to apparmor -o "$cw/ublk-aa" "$p"
	grep -q '"/etc/clsvc.conf{,/}" r,' "$cw/ublk-aa/usr.sbin.clsvc"
	# bad classes are the parser's errors, with the line
	printf 'subject /usr/sbin/clsvc uid admin {\n}\n' > "$cw/ublk-bad.policy"
	expect_rc 2 "$VIGIL" load -n "$cw/ublk-bad.policy"
	grep -q "ublk-bad.policy:1: unknown uid class in 'admin' (root, system or user, joined by ',')" "$cw/e"
}

c_generate_uids() {
	local db=$cw/uids.db p=$cw/uids.policy
	rm -rf "$db"* "$cw/uroot" "$cw/uaa" "$cw/uaa0"
	mkdir -p "$cw/uroot"
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-uids.log
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/uroot" -o "$p"
	grep -q "^vigil: generate: warning: 3 rules seen only under uids the subject never ran as" "$cw/e"
	grep -q '^# 3 rules marked FLAG: seen only under uids the subject never ran as' "$p"
	# the uids of each rule, in its comment (the line before it)
	uids_of() { grep -B2 -- "^	$1\$" "$p" | grep -v FLAG | grep '#' | tail -n 1 | sed -n 's/.*; uids\{0,1\} \([0-9, .]*\)$/\1/p'; }
	[ "$(uids_of 'file r /etc/uidsvc.conf')" = "0, 33, 1000" ]
	[ "$(uids_of 'file a /var/log/uidsvc/access.log')" = "33" ]
	[ "$(uids_of 'net bind inet:stream:80')" = "0" ]
	[ "$(uids_of 'file r /usr/lib/x86_64-linux-gnu/libc.so\*')" = "0, 1000" ]
	# merged by a heuristic: the union of its members' uids
	[ "$(uids_of 'file c /var/lib/uidsvc/state\.\*')" = "0, 33" ]
	[ "$(uids_of 'file r /srv/bob-only')" = "1001" ]
	# the uids each subject ran as: its system uids, else its busiest
	grep -q '^# 12 accesses, .*; ran as uids 0, 33$' "$p"
	grep -q '^# 5 accesses, .*; ran as uid 1000$' "$p"
	# flagged: exactly the rules seen only under other uids
	[ "$(grep -A1 '# FLAG: ' "$p" | grep -v '^	#' | grep -v '^--' | tr '\n' '|')" = "	file r /srv/bob-only|	file r /home/*/evil.conf|	file w /home/*/loot|" ]
	grep -q '^	# FLAG: seen only under uid 1000 (class user), never a uid this subject ran as (0, 33: classes root, system): review before keeping it$' "$p"
	grep -q '^	# FLAG: seen only under uid 1001 (class user), never a uid this subject ran as (1000: class user): review' "$p"
	expect_rc 0 "$VIGIL" load --dump "$p"
	# --uid (a number and a name): rules seen only under other uids are
	# gone, the others list only these uids, nothing is flagged
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/uroot" --uid 0,www-data -o "$p"
	not grep -q FLAG "$p"
	not grep -q 'evil.conf\|loot\|bob-only\|userprog\|/usr/bin/bash' "$p"
	[ "$(uids_of 'file r /etc/uidsvc.conf')" = "0, 33" ]
	[ "$(uids_of 'file r /usr/lib/x86_64-linux-gnu/libc.so\*')" = "0" ]
	grep -q '; only uids 0,33$' "$p"
	grep -q '^# 8 accesses, .*; ran as uids 0, 33$' "$p"
	# repeated --uid adds up; the attacker's view alone has no flag
	expect_rc 0 "$VIGIL" --db "$db" generate --root "$cw/uroot" --uid 1000 --uid 1001 -o "$p"
	grep -q '^	file r /home/\*/evil.conf$' "$p"
	not grep -q FLAG "$p"
	not grep -q '^	file a /var/log/uidsvc/access.log$' "$p"
	# bad values: named, exit 2, nothing written
	rm -f "$p"
	expect_rc 2 "$VIGIL" --db "$db" generate --uid nosuchuser-vigil -o "$p"
	grep -q "^vigil: generate: --uid: 'nosuchuser-vigil': no such user$" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" generate --uid 0,,33 -o "$p"
	grep -q "^vigil: generate: --uid: '0,,33': an empty uid between commas$" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" generate --uid 4294967295 -o "$p"
	grep -q "is not a uid (0..4294967294) or a user name" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" generate --uid=-5 -o "$p"
	grep -q "^vigil: generate: --uid: '-5' is not a uid" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" generate --uid ''
	[ ! -e "$p" ]
	# export's shortcut: the same rules and the flags in its header
	mkdir "$cw/uaa" "$cw/uaa0"
	expect_rc 0 "$VIGIL" --db "$db" export --to apparmor -o "$cw/uaa"
	grep -q '^# FLAG: 2 rules of /usr/sbin/uidsvc seen only under uids it never ran as (0, 33), review them: file /home/\*/evil.conf (uid 1000) file /home/\*/loot (uid 1000)$' "$cw/uaa/usr.sbin.uidsvc"
	grep -q 'evil.conf' "$cw/uaa/usr.sbin.uidsvc"
	expect_rc 0 "$VIGIL" --db "$db" export --to apparmor --uid root,33 -o "$cw/uaa0"
	not grep -q 'evil.conf\|loot\|FLAG' "$cw/uaa0/usr.sbin.uidsvc"
	grep -q '"/etc/uidsvc.conf{,/}" r,' "$cw/uaa0/usr.sbin.uidsvc"
	[ ! -e "$cw/uaa0/usr.bin.userprog" ]
	expect_rc 2 "$VIGIL" --db "$db" export --to apparmor --uid nosuchuser-vigil -o "$cw/uaa0"
	grep -q "^vigil: export: --uid: 'nosuchuser-vigil': no such user$" "$cw/e"
	# diff: --uid selects the observations compared, missing lines say
	# their uids and flags
	printf 'subject /usr/sbin/uidsvc {\n\tfile r /etc/uidsvc.conf\n}\n' > "$cw/u.pol"
	expect_rc 1 "$VIGIL" --db "$db" diff --subject /usr/sbin/uidsvc "$cw/u.pol"
	grep -q '^	file r /home/mallory/evil.conf	# count 1, .*; uid 1000; FLAG: class user, never a uid this subject ran as$' "$cw/o"
	grep -q '^	file a /var/log/uidsvc/access.log	# count 1, .*; uid 33$' "$cw/o"
	expect_rc 1 "$VIGIL" --db "$db" diff --subject /usr/sbin/uidsvc --uid 1000 "$cw/u.pol"
	not grep -q 'access.log' "$cw/o"
	grep -q '^3 needed but missing, 0 allowed but never used$' "$cw/o"
	expect_rc 2 "$VIGIL" --db "$db" diff --uid x,y "$cw/u.pol"
}

# diff: the generated policy agrees; an edited one differs (exit 1).
c_diff() {
	local db=$cw/gen.db
	[ -s "$cw/gen1.policy" ] || c_generate
	cd "$cw"
	# with the trial's would-deny records it agrees; without, those two
	# are missing
	expect_rc 0 "$VIGIL" --db "$db" diff gen4.policy
	grep -q '^0 needed but missing, 0 allowed but never used$' "$cw/o"
	expect_rc 1 "$VIGIL" --db "$db" diff gen1.policy
	grep -q '^2 needed but missing, 0 allowed but never used$' "$cw/o"
	grep -q '^	file r /etc/shadow	# count 1,' "$cw/o"
	grep -q '^	file m /tmp/vigil-t/30-observe/cat	# count 1,' "$cw/o"
	expect_rc 1 "$VIGIL" --db "$db" diff gen3.policy
	# drop cat's /etc/hostname and a generalised rule, add a rule
	# nothing uses, widen one a little
	sed -e '/^subject \/usr\/bin\/cat {/,/^}/{/file r \/etc\/hostname/d}' \
		-e '/file r \/proc\/\*\/status/d' \
		-e 's|^\(\tnet bind inet:stream:80\)$|\1\n\tfile r /etc/unused|' \
		-e 's|^\tfile a /var/log/demo/demo.log$|\tfile wa /var/log/demo/*|' \
		gen4.policy > edited.policy
	expect_rc 1 "$VIGIL" --db "$db" diff edited.policy
	golden diff.out "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" diff --subject /usr/bin/bash \
		edited.policy
	printf 'subject /usr/bin/cat {\n\tfile q /etc/x\n}\n' > broken.policy
	expect_rc 2 "$VIGIL" --db "$db" diff broken.policy
	grep -q "^vigil: diff: broken.policy:2: access 'q' invalid for class file$" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" diff no-such.policy
	expect_rc 2 "$VIGIL" --db "$db" diff
	expect_rc 2 "$VIGIL" --db "$db" diff --subject /no/such gen1.policy
}

# export: every target from the fixtures, each file checked by its own
# validator; errors. (Exporters in detail: test_export*.c.)
c_export() {
	local db=$cw/exp.db t f d
	rm -rf "$db"* "$cw/exp"
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log \
		$fx/vigil-enriched.log $fx/vigil-generate.log
	for t in apparmor selinux landlock tomoyo systemd; do
		mkdir -p "$cw/exp/$t"
		expect_rc 0 "$VIGIL" --db "$db" export --to $t -o "$cw/exp/$t"
		[ -s "$cw/o" ]
		while read -r f; do
			[ -s "$f" ]
			# a provenance comment first; JSON (Landlock) has none
			case $f in
			*.json) jq -e .pathBeneath "$f" > /dev/null ;;
			# SELinux's compiled module, built beside its .te
			*.pp) test -s "${f%.pp}.te" ;;
			*) head -n 1 "$f" | grep -q '^# ' ;;
			esac
		done < "$cw/o"
	done
	for f in "$cw"/exp/apparmor/*; do
		apparmor_parser -QK "$f"
	done
	for f in "$cw"/exp/selinux/*.te; do
		checkmodule -M -m -o "${f%.te}.mod" "$f" > /dev/null
		semodule_package -o "${f%.te}.pp" -m "${f%.te}.mod"
	done
	tomoyo-checkpolicy d < "$cw/exp/tomoyo/tomoyo-domain_policy.conf"
	tomoyo-checkpolicy e < "$cw/exp/tomoyo/tomoyo-exception_policy.conf"
	for f in "$cw"/exp/systemd/*.conf; do
		d=$cw/exp/unit
		rm -rf "$d"
		mkdir -p "$d/x.service.d"
		printf '[Service]\nExecStart=/usr/bin/true\n' > "$d/x.service"
		cp "$f" "$d/x.service.d/"
		(cd "$d" && systemd-analyze verify x.service 2>&1 > /dev/null) \
			> "$cw/sd.err"
		[ ! -s "$cw/sd.err" ] || { cat "$cw/sd.err"; return 1; }
	done
	# one subject, strict, a Landlock ABI given
	mkdir -p "$cw/exp/one"
	expect_rc 0 "$VIGIL" --db "$db" export --to landlock --strict \
		--abi 2 --subject /usr/bin/cat -o "$cw/exp/one"
	[ "$(wc -l < "$cw/o")" = 2 ]
	grep -q '"abi": 2,' "$cw/exp/one/usr.bin.cat.landlock.json"
	# errors
	expect_rc 2 "$VIGIL" --db "$db" export
	expect_rc 2 "$VIGIL" --db "$db" export --to bogus
	expect_rc 2 "$VIGIL" --db "$db" export --to apparmor --abi 0
	expect_rc 2 "$VIGIL" --db "$db" export --to apparmor --subject /no/such
	expect_rc 2 "$VIGIL" --db "$db" export --to apparmor -o "$cw/no/dir"
	expect_rc 2 "$VIGIL" --db "$cw/none.db" export --to apparmor
	[ ! -e "$cw/none.db" ]
	expect_rc 0 "$VIGIL" export -h
	# vigil run: bad input is 2, before anything runs
	expect_rc 2 "$VIGIL" run --landlock "$cw/no-such.json" -- true
	echo '{"abi": 1,}' > "$cw/bad.json"
	expect_rc 2 "$VIGIL" run --landlock "$cw/bad.json" -- true
	grep -q "bad.json: line 1, column 11: string or '}' expected near '}'" "$cw/e"
	expect_rc 2 "$VIGIL" run --landlock "$cw/bad.json"
	expect_rc 2 "$VIGIL" run -- true
	expect_rc 0 "$VIGIL" run -h
}

# export CANDIDATE: the candidate file is what is exported, hand edits
# included, to every target; the database only adds evidence; a candidate
# without any database exports the same rules; errors name the file.
c_export_candidate() {
	local db=$cw/expc.db d=$cw/expc t f
	rm -rf "$db"* "$d"
	mkdir -p "$d"
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log \
		$fx/vigil-enriched.log $fx/vigil-generate.log
	expect_rc 0 "$VIGIL" --db "$db" generate -o "$d/gen.policy"
	grep -q '^	file r /etc/hostname$' "$d/gen.policy"
	# the reviewer swaps cat's /etc/hostname read for a state file
	sed -e '/^subject \/usr\/bin\/cat {/,/^}/{s|^\tfile r /etc/hostname$|\tfile rw /var/lib/hand-edit/state|}' \
		"$d/gen.policy" > "$d/edited.policy"
	not cmp -s "$d/gen.policy" "$d/edited.policy"
	for t in apparmor selinux landlock tomoyo systemd; do
		expect_rc 0 "$VIGIL" --db "$db" export --to $t \
			--subject /usr/bin/cat -o "$d/$t" "$d/edited.policy"
		[ -s "$cw/o" ]
		expect_rc 0 "$VIGIL" --db "$db" export --to $t \
			--subject /usr/bin/cat -o "$d/gen-$t" "$d/gen.policy"
	done
	f=$d/apparmor/usr.bin.cat
	grep -q '^  "/var/lib/hand-edit/state" rw,$' "$f"
	not grep -q hostname "$f"
	grep -q 'from the candidate policy .*edited.policy; evidence from' "$f"
	apparmor_parser -QK "$f"
	f=$d/landlock/usr.bin.cat.landlock.json
	jq -e '.pathBeneath[] | select(.parent[] == "/var/lib/hand-edit/state")' "$f" > /dev/null
	not grep -q hostname "$f"
	f=$d/tomoyo/tomoyo-domain_policy.conf
	grep -q '^file write /var/lib/hand-edit/state$' "$f"
	not grep -q hostname "$f"
	tomoyo-checkpolicy d < "$f"
	f=$d/systemd/vigil-usr.bin.cat.conf
	grep -q '^ReadWritePaths=/var/lib$' "$f"
	not grep -q '^ReadWritePaths=' "$d/gen-systemd/vigil-usr.bin.cat.conf"
	f=$d/selinux/vigil_usr_bin_cat.te
	# the state file it writes: a type of its own (its .fc labels it)
	grep -q 'vigil_usr_bin_cat_var_t:file { append getattr open read write };' "$f"
	grep -q '^/var/lib/hand-edit/state	--	system_u:object_r:vigil_usr_bin_cat_var_t:s0$' "${f%.te}.fc"
	not grep -q 'var_lib_t' "$d/gen-selinux/vigil_usr_bin_cat.te"
	checkmodule -M -m -o "${f%.te}.mod" "$f" > /dev/null
	# the generated candidate exports what the shortcut does (the
	# headers and the comments of generalised rules aside)
	for t in apparmor landlock tomoyo; do
		expect_rc 0 "$VIGIL" --db "$db" export --to $t \
			--subject /usr/bin/cat -o "$d/short-$t"
		diff -r -I '^ *#' -I '^//' "$d/short-$t" "$d/gen-$t"
	done
	# no database: the same rules, no evidence
	expect_rc 0 "$VIGIL" --db "$db" export --to apparmor -o "$d/all" \
		"$d/edited.policy"
	[ "$(wc -l < "$cw/o")" = "$(grep -c '^subject ' "$d/edited.policy")" ]
	(cd "$d" && VIGIL_DB="$d/none.db" expect_rc 0 "$VIGIL" export \
		--to apparmor -o "$d/nodb" --subject /usr/bin/cat edited.policy)
	grep -q 'no database: no evidence' "$d/nodb/usr.bin.cat"
	diff -I '^ *#' "$d/apparmor/usr.bin.cat" "$d/nodb/usr.bin.cat"
	[ ! -e "$d/none.db" ]
	# errors: a bad line, a glob subject, a subject not in it, --strict,
	# a named database that does not exist
	printf 'subject /usr/bin/cat {\n\tfile q /etc/x\n}\n' > "$d/broken.policy"
	expect_rc 2 "$VIGIL" --db "$db" export --to apparmor -o "$d/x" "$d/broken.policy"
	grep -q "broken.policy:2: access 'q' invalid for class file$" "$cw/e"
	printf 'subject /usr/bin/* {\n\tfile r /etc/x\n}\n' > "$d/glob.policy"
	expect_rc 2 "$VIGIL" --db "$db" export --to apparmor -o "$d/x" "$d/glob.policy"
	grep -q "subject /usr/bin/\* is a glob" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" export --to apparmor -o "$d/x" \
		--subject /usr/bin/nope "$d/edited.policy"
	grep -q "subject '/usr/bin/nope' is not in the candidate" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" export --to apparmor --strict "$d/edited.policy"
	expect_rc 2 "$VIGIL" --db "$d/none.db" export --to apparmor "$d/edited.policy"
	expect_rc 2 "$VIGIL" --db "$db" export --to apparmor "$d/no-such.policy"
	expect_rc 2 "$VIGIL" --db "$db" export --to apparmor "$d/edited.policy" extra
	# vigil trial: AppArmor, TOMOYO and SELinux; a folder without a
	# trial; usage
	expect_rc 2 "$VIGIL" --db "$db" trial --to landlock "$d/edited.policy"
	grep -q "only apparmor, tomoyo and selinux can be trialed" "$cw/e"
	# SELinux where it is not enabled (this host): said, nothing installed
	if ! selinuxenabled 2>/dev/null; then
		expect_rc 2 "$VIGIL" --db "$db" trial --to selinux -o "$d/st" "$d/edited.policy"
		grep -q "SELinux is not enabled with a policy loaded here" "$cw/e"
		test ! -e "$d/st/trial.state"
	fi
	# TOMOYO where it is not active (this host): said, nothing loaded
	if [ ! -e /sys/kernel/security/tomoyo/domain_policy ]; then
		expect_rc 2 "$VIGIL" --db "$db" trial --to tomoyo -o "$d/tt" "$d/edited.policy"
		grep -q "TOMOYO is not active in this kernel" "$cw/e"
		test ! -e "$d/tt/trial.state"
	fi
	expect_rc 2 "$VIGIL" --db "$db" trial --report "$d/no-trial"
	grep -q "no trial started in $d/no-trial" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" trial "$d/edited.policy"
	expect_rc 2 "$VIGIL" --db "$db" trial --to apparmor "$d/broken.policy"
	expect_rc 0 "$VIGIL" trial -h
}

# gen_report_log N: vigil records shaped to catch aggregation mistakes:
# both verdicts, repeated tuples, records without exe or object, count
# ties, times and seqs out of order, seq gaps; one node.
gen_report_log() {
	awk -v n="$1" 'BEGIN {
		srand(3)
		for (i = 1; i <= n; i++) {
			t = 1796291000000 + int(rand() * 600000)
			x = int(rand() * 12)
			exe = x == 11 ? "?" : "\"/usr/bin/t" x "\""
			k = int(rand() * 4)
			op = k == 0 ? "mmap" : k == 1 ? "exec" : "open"
			acc = k == 0 ? "m" : k == 1 ? "x" : rand() < 0.5 ? "r" : "w"
			o = int(rand() * rand() * 300)
			path = o == 0 ? "?" : "\"/data/f-" o "\""
			v = rand() < 0.2 ? "would-deny" : "learned"
			printf "type=KERNEL_OTHER msg=audit(%d.%03d:%d): vigil=1 seq=%d verdict=%s op=%s access=%s uid=0 exe=%s path=%s target=? pid=%d comm=\"t\"\n", \
				int(t / 1000), t % 1000, i, i + int(i / 97), v, op, acc, exe, path, 100 + x
		}
	}'
}

# The report's one-pass aggregation against SQL's GROUP BY, on the whole
# table, a time window and a subject filter: every subject's numbers, the
# top objects and subjects, seq gaps, the discovery curves' last counts.
c_report_equals_sql() {
	local db=$cw/report-sql.db out=$cw/report-sql w since args sql
	rm -rf "$db"* "$out"
	gen_report_log 6000 > "$cw/report-sql.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/report-sql.log"
	since=$(count "$db" 'SELECT time_ms / 1000 FROM records ORDER BY time_ms LIMIT 1 OFFSET 3000')
	for w in whole window subjects; do
		case $w in
		whole) args=() sql= ;;
		window) args=(--since "$(date -u -d "@$since" +%Y-%m-%dT%H:%M:%SZ)")
			sql="AND time_ms >= $((since * 1000))" ;;
		subjects) args=(--subject /usr/bin/t3 --subject /usr/bin/t7)
			sql="AND exe IN ('/usr/bin/t3', '/usr/bin/t7')" ;;
		esac
		expect_rc 0 "$VIGIL" --db "$db" report --format json "${args[@]}"
		mv "$cw/o" "$cw/report-sql.json"
		jq -r '.subjects[] | [.exe, .records, .learned, .would_deny, .first_ms, .last_ms, .last_new_ms] | join("|")' \
			"$cw/report-sql.json" > "$cw/got"
		count "$db" "SELECT exe, count(*),
			count(DISTINCT CASE WHEN verdict = 'learned' THEN op || ' ' || access || ' ' || coalesce(object, '?') END),
			count(DISTINCT CASE WHEN verdict = 'would-deny' THEN op || ' ' || access || ' ' || coalesce(object, '?') END),
			min(time_ms), max(time_ms), coalesce(max(CASE WHEN verdict = 'learned' THEN time_ms END), -1)
			FROM records WHERE exe IS NOT NULL $sql GROUP BY exe ORDER BY count(*) DESC, exe" > "$cw/want"
		diff "$cw/want" "$cw/got" || return 1
		[ "$(wc -l < "$cw/want")" -ge 2 ] || return 1
		jq -r '.top_objects[] | [.object, .records] | join("|")' "$cw/report-sql.json" > "$cw/got"
		count "$db" "SELECT coalesce(object, '?'), count(*) FROM records WHERE 1 $sql
			GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10" > "$cw/want"
		diff "$cw/want" "$cw/got" || return 1
		[ "$(jq '[.records, .learned, .would_deny] | join(" ")' "$cw/report-sql.json")" = \
		  "\"$(count "$db" "SELECT count(*) FROM records WHERE 1 $sql") $(
		       count "$db" "SELECT count(DISTINCT exe || ' ' || op || ' ' || access || ' ' || coalesce(object, '?')) FROM records WHERE verdict = 'learned' $sql") $(
		       count "$db" "SELECT count(DISTINCT exe || ' ' || op || ' ' || access || ' ' || coalesce(object, '?')) FROM records WHERE verdict = 'would-deny' $sql")\"" ] || return 1
		# seq gaps are the whole table's, whatever the window
		[ "$(jq .seq_gaps "$cw/report-sql.json")" = "$(count "$db" 'SELECT max(seq) - count(DISTINCT seq) FROM records')" ] || return 1
	done
	[ "$(jq .seq_gaps "$cw/report-sql.json")" -gt 0 ] || return 1
	# HTML: top subjects (records without exe count as ?) and the curves
	expect_rc 0 "$VIGIL" --db "$db" report -o "$out"
	sed -n '/id="top-subjects"/,/<\/table>/p' "$out/index.html" |
		sed -n 's|<tr><td>\(.*\)</td><td class="n">\([0-9]*\)</td></tr>|\1\|\2|p' > "$cw/got"
	count "$db" "SELECT coalesce(exe, '?'), count(*) FROM records GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10" > "$cw/want"
	diff "$cw/want" "$cw/got" || return 1
	grep -q '^?|' "$cw/want" || return 1
	awk 'NF == 0 { if (y != "") print y; y = ""; next } { y = $2 } END { if (y != "") print y }' \
		"$out/data/discovery.dat" > "$cw/got"
	count "$db" "SELECT count(CASE WHEN verdict = 'learned' THEN 1 END) FROM records WHERE exe IS NOT NULL
		GROUP BY exe HAVING count(CASE WHEN verdict = 'learned' THEN 1 END) > 0
		ORDER BY count(*) DESC, exe LIMIT 6" > "$cw/want"
	diff "$cw/want" "$cw/got"
}

c_report() {
	local db=$cw/report.db out=$cw/report n
	rm -rf "$db"* "$out"
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log $fx/vigil-generate.log
	expect_rc 0 "$VIGIL" --db "$db" report -o "$out"
	# every chart is a non-empty SVG that gnuplot wrote
	for c in discovery records denials top-subjects top-objects; do
		grep -q '<svg' "$out/$c.svg"
		grep -q 'Produced by GNUPLOT' "$out/$c.svg"
	done
	# the HTML numbers are the database's
	n=$(count "$db" 'SELECT count(*) FROM records')
	grep -q "<b id=\"records\">$n</b>" "$out/index.html"
	n=$(count "$db" 'SELECT count(DISTINCT exe) FROM records WHERE exe IS NOT NULL')
	grep -q "<b id=\"subjects\">$n</b>" "$out/index.html"
	n=$(count "$db" "SELECT count(DISTINCT op || ' ' || access || ' ' || coalesce(object, '?') || exe) FROM records WHERE verdict = 'learned' AND exe IS NOT NULL")
	grep -q "<b id=\"learned\">$n</b>" "$out/index.html"
	top=$(count "$db" 'SELECT count(*) FROM records WHERE exe IS NOT NULL GROUP BY exe ORDER BY 1 DESC LIMIT 1')
	grep -A2 'id="top-subjects"' "$out/index.html" | grep -q "<td class=\"n\">$top</td>"
	# no unescaped markup from paths
	if grep -q '<td>[^<]*"' "$out/index.html"; then return 1; fi
	# the page renders in headless Chromium (package chromium)
	if command -v chromium > /dev/null; then
		timeout 120 chromium --headless --no-sandbox --disable-gpu \
			--disable-quic --no-first-run --disable-background-networking \
			--disable-component-update --disable-sync \
			--user-data-dir="$cw/chromium" --screenshot="$cw/report.png" \
			--window-size=1100,1800 "file://$out/index.html" > "$cw/chromium.log" 2>&1
		[ "$(stat -c %s "$cw/report.png")" -gt 20000 ]
	fi
	# text fits 80 columns; JSON is valid and agrees
	expect_rc 0 "$VIGIL" --db "$db" report --format text
	[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$cw/o")" -le 80 ]
	expect_rc 0 "$VIGIL" --db "$db" report --format json
	[ "$(jq .records "$cw/o")" = "$(count "$db" 'SELECT count(*) FROM records')" ]
	# time windows and subjects narrow it; bad times are usage errors
	expect_rc 0 "$VIGIL" --db "$db" report --format json --until 2000-01-01
	[ "$(jq .records "$cw/o")" = 0 ]
	expect_rc 0 "$VIGIL" --db "$db" report --format json --since 2000-01-01T00:00:00Z --until now
	[ "$(jq .records "$cw/o")" = "$(count "$db" 'SELECT count(*) FROM records')" ]
	for w in recent today yesterday this-week boot; do
		expect_rc 0 "$VIGIL" --db "$db" report --format json --since $w
	done
	expect_rc 2 "$VIGIL" --db "$db" report --since 2026-13-01
	expect_rc 2 "$VIGIL" --db "$db" report --since tomorrowish
	expect_rc 2 "$VIGIL" --db "$db" report --format pdf
	expect_rc 2 "$VIGIL" --db "$cw/none.db" report
}

# validate_exports DB DIR: export every target from DB into DIR and run
# each target's own validator on every file.
validate_exports() {
	local db=$1 dir=$2 t f d
	rm -rf "$dir"
	mkdir -p "$dir"
	for t in apparmor selinux landlock tomoyo systemd; do
		expect_rc 0 "$VIGIL" --db "$db" export --to $t -o "$dir/$t"
		[ -s "$cw/o" ]
	done
	for f in "$dir"/apparmor/*; do
		apparmor_parser -QK "$f"
	done
	for f in "$dir"/selinux/*.te; do
		checkmodule -M -m -o "${f%.te}.mod" "$f" > /dev/null
		semodule_package -o "${f%.te}.pp" -m "${f%.te}.mod"
	done
	tomoyo-checkpolicy d < "$dir/tomoyo/tomoyo-domain_policy.conf"
	tomoyo-checkpolicy e < "$dir/tomoyo/tomoyo-exception_policy.conf"
	for f in "$dir"/systemd/*.conf; do
		d=$dir/unit
		rm -rf "$d"
		mkdir -p "$d/x.service.d"
		printf '[Service]\nExecStart=/usr/bin/true\n' > "$d/x.service"
		cp "$f" "$d/x.service.d/"
		(cd "$d" && systemd-analyze verify x.service 2>&1 > /dev/null) \
			> "$cw/sd.err"
		[ ! -s "$cw/sd.err" ] || { cat "$cw/sd.err"; return 1; }
	done
}

# A log the real kernel wrote (tests/fixtures/vm/capture regenerates it).
c_vm_log() {
	local db=$cw/vm.db log=$top/tests/fixtures/vm/demo-audit.log n
	rm -f "$db"*
	expect_rc 0 "$VIGIL" --db "$db" ingest "$log"
	n=$(grep -a 'type=KERNEL_OTHER ' "$log" | grep -ac ' vigil=1 ')
	[ "$(count "$db" 'SELECT count(*) FROM records')" = "$n" ]
	grep -q " 0 malformed" "$cw/o"
	# seq numbers of one boot: no gap, nothing lost
	[ "$(count "$db" 'SELECT max(seq) - count(DISTINCT seq) FROM records')" = 0 ]
	[ "$(count "$db" "SELECT count(*) FROM records WHERE verdict = 'would-deny' AND object = '/etc/shadow'")" -ge 1 ]
	[ "$(count "$db" "SELECT count(*) FROM foreign_records WHERE kind = 'apparmor'")" -ge 1 ]
	expect_rc 0 "$VIGIL" --db "$db" ingest "$log"
	[ "$(count "$db" 'SELECT count(*) FROM records')" = "$n" ]
	expect_rc 0 "$VIGIL" --db "$db" generate -o "$cw/vm.policy"
	expect_rc 0 "$VIGIL" load -n "$cw/vm.policy"
	# every exporter, on what the real kernel recorded, passes its validator
	validate_exports "$db" "$cw/vm-exports"
}

t_cli "usage and exit codes" c_usage
t_cli "ingest fixture" c_ingest_learn
t_cli "idempotent ingest" c_idempotent
t_cli "overlapping rotated files" c_rotated_overlap
t_cli "rotation follows the inode, truncation rereads" c_rotation_follows_inode
t_cli "foreign records counted" c_foreign
t_cli "ENRICHED format" c_enriched
t_cli "malformed input counted with locations" c_malformed
t_cli "malformed corpus: 200+ cases, exact outcomes, bounded memory" c_malformed_corpus
t_cli "newer database refused" c_newer_db_refused
t_cli "kill -9 at 18 points then rerun: same database" c_kill9
t_cli "kill -9 from outside then rerun: same database" c_kill9_live
t_cli "kill -9 at 100 points while the log rotates: same database" c_kill9_rotating
t_cli "full disk and read-only database: clear error, consistent" c_full_disk
t_cli "a new database is 0600" c_db_mode
t_cli "status and mode" c_status_mode
t_cli "owners: /etc/subuid to the kernel's owners file; errors" c_owners
t_cli "load validates before writing" c_load
t_cli "snapshot reconciles" c_snapshot
t_cli "plugin (stdin, SIGHUP, SIGTERM)" c_plugin
t_cli "generate: golden, deterministic, parses" c_generate
t_cli "generate --boot: boots told apart by the records; errors" c_generate_boot
t_cli "generate --children: not what a shared program ran for others" c_generate_children_shared
t_cli "generate --update: an AppArmor trial's ALLOWED records proposed, sensitive marked, optional not merged" c_generate_update_apparmor
t_cli "generate --update: an AppArmor trial's network, signal and ptrace records proposed as vigil rules" c_generate_update_apparmor_peers
t_cli "generate --update: edits kept, removals marked, new rules added, would-deny proposed" c_generate_update
t_cli "report: AppArmor's ALLOWED and DENIED records beside vigil's" c_report_apparmor
t_cli "trial --report: AppArmor's optional (not audited) checks apart, not would-be denials" c_trial_optional
t_cli "report, diff: AppArmor's optional checks apart as in trial --report, text and JSON" c_report_diff_optional
t_cli "diff: AppArmor's ALLOWED and DENIED records of the compared subjects, exit 1" c_diff_apparmor
t_cli "generate --uid: uids per rule, filter, FLAG (export, diff too)" c_generate_uids
t_cli "generate: a record of the class user stands for every user, nobody is a system uid" c_generate_uclass
t_cli "generate --mntns: a reused namespace number refused alone, N:ID selects one namespace" c_generate_mntns_reuse
t_cli "generate: another network namespace's abstract unix names left out unless --netns all" c_generate_netns
t_cli "uid blocks: generate --uid scopes blocks by class; diff, review, export follow" c_uid_blocks
t_cli "diff: agrees, differs, errors" c_diff
t_cli "export: every target validates; errors" c_export
t_cli "export CANDIDATE: hand edits reach all 5 targets; DB only evidence" c_export_candidate
t_cli "report: charts, numbers equal SQL, text, JSON, times" c_report
t_cli "report: one-pass aggregation equals SQL GROUP BY (whole, window, subjects)" c_report_equals_sql
t_cli "a log written by the real kernel" c_vm_log
