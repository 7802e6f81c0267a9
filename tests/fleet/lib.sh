# Shell library of the fleet test's two guests (tests/fleet/run): the
# service both hosts run, auditd's own remote transport set up the Debian
# way (audispd-plugins' audisp-remote on the sender, tcp_listen_port and
# vigil's plugin on the collector), and the flags by which the two guests
# take turns through the folder they share (tests/vm/run --share).
# shellcheck shell=bash
. "$(dirname "${BASH_SOURCE[0]}")/../vm/lib.sh"

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
vigil=$top/analyzer/vigil
share=/run/vigil/share
# The same paths on both hosts: one service, one candidate.
w=/tmp/vigil-fleet
httpd=$w/lighttpd
conf=/run/fleet/audit

# flag_set NAME / flag_wait NAME [SECONDS]: one guest tells the other.
flag_set() { : > "$share/flag.$1"; }
flag_wait() {
	local i
	for i in $(seq $((${2:-300} * 5))); do
		[ -e "$share/flag.$1" ] && return 0
		sleep 0.2
	done
	echo "# timed out waiting for flag $1" >&2
	return 1
}

# log_wait ERE [SECONDS]: wait until this host's audit log has a line
# matching ERE (records from the other host arrive there too).
log_wait() {
	local i
	for i in $(seq $((${2:-120} * 5))); do
		# shellcheck disable=SC2046
		grep -aqE -- "$1" $(audit_logs) 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

# mark TEXT: a USER record with TEXT, through this host's audit (and so
# through its transport): the other side waits for it in its log.
mark() { auditctl -m "vigil-fleet $(hostname) $1"; }

# auditd_stop: stop the running auditd (guest-init's or ours), waiting for
# it to exit (its plugins get SIGTERM and flush).
auditd_stop() {
	local pid
	pid=$(cat /run/auditd.pid 2>/dev/null) || return 0
	kill -TERM "$pid" 2>/dev/null
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	! kill -0 "$pid" 2>/dev/null
}

# auditd_start: auditd with the configuration in $conf, once the kernel
# has it registered.
auditd_start() {
	local pid
	auditd -c "$conf" || return 1
	for _ in $(seq 300); do
		pid=$(cat /run/auditd.pid 2>/dev/null)
		[ -n "$pid" ] && [ "$(auditctl -s 2>/dev/null | awk '$1 == "pid" { print $2 }')" = "$pid" ] && return 0
		sleep 0.1
	done
	return 1
}

# auditd_conf KEY=VALUE...: $conf/auditd.conf, the host's own with these
# keys set (node names by host name on every record), plugins from
# $conf/plugins.d.
auditd_conf() {
	local kv
	mkdir -p "$conf/plugins.d" /var/spool/audit
	cp /etc/audit/auditd.conf "$conf/auditd.conf"
	for kv in name_format=hostname "plugin_dir=$conf/plugins.d" use_libwrap=no "$@"; do
		sed -i "/^#*${kv%%=*} *=/d" "$conf/auditd.conf"
		echo "${kv%%=*} = ${kv#*=}" >> "$conf/auditd.conf"
	done
	chmod 0640 "$conf/auditd.conf"
}

# The service: lighttpd with one configuration on every host; what each
# host asks of it differs (web_work).
web_setup() {
	mkdir -p $w/www/files $w/log $w/run
	cp /usr/sbin/lighttpd $httpd
	echo "hello from the fleet" > $w/www/index.html
	echo "one" > $w/www/files/a.txt
	echo "two" > $w/www/files/b.txt
	ln -s /etc/shadow $w/www/shadow
	chown www-data:www-data $w/log
	cat > $w/lighttpd.conf <<EOC
server.modules = ("mod_accesslog", "mod_dirlisting")
server.document-root = "$w/www"
server.bind = "127.0.0.1"
server.port = 80
server.username = "www-data"
server.groupname = "www-data"
server.pid-file = "$w/run/lighttpd.pid"
server.errorlog = "$w/log/error.log"
accesslog.filename = "$w/log/access.log"
index-file.names = ("index.html")
dir-listing.activate = "enable"
mimetype.assign = (".html" => "text/html", "" => "text/plain")
EOC
	cp /etc/shadow $w/shadow-copy
	chmod 644 $w/shadow-copy
	mount --bind $w/shadow-copy /etc/shadow
}

# web_work [listing]: start the daemon, fetch the page and a missing one;
# with "listing" (web2's work) the listing of files/ too (its names, or
# the status when it fails); with WEB_SHADOW set, shadow; stop it.
web_work() {
	$httpd -f $w/lighttpd.conf || { echo "start failed"; return 1; }
	for _ in $(seq 100); do
		curl -s -o /dev/null http://127.0.0.1/ && break
		sleep 0.1
	done
	echo "$(curl -s http://127.0.0.1/) $(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1/missing)"
	if [ "${1:-}" = listing ]; then
		curl -s -w ' %{http_code}\n' http://127.0.0.1/files/ |
			grep -oE '>[ab]\.txt<|^ [0-9]+$' | tr -d '<> ' | tr '\n' ' '
		echo
	fi
	[ -z "${WEB_SHADOW:-}" ] ||
		curl -s -o /dev/null -w 'shadow %{http_code}\n' http://127.0.0.1/shadow
	http_stop
}

# aa_profile DIR: the AppArmor profile file vigil's export wrote for $httpd.
aa_profile() { echo "$1/$(echo "${httpd#/}" | tr / .)"; }

# web_enforced PROFILE WANT [listing]: the fleet's AppArmor profile
# enforced: lighttpd's work gives WANT (its output while learning), its
# /etc/shadow variant 403, and AppArmor denies nothing else; unloaded after.
web_enforced() {
	local s0
	t_ok "apparmor_parser -r the fleet's profile" apparmor_parser -r -K "$1"
	s0=$(audit_serial)
	t_is "lighttpd confined by the fleet's profile: same output" "$(web_work ${3:-})" "$2"
	t_match "lighttpd's /etc/shadow: 403 under it" "$(WEB_SHADOW=1 web_work ${3:-})" 'shadow 403'
	vigil_settle
	t_is "AppArmor denied only /etc/shadow" \
		"$(audit_since "$s0" 'apparmor="DENIED"' | grep -vc 'name="/etc/shadow"')" 0
	audit_since "$s0" 'apparmor="DENIED"' | head -n 10 | while read -r l; do t_diag "$l"; done
	apparmor_parser -R "$1" 2>/dev/null
}
