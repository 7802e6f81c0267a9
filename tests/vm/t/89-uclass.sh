# The uid class in the tuple key (issue 25 §2). A user runs a service's
# program under the same exec chain as the root service (as a user's
# systemd --user unit does under root's systemd): before, the user's run
# was recorded once, as the user's, and root's later access to the same
# file was only counted, so generate --uid 0 never saw it. Now a tuple is
# keyed by root's uid, each system account's own uid, or the class "user"
# (every other uid, however many a person holds), the record says which
# (uclass=), and a change of uid class at an exec keeps a repeated
# program in the chain (the user's manager under root's is an element of
# its own).
. "$(dirname "$0")/../lib.sh"

# Started with learning on, so this shell has a subject and a chain.
if [ -z "${VIGIL_89U_LEARNING:-}" ]; then
	vigil_mode learn
	VIGIL_89U_LEARNING=1 exec bash "$0" "$@"
fi

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
d=/tmp/vigil-t/89u
rm -rf $d
mkdir -p $d
chmod 755 /tmp/vigil-t $d
export VIGIL_DB=$d/vigil.db
svc=$d/svc
cp /usr/bin/cat $svc
chmod 755 $svc
for f in root sys own nobody; do echo "$f" > $d/data.$f; done
chmod 644 $d/data.*
sp=/usr/bin/setpriv
# The service manager (root's setpriv) runs a program as UID.
mgr() { local u=$1; shift; $sp --reuid="$u" --regid="$u" --clear-groups "$@"; }
# A user's own manager started by root's runs the service's program, as
# systemd --user does: the same executable twice in a row in the chain.
usermgr() { local u=$1; shift; mgr "$u" $sp --reuid="$u" "$@"; }
q=$(printf '%s' "$d" | sed 's/[.]/\\./g')
# rec FILE UID: the records of svc's read of FILE under UID.
rec() { vigil_lines "uid=$2 exe=\"$q/svc\" path=\"$q/data\\.$1\""; }

vigil_mode learn
for _ in $(seq 30); do vigil_sentinel /usr/bin/cat 10 2> /dev/null && break; done

# Eight uids of one person (as a subordinate range gives) run the
# service's program first, on the root service's and the service
# account's files.
for u in $(seq 100000 100007); do
	mgr "$u" $svc $d/data.root $d/data.sys $d/data.nobody > /dev/null
done
usermgr 100000 $svc $d/data.own > /dev/null
# Then the root service and a service account (uid 998) run it.
mgr 0 $svc $d/data.root > /dev/null
mgr 998 $svc $d/data.sys > /dev/null
# nobody (65534) is a system account too (Debian Policy 9.2.2), as are
# systemd's DynamicUser= uids (61184-65519).
mgr 65534 $svc $d/data.nobody > /dev/null
# One program of root's reads a file as a user's uid, then as root again
# (the same subject throughout: only the tuple's key tells them apart).
echo drop > $d/data.drop
chmod 644 $d/data.drop
python3 -c '
import os, sys
os.setresuid(100003, 100003, 0)
open(sys.argv[1]).read()
os.setresuid(0, 0, 0)
open(sys.argv[1]).read()
' $d/data.drop
t_ok "a sentinel after the runs" vigil_sentinel

t_is "the users' read of the root service's file: one record for the 8 uids" \
	"$(vigil_lines "uid=1000[0-9]{2} exe=\"$q/svc\" path=\"$q/data\\.root\"" | wc -l)" 1
t_is "root's later read of it has its own record" "$(rec root 0 | wc -l)" 1
t_match "which says uclass=root" "$(rec root 0)" ' uclass=root( |$)'
t_is "the service account's later read has its own record" \
	"$(rec sys 998 | wc -l)" 1
t_match "which says uclass=system" "$(rec sys 998)" ' uclass=system( |$)'
t_is "nobody's later read has its own record" "$(rec nobody 65534 | wc -l)" 1
t_match "which says uclass=system" "$(rec nobody 65534)" ' uclass=system( |$)'
t_is "root's program dropping to a user's uid and back: two records" \
	"$(vigil_lines "op=open access=r .* path=\"$q/data\\.drop\"" | grep -aoE ' uid=[0-9]+ exe=' | sort | tr -d '\n')" \
	" uid=0 exe= uid=100003 exe="
t_match "the users' record says uclass=user" "$(rec own 100000)" \
	' uclass=user( |$)'
via_of() { printf '%s\n' "$1" | sed -nE 's/.* via="([^"]*)".*/\1/p'; }
t_match "the user's manager under root's stays in the chain" \
	"$(via_of "$(rec own 100000)")" "/bash/$sp/$sp\$"
t_match "the root service's chain has root's manager once" \
	"$(via_of "$(rec root 0)")" "/bash/$sp\$"
t_ok "the learned table has root's tuple" \
	grep -aqE "^[0-9]+ learned open r [0-9]+ [0-9]+ [0-9]+ 0 0 $q/svc $q/data\\.root " \
	$VIGIL_FS/learned

t_ok "vigil ingest" "$vigil" ingest
t_is "the database has each record's class" \
	"$(sqlite3 $VIGIL_DB "select uid || ':' || uclass from records where exe = '$svc' and object = '$d/data.root' order by uid")" \
	"0:root
100000:user"
out=$("$vigil" generate --uid 0 --subject $svc 2>&1)
t_match "generate --uid 0 has root's read" "$out" "$q/data\\.root"
t_is "and none of the users' files" "$(printf '%s\n' "$out" | grep -c "data\\.own")" 0
out=$("$vigil" generate --uid 100005 --subject $svc 2>&1)
t_match "generate --uid 100005 (class user) has the users' read" "$out" \
	"$q/data\\.own"

# Blocks by uid class: the root service's candidate (generate --uid 0)
# judges root's accesses only. The block observes while the global mode
# stays learn (so the other classes are learned, and the sentinel too).
"$vigil" generate --uid 0 --subject $svc -o $d/cand 2> /dev/null
t_is "generate --uid 0 scopes the block to root" \
	"$(grep -c "^subject $q/svc uid root {\$" $d/cand)" 1
sed -i "s|^\(subject .*/svc uid root\) {\$|\1 observe {|" $d/cand
t_ok "the kernel takes it, in observe mode for root's accesses" \
	sh -c "cat $d/cand > $VIGIL_FS/policy"
t_is "and dumps its block as written" \
	"$(grep -c "^subject $q/svc uid root observe {\$" $VIGIL_FS/policy)" 1
mgr 0 $svc $d/data.root > /dev/null
mgr 0 $svc $d/data.sys > /dev/null
for u in 100000 100001; do
	mgr "$u" $svc $d/data.sys $d/data.root > /dev/null
	usermgr "$u" $svc $d/data.nobody > /dev/null
done
mgr 998 $svc $d/data.root > /dev/null
t_ok "a sentinel after the runs under the candidate" vigil_sentinel
wd() { vigil_lines "verdict=would-deny op=open access=r uid=$1 exe=\"$q/svc\" path=\"$q/data\\.$2\""; }
t_is "root's read outside its block: a would-be denial" "$(wd 0 sys | wc -l)" 1
t_is "root's read its block allows: none" "$(wd 0 root | wc -l)" 0
t_is "the users' runs, the same program and chain: not judged by root's block" \
	"$(vigil_lines "verdict=would-deny .* uid=1000[0-9]{2} exe=\"$q/svc\"" | wc -l)" 0
t_is "the service account's run: not judged either" \
	"$(vigil_lines "verdict=would-deny .* uid=998 exe=\"$q/svc\"" | wc -l)" 0
t_is "... but learned, in the global mode (a read it never made before)" \
	"$(vigil_lines "verdict=learned op=open access=r uid=998 exe=\"$q/svc\" path=\"$q/data\\.root\"" | wc -l)" 1
# A block for the class user, after root's: the users' accesses are
# judged by it, root's still by root's.
printf 'subject %s uid user observe {\n}\n' "$svc" >> $d/cand
t_ok "a block for the class user loads after it" \
	sh -c "cat $d/cand > $VIGIL_FS/policy"
mgr 100002 $svc $d/data.own > /dev/null
mgr 0 $svc $d/data.root $d/data.own > /dev/null
t_ok "a sentinel after the runs under both blocks" vigil_sentinel
t_is "the user's read: a would-be denial of the users' block" \
	"$(wd 100002 own | wc -l)" 1
t_is "root's read of the same file: root's block's" "$(wd 0 own | wc -l)" 1
t_is "root's allowed read still allowed" "$(wd 0 root | wc -l)" 0
echo > $VIGIL_FS/policy
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
