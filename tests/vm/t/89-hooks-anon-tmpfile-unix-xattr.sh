# More accesses no hook saw, made by an unprivileged user: an executable
# anonymous mapping (mmap and mprotect), an O_TMPFILE file (recorded as a
# create in its folder, not under its unlinked name), a unix socket peer
# reached through a relative name, ".." and a symlink (recorded by its
# bound path), setting and removing extended attributes, and
# PTRACE_TRACEME (the tracer's access, with the tracer's pid and comm).
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
d=/tmp/vigil-t/89d
mkdir -p $d/u $d/s
chmod 755 /tmp/vigil-t $d $d/s
chown 65534:65534 $d/u
asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
probe=$(vigil_subject vigil-probe "$VIGIL_PROBE")
chmod 755 "$probe"
py='/usr/bin/python3[.0-9]*'

vigil_mode learn

# Executable anonymous memory.
t_ok "nobody maps anonymous memory PROT_EXEC, and mprotects another" \
	asuser "$probe" anonexec
t_ok "recorded as mmap m of (anonymous)" \
	vigil_wait "op=mmap access=m uid=65534 exe=\"$probe\" path=\\? target=\"\\(anonymous\\)\""
t_ok "both mappings counted on that tuple" \
	test "$(awk -v e="$probe" '$3 == "mmap" && $10 == e && $11 == "(anonymous)" { print $5 }' $VIGIL_FS/learned)" -ge 2

# O_TMPFILE.
t_ok "nobody makes three O_TMPFILE files in its folder" asuser python3 -c "
import os
for _ in range(3):
    os.close(os.open('$d/u', os.O_TMPFILE | os.O_RDWR, 0o600))"
t_ok "recorded as an open with create in that folder, named #INO" \
	vigil_wait "op=open access=rwc uid=65534 exe=\"$py\" path=\"$d/u/#[0-9]+\""
t_is "never under its unlinked name" "$(vigil_count "path=\"$d/u/#[0-9]+ \\(deleted\\)\"")" 0
t_is "one tuple for the folder, counting the three" \
	"$(awk -v p="$d/u/#" '$3 == "open" && index($11, p) == 1 { print $5 }' $VIGIL_FS/learned)" 3

# A unix socket peer, named three ways.
python3 - $d/s <<'PY' &
import os, socket, sys, time
d = sys.argv[1]
st = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
st.bind(d + "/srv.sock"); st.listen(16)
dg = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
dg.bind(d + "/dg.sock")
os.chmod(d + "/srv.sock", 0o777); os.chmod(d + "/dg.sock", 0o777)
open(d + "/ready", "w").close()
time.sleep(60)
PY
srv=$!
for i in $(seq 100); do [ -e $d/s/ready ] && break; sleep 0.1; done
ln -s $d/s/srv.sock $d/u/link
t_ok "nobody connects to it by a relative name, by .. and by a symlink, and sends a datagram by a relative name" \
	asuser sh -c "cd $d/u && python3 -c \"
import socket
for name in ('../s/srv.sock', '$d/u/../s/srv.sock', 'link'):
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); c.connect(name); c.close()
c = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); c.sendto(b'x', '../s/dg.sock')
\""
t_ok "the stream connect is recorded by the peer's bound path" \
	vigil_wait "op=connect access=connect uid=65534 exe=\"$py\" path=\\? target=\"unix:stream:$d/s/srv.sock\""
t_ok "so is the datagram send" \
	vigil_wait "op=connect access=connect uid=65534 exe=\"$py\" path=\\? target=\"unix:dgram:$d/s/dg.sock\""
t_is "none by the name the caller passed" \
	"$(vigil_count "target=\"unix:(stream|dgram):(\\.\\./|link|$d/u/)")" 0
kill $srv 2>/dev/null; wait $srv 2>/dev/null
# A connect to a path where no socket is bound (nscd's when nscd is not
# running; a file that is no socket) reaches no unix_* hook, yet an
# enforcing SELinux judges it: recorded by the absolute name passed.
touch $d/x.notsock
t_ok "nobody connects where no socket is bound: nothing there, a plain file, a relative name" \
	asuser sh -c "cd $d/u && python3 -c \"
import socket
for name in ('$d/none/nscd.sock', '$d/x.notsock', 'none.sock'):
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        c.connect(name)
    except OSError:
        pass
    c.close()
\""
t_ok "a stream connect to a missing path is recorded by that path" \
	vigil_wait "op=connect access=connect uid=65534 exe=\"$py\" path=\\? target=\"unix:stream:$d/none/nscd.sock\""
t_ok "so is one to a file that is no socket" \
	vigil_wait "op=connect access=connect uid=65534 exe=\"$py\" path=\\? target=\"unix:stream:$d/x.notsock\""
t_is "a relative name that resolves to nothing is not recorded" \
	"$(vigil_count "target=\"unix:stream:none.sock\"")" 0

# Extended attributes.
touch $d/u/x && chown 65534:65534 $d/u/x
# What the file system itself says to user.* (tmpfs has none on 6.1: ENOTSUP
# after the hooks ran; it has them since 6.6): root's answer on a file of
# its own in the same folder is the one nobody must get, vigil or not.
uxattr='import os, errno
try: os.setxattr("x", "user.vigil", b"1")
except OSError as e: print(errno.errorcode[e.errno])
try: os.removexattr("x", "user.vigil")
except OSError as e: print(errno.errorcode[e.errno])'
mkdir -p $d/rootx && touch $d/rootx/x
fs_says=$(cd $d/rootx && python3 -c "$uxattr" | tr '\n' ' ')
t_is "nobody sets user.vigil on its file by a relative name (as the file system lets root: '$fs_says')" \
	"$(asuser sh -c "cd $d/u && python3 -c '$uxattr'" | tr '\n' ' ')" "$fs_says"
t_ok "recorded as setxattr s of its full path" \
	vigil_wait "op=setxattr access=s uid=65534 exe=\"$py\" path=\"$d/u/x\""
t_ok "and removexattr s" \
	vigil_wait "op=removexattr access=s uid=65534 exe=\"$py\" path=\"$d/u/x\""
t_is "vigil denies nothing the kernel allows, and no security.* to nobody (CAP_SYS_ADMIN)" \
	"$(asuser python3 -c "
import os, errno
try: os.setxattr('$d/u/x', 'security.vigil', b'1')
except OSError as e: print(errno.errorcode[e.errno])")" EPERM
touch $d/s/y $d/s/z
t_ok "root sets and removes trusted.vigil on another file, from a working folder in /tmp" \
	sh -c "cd $d && python3 -c \"
import os
os.setxattr('$d/s/y', 'trusted.vigil', b'1'); os.removexattr('$d/s/y', 'trusted.vigil')\""
t_ok "recorded too, with its path (the working folder's mount reaches it)" \
	vigil_wait "op=removexattr access=s uid=0 exe=\"$py\" path=\"$d/s/y\""
# From a working folder on the root file system, no mount vigil can find
# (initial root, task root, working folder) reaches /tmp's tmpfs: the
# access is recorded, its object "?" (6.1's xattr hooks give no mount).
t_ok "root sets trusted.vigil by absolute path from /" \
	sh -c "cd / && python3 -c \"import os; os.setxattr('$d/s/z', 'trusted.vigil', b'1')\""
t_ok "recorded, named ? (no mount vigil can find reaches it)" \
	vigil_wait "op=setxattr access=s uid=0 exe=\"$py\" path=\\? target=\"\\?\""

# PTRACE_TRACEME: the parent's access.
read -r tracer tracee < <(asuser "$probe" traceme)
t_ok "nobody's child asks its parent to trace it ($tracer traces $tracee)" test -n "$tracee"
t_ok "recorded as the tracer's attach on the child, with the tracer's pid and comm" \
	vigil_wait "op=ptrace access=attach uid=65534 exe=\"$probe\" path=\\? target=\"$probe\" pid=$tracer comm=\"vigil-probe\" opid=$tracee ocomm=\"tracee\""

# The analyzer ingests all of it and generalises the tmpfile's name.
vigil_settle
db=$d/vigil.db
out=$("$top/analyzer/vigil" --db $db ingest $(audit_logs))
t_is "vigil ingest takes the new records" "$?" 0
t_match "with none malformed ($out)" "$out" "; 0 malformed"
pyexe=$(readlink -f /usr/bin/python3)
t_ok "generate writes a rule for any O_TMPFILE file of the folder" \
	sh -c "'$top/analyzer/vigil' --db $db generate --subject $pyexe | grep -F '$d/u/\#*'"
rm -rf $d
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
