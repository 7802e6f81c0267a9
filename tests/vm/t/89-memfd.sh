# Executable shared memory (issue 25 §4). mmap and mprotect with exec of a
# memfd, or shmat(SHM_EXEC) of SysV shared memory, were skipped as
# internal (their file system is SB_NOUSER): the fileless way of running
# code was neither learned nor judged. Now such a mapping is an exec
# mapping (op=mmap access=m) of the object named as /proc/PID/maps names
# it: "/memfd:NAME", "/SYSV%08x", keyed and recorded with its creator
# (creator=). The attacker is a user (uid 100000, and 100001 for (d)).
. "$(dirname "$0")/../lib.sh"

probe=$(vigil_subject vigil-probe "$VIGIL_PROBE")
chmod 755 "$(dirname "$probe")" "$probe"
user() { setpriv --reuid=100000 --regid=100000 --clear-groups "$@"; }
user2() { setpriv --reuid=100001 --regid=100001 --clear-groups "$@"; }
qp=$(printf '%s' "$probe" | sed 's/[.]/\\./g')
# recs VERDICT TARGET [UID]: the probe's exec mapping records of TARGET (an
# ERE), made as UID (100000).
recs() {
	vigil_lines "verdict=$1 op=mmap access=m uid=${3:-100000} exe=\"$qp\" path=\\? target=\"$2\""
}

vigil_mode learn
for _ in $(seq 30); do vigil_sentinel /usr/bin/cat 10 2> /dev/null && break; done

# (a) Learn.
t_ok "the user maps a memfd with exec, and mprotects another" \
	user "$probe" memfdexec payload
key=$(user "$probe" shmexec)
t_match "the user maps SysV shared memory with SHM_EXEC" "$key" '^SYSV[0-9a-f]{8}$'
t_ok "a sentinel after the mappings" vigil_sentinel
t_is "the memfd's mapping is learned as /memfd:payload" \
	"$(recs learned '/memfd:payload' | wc -l)" 1
t_is "the mprotect'ed one as /memfd:payload.2" \
	"$(recs learned '/memfd:payload\.2' | wc -l)" 1
t_is "the shared memory's as /$key" "$(recs learned "/$key" | wc -l)" 1

# (c) The creator: code one program writes and another runs. Python (the
# user) makes a memfd and the probe inherits and maps it; the probe then
# makes and maps its own of the same name: two tuples, each record names
# the program that made the memfd.
py=$(readlink -f /usr/bin/python3)
qpy=$(printf '%s' "$py" | sed 's/[.]/\\./g')
t_ok "python makes a memfd, the probe inherits and maps it with exec" \
	user python3 -c '
import os, subprocess, sys
fd = os.memfd_create("handed")
os.ftruncate(fd, 4096)
subprocess.run([sys.argv[1], "mapfd", str(fd)], pass_fds=[fd], check=True)
' "$probe"
t_ok "the probe maps its own memfd of the same name" \
	user "$probe" memfdexec handed

# (d) A SysV segment's creator: shmat() maps a file it makes for the
# mapper, so the creator is the segment's inode's. Python (uid 100000)
# creates two segments others may map (IPC_PRIVATE's, and one with a
# key); the probe, run as uid 100001, maps the first with SHM_EXEC and
# mprotects an attachment of the second to exec, then maps a segment of
# its own with IPC_PRIVATE's name: a tuple apart, naming the probe.
segs=$(user python3 -c '
import ctypes, os
shmget = ctypes.CDLL(None, use_errno=True).shmget
shmget.argtypes = (ctypes.c_int, ctypes.c_size_t, ctypes.c_int)
key = 0x56500000 | (os.getpid() & 0xffff)
# IPC_CREAT | 0755, and IPC_EXCL for the keyed one
print(shmget(0, 4096, 0o1755), shmget(key, 4096, 0o3755), "SYSV%08x" % key)
')
t_match "python creates two SysV segments" "$segs" '^[0-9]+ [0-9]+ SYSV[0-9a-f]{8}$'
read -r seg1 seg2 seg2key <<< "$segs"
t_ok "another uid maps python's first segment with SHM_EXEC" \
	user2 "$probe" shmat "$seg1" exec
t_ok "and mprotects an attachment of the second to exec" \
	user2 "$probe" shmat "$seg2" mprotect
t_is "it maps a segment of its own with the first one's name" \
	"$(user2 "$probe" shmexec private)" SYSV00000000
ipcrm -m "$seg1" -m "$seg2"
t_ok "a sentinel after the creators' mappings" vigil_sentinel
t_is "the inherited memfd: its record names python as the creator" \
	"$(recs learned '/memfd:handed' | grep -cE " creator=\"$qpy\"")" 1
t_is "the probe's own: a tuple of its own, naming the probe" \
	"$(recs learned '/memfd:handed' | grep -cE " creator=\"$qp\"")" 1
t_is "python's segment mapped: its record names python as the creator" \
	"$(recs learned '/SYSV00000000' 100001 | grep -cE " creator=\"$qpy\"")" 1
t_is "mprotected: its record names python as the creator" \
	"$(recs learned "/$seg2key" 100001 | grep -cE " creator=\"$qpy\"")" 1
t_is "the probe's own segment: a tuple of its own, naming the probe" \
	"$(recs learned '/SYSV00000000' 100001 | grep -cE " creator=\"$qp\"")" 1
t_is "(a)'s segment, the probe's own too, names the probe" \
	"$(recs learned "/$key" | grep -cE " creator=\"$qp\"")" 1
top=$(cd "$(dirname "$0")/../../.." && pwd)
export VIGIL_DB=/tmp/vigil-t/89m.db
rm -f $VIGIL_DB*
t_ok "vigil ingest" "$top/analyzer/vigil" ingest
t_is "the database keeps each creator with its record" \
	"$(sqlite3 $VIGIL_DB "select extra from records where object = '/memfd:handed' and op = 'mmap' order by extra" | grep -oE 'creator=[^ ]*' | sort | tr '\n' ' ')" \
	"creator=\"$probe\" creator=\"$py\" "
t_is "and each SysV segment's creator" \
	"$(sqlite3 $VIGIL_DB "select extra from records where object like '/SYSV%' and op = 'mmap' order by extra" | grep -oE 'creator=[^ ]*' | sort | tr '\n' ' ')" \
	"creator=\"$probe\" creator=\"$probe\" creator=\"$py\" creator=\"$py\" "

# (b) Observe: a block that allows the first memfd only.
vigil_load "subject $probe observe {
	file rm /usr/**
	file r /etc/**
	file m /memfd:payload
}"
t_is "the policy loads" "$(cat $VIGIL_FS/policy_errors)" ""
user "$probe" memfdexec payload
key=$(user "$probe" shmexec)
t_ok "a sentinel after the judged mappings" vigil_sentinel
t_is "the allowed memfd: no would-be denial" \
	"$(recs would-deny '/memfd:payload' | wc -l)" 0
t_is "the other memfd: a would-be denial" \
	"$(recs would-deny '/memfd:payload\.2' | wc -l)" 1
t_is "the shared memory: a would-be denial" \
	"$(recs would-deny "/$key" | wc -l)" 1
vigil_load "# nothing"
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
