# Identity across namespaces, as an unprivileged user: a bind mount over a
# daemon's binary in a private user+mount namespace, the same reached from
# the initial namespace through /proc/PID/root, and a chroot cannot make
# their program's accesses look like that daemon's. Names from another
# mount namespace carry its id (mntns=), and generate leaves them out
# unless asked for that namespace.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
export VIGIL_DB=/tmp/vigil-t/89n.db
rm -f $VIGIL_DB
victim=/usr/sbin/auditd
d=/tmp/vigil-t/89n
mkdir -p $d/root/usr/sbin $d/root/etc
cp /usr/bin/cat $d/evil
echo loot > $d/loot
cp /sbin/ldconfig $d/root/usr/sbin/auditd
cp /etc/ld.so.cache $d/root/etc/ld.so.cache
chmod -R a+rX $d
asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
initial=$(readlink /proc/self/ns/mnt | tr -dc 0-9)

vigil_mode learn
t_ok "nobody can make a user+mount namespace" asuser unshare -rm true

# 1. A bind mount over the daemon's binary in a private namespace.
out=$(asuser unshare -rm sh -c "readlink /proc/self/ns/mnt; mount --bind $d/evil $victim && exec $victim $d/loot" 2>&1)
ns=$(echo "$out" | head -n1 | tr -dc 0-9)
t_is "the fake $victim ran in namespace $ns and read the loot" "$(echo "$out" | tail -n1)" loot
t_ok "its namespace is not the initial one" test -n "$ns" -a "$ns" != "$initial"
pat="op=open access=r uid=65534 exe=\"$victim\" path=\"$d/loot\""
t_ok "the access is recorded" vigil_wait "$pat"
rec=$(vigil_lines "$pat" | head -n1)
t_match "the record carries that namespace's number and unique id" "$rec" " mntns=$ns mntnsid=[1-9][0-9]*( |\$)"
# The number is reused by the namespaces made after this one died (the
# holder's below, and the user's own ones before): the id tells them apart.
id=$(echo "$rec" | grep -ao ' mntnsid=[0-9]*' | tr -dc 0-9)
t_is "no record names $victim without a namespace for nobody's accesses" \
	"$(vigil_lines "uid=65534 exe=\"$victim\"" | grep -vc ' mntns=')" 0
line=$(grep -a " open r .* $victim $d/loot [^ ]*\$" $VIGIL_FS/learned)
t_match "the learned table marks the tuple with the namespace (NUMBER:ID)" "$line" " 65534 $ns:[1-9][0-9]* $victim $d/loot [^ ]+\$"
t_match "the subject is that namespace's, not the initial one's" \
	"$(grep -a " $victim [^ ]*\$" $VIGIL_FS/subjects)" " $ns:[1-9][0-9]* $victim [^ ]+\$"

# 2. The same binary reached from the initial namespace via /proc/PID/root.
mkdir -m 1777 $d/run
setpriv --reuid=65534 --regid=65534 --clear-groups unshare -rm \
	sh -c "mount --bind $d/evil $victim && echo \$\$ > $d/run/holder && exec sleep 60" &
for _ in $(seq 100); do [ -s $d/run/holder ] && break; sleep 0.1; done
holder=$(cat $d/run/holder)
out=$(asuser /proc/$holder/root$victim $d/loot 2>&1)
t_is "through /proc/$holder/root nobody runs the fake $victim" "$out" loot
pat="op=open access=r uid=65534 exe=\"[^\"]*$victim\" path=\"$d/loot\".* mntns=$initial( |\$)"
t_ok "recorded as named outside the initial namespace (mntns=$initial)" vigil_wait "$pat"
kill "$holder"
wait

# 3. A chroot: paths are the host's.
out=$(asuser unshare -r chroot $d/root /usr/sbin/auditd -p 2>&1)
t_match "nobody ran $victim -p in a chroot" "$out" 'libs found in cache'
t_ok "the chrooted program is named by its host path" \
	vigil_wait "uid=65534 exe=\"$d/root/usr/sbin/auditd\" path=\"$d/root/etc/ld.so.cache\""
t_is "and never as $victim reading /etc/ld.so.cache in the initial namespace" \
	"$(vigil_lines "uid=65534 exe=\"$victim\" path=\"/etc/ld.so.cache\"" | grep -vc ' mntns=')" 0

# 4. generate: the initial namespace unless asked.
vigil_settle
t_ok "vigil ingest (the log and its rotated files)" "$vigil" ingest
t_is "the database has the record's namespace" \
	"$(sqlite3 $VIGIL_DB "select count(*) from records where exe = '$victim' and object = '$d/loot' and mntns = $ns")" 1
# block SUBJECT: the rules of one subject block of the policy on stdin.
block() { awk -v s="$1" '/^subject / { in_s = ($2 == s) } in_s'; }
out=$("$vigil" generate 2>&1)
t_is "generate (initial namespace) has no rule from the fake daemon" \
	"$(echo "$out" | block $victim | grep -c "$d/loot")" 0
out=$("$vigil" generate --mntns "$ns:$id" --strict 2>&1)
t_match "generate --mntns $ns:$id has the fake daemon's subject" "$out" "^subject $victim \{"
t_match "and its read of the loot" "$(echo "$out" | block $victim)" "file r $d/loot"
t_fails "generate --mntns refuses garbage" "$vigil" generate --mntns x
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
