# Received descriptors (issue 25 §5, first half). A file passed over a
# unix socket (SCM_RIGHTS) was never attributed to its receiver: a program
# handed a write descriptor by another wrote through it with no record in
# learn mode and no would-be denial in observe mode, while AppArmor (its
# file_receive hook) checks the receiver once enforced. Now a received
# descriptor is an open by the receiver with the access it gives. The
# attacker is a user (uid 100000) whose own sender opens the file.
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/89r
rm -rf $d
mkdir -p $d
chmod 755 /tmp/vigil-t
chmod 1777 $d
py=$(readlink -f /usr/bin/python3)
recv=$(vigil_subject receiver "$py")
chmod 755 "$(dirname "$recv")" "$recv"
user() { setpriv --reuid=100000 --regid=100000 --clear-groups "$@"; }
# The sender (the system's python3, another subject) opens FILE for
# appending and passes the descriptor; the receiver only writes through it.
sender='
import os, socket, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND)
socket.send_fds(socket.socket(fileno=int(sys.argv[2])), [b"f"], [fd])
'
receiver='
import os, socket, subprocess, sys
a, b = socket.socketpair()
p = subprocess.Popen([sys.argv[1], "-c", sys.argv[2], sys.argv[3],
		      str(b.fileno())], pass_fds=[b.fileno()])
msg, fds, flags, addr = socket.recv_fds(a, 16, 1)
os.write(fds[0], b"received\n")
sys.exit(p.wait())
'
# passfd FILE: the user's receiver gets FILE from the user's sender, writes.
passfd() { user "$recv" -c "$receiver" "$py" "$sender" "$1"; }
q=$(printf '%s' "$d" | sed 's/[.]/\\./g')
qr=$(printf '%s' "$recv" | sed 's/[.]/\\./g')
# recs VERDICT FILE: the receiver's open records of FILE with VERDICT.
recs() { vigil_lines "verdict=$1 op=open access=a uid=100000 exe=\"$qr\" path=\"$q/$2\""; }
: > $d/learn
: > $d/judged
chmod 666 $d/learn $d/judged

vigil_mode learn
for _ in $(seq 30); do vigil_sentinel /usr/bin/cat 10 2> /dev/null && break; done

t_ok "the user's receiver writes through a received descriptor" passfd $d/learn
t_is "what it wrote" "$(cat $d/learn)" received
t_ok "a sentinel after the learned write" vigil_sentinel
t_is "the receiver's open (a) of the file is learned, once" \
	"$(recs learned learn | wc -l)" 1

# Observe: the receiver may read and map anything, and write nothing.
vigil_load "subject $recv observe {
	file rmx /**
}"
t_is "the policy loads" "$(cat $VIGIL_FS/policy_errors)" ""
t_ok "the receiver writes through a received descriptor again" passfd $d/judged
passfd $d/judged
t_ok "a sentinel after the judged writes" vigil_sentinel
t_is "receiving a descriptor it may not write: one would-be denial" \
	"$(recs would-deny judged | wc -l)" 1
vigil_load "# nothing"
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
