# Abstract unix names are per network namespace (issue 25 §7): as uid
# 100000, the same program binds and connects "@NAME" in the initial
# network namespace and in its own (unshare -rn), where "@NAME" is its own
# socket, not the host's (a D-Bus or X11 abstract socket). The two are two
# objects: the namespaced one is recorded (not counted as a repeat of the
# host's), marked netns=, and generate leaves it out of the host's policy.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
export VIGIL_DB=/tmp/vigil-t/89na.db
rm -f $VIGIL_DB
mkdir -p /tmp/vigil-t/89na
asuser() { setpriv --reuid=100000 --regid=100000 --clear-groups "$@"; }
name=vigil-89na-$$
py=$(readlink -f /usr/bin/python3)
# bind and connect @ARG1, then each further @ARG (a listener each)
bc='import socket, sys
for n in sys.argv[1:]:
    s = socket.socket(socket.AF_UNIX); s.bind("\0" + n); s.listen()
    c = socket.socket(socket.AF_UNIX); c.connect("\0" + n)
print("ok")'

vigil_mode learn
# 1. The initial network namespace (a user namespace only: the same
# program under the same chain as in 2).
t_is "uid 100000 binds and connects @$name in the initial network namespace" \
	"$(asuser unshare -r "$py" -c "$bc" "$name" 2>&1)" ok
p="op=connect access=connect uid=100000 exe=\"$py\" path=\\? target=\"unix:stream:@$name\""
t_ok "its connect is recorded" vigil_wait "$p"
t_is "without netns=" "$(vigil_lines "$p" | grep -c ' netns=')" 0

# 2. Its own network namespace: the same name, and one only it has.
t_is "uid 100000 does the same in its own network namespace (unshare -rn)" \
	"$(asuser unshare -rn "$py" -c "$bc" "$name" "$name-own" 2>&1)" ok
t_ok "its connect to its own @$name is recorded, not counted as the host's" \
	vigil_wait "$p.* netns=[1-9][0-9]* "
t_is "two records of the connect: the host's name and the namespace's" "$(vigil_count "$p")" 2
cookie=$(vigil_lines "$p.* netns=" | head -n 1 | grep -ao ' netns=[0-9]*' | tr -dc 0-9)
t_ok "its bind is marked with the same namespace (netns=$cookie)" \
	vigil_wait "op=bind access=bind uid=100000 exe=\"$py\" path=\\? target=\"unix:stream:@$name\".* netns=$cookie "
t_ok "and its name no host socket has" \
	vigil_wait "op=connect .*target=\"unix:stream:@$name-own\".* netns=$cookie "
l=$(grep -a " connect connect .* $py unix:stream:@$name " $VIGIL_FS/learned)
t_is "two tuples of the connect in the learned table" "$(echo "$l" | wc -l)" 2
t_is "the namespace's with its cookie (a 13th column)" "$(echo "$l" | grep -c " $cookie\$")" 1

# 3. generate: the host's policy has the host's name, not the namespace's.
vigil_settle
t_ok "vigil ingest" "$vigil" ingest
t_is "the database marks the namespace's records" \
	"$(sqlite3 $VIGIL_DB "select count(*) from records where target like 'unix:stream:@$name%' and netns = $cookie")" 4
"$vigil" snapshot > /dev/null 2>&1
t_ok "vigil snapshot (exit 0, or 1: tuples not in the database)" test $? -le 1
t_is "the snapshot has the namespace's tuples with its cookie" \
	"$(sqlite3 $VIGIL_DB "select count(*) from kernel_tuples where object like 'unix:stream:@$name%' and netns = $cookie")" 4
g=$("$vigil" generate --strict --subject "$py" 2>&1)
t_match "generate (the host) grants the host's @$name" "$g" "net .*connect.* unix:stream:@$name\$"
t_is "and not the namespace's own @$name-own" "$(echo "$g" | grep -c "@$name-own")" 0
g=$("$vigil" generate --strict --subject "$py" --netns all 2>&1)
t_match "generate --netns all has it" "$g" "net .*connect.* unix:stream:@$name-own\$"
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
