# Real Debian programs through the README's loop (issue 13): learn over a
# few runs, generate one candidate, trial it in vigil's observe mode,
# export that same file, enforce it with AppArmor and with Landlock.
#  - lighttpd: forks into a daemon, binds port 80, drops to www-data,
#    appends to logs it opens with O_CREAT|O_APPEND;
#  - a #!/bin/sh service running 7 children (the system's own coreutils,
#    PATH=/usr/bin:/bin), rewriting its state with mktemp + mv in its
#    state folder; generate --children scopes them to it (via=, issue 13
#    §5): sort run by the test shell outside it is not in the candidate,
#    and under the AppArmor export it stays unconfined;
#  - a Python program with a temporary file and a TCP socket;
#  - getent, which only resolves a host name.
# Each must do its normal work with the output it had while learning and
# no AppArmor denial; its /etc/shadow variant is caught by the trial and
# denied by both; the candidate regenerated after that trial is the same.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
w=/tmp/vigil-t/$_t_file
mkdir -p $w
export VIGIL_DB=$w/vigil.db
for c in lighttpd curl python3; do
	if ! command -v $c > /dev/null; then
		t_ok "$c is installed (scripts/install-deps)" false
		t_done
		exit
	fi
done

# ---- the programs ----------------------------------------------------------
http_setup

# its state folder is its own, not a temporary one (/var/lib is a tmpfs
# in the guest)
state=/var/lib/statesvc
mkdir -p $state
kids="cat mktemp mv sort tr uniq wc"
printf 'beta\nalpha\ngamma\nalpha\n' > $w/svc.conf
svc=$w/statesvc
cat > $svc <<EOF
#!/bin/sh
# A small service: reads its configuration, counts its runs in its own
# state folder (mktemp + mv), prints a summary.
PATH=/usr/bin:/bin
conf=$w/svc.conf
state=$state
n=\$(cat "\$state/runs" 2>/dev/null || echo 0)
t=\$(mktemp "\$state/runs.XXXXXX") || exit 1
echo \$((n + 1)) > "\$t"
mv "\$t" "\$state/runs" || exit 1
echo "\$(sort "\$conf" | uniq | wc -l) names: \$(sort "\$conf" | uniq | tr '\n' ' ' | tr a-z A-Z)"
[ -z "\${SVC_SHADOW:-}" ] || cat /etc/shadow > /dev/null
EOF
chmod 755 $svc

py=$(vigil_subject python3 /usr/bin/python3.11)
cat > $w/echo.py <<'EOF'
import socket, sys, tempfile, threading
# a temporary file, a TCP echo over localhost, a summary
with tempfile.NamedTemporaryFile("w+", prefix="vigil-py-") as f:
    f.write("payload\n")
    f.flush()
    f.seek(0)
    data = f.read()
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 18092))
srv.listen(1)
def serve():
    c, _ = srv.accept()
    c.sendall(c.recv(100).upper())
    c.close()
t = threading.Thread(target=serve)
t.start()
cl = socket.create_connection(("127.0.0.1", 18092))
cl.sendall(data.encode())
print("echo:", cl.recv(100).decode().strip())
cl.close()
t.join()
if len(sys.argv) > 1:
    open("/etc/shadow").read()
EOF
py_work() { PYTHONHOME=/usr "$@" $py $w/echo.py ${PY_SHADOW:+shadow} 2>&1; }
svc_work() { "$@" $svc 2>&1; }
getent=$(vigil_subject getent /usr/bin/getent)
# a file of the test's own that no candidate block names: sort run on it
# by the test shell, outside the service
mkdir -p $w/private
printf 'zeta\nalpha\n' > $w/private/list.txt

# ---- 1. learn over four runs -----------------------------------------------
vigil_mode learn
for i in 1 2 3 4; do
	out_http=$(http_work)
	out_svc=$(svc_work)
	out_py=$(py_work)
	"$getent" hosts localhost > /dev/null
	out_sort=$(/usr/bin/sort $w/private/list.txt | tr '\n' ' ')
done
t_is "sort outside the service works while learning" "$out_sort" "alpha zeta "
t_is "lighttpd serves while learning" "$out_http" "hello from vigil 200
404"
t_is "the service works while learning" "$out_svc" "3 names: ALPHA BETA GAMMA "
t_is "its state was rewritten 4 times" "$(cat $state/runs)" 4
t_is "the Python program works while learning" "$out_py" "echo: PAYLOAD"
vigil_settle
t_ok "vigil ingest" "$vigil" ingest
t_is "lighttpd's O_CREAT|O_APPEND log open is recorded with c" \
	"$(vigil_count "op=open access=ac .*exe=\"$httpd\" path=\"$w/log/access.log\"")" 1

# ---- 2. generate ------------------------------------------------------------
# --children: the service's 7 children get their blocks, each 'via' it
subjects=(--subject $httpd --subject $svc --subject $py --subject $getent --children)
t_ok "vigil generate" "$vigil" generate "${subjects[@]}" -o $w/cand.policy
t_is "the sort run outside the service was recorded, with its via=" \
	"$(vigil_count "op=open access=r .*exe=\"/usr/bin/sort\" path=\"$w/private/list.txt\".* via=")" 1
t_is "with the service's 7 children, each a block via the service" \
	"$(sed -n "s|^subject /usr/bin/\([a-z]*\) via $svc {\$|\1|p" $w/cand.policy | sort | tr '\n' ' ')" "$(echo $kids) "
t_is "no plain block of them (they apply under the service only)" \
	"$(grep -c "^subject /usr/bin/\(${kids// /\\|}\) {" $w/cand.policy)" 0
t_is "sort's accesses outside the service are not in the candidate" \
	"$(grep -c "$w/private" $w/cand.policy)" 0
t_ok "the candidate loads (vigil load -n)" "$vigil" load -n $w/cand.policy
# block SUBJECT: the rule lines of its block; figures for the issue note
block() { sed -n "\|^subject $1 {|,/^}/p" $w/cand.policy | grep -v '^subject\|^}' ; }
for s in $httpd $svc $(for k in $kids; do echo "/usr/bin/$k via $svc"; done | tr ' ' '@') $py $getent; do
	s=${s//@/ }
	t_diag "$s: $(block "$s" | grep -vc '^	#') rules, $(block "$s" | grep -c '^	# why:') generalised: $(block "$s" | grep -A1 '^	# why:' | grep -v '^	#\|^--' | tr '\n' ' ')"
done
t_diag "candidate: $(grep -c '^subject ' $w/cand.policy) subjects, $(grep -c '^	[a-z]* [^ ]* [^ ]*$' $w/cand.policy) rules, $(grep -c '^	# why:' $w/cand.policy) generalised, $(grep -c 'not generalised to' $w/cand.policy) rules kept literal by the sensitive list or the blast bound"
t_is "no rule names /etc/shadow" "$(grep -v '^[[:space:]]*#' $w/cand.policy | grep -c shadow)" 0
t_is "getent (only resolves a host name) gets no /etc/*" \
	"$(block $getent | grep -c '^	file [a-z]* /etc/\*')" 0
t_ok "getent's /etc reads stay literal, saying why" \
	sh -c "grep -q 'not generalised to /etc/\*: it would admit what the sensitive pattern /etc/shadow\* names' $w/cand.policy"
t_ok "mktemp's names in the state folder: a glob for the random part only" \
	sh -c "sed -n '\|^subject /usr/bin/mktemp via $svc {|,/^}/p' $w/cand.policy | grep -q '^	file [a-z]*c[a-z]* $state/runs\.\*$'"
t_ok "lighttpd's access log rule has c" \
	sh -c "sed -n '\|^subject $httpd {|,/^}/p' $w/cand.policy | grep -q '^	file [a-z]*c[a-z]* $w/log/access.log$'"
t_is "no pid folder became a sibling glob" "$(grep -c '^	file [a-z]* /proc/\*/\*$' $w/cand.policy)" 0

# ---- 3. trial in vigil's observe mode and AppArmor's complain mode ----------
t_ok "vigil load the candidate" "$vigil" load $w/cand.policy
t_ok "vigil mode observe" "$vigil" mode observe
t_ok "vigil trial --to apparmor: its export in complain mode" \
	"$vigil" trial --to apparmor -o $w/aatrial $w/cand.policy
t_is "the complain-mode profiles: the 4 programs, not their children" \
	"$(grep -c ' (complain)$' /sys/kernel/security/apparmor/profiles) $(grep -c '^profile ' $w/aatrial/trial.state)" "4 4"
wd0=$(vigil_count 'verdict=would-deny')
t_is "lighttpd under observation: same output" "$(http_work)" "$out_http"
t_is "the service under observation: same output" "$(svc_work)" "$out_svc"
t_is "the Python program under observation: same output" "$(py_work)" "$out_py"
vigil_settle
t_is "the trial: 0 would-be denials for the normal runs" "$(($(vigil_count 'verdict=would-deny') - wd0))" 0
t_ok "vigil ingest the normal runs" "$vigil" ingest
rc=0; "$vigil" trial --report $w/aatrial > $w/trial1.out 2>&1 || rc=$?
t_is "vigil trial --report: nothing for the normal runs, in either mode (exit 0)" \
	"$rc $(tail -n 1 $w/trial1.out)" "0 0 AppArmor, 0 vigil would-be denials since the trial started (run vigil ingest first)"
t_diag "$(cat $w/trial1.out)"
vigil_lines 'verdict=would-deny' | tail -n +$((wd0 + 1)) | head -n 20 | while read -r l; do t_diag "$l"; done
HTTP_SHADOW=1 http_work > /dev/null
SVC_SHADOW=1 svc_work > /dev/null
PY_SHADOW=1 py_work > /dev/null
vigil_settle
t_is "the trial catches lighttpd's /etc/shadow read" \
	"$(vigil_count "verdict=would-deny op=open access=r .*exe=\"$httpd\" path=\"/etc/shadow\"")" 1
t_is "... the service's (its cat)" \
	"$(vigil_count "verdict=would-deny op=open access=r .*exe=\"/usr/bin/cat\" path=\"/etc/shadow\"")" 1
t_is "... the Python program's" \
	"$(vigil_count "verdict=would-deny op=open access=r .*exe=\"$py\" path=\"/etc/shadow\"")" 1
t_ok "vigil ingest the variants" "$vigil" ingest
rc=0; "$vigil" trial --stop $w/aatrial > $w/trial2.out 2>&1 || rc=$?
t_is "vigil trial --stop: the variants' reads, in both modes (exit 1)" \
	"$rc $(grep -c 'open /etc/shadow (r)$' $w/trial2.out) $(grep -c 'open r /etc/shadow (1)$' $w/trial2.out)" "1 3 3"
t_diag "$(cat $w/trial2.out)"
t_is "... and unloads the profiles" "$(grep -c ' (complain)$' /sys/kernel/security/apparmor/profiles)" 0
vigil_mode learn
echo '# nothing' | dd of=$VIGIL_FS/policy status=none
t_ok "vigil ingest the trial" "$vigil" ingest
t_ok "generate again after the trial" "$vigil" generate "${subjects[@]}" -o $w/cand2.policy
t_is "the regenerated candidate has the same rules (no /etc/shadow)" \
	"$(grep -v '^[[:space:]]*#' $w/cand2.policy | md5sum)" "$(grep -v '^[[:space:]]*#' $w/cand.policy | md5sum)"

# ---- 4. export that same file; enforce with AppArmor -------------------------
t_ok "vigil export --to apparmor CANDIDATE" "$vigil" export --to apparmor -o $w/aa $w/cand.policy
t_is "no profile for the service's children (folded in with ix)" \
	"$(ls $w/aa | grep -c "^usr\.bin\.\(${kids// /\\|}\)$")" 0
t_ok "the service's profile says why, per child" \
	sh -c "grep -q '# subject /usr/bin/sort via $svc (a child scoped to this service): ix' $w/aa/$(echo "${svc#/}" | tr / .)"
t_is "no duplicate network line in any profile" \
	"$(for f in $w/aa/*; do grep '^  network ' "$f" | sort | uniq -d; done | wc -l)" 0
profs=()
for s in $httpd $svc $py; do
	profs+=("$w/aa/$(echo "${s#/}" | tr / .)")
done
t_ok "apparmor_parser -r loads the three profiles" apparmor_parser -r -W "${profs[@]}"
s0=$(audit_serial)
t_is "lighttpd confined: same output" "$(http_work)" "$out_http"
t_is "the service confined: same output" "$(svc_work)" "$out_svc"
t_is "the Python program confined: same output" "$(py_work)" "$out_py"
vigil_settle
t_is "sort outside the service: no profile, reads a file the service may not" \
	"$(/usr/bin/sort $w/private/list.txt | tr '\n' ' ')$(grep -c '^usr\.bin\.sort ' /sys/kernel/security/apparmor/profiles)" "alpha zeta 0"
t_is "cat (a child of the service) run outside it: unconfined" \
	"$(/usr/bin/cat /proc/self/attr/apparmor/current 2>/dev/null || /usr/bin/cat /proc/self/attr/current)" "unconfined"
t_is "with 0 AppArmor denials" "$(audit_since $s0 'apparmor="DENIED"' | wc -l)" 0
audit_since $s0 'apparmor="DENIED"' | head -n 20 | while read -r l; do t_diag "$l"; done
t_match "lighttpd's /etc/shadow: 403 under AppArmor" "$(HTTP_SHADOW=1 http_work)" 'shadow 403'
t_match "the service's /etc/shadow: refused by AppArmor" "$(SVC_SHADOW=1 svc_work)" 'shadow: Permission denied'
t_match "the Python program's /etc/shadow: refused by AppArmor" "$(PY_SHADOW=1 py_work)" 'PermissionError'
vigil_settle
t_is "AppArmor logged exactly those 3 denials, all of /etc/shadow" \
	"$(audit_since $s0 'apparmor="DENIED"' | grep -c 'name="/etc/shadow"') $(audit_since $s0 'apparmor="DENIED"' | wc -l)" "3 3"
apparmor_parser -R "${profs[@]}" 2>/dev/null

# ---- 5. Landlock -------------------------------------------------------------
t_ok "vigil export --to landlock CANDIDATE" "$vigil" export --to landlock -o $w/ll $w/cand.policy
ll() { echo "$w/ll/$(echo "${1#/}" | tr / .).landlock.json"; }
t_is "lighttpd under Landlock: same output" "$(http_work "$vigil" run --landlock "$(ll $httpd)" --)" "$out_http"
t_is "the service under Landlock: same output" "$(svc_work "$vigil" run --landlock "$(ll $svc)" --)" "$out_svc"
t_is "the Python program under Landlock: same output" "$(py_work "$vigil" run --landlock "$(ll $py)" --)" "$out_py"
t_match "lighttpd's /etc/shadow: 403 under Landlock" "$(HTTP_SHADOW=1 http_work "$vigil" run --landlock "$(ll $httpd)" --)" 'shadow 403'
t_match "the service's /etc/shadow: refused by Landlock" "$(SVC_SHADOW=1 svc_work "$vigil" run --landlock "$(ll $svc)" --)" 'shadow: Permission denied'
t_match "the Python program's /etc/shadow: refused by Landlock" "$(PY_SHADOW=1 py_work "$vigil" run --landlock "$(ll $py)" --)" 'PermissionError'

http_stop
umount /etc/shadow
t_done
