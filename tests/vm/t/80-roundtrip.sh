# The loop users run, end to end on the real kernel: learn a service, ingest,
# generate a candidate, trial it in observe mode, export it to AppArmor and
# Landlock and enforce it; the /etc/shadow variant is caught at every step.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
w=/tmp/vigil-t/80
mkdir -p $w
svc=$(vigil_subject vigil-demo-service "$top/build/vigil-demo-service")
db=$w/vigil.db
export VIGIL_DB=$db

# 1. learn
vigil_mode learn
for i in 1 2 3; do
	t_ok "learn run $i of the service" "$svc" --port 18089
done
vigil_settle
t_ok "vigil ingest stores the log" "$vigil" ingest $(audit_logs)
n=$(sqlite3 $db "select count(*) from records where exe = '$svc'")
t_ok "the service's records are in the database ($n)" test "$n" -gt 10
# The service runs /usr/bin/date (ix): the candidate names it too.
t_ok "vigil generate writes a candidate" "$vigil" generate --subject "$svc" --subject /usr/bin/date -o $w/cand.policy
t_diag "$(cat $w/cand.policy)"
t_ok "the candidate has the service's block" grep -q "^subject $svc" $w/cand.policy

# 2. observe
t_ok "vigil load validates and loads it" "$vigil" load $w/cand.policy
t_ok "vigil mode observe" "$vigil" mode observe
t_ok "the service runs under observation" "$svc" --port 18089
t_ok "the shadow variant runs too (nothing is denied)" "$svc" --shadow --port 18089
vigil_settle
t_is "no would-deny for the normal run's accesses" \
	"$(vigil_lines "verdict=would-deny .*exe=\"$svc\"" | grep -vc 'path="/etc/shadow"')" 0
t_is "exactly one would-deny: the read of /etc/shadow" \
	"$(vigil_count "verdict=would-deny op=open access=r .*exe=\"$svc\" path=\"/etc/shadow\"")" 1
vigil_mode learn
echo '# nothing' | dd of=$VIGIL_FS/policy status=none

# 3. AppArmor, enforced: the trialed file itself is exported (the trial's
# would-deny of /etc/shadow is in the database now: it must not matter)
# The service runs /usr/bin/date: its rules go into the service's profile
# (ix); only the service's profile is loaded.
mkdir -p $w/aa $w/ll
t_ok "vigil ingest the trial" "$vigil" ingest $(audit_logs)
t_ok "vigil export --to apparmor CANDIDATE" "$vigil" export --to apparmor -o $w/aa $w/cand.policy
prof=$(ls $w/aa/*vigil-demo-service | head -n1)
t_ok "apparmor_parser -r loads the profile" apparmor_parser -r -W "$prof"
s0=$(audit_serial)
t_ok "the service runs confined" "$svc" --port 18089
vigil_settle
t_is "with zero AppArmor denials" "$(audit_since $s0 'apparmor="DENIED"' | wc -l)" 0
out=$("$svc" --shadow --port 18089 2>&1)
t_match "the shadow variant is refused by AppArmor" "$out" '/etc/shadow: Permission denied'
vigil_settle
t_is "AppArmor logged the denial of /etc/shadow" \
	"$(audit_since $s0 'apparmor="DENIED"' | grep -c 'name="/etc/shadow"')" 1
apparmor_parser -R "$prof" 2>/dev/null

# 4. Landlock, enforced
t_ok "vigil export --to landlock CANDIDATE" "$vigil" export --to landlock -o $w/ll $w/cand.policy
ll=$(ls $w/ll/*vigil-demo-service*.json | head -n1)
t_ok "the service runs under vigil run --landlock" "$vigil" run --landlock "$ll" -- "$svc" --port 18089
out=$("$vigil" run --landlock "$ll" -- "$svc" --shadow --port 18089 2>&1)
t_match "the shadow variant gets EACCES from Landlock" "$out" '/etc/shadow: Permission denied'

# 5. the report, from this real database
t_ok "vigil report writes the HTML report" "$vigil" ingest $(audit_logs)
t_ok "vigil report" "$vigil" report -o $w/report
for c in discovery records denials top-subjects top-objects; do
	t_ok "chart $c.svg was drawn by gnuplot" grep -q 'Produced by GNUPLOT' $w/report/$c.svg
done
t_ok "its record count is the database's" \
	grep -q "<b id=\"records\">$(sqlite3 $db 'select count(*) from records')</b>" $w/report/index.html
t_ok "the would-be denial of /etc/shadow shows" \
	sh -c "'$vigil' report --format json | jq -e '.subjects[] | select(.exe == \"$svc\") | .would_deny >= 1'"
t_done
