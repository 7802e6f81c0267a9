# Exec chains (issue 13 §5): every subject carries the programs its exec
# ancestors ran (via=, nearest last). A #! service's sort is not the sort a
# shell runs: they are two subjects, with their own records, and a policy
# block "subject /usr/bin/sort via SVC" judges only the first. As a user
# (uid 100000, of a subordinate range), no way of running sort (renaming,
# the interpreter by hand, a memfd named like the service, a bind mount
# over it in a private namespace, the fake reached through /proc/PID/root)
# gives it a chain naming the service as
# the initial namespace knows it, unless the user ran the service itself
# (then its records say uid=100000). Chains keep the nearest 8 elements.
. "$(dirname "$0")/../lib.sh"

# The suite may have started this shell while vigil was off: it then has
# no subject and its children no chain above it. Run the test in a shell
# started with learning on.
if [ -z "${VIGIL_89C_LEARNING:-}" ]; then
	vigil_mode learn
	VIGIL_89C_LEARNING=1 exec bash "$0" "$@"
fi

d=/tmp/vigil-t/89c
rm -rf $d
mkdir -p $d/n
chmod 755 /tmp/vigil-t $d $d/n
svc=$d/svc
cat > $svc <<'EOF'
#!/bin/sh
# A service: sorts its first file and counts the lines of its second.
/usr/bin/sort "$1" > /dev/null
/usr/bin/wc -l "$2" > /dev/null
EOF
chmod 755 $svc
for f in a b c d e f g h i j k l m u; do echo "$f" > $d/in.$f; done
chmod 644 $d/in.*
asuser() { setpriv --reuid=100000 --regid=100000 --clear-groups "$@"; }
q=$(printf '%s' "$svc" | sed 's/[.]/\\./g')
# rec PATH [ERE]: the records of an open of PATH (matching ERE).
rec() { vigil_lines "op=open access=r .* path=\"$1\"" | grep -aE -- "${2:-.}"; }
# A record whose via has the service as one of its elements.
names_svc="via=\"([^\"]*/)?$q(//[^\"]*)?\""
# via_of RECORD: its via= value ("" when it has none).
via_of() { printf '%s\n' "$1" | sed -nE 's/.* via="([^"]*)".*/\1/p'; }

vigil_mode learn
# The previous test's last flood (88-million's cleanup) may still fill
# audit's backlog, and a record sent now would be lost: start once a
# sentinel record reaches the log again.
for _ in $(seq 30); do vigil_sentinel /usr/bin/cat 10 2> /dev/null && break; done

# (a) The service's children carry it, nearest last.
t_ok "the service runs sort and wc" $svc $d/in.a $d/in.b
t_ok "sort's read under the service is recorded" \
	vigil_wait "exe=\"/usr/bin/sort\" path=\"$d/in.a\""
r=$(rec $d/in.a 'exe="/usr/bin/sort"' | head -n 1)
t_match "its via ends with the service" "$(via_of "$r")" "^/.*/$q\$"
t_match "via= comes after comm=, before mntns= (none here) and uclass=" "$r" \
	"comm=\"sort\" via=\"[^\"]*\" uclass=root\$"
t_ok "wc's read under the service is recorded" \
	vigil_wait "exe=\"/usr/bin/wc\" path=\"$d/in.b\""
t_match "its via ends with the service too" \
	"$(via_of "$(rec $d/in.b 'exe="/usr/bin/wc"' | head -n 1)")" "/$q\$"
line=$(grep -a " open r .* /usr/bin/sort $d/in.a " $VIGIL_FS/learned)
t_match "the learned table's last column is that via" "$line" \
	" /usr/bin/sort $d/in\\.a /[^ ]*/$q\$"
t_match "its header names the column" "$(head -n 1 $VIGIL_FS/learned)" \
	' exe object via( \[netns\])?$'
svc_via=$(via_of "$r")
t_match "the service's own record has the chain above it (no svc)" \
	"$(vigil_lines "exe=\"$q\" path=\"/usr/bin/sort\"" | head -n 1)" \
	"via=\"${svc_via%/"$svc"}\""

# (b) The same sort run by the test shell is another subject.
/usr/bin/sort $d/in.c > /dev/null
t_ok "sort run by the shell is recorded" \
	vigil_wait "exe=\"/usr/bin/sort\" path=\"$d/in.c\""
r=$(rec $d/in.c 'exe="/usr/bin/sort"' | head -n 1)
t_match "its via is the shell's chain" "$(via_of "$r")" '^/.*/bash$'
t_is "and does not name the service" "$(via_of "$r" | grep -c "$q")" 0
t_ok "subjects lists sort twice: under the service and under the shell" \
	test "$(awk '$6 == "/usr/bin/sort"' $VIGIL_FS/subjects | grep -c "/$q\$")" -ge 1 -a \
	"$(awk '$6 == "/usr/bin/sort" && $7 !~ /89c/' $VIGIL_FS/subjects | wc -l)" -ge 1

# (c) the user cannot put the service in its sort's chain...
asuser /usr/bin/sort $d/in.d > /dev/null
asuser bash -c "exec -a $svc /usr/bin/sort $d/in.d" > /dev/null
asuser sh $svc $d/in.d $d/in.d
cp /usr/bin/dash $d/n/svc
chmod 755 $d/n/svc
asuser $d/n/svc -c "/usr/bin/sort $d/in.d" > /dev/null
# ...nor with a memfd named so that its name splits into the service.
asuser python3 -c '
import os, sys
fd = os.memfd_create("x/" + sys.argv[1] + "//")
os.write(fd, open("/usr/bin/dash", "rb").read())
os.execve(fd, ["svc", "-c", "/usr/bin/sort " + sys.argv[2]], {})
' "$svc" $d/in.g > /dev/null
t_ok "a sentinel after the user's attempts" vigil_sentinel
t_ok "the user's sorts were recorded" \
	test "$(rec $d/in.d 'uid=100000 exe="/usr/bin/sort"' | wc -l)" -ge 1
t_is "none has a via naming the service" \
	"$(rec $d/in.d 'uid=100000 exe="/usr/bin/sort"' | grep -cE "$names_svc")" 0
r=$(rec $d/in.g 'uid=100000 exe="/usr/bin/sort"' | head -n 1)
t_is "the memfd's sort is recorded with its chain cut (via=\"?\")" \
	"$(via_of "$r")" "?"
# ...unless it runs the service itself: then the records are its own.
asuser $svc $d/in.e $d/in.f
t_ok "the user's run of the service is recorded under its uid" \
	vigil_wait "uid=100000 exe=\"/usr/bin/sort\" path=\"$d/in.e\".* via=\"[^\"]*/$q\""
t_is "no record of root names in.e" "$(rec $d/in.e 'uid=0 ' | wc -l)" 0

# A bind mount over the service in a private namespace: its children's
# chains are that namespace's (mntns=), never the initial one's.
cat > $d/evil <<'EOF'
#!/bin/sh
/usr/bin/sort "$1" > /dev/null
EOF
chmod 755 $d/evil
mkdir -m 1777 $d/run
out=$(asuser unshare -rm sh -c "readlink /proc/self/ns/mnt; mount --bind $d/evil $svc && $svc $d/in.h && echo done" 2>&1)
ns=$(echo "$out" | head -n1 | tr -dc 0-9)
t_is "the user ran its fake service in namespace $ns" "$(echo "$out" | tail -n1)" "done"
t_ok "the fake's sort is recorded" vigil_wait "exe=\"/usr/bin/sort\" path=\"$d/in.h\""
t_is "each of its records carries the namespace" \
	"$(rec $d/in.h | grep -Evc " mntns=$ns mntnsid=[1-9][0-9]* uclass=user\$")" 0
t_match "its chain names the fake service as that namespace names it" \
	"$(rec $d/in.h 'exe="/usr/bin/sort"' | head -n 1)" "via=\"[^\"]*/$q\" mntns=$ns mntnsid=[1-9][0-9]* uclass=user\$"
setpriv --reuid=100000 --regid=100000 --clear-groups unshare -rm \
	sh -c "mount --bind $d/evil $svc && echo \$\$ > $d/run/holder && exec sleep 60" &
for _ in $(seq 100); do [ -s $d/run/holder ] && break; sleep 0.1; done
holder=$(cat $d/run/holder)
asuser /proc/$holder/root$svc $d/in.i
kill "$holder"
wait
t_ok "the fake run through /proc/$holder/root is recorded" \
	vigil_wait "exe=\"/usr/bin/sort\" path=\"$d/in.i\""
r=$(rec $d/in.i 'exe="/usr/bin/sort"' | head -n 1)
t_is "its sort's chain is cut there (via=\"?\")" "$(via_of "$r")" "?"
t_match "and its sort is the initial namespace's (no mntns=)" "$r" 'via="\?" uclass=user$'

# (d) Observe: a block for sort under the service only.
s0=$(audit_serial)
vigil_load "subject /usr/bin/sort via $svc observe {
}"
t_is "the via policy loads" "$(cat $VIGIL_FS/policy_errors)" ""
$svc $d/in.j $d/in.b
/usr/bin/sort $d/in.k > /dev/null
t_ok "a sentinel after both sorts" vigil_sentinel
t_ok "sort under the service: would-deny for its read" \
	test "$(rec $d/in.j 'verdict=would-deny .*exe="/usr/bin/sort"' | grep -c "/$q\"")" -ge 1
t_is "sort outside it: no would-deny at all" \
	"$(audit_since "$s0" 'verdict=would-deny .*exe="/usr/bin/sort"' | grep -vcE "$names_svc")" 0
t_is "its read is learned (the global mode)" \
	"$(rec $d/in.k 'verdict=learned .*exe="/usr/bin/sort"' | wc -l)" 1
t_is "the block's mode is not applied outside it: no would-deny for in.k" \
	"$(rec $d/in.k 'verdict=would-deny' | wc -l)" 0
vigil_load "# nothing"

# (e) Depth: ten nested distinct programs, each exec'ing the next.
for i in 0 1 2 3 4 5 6 7 8 9; do
	if [ $i = 9 ]; then
		next="/usr/bin/sort $d/in.l"
	else
		next="$d/n/p$((i + 1))"
	fi
	printf '#!/bin/sh\nexec %s > /dev/null\n' "$next" > $d/n/p$i
	chmod 755 $d/n/p$i
done
t_ok "ten nested programs run sort" $d/n/p0
t_ok "its read is recorded" vigil_wait "exe=\"/usr/bin/sort\" path=\"$d/in.l\""
v=$(via_of "$(rec $d/in.l 'exe="/usr/bin/sort"' | head -n 1)")
want="?"
for i in 3 4 5 6 7 8 9; do want="$want/$d/n/p$i"; done
t_is "its via is ? then the 7 nearest (8 elements)" "$v" "$want"

# A usermode helper (the core dump pipe) has no exec ancestor: no via.
cat > $d/n/core <<EOF
#!/bin/sh
/usr/bin/cat $d/in.m > /dev/null
EOF
chmod 755 $d/n/core
old=$(cat /proc/sys/kernel/core_pattern)
echo "|$d/n/core" > /proc/sys/kernel/core_pattern
{ sh -c 'ulimit -c unlimited; kill -SEGV $$'; } 2> /dev/null
if vigil_wait "exe=\"/usr/bin/cat\" path=\"$d/in.m\""; then
	t_match "the helper's child has the helper as its whole chain" \
		"$(via_of "$(rec $d/in.m 'exe="/usr/bin/cat"' | head -n 1)")" "^$d/n/core\$"
	t_is "the helper's own records have no via=" \
		"$(vigil_lines "exe=\"$d/n/core\"" | grep -c ' via=')" 0
	t_match "and the learned table says - for it" \
		"$(grep -a " exec x .* $d/n/core /usr/bin/cat " $VIGIL_FS/learned | head -n 1)" ' -$'
else
	t_skip "a usermode helper's chain" "the core dump helper did not run"
fi
echo "$old" > /proc/sys/kernel/core_pattern
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
