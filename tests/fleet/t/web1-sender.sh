#!/bin/bash
# The fleet test's sender, host web1 (tests/fleet/run boots it beside the
# collector web2): vigil learns lighttpd's work here; audisp-remote
# (audispd-plugins) forwards every record to web2's auditd, queueing them
# while web2 is down at first and while it restarts; then web1 enforces
# the fleet's candidate that web2 made from both hosts' records.
. "$(dirname "$0")/../lib.sh"

port=$(cat $share/port)
web_setup

# ---- audit: records named by host, forwarded to the collector --------------
t_ok "guest-init's auditd stops" auditd_stop
auditd_conf
cat > $conf/plugins.d/au-remote.conf <<EOF
active = yes
direction = out
path = /sbin/audisp-remote
type = always
format = string
EOF
# audisp-remote reads only /etc/audit/audisp-remote.conf: ours over it.
# mode = forward: records go to a queue on disk first, kept until the
# collector takes them.
cat > /run/fleet/audisp-remote.conf <<EOF
remote_server = 10.0.2.2
port = $port
local_port = any
transport = tcp
mode = forward
queue_file = /var/spool/audit/remote.log
queue_depth = 50000
format = managed
network_retry_time = 1
max_tries_per_record = 1000
max_time_per_record = 600
heartbeat_timeout = 0
network_failure_action = syslog
remote_ending_action = reconnect
startup_failure_action = warn_once_continue
EOF
chmod 0640 $conf/plugins.d/au-remote.conf /run/fleet/audisp-remote.conf
mount --bind /run/fleet/audisp-remote.conf /etc/audit/audisp-remote.conf
t_ok "auditd starts with audisp-remote (web2 is not listening yet)" auditd_start
t_ok "audisp-remote runs" pgrep -x audisp-remote
vigil_mode learn

# ---- learn: a first run while the collector is down ------------------------
out1=$(web_work)
t_is "lighttpd serves while learning (run 1, collector down)" "$out1" "hello from the fleet 404"
mark "round 1"
flag_set web1-round1

# ---- a second run while the collector restarts -----------------------------
t_ok "web2 says its auditd is down" flag_wait web2-down
out2=$(web_work)
t_is "lighttpd serves while learning (run 2, collector restarting)" "$out2" "$out1"
mark "round 2"
flag_set web1-round2
# audisp-remote reconnects when the next record comes: a record a second
# until web2 has round 2.
for _ in $(seq 300); do
	[ -e $share/flag.web2-got-round2 ] && break
	mark ping
	sleep 1
done
t_ok "web2 has run 2's records" test -e $share/flag.web2-got-round2

# What this host recorded, to check on web2 that all of it arrived once:
# the log as it stands, then a last mark that follows it in the queue.
vigil_settle
cat $(audit_logs) > $share/web1-audit.log
t_ok "the log handed over holds vigil records" grep -aq ' vigil=1 ' $share/web1-audit.log
mark end
t_is "web1's records carry node=web1" \
	"$(grep -a 'type=KERNEL_OTHER ' $share/web1-audit.log | grep -cv '^node=web1 ')" 0

# ---- enforce the fleet's candidate -------------------------------------------
t_ok "web2 made the fleet's AppArmor profile" flag_wait profile-ready 600
web_enforced "$(aa_profile $share/aa)" "$out1"
flag_set web1-done
t_done
