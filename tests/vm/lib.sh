# Shell test library for tests run inside the guest: TAP output.
# Source it, then call the t_* functions; t_done prints the plan.
# shellcheck shell=bash

_t_n=0
_t_fail=0
_t_file=${T_NAME:-$(basename "${0%.sh}")}

_t_result() { # STATUS DESC
	_t_n=$((_t_n + 1))
	if [ "$1" = ok ]; then
		echo "ok $_t_n - $_t_file: $2"
	else
		_t_fail=$((_t_fail + 1))
		echo "not ok $_t_n - $_t_file: $2"
	fi
}

# t_ok DESC COMMAND...: passes when COMMAND succeeds.
t_ok() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		_t_result ok "$desc"
	else
		_t_result "not ok" "$desc"
		echo "#   command failed ($?): $*"
		printf '%s\n' "$out" | head -n 20 | sed 's/^/#   /'
	fi
}

# t_fails DESC COMMAND...: passes when COMMAND fails.
t_fails() {
	local desc=$1
	shift
	if "$@" > /dev/null 2>&1; then
		_t_result "not ok" "$desc"
		echo "#   command succeeded, expected failure: $*"
	else
		_t_result ok "$desc"
	fi
}

# t_is DESC GOT WANT: passes when the two strings are equal.
t_is() {
	if [ "$2" = "$3" ]; then
		_t_result ok "$1"
	else
		_t_result "not ok" "$1"
		echo "#   got:  '$2'"
		echo "#   want: '$3'"
	fi
}

# t_match DESC STRING REGEX: passes when STRING matches the extended REGEX.
t_match() {
	if printf '%s' "$2" | grep -Eq -- "$3"; then
		_t_result ok "$1"
	else
		_t_result "not ok" "$1"
		echo "#   '$2'"
		echo "#   does not match /$3/"
	fi
}

t_diag() { printf '%s\n' "$*" | sed 's/^/# /'; }

# t_skip DESC REASON: an assertion whose premise this run could not set up
# (TAP "# SKIP": counted, never failed, its reason printed).
t_skip() {
	_t_n=$((_t_n + 1))
	echo "ok $_t_n - $_t_file: $1 # SKIP $2"
}

t_done() {
	echo "1..$_t_n"
	[ "$_t_fail" = 0 ]
}

# ---- vigil helpers ---------------------------------------------------------
VIGIL_FS=/sys/kernel/security/vigil
AUDIT_LOG=/var/log/audit/audit.log
VIGIL_PROBE=${VIGIL_PROBE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/vigil-probe}

# audit_logs: the logs auditd keeps, oldest first. auditd rotates
# audit.log to audit.log.1 (and .1 to .2, ...) at max_log_file (8 MB): by
# the later tests of a boot the log has rotated, once in the middle of a
# test's burst (CI: 289 of 85-learned-read's 1000 records in audit.log,
# the rest in audit.log.1). Every reader of the log reads them all.
# In bash alone (no ls, no sort): it runs at every check, and under TCG
# each program started costs ~70 ms.
audit_logs() {
	local f i max=0
	for f in "$AUDIT_LOG".*; do
		i=${f##*.}
		case $i in '' | *[!0-9]*) continue ;; esac
		[ "$i" -gt "$max" ] && max=$i
	done
	for ((i = max; i > 0; i--)); do
		[ -e "$AUDIT_LOG.$i" ] && echo "$AUDIT_LOG.$i"
	done
	echo "$AUDIT_LOG"
}

# audit_serial: the serial number of the last event logged (0: none).
audit_serial() {
	# shellcheck disable=SC2046
	tail -q -n 1 $(audit_logs) | tail -n 1 |
		sed -nE 's/.*msg=audit\([0-9.]+:([0-9]+)\).*/\1/p' | grep . || echo 0
}

# audit_since SERIAL [ERE]: the lines of events after SERIAL (matching ERE),
# from every kept log: a count taken this way survives a rotation.
audit_since() {
	# shellcheck disable=SC2046
	grep -ahE -- "${2:-.}" $(audit_logs) | awk -v s="$1" '
		match($0, /msg=audit\([0-9.]+:[0-9]+\)/) {
			x = substr($0, RSTART, RLENGTH)
			sub(/^.*:/, "", x)
			sub(/\)$/, "", x)
			if (x + 0 > s + 0)
				print
		}'
}

# vigil_lines [ERE]: the vigil records in the audit logs (matching ERE).
# auditd's ENRICHED format appends interpreted fields after a 0x1D byte:
# they are cut off here. (Three programs a call: a record's type is the
# first field, so one grep finds both marks.)
vigil_lines() {
	# shellcheck disable=SC2046
	grep -ah 'type=KERNEL_OTHER .* vigil=1 ' $(audit_logs) |
		cut -d $'\035' -f1 | grep -aE -- "${1:-.}"
}

# vigil_seqs: the seq numbers of the vigil records in the logs, ascending.
vigil_seqs() { vigil_lines | grep -ao ' seq=[0-9]*' | cut -d= -f2 | sort -n; }

# vigil_count ERE: how many vigil records match.
vigil_count() {
	# shellcheck disable=SC2046
	grep -ah 'type=KERNEL_OTHER .* vigil=1 ' $(audit_logs) |
		cut -d $'\035' -f1 | grep -acE -- "${1:-.}"
}

# vigil_wait ERE [SECONDS]: wait until auditd has written a matching record.
vigil_wait() {
	local i n=$((${2:-10} * 10))
	for ((i = 0; i < n; i++)); do
		[ "$(vigil_count "$1")" -gt 0 ] && return 0
		sleep 0.1
	done
	return 1
}

# vigil_settle: wait until auditd has written everything the kernel sent:
# the log has not grown for 0.3 s. A quiet moment is no proof on a loaded
# host: where a test must see every record, it waits for a sentinel
# record (vigil_sentinel). (Also
# asking `auditctl -s` for an empty backlog each round was tried and made a
# settle take minutes under TCG: the log rarely stayed quiet for 1 s.)
vigil_settle() {
	local before after
	after=$(stat -c %s "$AUDIT_LOG")
	while :; do
		sleep 0.3
		before=$after
		after=$(stat -c %s "$AUDIT_LOG")
		[ "$before" = "$after" ] && break
	done
}

# vigil_subject NAME [BINARY]: a private copy of BINARY (default: NAME from
# PATH) under /tmp/vigil-t/<test>/, so the test owns its subject.
vigil_subject() {
	local dir=/tmp/vigil-t/$_t_file src=${2:-$(command -v "$1")}
	mkdir -p "$dir"
	cp "$src" "$dir/$1"
	echo "$dir/$1"
}

# vigil_stat KEY: one value of the stats file.
vigil_stat() { awk -v k="$1" '$1 == k { print $2 }' "$VIGIL_FS/stats"; }

# audit_lost: the records audit itself has dropped since boot.
audit_lost() { auditctl -s | awk '$1 == "lost" { print $2 }'; }

vigil_mode() { echo "$1" > "$VIGIL_FS/mode"; }

# vigil_load TEXT: load a policy in one write(2), as the kernel requires
# (the shell's printf may split its output into several writes).
vigil_load() { printf '%s\n' "$1" | dd of="$VIGIL_FS/policy" bs=16M count=1 iflag=fullblock status=none; }
mkdir -p /tmp/vigil-t

# kernel_reports: how many warning/bug/sanitizer reports dmesg holds.
KERNEL_REPORT_RE='WARNING:|BUG:|Oops|general protection|KASAN:|UBSAN:|possible recursive locking|circular locking dependency|inconsistent lock state|sleeping function called from invalid context|suspicious RCU usage|kmemleak: [0-9]+ new suspected|list_add corruption|list_del corruption'
kernel_reports() { dmesg | grep -cE "$KERNEL_REPORT_RE"; }

# The window of vigil's sequence numbers a sentinel checks starts at the
# test's previous sentinel (at first, at the test's start), with what may
# be missing from it without being late: records vigil or audit counted
# lost, and first sightings held back over a person's rate (recorded
# later, with the sequence number they had). Kept in a file: a sentinel
# often runs in a subshell (t_ok ... vigil_sentinel).
_t_window=/tmp/vigil-t/.sentinel-window.$_t_file.$$
# vigil_gone: what may be missing, counted since boot.
vigil_gone() {
	echo $(( $(vigil_stat records.lost 2>/dev/null || echo 0) +
		$(vigil_stat records.held 2>/dev/null || echo 0) +
		$(audit_lost 2>/dev/null || echo 0) ))
}
[ -r "$VIGIL_FS/stats" ] &&
	echo "$(vigil_stat records.seq) $(vigil_gone)" > "$_t_window"

# vigil_gaps FROM TO: how many of vigil's sequence numbers FROM+1..TO no
# record in the kept logs has; those below the first one of the oldest
# kept log (rotated out by auditd) do not count.
# (One awk over the logs: the eleven programs of a pipeline each, ~70 ms
# apiece under TCG, made a sentinel's every round cost about a second.)
vigil_gaps() {
	local logs
	logs=$(audit_logs)
	# shellcheck disable=SC2086
	awk -v a="$1" -v b="$2" -v oldest="${logs%%$'\n'*}" '
		/type=KERNEL_OTHER / && / vigil=1 / && match($0, / seq=[0-9]+/) {
			s = substr($0, RSTART + 5, RLENGTH - 5) + 0
			if (FILENAME == oldest && !first && !/ released=1 /) {
				first = 1
				if (s - 1 > a) a = s - 1
			}
			if (!(s in seen)) { seen[s] = 1; seqs[++m] = s }
		}
		END {
			for (i = 1; i <= m; i++)
				if (seqs[i] > a && seqs[i] <= b) n++
			print (b > a ? b - a - n : 0)
		}' $logs
}

# vigil_sentinel [SUBJECT [SECONDS]]: after the accesses a test expects NOT
# to be recorded (or expects all recorded), make one that must be (SUBJECT,
# default /usr/bin/cat, reads a file of a fresh name), wait for its
# record, up to SECONDS (default 10), then up to 10 s more until every
# record with a lower sequence number since the previous sentinel is in
# the logs too, but as many as were counted lost or held back meanwhile.
# Audit does NOT keep the kernel's order: when auditd falls behind,
# kauditd puts a record it could not send at the end of its retry queue
# and the ones behind it in its hold queue, then sends newer records
# before them (kernel/audit.c, kauditd_thread()): a record made seconds
# before the sentinel's was seen written after it (89-folder-move's
# would-be denials missing at its check after 85-learned-read). Once no
# sequence number is missing, "nothing was recorded" or "all were" is
# proven, not assumed from a quiet moment. Fails when the sentinel never
# arrives; a gap that does not close in 10 s is said on stderr.
_t_sentinels=0
vigil_sentinel() {
	local f s from gone0 gone gaps end
	_t_sentinels=$((_t_sentinels + 1))
	# Unique also when called in a subshell (t_ok ... vigil_sentinel),
	# where the count does not persist: a file reused is read by the
	# same subject again, a tuple already there, so no new record, and
	# the old one was found at once, before the records waited for.
	f=/tmp/vigil-t/sentinel.$_t_file.$$.$BASHPID.$_t_sentinels.${EPOCHREALTIME/[.,]/}
	echo sentinel > "$f"
	"${1:-/usr/bin/cat}" "$f" > /dev/null
	vigil_wait "path=\"$f\"" "${2:-10}" || {
		echo "# vigil_sentinel: no record for $f after ${2:-10} s" >&2
		return 1
	}
	read -r from gone0 2> /dev/null < "$_t_window" || return 0
	s=$(vigil_lines "path=\"$f\"" | grep -ao ' seq=[0-9]*' | head -n 1 | cut -d= -f2)
	end=$((SECONDS + 10))
	while :; do
		gone=$(( $(vigil_gone) - gone0 ))
		gaps=$(vigil_gaps "$from" "$s")
		[ "$gaps" -le "$gone" ] && break
		if [ "$SECONDS" -ge "$end" ]; then
			echo "# vigil_sentinel: $gaps records before seq $s still missing ($gone lost or held)" >&2
			break
		fi
		sleep 0.2
	done
	echo "$s $(vigil_gone)" > "$_t_window"
}

# ---- lighttpd: the real daemon 92-real, 93-tomoyo and 94-selinux enforce ---
# http_setup: $httpd, the test's own copy of lighttpd (vigil_subject),
# serving $w/www (index.html, and shadow: a link to /etc/shadow) on
# 127.0.0.1:80 as www-data, logging to $w/log (opened O_CREAT|O_APPEND),
# its pid file in $w/run. /etc/shadow gets a copy bound over it that
# www-data may read ($w/shadow-copy; the test umounts it), so that only
# the MAC decides (DAC would refuse it before any LSM is asked). $w must
# be set.
http_setup() {
	httpd=$(vigil_subject lighttpd /usr/sbin/lighttpd)
	mkdir -p $w/www $w/log $w/run
	echo "hello from vigil" > $w/www/index.html
	ln -s /etc/shadow $w/www/shadow
	chown www-data:www-data $w/log
	cat > $w/lighttpd.conf <<EOC
server.modules = ("mod_accesslog")
server.document-root = "$w/www"
server.bind = "127.0.0.1"
server.port = 80
server.username = "www-data"
server.groupname = "www-data"
server.pid-file = "$w/run/lighttpd.pid"
server.errorlog = "$w/log/error.log"
accesslog.filename = "$w/log/access.log"
index-file.names = ("index.html")
mimetype.assign = (".html" => "text/html", "" => "text/plain")
EOC
	cp /etc/shadow $w/shadow-copy
	chmod 644 $w/shadow-copy
	mount --bind $w/shadow-copy /etc/shadow
}

# http_stop: stop the daemon (its pid file's), waiting up to 5 s.
http_stop() {
	local pid
	pid=$(cat $w/run/lighttpd.pid 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null
	for _ in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	rm -f $w/run/lighttpd.pid
}

# http_work [PREFIX...]: start the daemon (under PREFIX), fetch a page and
# a missing one (and with HTTP_SHADOW set, shadow), stop it; prints the
# page and the status codes.
http_work() {
	local i
	"$@" $httpd -f $w/lighttpd.conf || { echo "start failed"; return 1; }
	for i in $(seq 100); do
		curl -s -o /dev/null http://127.0.0.1/ && break
		sleep 0.1
	done
	echo "$(curl -s http://127.0.0.1/index.html) $(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1/index.html)"
	curl -s -o /dev/null -w '%{http_code}\n' http://127.0.0.1/missing
	[ -z "${HTTP_SHADOW:-}" ] ||
		curl -s -o /dev/null -w 'shadow %{http_code}\n' http://127.0.0.1/shadow
	http_stop
}
