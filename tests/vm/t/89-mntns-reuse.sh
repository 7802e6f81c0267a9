# A mount namespace's number is reused (issue 25 §7): the kernel gives the
# next namespace the inode number of one that just died. As uid 100000, a
# program connects a UDP socket and reads files in its own namespace
# (unshare -rm), the namespace dies, and a new one that got the same
# number runs the same programs the same way: its accesses are its own
# first sightings (recorded, with its own mntnsid=), not repeats of the
# dead namespace's (the connect, named by a string, was only counted: the
# subject, keyed by the number, was the dead namespace's), and
# `generate --mntns` selects one namespace's records, never a mix.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
export VIGIL_DB=/tmp/vigil-t/89mr.db
rm -f $VIGIL_DB
d=/tmp/vigil-t/89mr
mkdir -p $d
reader=$(vigil_subject reader /usr/bin/cat)
probe=$(vigil_subject probe "$top/build/vigil-probe")
for f in same only1 only2; do echo $f > $d/$f; done
chmod -R a+rX /tmp/vigil-t/89-mntns-reuse $d
asuser() { setpriv --reuid=100000 --regid=100000 --clear-groups "$@"; }
digits() { tr -dc 0-9; }
# in a namespace: read "same" and FILE, then connect to 127.0.0.1:6024
run() { echo "$reader $d/same $d/$1 && exec $probe connects 1 5000"; }

vigil_mode learn
# 1. The first namespace: reads "same" and "only1", then dies.
out=$(asuser unshare -rm sh -c "readlink /proc/self/ns/mnt; $(run only1)" 2>&1)
ns=$(echo "$out" | head -n 1 | digits)
t_is "uid 100000's program read the files in namespace $ns" "$(echo "$out" | tail -n +2 | tr '\n' ' ')" "same only1 "
p1="op=connect access=connect uid=100000 exe=\"$probe\" path=\? target=\"inet:dgram:6024\".* mntns=$ns "
t_ok "its connect is recorded with the namespace's number" vigil_wait "$p1"
id1=$(vigil_lines "$p1" | head -n 1 | grep -ao ' mntnsid=[0-9]*' | digits)
t_ok "and its unique id (mntnsid=$id1)" test -n "$id1"

# 2. Namespaces until one gets the dead one's number (bounded); that one
# runs the same program on "same" and on "only2".
got=
for i in $(seq 40); do
	out=$(asuser unshare -rm sh -c "n=\$(readlink /proc/self/ns/mnt); echo \$n; [ \"\$n\" = 'mnt:[$ns]' ] && $(run only2)" 2>&1)
	if [ "$(echo "$out" | head -n 1 | digits)" = "$ns" ]; then
		got=$i
		break
	fi
	sleep 0.1
done
t_ok "a new namespace got the dead one's number $ns (attempt ${got:-none})" test -n "$got"
t_is "and read the same files" "$(echo "$out" | tail -n +2 | tr '\n' ' ')" "same only2 "
p2="uid=100000 exe=\"$reader\" path=\"$d/only2\".* mntns=$ns "
t_ok "its read of only2 is recorded" vigil_wait "$p2"
id2=$(vigil_lines "$p2" | head -n 1 | grep -ao ' mntnsid=[0-9]*' | digits)
t_ok "with another unique id (mntnsid=$id2, the first was $id1)" test -n "$id2" -a "$id2" != "$id1"
t_ok "its connect, which the dead namespace's program made too, is a first sighting of its own" \
	vigil_wait "$p1.*mntnsid=$id2 "
t_is "two records of that connect, one per namespace" "$(vigil_count "$p1")" 2
t_is "two records of the read both made, one per namespace" \
	"$(vigil_count "uid=100000 exe=\"$reader\" path=\"$d/same\".* mntns=$ns ")" 2
t_is "two tuples of the connect in the learned table, one per namespace" \
	"$(grep -ac " 100000 $ns:[0-9]* $probe inet:dgram:6024 " $VIGIL_FS/learned)" 2
t_is "two subjects of the program of that number, one per namespace" \
	"$(grep -ac " $ns:[0-9]* $probe " $VIGIL_FS/subjects)" 2

# 3. The analyzer keeps them apart.
vigil_settle
t_ok "vigil ingest" "$vigil" ingest
t_is "the database has both namespaces' ids" \
	"$(sqlite3 $VIGIL_DB "select group_concat(distinct mntnsid) from (select mntnsid from records where exe = '$probe' and mntns = $ns order by mntnsid)")" \
	"$(printf '%s\n' "$id1" "$id2" | sort -n | paste -sd,)"
"$vigil" snapshot > /dev/null 2>&1
t_ok "vigil snapshot (exit 0, or 1: tuples not in the database)" test $? -le 1
t_is "the snapshot has both namespaces' tuples of the read (NUMBER:ID)" \
	"$(sqlite3 $VIGIL_DB "select count(distinct mntnsid) from kernel_tuples where object = 'inet:dgram:6024' and mntns = $ns and mntnsid > 0")" 2
out=$("$vigil" generate --mntns "$ns" 2>&1)
rc=$?
t_is "generate --mntns $ns refuses a number two namespaces had (exit 2)" "$rc" 2
t_match "and names both" "$out" "$ns:$id1.*$ns:$id2|$ns:$id2.*$ns:$id1"
g1=$("$vigil" generate --strict --mntns "$ns:$id1" 2>&1)
g2=$("$vigil" generate --strict --mntns "$ns:$id2" 2>&1)
t_match "generate --mntns $ns:$id1 has the first namespace's reads" "$g1" "file r $d/only1"
t_is "and not the second's" "$(echo "$g1" | grep -c "$d/only2")" 0
t_match "generate --mntns $ns:$id2 has the second namespace's reads" "$g2" "file r $d/only2"
t_match "its read of the file both read" "$g2" "file r $d/same"
t_match "and the connect both made" "$(echo "$g2" | awk -v s="$probe" '/^subject / { in_s = ($2 == s) } in_s')" "net .*dgram.*6024"
t_is "and not the first's" "$(echo "$g2" | grep -c "$d/only1")" 0
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
