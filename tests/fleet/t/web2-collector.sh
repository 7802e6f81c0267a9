#!/bin/bash
# The fleet test's collector, host web2 (tests/fleet/run): auditd listens
# on tcp_listen_port 60 (the host forwards its port to it) and hands every
# record, its own and web1's, to `vigil plugin`. It starts only after
# web1's first run (web1 queues), restarts while web1 runs again, then
# checks that web1's records are all in the database once, makes one
# candidate from both hosts, and enforces it as web1 does. lighttpd's work
# differs: web2 also lists a folder, which web1 never does.
. "$(dirname "$0")/../lib.sh"

db=/var/lib/vigil/fleet.db
web_setup

t_ok "guest-init's auditd stops" auditd_stop
auditd_conf tcp_listen_port=60 tcp_client_ports=1024-65535 distribute_network=yes
# auditd passes a plugin at most two arguments: --db=PATH is one.
cat > $conf/plugins.d/vigil.conf <<EOF
active = yes
direction = out
path = $vigil
type = always
args = plugin --db=$db
format = string
EOF
chmod 0640 $conf/plugins.d/vigil.conf
mkdir -p /var/lib/vigil
vigil_mode learn

# ---- web1 learns first, with nobody listening --------------------------------
t_ok "web1 ran once while web2 was down" flag_wait web1-round1 600
t_ok "auditd starts listening, with vigil plugin" auditd_start
out1=$(web_work listing)
t_is "lighttpd serves and lists while learning (run 1)" "$out1" "hello from the fleet 404
a.txt b.txt 200 "
t_ok "web1's queued records arrive (its mark of run 1)" \
	log_wait '^node=web1 type=USER .*vigil-fleet web1 round 1' 120

# ---- the collector restarts while web1 runs ---------------------------------
t_ok "auditd stops (the plugin flushes)" auditd_stop
flag_set web2-down
t_ok "web1 ran again meanwhile" flag_wait web1-round2 300
sleep 2
t_ok "auditd starts again" auditd_start
out2=$(web_work listing)
t_is "lighttpd serves and lists while learning (run 2)" "$out2" "$out1"
t_ok "web1's second run arrives after the restart" \
	log_wait '^node=web1 type=USER .*vigil-fleet web1 round 2' 300
flag_set web2-got-round2
t_ok "web1's last mark arrives" log_wait '^node=web1 type=USER .*vigil-fleet web1 end' 300
t_ok "auditd stops (the plugin commits)" auditd_stop

# ---- the database: both hosts, web1's records once each ---------------------
q() { sqlite3 -batch -noheader "$@"; }
t_is "the database names both hosts" "$(q $db "SELECT name FROM nodes WHERE name <> '' ORDER BY name" | tr '\n' ' ')" "web1 web2 "
t_ok "web1's own log ingested apart" env VIGIL_DB=/tmp/web1.db "$vigil" ingest $share/web1-audit.log
n1=$(q /tmp/web1.db "SELECT count(*) FROM records WHERE node = 'web1'")
t_match "web1 recorded vigil records" "$n1" '^[1-9][0-9]*$'
key="node, time_ms, serial, seq"
missing=$(q $db "ATTACH '/tmp/web1.db' AS w1;
	SELECT count(*) FROM (SELECT $key FROM w1.records WHERE node = 'web1'
	EXCEPT SELECT $key FROM main.records WHERE node = 'web1')")
t_is "every one of web1's $n1 records is in web2's database" "$missing" 0
t_is "none twice (web1's records by node, serial and seq)" \
	"$(q $db "SELECT count(*) FROM (SELECT $key FROM records GROUP BY $key HAVING count(*) > 1)")" 0
# what audit's transport itself did: web1's records in web2's log twice
dup=$(grep -ah '^node=web1 type=KERNEL_OTHER ' $(audit_logs) | sort | uniq -d | wc -l)
t_diag "web1: $n1 records in its own log; $(q $db "SELECT count(*) FROM records WHERE node = 'web1'") in web2's database; $dup lines twice in web2's audit log"
before=$(q $db 'SELECT count(*) FROM records')
t_ok "ingesting web2's audit log again" env VIGIL_DB=$db "$vigil" ingest $(audit_logs)
t_is "adds nothing: the plugin had every record of it" "$(q $db 'SELECT count(*) FROM records')" "$before"

# ---- one candidate for both hosts --------------------------------------------
export VIGIL_DB=$db
t_ok "vigil generate --all-nodes (the fleet's candidate)" \
	"$vigil" generate --all-nodes --subject $httpd -o $share/fleet.policy
t_ok "it names both hosts" grep -q '^# hosts: 2 (web1, web2)' $share/fleet.policy
t_ok "the listing's folder: seen on 1 of 2 hosts, web2" \
	sh -c "grep -A1 '# seen on 1 of 2 hosts: web2' $share/fleet.policy | grep -q '^	file r $w/www/files\$'"
t_ok "vigil generate --node web1 (web1's alone)" \
	"$vigil" generate --node web1 --subject $httpd -o /tmp/web1.policy
rc=0; "$vigil" diff --node web2 /tmp/web1.policy > /tmp/diff.out 2>&1 || rc=$?
t_is "vigil diff --node web2: web1's candidate lacks the listing (exit 1)" \
	"$rc $(grep -c "$w/www/files" /tmp/diff.out)" "1 1"
t_diag "$(head -n 20 /tmp/diff.out)"
t_ok "vigil export --to apparmor the fleet's candidate" \
	"$vigil" export --to apparmor -o $share/aa $share/fleet.policy
t_ok "vigil export --to apparmor web1's alone" \
	"$vigil" export --to apparmor -o /tmp/aa1 /tmp/web1.policy
flag_set profile-ready
# kept for the reader of a failure: tests/fleet/run --out DIR/web2/
cp -a $db $share/fleet.policy $share/aa /tmp/web1.policy /tmp/diff.out "$VIGIL_OUT/" 2>/dev/null

# ---- enforce: web1's candidate fails web2's work, the fleet's holds ----------
# apparmor_parser -K (no cache): both profiles have one file name, and a
# cache newer than the fleet's file (web1's, compiled after it was
# written) was loaded in its place (seen: the listing denied).
vigil_mode off
auditd_conf
rm -f $conf/plugins.d/vigil.conf
t_ok "auditd (no plugin) for the enforcement's records" auditd_start
t_ok "apparmor_parser -r web1's profile" apparmor_parser -r -K "$(aa_profile /tmp/aa1)"
t_match "under web1's profile web2's listing fails" "$(web_work listing | tail -n 1)" '^40[34] $'
web_enforced "$(aa_profile $share/aa)" "$out1" listing
t_ok "web1 enforced too" flag_wait web1-done 600
t_done
