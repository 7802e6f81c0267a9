# Inherited descriptors (issue 25 §5, second half). A file a task holds
# open across an exec was never attributed to the new program: a program
# given a file as stdin or as another descriptor by whoever exec'd it read
# or wrote it with no record in learn mode and no would-be denial in
# observe mode, while AppArmor revalidates inherited files at an exec (its
# bprm_committing_creds hook) once enforced. Now each file the new program
# inherits is an open by it with the access the descriptor gives;
# close-on-exec descriptors are closed before and are not. The attacker
# is a user (uid 100000) whose own launcher opens the files and execs.
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/89i
rm -rf $d
mkdir -p $d
chmod 755 /tmp/vigil-t
chmod 1777 $d
# The new program: a copy of true, which opens none of these files itself.
p=$(vigil_subject inheritor /usr/bin/true)
chmod 755 "$(dirname "$p")" "$p"
user() { setpriv --reuid=100000 --regid=100000 --clear-groups "$@"; }
# launch FD:HOW:FILE...: as the user, the system's python3 opens each FILE
# (HOW: r, a (append), rw, or rc: read, close-on-exec) at descriptor FD,
# then execs the new program.
launcher='
import os, sys
how = {"r": os.O_RDONLY, "a": os.O_WRONLY | os.O_APPEND, "rw": os.O_RDWR,
       "rc": os.O_RDONLY}
for spec in sys.argv[2:]:
    fd, h, path = spec.split(":", 2)
    f = os.open(path, how[h])
    os.dup2(f, int(fd), inheritable=h != "rc")
    os.close(f)
os.execv(sys.argv[1], [sys.argv[1]])
'
launch() { user python3 -c "$launcher" "$p" "$@"; }
q=$(printf '%s' "$d" | sed 's/[.]/\\./g')
qp=$(printf '%s' "$p" | sed 's/[.]/\\./g')
# recs VERDICT ACCESS FILE: the new program's open records of FILE.
recs() {
	vigil_lines "verdict=$1 op=open access=$2 uid=100000 exe=\"$qp\" path=\"$q/$3\""
}
# files: any record of the new program naming FILE.
recs_any() { vigil_lines "exe=\"$qp\" path=\"$q/$1\""; }
for f in lr la lrw lc jr ja jrw jc; do : > $d/$f; done
chmod 666 $d/*

vigil_mode learn
for _ in $(seq 30); do vigil_sentinel /usr/bin/cat 10 2> /dev/null && break; done

# (a) Learn: stdin read, fd 5 appended, fd 7 read-write, fd 9 close-on-exec.
t_ok "the user's program inherits four descriptors" \
	launch 0:r:$d/lr 5:a:$d/la 7:rw:$d/lrw 9:rc:$d/lc
t_ok "and again" launch 0:r:$d/lr 5:a:$d/la 7:rw:$d/lrw 9:rc:$d/lc
t_ok "a sentinel after the learned execs" vigil_sentinel
t_is "stdin, opened by its caller for reading: learned as its open (r), once" \
	"$(recs learned r lr | wc -l)" 1
t_is "descriptor 5, for appending: learned (a), once" \
	"$(recs learned a la | wc -l)" 1
t_is "descriptor 7, read-write: learned (rw), once" \
	"$(recs learned rw lrw | wc -l)" 1
t_is "a close-on-exec descriptor is closed before: nothing" \
	"$(recs_any lc | wc -l)" 0
t_match "the learned table has the new program's open of the inherited file" \
	"$(grep -aF " $p " $VIGIL_FS/learned | grep -acF " $d/la ")" '^[1-9]'

# (b) Observe: the new program may read and map anything, and write nothing.
vigil_load "subject $p observe {
	file rmx /**
}"
t_is "the policy loads" "$(cat $VIGIL_FS/policy_errors)" ""
t_ok "the user's program inherits four descriptors again" \
	launch 0:r:$d/jr 5:a:$d/ja 7:rw:$d/jrw 9:rc:$d/jc
launch 0:r:$d/jr 5:a:$d/ja 7:rw:$d/jrw 9:rc:$d/jc
t_ok "a sentinel after the judged execs" vigil_sentinel
t_is "inheriting a file for appending it may not write: one would-be denial" \
	"$(recs would-deny a ja | wc -l)" 1
t_is "inheriting a file read-write: one would-be denial (rw)" \
	"$(recs would-deny rw jrw | wc -l)" 1
t_is "inheriting a file to read, as it may: none" \
	"$(recs_any jr | wc -l)" 0
t_is "a close-on-exec descriptor: none" "$(recs_any jc | wc -l)" 0
vigil_load "# nothing"
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
