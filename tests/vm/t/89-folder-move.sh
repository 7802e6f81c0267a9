# Path-true verdicts (issue 25 §3). A file's tuple is keyed by its folder's
# inode and its name, not its path, and a repeat returns the tuple's
# verdict: before, once a folder was moved, writes through its new path
# hit the tuples made through the old one, so observe mode judged them by
# the old path (no would-be denial after a move out of an allowed tree into
# a denied one) and learn mode never recorded the new path. Now a rename of
# any folder above a file gives its names new tuples, across mount points
# too, and a rename that fails changes nothing. The attacker is a user
# (uids 100000-100002, of a subordinate range) moving its own folders.
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/89m
rm -rf $d
mkdir -p $d/allowed $d/denied $d/learn
chmod 755 /tmp/vigil-t
chmod 1777 $d $d/allowed $d/denied $d/learn
w=$(vigil_subject writer /usr/bin/tee)
chmod 755 "$(dirname "$w")"
# ren FROM TO: rename(2) as the user, nothing more (mv tries others first).
ren() { user python3 -c 'import os, sys; os.rename(sys.argv[1], sys.argv[2])' "$@"; }
# user [N] CMD...: CMD as the user's uid 100000 + N.
user() {
	local u=100000
	case "$1" in [0-9]) u=$((u + $1)); shift ;; esac
	setpriv --reuid=$u --regid=$u --clear-groups "$@"
}
# put FILE [N]: the writer writes FILE as the user's uid 100000 + N.
put() { echo x | user "${2:-0}" "$w" "$1" > /dev/null; }
q=$(printf '%s' "$d" | sed 's/[.]/\\./g')
qw=$(printf '%s' "$w" | sed 's/[.]/\\./g')
# recs VERDICT FILE: the writer's open records of FILE with VERDICT.
recs() { vigil_lines "verdict=$1 op=open access=w[a-z]* .*exe=\"$qw\" path=\"$q/$2\""; }

vigil_mode learn
for _ in $(seq 30); do vigil_sentinel /usr/bin/cat 10 2> /dev/null && break; done

# (a) Observe: the writer may write beneath allowed/ only.
vigil_load "subject $w observe {
	file rm /**
	file wct $d/allowed/**
}"
t_is "the policy loads" "$(cat $VIGIL_FS/policy_errors)" ""
# Folders every uid of the user may write (umask 0).
(umask 000 && user mkdir -p $d/allowed/sub $d/allowed/a/b $d/allowed/x \
	$d/denied/y $d/allowed/mp/m $d/allowed/fa/fb/c $d/denied/full/z)
# A file system mounted beneath a folder the user may move (as a FUSE
# mount of its own would be).
mount -t tmpfs -o mode=1777 vigil-89m $d/allowed/mp/m
put $d/allowed/sub/f
put $d/allowed/a/b/g 1
put $d/allowed/x/h 2
put $d/denied/y/h
put $d/allowed/mp/m/f
put $d/allowed/fa/fb/c/f
# The folder itself, an ancestor two levels up, and an exchange of two
# folders (renameat2 RENAME_EXCHANGE) move out of the allowed tree.
user mv $d/allowed/sub $d/denied/sub
user mv $d/allowed/a $d/denied/a
user python3 -c '
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.renameat2(-100, sys.argv[1].encode(), -100, sys.argv[2].encode(), 2):
    sys.exit("renameat2: errno %d" % ctypes.get_errno())
' $d/allowed/x $d/denied/y
user mv $d/allowed/mp $d/denied/mp
# A rename that fails (onto a folder that is not empty) after the hooks
# saw it, then the move of a folder below it.
t_fails "renaming fa onto a full folder fails" ren $d/allowed/fa $d/denied/full
user mv $d/allowed/fa/fb $d/denied/fb
put $d/denied/sub/f
put $d/denied/a/b/g 1
put $d/denied/y/h 2
put $d/allowed/x/h
put $d/denied/mp/m/f
put $d/denied/fb/c/f
t_ok "a sentinel after the writes" vigil_sentinel
t_is "no would-be denial of a write beneath allowed/" \
	"$(recs would-deny 'allowed/(sub|a|x)/.*' | wc -l)" 0
t_is "the write through the moved folder's new path: a would-be denial" \
	"$(recs would-deny denied/sub/f | wc -l)" 1
t_is "through a moved ancestor two levels up: a would-be denial" \
	"$(recs would-deny denied/a/b/g | wc -l)" 1
t_is "through the folder exchanged into denied/: a would-be denial" \
	"$(recs would-deny denied/y/h | wc -l)" 2
t_is "the denied folder exchanged into allowed/: none" \
	"$(recs would-deny allowed/x/h | wc -l)" 0
t_is "through a folder moved above a mount point: a would-be denial" \
	"$(recs would-deny denied/mp/m/f | wc -l)" 1
t_is "through a folder moved after a failed rename above it: one" \
	"$(recs would-deny denied/fb/c/f | wc -l)" 1
umount $d/denied/mp/m
vigil_load "# nothing"

# (b) Learn: the new path of a moved folder's file is recorded, once.
user mkdir -p $d/learn/old/sub $d/learn/stay/s $d/learn/full/z
put $d/learn/old/sub/f
put $d/learn/keep
put $d/learn/stay/s/f
user mv $d/learn/old $d/learn/new
t_fails "renaming stay onto a full folder fails" ren $d/learn/stay $d/learn/full
put $d/learn/new/sub/f
put $d/learn/new/sub/f
put $d/learn/keep
put $d/learn/stay/s/f
t_ok "a sentinel after the learned writes" vigil_sentinel
t_is "the old path learned once" "$(recs learned learn/old/sub/f | wc -l)" 1
t_is "the new path learned once" "$(recs learned learn/new/sub/f | wc -l)" 1
t_is "a file beneath no moved folder: still one record" \
	"$(recs learned learn/keep | wc -l)" 1
t_is "beneath a folder whose rename failed: still one record" \
	"$(recs learned learn/stay/s/f | wc -l)" 1
t_match "the learned table has the new path" \
	"$(grep -ac " $q/learn/new/sub/f " $VIGIL_FS/learned)" '^[1-9]'
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
