# Command-line tests of hosts (issue 28, docs/fleet.md): node= kept by
# ingest and plugin, --node/--all-nodes on the verbs that read records,
# their errors, generate over several hosts (seen on N of M hosts,
# --min-hosts), diff --node, report per host. Sourced by tests/unit/run
# after cli.sh (t_cli, expect_rc, not, $cw, $fx).
# shellcheck shell=bash

# A fleet of three: web1 and web2 run the learn fixture, web2 also the
# generate fixture; web3 the learn fixture with one access of its own.
fleet_log() {
	sed 's/^type=/node=web1 type=/' $fx/vigil-learn.log
	sed 's/^type=/node=web2 type=/' $fx/vigil-learn.log
	sed 's/^type=/node=web2 type=/' $fx/vigil-generate.log
	sed -e 's/^type=/node=web3 type=/' \
	    -e 's|path="/etc/hostname"|path="/etc/web3-only"|' $fx/vigil-learn.log
}

c_fleet_ingest() {
	local db=$cw/fleet.db
	rm -f "$db"*
	fleet_log > "$cw/fleet.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/fleet.log" $fx/vigil-learn.log
	# the hosts: node= as written, '' for the local host's
	[ "$(sqlite3 "$db" "SELECT group_concat(name, ',') FROM (SELECT name FROM nodes ORDER BY 1)")" = ",web1,web2,web3" ]
	[ "$(sqlite3 "$db" 'SELECT name FROM local_node')" = "$(uname -n)" ]
	# two hosts' serials collide: records keyed by host and serial
	w1=$(sqlite3 "$db" "SELECT count(*) FROM records WHERE node = 'web1'")
	w3=$(sqlite3 "$db" "SELECT count(*) FROM records WHERE node = 'web3'")
	loc=$(sqlite3 "$db" "SELECT count(*) FROM records WHERE node = ''")
	[ "$w1" -gt 0 ] && [ "$w1" = "$w3" ] && [ "$w1" = "$loc" ]
	# idempotent: again, nothing new
	expect_rc 0 "$VIGIL" --db "$db" ingest - < "$cw/fleet.log"
	grep -q ' 0 vigil records stored' "$cw/o"
	# the plugin keeps node= too
	rm -f "$cw/fleet-plugin.db"*
	expect_rc 0 "$VIGIL" --db "$cw/fleet-plugin.db" plugin < "$cw/fleet.log"
	[ "$(sqlite3 "$cw/fleet-plugin.db" 'SELECT count(DISTINCT node) FROM records')" = 3 ]
	[ "$(sqlite3 "$cw/fleet-plugin.db" 'SELECT count(*) FROM records')" = \
	  "$(sqlite3 "$db" "SELECT count(*) FROM records WHERE node != ''")" ]
}

c_fleet_select() {
	local db=$cw/fleet.db verb
	# several hosts: each verb that reads records asks which
	for verb in generate report subjects; do
		expect_rc 2 "$VIGIL" --db "$db" $verb
		grep -q "holds the records of 4 hosts (.*web1, web2, web3)" "$cw/e"
		grep -q -- '--all-nodes' "$cw/e"
	done
	expect_rc 2 "$VIGIL" --db "$db" diff /dev/null
	grep -q 'holds the records of 4 hosts' "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" export --to apparmor -o "$cw/fx-exp"
	grep -q 'holds the records of 4 hosts' "$cw/e"
	expect_rc 0 "$VIGIL" --db "$db" export --to apparmor --node web1 -o "$cw/fx-exp"
	expect_rc 2 "$VIGIL" --db "$db" export --to apparmor --node web1 /dev/null
	grep -q -- '--node, --all-nodes: only without CANDIDATE' "$cw/e"
	# a glob matching no host names the hosts there are
	expect_rc 2 "$VIGIL" --db "$db" generate --node 'db*'
	grep -q -- "--node db\*: no host of the database matches it (its hosts: .*web1, web2, web3)" "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" generate --node web1 --all-nodes
	grep -q 'exclude each other' "$cw/e"
	# one host: exactly that host's policy (web1 and the local host
	# ingested the same log)
	expect_rc 0 "$VIGIL" --db "$db" generate --node web1 -o "$cw/web1.policy"
	expect_rc 0 "$VIGIL" --db "$db" generate --node "$(uname -n)" -o "$cw/local.policy"
	diff <(grep -v '^# database' "$cw/web1.policy") <(grep -v '^# database' "$cw/local.policy")
	not grep -q 'seen on' "$cw/web1.policy"
	# a name with a glob metacharacter is a glob; a host name from the
	# records is escaped in messages
	expect_rc 0 "$VIGIL" --db "$db" subjects --node 'web[12]'
	# --min-hosts needs several hosts
	expect_rc 2 "$VIGIL" --db "$db" generate --node web1 --min-hosts 2
	grep -q -- '--min-hosts: only one host' "$cw/e"
	expect_rc 2 "$VIGIL" --db "$db" generate --all-nodes --min-hosts 0
	expect_rc 2 "$VIGIL" --db "$db" generate --all-nodes --min-hosts 101%
	grep -q 'percentage' "$cw/e"
}

c_fleet_generate() {
	local db=$cw/fleet.db p=$cw/fleet.policy
	expect_rc 0 "$VIGIL" --db "$db" generate --node 'web*' -o "$p"
	"$VIGIL" load -n "$p" > /dev/null
	grep -q '^# hosts: 3 (web1, web2, web3)' "$p"
	# cat ran on all three; /etc/hostname on two, /etc/web3-only on one
	awk '/^subject \/usr\/bin\/cat /,/^}/' "$p" > "$cw/cat"
	grep -B1 -q $'^\tfile r /etc/hostname$' "$cw/cat"
	grep -B1 $'^\tfile r /etc/hostname$' "$cw/cat" | grep -q '# seen on 2 of 3 hosts: web1, web2$'
	grep -B1 $'^\tfile r /etc/web3-only$' "$cw/cat" | grep -q '# seen on 1 of 3 hosts: web3$'
	grep -q '; observed on 3 of 3 hosts' <(grep -B1 '^subject /usr/bin/cat ' "$p")
	# a subject only web2 ran: observed on 1 of 3
	grep -B1 '^subject /usr/bin/demo ' "$p" | grep -q 'observed on 1 of 3 hosts'
	# --min-hosts 2: what one host did is left out, listed
	expect_rc 0 "$VIGIL" --db "$db" generate --node 'web*' --min-hosts 2 -o "$cw/min2.policy"
	"$VIGIL" load -n "$cw/min2.policy" > /dev/null
	awk '/^subject \/usr\/bin\/cat /,/^}/' "$cw/min2.policy" > "$cw/cat2"
	not grep -q $'^\tfile r /etc/web3-only' "$cw/cat2"
	grep -q $'^\t#   file r /etc/web3-only\t(1 host: web3)$' "$cw/cat2"
	grep -q $'^\tfile r /etc/hostname$' "$cw/cat2"
	grep -q -- '--min-hosts: 1 rule left out, seen on fewer than 2 hosts (3 ran it)' "$cw/cat2"
	# 100%: /etc/hostname (2 of 3) goes too
	expect_rc 0 "$VIGIL" --db "$db" generate --node 'web*' --min-hosts 100% -o "$cw/min100.policy"
	awk '/^subject \/usr\/bin\/cat /,/^}/' "$cw/min100.policy" > "$cw/cat3"
	grep -q $'^\t#   file r /etc/hostname\t(2 hosts: web1, web2)$' "$cw/cat3"
}

c_fleet_diff_report() {
	local db=$cw/fleet.db
	# the fleet's candidate from web1 and web2: what web3 did beyond it
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --include-would-deny --node web1 --node web2 -o "$cw/w12.policy"
	expect_rc 0 "$VIGIL" --db "$db" diff --node web1 --node web2 "$cw/w12.policy"
	expect_rc 1 "$VIGIL" --db "$db" diff --node web3 "$cw/w12.policy"
	grep -q $'^\tfile r /etc/web3-only\t' "$cw/o"
	not grep -q 'on 1 host' "$cw/o"
	# over several hosts, each missing access names its hosts
	expect_rc 1 "$VIGIL" --db "$db" diff --all-nodes "$cw/w12.policy"
	grep $'^\tfile r /etc/web3-only\t' "$cw/o" | grep -q '; on 1 host: web3$'
	# report per host
	expect_rc 0 "$VIGIL" --db "$db" report --format text --node 'web*'
	grep -q '^hosts: 3 with records' "$cw/o"
	grep -q '^web2 ' "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" report --format json --all-nodes
	python3 - "$cw/o" "$(uname -n)" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
h = {x["host"]: x for x in d["hosts"]}
assert set(h) == {"web1", "web2", "web3", sys.argv[2]}, h
# web3's own access: on 1 of the 4 hosts that ran cat
assert h["web3"]["deviation"] >= 1, h
assert h["web1"]["deviation"] == 0, h
assert h["web2"]["records"] > h["web1"]["records"], h
PY
	rm -rf "$cw/fleet-rep"
	expect_rc 0 "$VIGIL" --db "$db" report --all-nodes -o "$cw/fleet-rep"
	grep -q '<table id="hosts-table">' "$cw/fleet-rep/index.html"
	grep -q '^<tr><td>web3</td>' "$cw/fleet-rep/index.html"
	# one host: no host section
	expect_rc 0 "$VIGIL" --db "$db" report --format text --node web1
	not grep -q '^hosts:' "$cw/o"
}

# snapshot reads this machine's kernel: only the local host's records
# match its tuples, another host's same record does not
c_fleet_snapshot() {
	local d db=$cw/fleet-snap.db
	rm -f "$db"*
	d=$(fake_sfs)
	{
		echo '# seq verdict op access count first last uid exe object'
		echo '12 learned open r 3 1796284356 1796284400 0 /usr/bin/cat /etc/hostname'
	} > "$d/learned"
	sed 's/^type=/node=web1 type=/' $fx/vigil-learn.log > "$cw/w1.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/w1.log"
	VIGIL_SECURITYFS=$d expect_rc 1 "$VIGIL" --db "$db" snapshot
	grep -q "^vigil snapshot: 1 tuples in the kernel table, 1 missing from the database (audit records lost or not ingested yet); host $(uname -n) (this machine's kernel); 0 malformed" "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" ingest $fx/vigil-learn.log
	VIGIL_SECURITYFS=$d expect_rc 0 "$VIGIL" --db "$db" snapshot
	grep -q "^vigil snapshot: 1 tuples in the kernel table, 0 missing from the database; host $(uname -n) (this machine's kernel)" "$cw/o"
	# the snapshot is the local host's: left out with it
	expect_rc 0 "$VIGIL" --db "$db" generate --node web1 -o "$cw/snap-w1.policy"
	grep -q '^# 19 records: ' "$cw/snap-w1.policy"
	not grep -q 'kernel snapshot' "$cw/snap-w1.policy"
	expect_rc 0 "$VIGIL" --db "$db" generate --node "$(uname -n)" -o "$cw/snap-local.policy"
	grep -q 'and kernel snapshot 2 (1 tuple)' "$cw/snap-local.policy"
}

t_cli "fleet: ingest and plugin keep node=, the local host named once" c_fleet_ingest
t_cli "fleet: --node/--all-nodes, errors naming the hosts" c_fleet_select
t_cli "fleet: one policy, seen on N of M hosts, --min-hosts" c_fleet_generate
t_cli "fleet: diff --node, report per host" c_fleet_diff_report
t_cli "fleet: snapshot is the local host's" c_fleet_snapshot

# A fleet of 60 where each host read a file of its own: --min-hosts 50%
# leaves 61 rules out; the policy lists the 50 seen on the most hosts
# (/srv/three, 3 hosts, first) and counts the rest, so thousands of
# hosts' own names never fill the policy with comments.
c_fleet_left_out_cap() {
	local db=$cw/fleet60.db i rec
	rm -f "$db"*
	rec='type=KERNEL_OTHER msg=audit(1796284356.%03d:%d): vigil=1 seq=%d verdict=learned op=open access=r uid=0 exe="/usr/bin/cat" path="%s" target=? pid=211 comm="cat"'
	for i in $(seq 60); do
		printf "node=h%02d $rec\n" "$i" 1 40 1 /etc/hostname
		printf "node=h%02d $rec\n" "$i" 2 41 2 "/srv/h$i-only"
		[ "$i" -gt 3 ] || printf "node=h%02d $rec\n" "$i" 3 42 3 /srv/three
	done > "$cw/fleet60.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/fleet60.log"
	expect_rc 0 "$VIGIL" --db "$db" generate --strict --all-nodes --min-hosts 50% -o "$cw/f60.policy"
	"$VIGIL" load -n "$cw/f60.policy" > /dev/null
	grep -q -- '--min-hosts: 61 rules left out, seen on fewer than 30 hosts (60 ran it)' "$cw/f60.policy"
	[ "$(grep -c $'^\t#   file r /srv/' "$cw/f60.policy")" = 50 ]
	grep -A1 -- '--min-hosts: 61 rules' "$cw/f60.policy" | grep -q $'^\t#   file r /srv/three\t(3 hosts: h01, h02, h03)$'
	grep -q $'^\t#   \.\.\. and 11 more, each seen on fewer hosts than those above' "$cw/f60.policy"
	grep -q $'^\tfile r /etc/hostname$' "$cw/f60.policy"
}
t_cli "fleet: --min-hosts lists the 50 left-out rules of most hosts, counts the rest" c_fleet_left_out_cap

# Host names come from the records (a sender's auditd name_format, or any
# host that can reach the collector's port): a name with terminal escapes,
# a carriage return, HTML and quotes is shown escaped in every output that
# names hosts: the policy's comments, report (text, JSON, HTML), diff,
# subjects, messages.
c_fleet_hostile_node() {
	local db=$cw/fleet-hostile.db d=$cw/fleet-hostile e=$'\e' f
	rm -rf "$db"* "$d"
	{
		sed 's/^type=/node=web1 type=/' $fx/vigil-learn.log
		sed "s/^type=/node=${e}]0;PWNED${e}[2J${e}[31mevil\r type=/" $fx/vigil-learn.log
		sed -e 's|^type=|node=a<b>"q\x27\\x</td><script> type=|' \
		    -e 's|path="/etc/hostname"|path="/etc/x-only"|' $fx/vigil-learn.log
	} > "$cw/fleet-hostile.log"
	expect_rc 0 "$VIGIL" --db "$db" ingest "$cw/fleet-hostile.log"
	[ "$(sqlite3 "$db" 'SELECT count(*) FROM nodes')" = 3 ]
	expect_rc 0 "$VIGIL" --db "$db" generate --all-nodes -o "$d.policy"
	"$VIGIL" load -n "$d.policy" > /dev/null
	term_safe "$d.policy"
	grep -qF '# hosts: 3 (\x1b]0;PWNED\x1b[2J\x1b[31mevil\x0d, a<b>"q'"'"'\\x</td><script>, web1)' "$d.policy"
	grep -qF $'\t# seen on 1 of 3 hosts: a<b>"q'"'"'\\x</td><script>' "$d.policy"
	expect_rc 0 "$VIGIL" --db "$db" report --all-nodes --format text
	term_safe "$cw/o"
	grep -qF '\x1b]0;PWNED\x1b[2J\x1b[31mevil\x0d ' "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" report --all-nodes --format json
	json_strict "$cw/o"
	[ "$(LC_ALL=C grep -c $'\e\|\r' "$cw/o")" = 0 ]
	expect_rc 0 "$VIGIL" --db "$db" report --all-nodes -o "$d"
	f=$d/index.html
	[ "$(LC_ALL=C grep -c $'\e\|\r' "$f")" = 0 ]
	[ "$(grep -c '<script>' "$f")" = 0 ]
	grep -qF '<td>\x1b]0;PWNED\x1b[2J\x1b[31mevil\x0d</td>' "$f"
	grep -qF 'a&lt;b&gt;&quot;q&#39;\x&lt;/td&gt;&lt;script&gt;' "$f"
	expect_rc 1 "$VIGIL" --db "$db" diff --all-nodes /dev/null
	term_safe "$cw/o"
	expect_rc 0 "$VIGIL" --db "$db" subjects --all-nodes
	term_safe "$cw/o"
	# a message listing the hosts
	expect_rc 2 "$VIGIL" --db "$db" generate --node 'none*'
	term_safe "$cw/e"
	grep -qF '\x1b]0;PWNED' "$cw/e"
}
t_cli "fleet: host names from the records escaped in every output" c_fleet_hostile_node
