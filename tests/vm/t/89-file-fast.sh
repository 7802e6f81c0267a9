# The file fast path (issue 25 §6): a repeat of an open by the same subject
# is counted from its cache slot (dentry, mount, op, access) without a
# table lookup, once the slot's tuple is checked against the access. Each
# case below repeats a write in one process (so the same subject and
# cache, and the same dentry) until the slot holds its tuple, then changes
# one part of the file's identity and writes again: the repeat must not
# be counted as the old tuple, but give the new one its record (a
# would-be denial in observe mode, a learned record in learn mode). The
# attacker is a user (uids 100000-100001, of a subordinate range).
. "$(dirname "$0")/../lib.sh"

d=/tmp/vigil-t/89f
rm -rf $d
mkdir -p $d/allowed $d/denied $d/learn $d/bind
chmod 755 /tmp/vigil-t
chmod 1777 $d $d/allowed $d/denied $d/learn
w=$(vigil_subject writer "$(command -v python3)")
chmod 755 "$(dirname "$w")"
# user [N] CMD...: CMD as the user's uid 100000 + N.
user() {
	local u=100000
	case "$1" in [0-9]) u=$((u + $1)); shift ;; esac
	setpriv --reuid=$u --regid=$u --clear-groups "$@"
}
# writes [user] SCRIPT: the writer runs SCRIPT (as the user's uid 100000
# with "user"), where d is this test's folder, w(FILE, N=5) opens d/FILE
# for writing N times (os.open: no other access between), the last ones
# repeats for the fast path, and mv(A, B) renames d/A to d/B (rename(2)),
# in the same process.
writes() {
	local as=()
	[ "$1" = user ] && { as=(setpriv --reuid=100000 --regid=100000 --clear-groups); shift; }
	D=$d "${as[@]}" "$w" -c "import os
d = os.environ['D']
def w(p, n=5):
    p = d + '/' + p
    for _ in range(n):
        os.close(os.open(p, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666))
def mv(a, b):
    os.rename(d + '/' + a, d + '/' + b)
$1"
}
q=$(printf '%s' "$d" | sed 's/[.]/\\./g')
qw=$(printf '%s' "$w" | sed 's/[.]/\\./g')
# recs VERDICT FILE [ERE]: the writer's open records of FILE with VERDICT.
recs() {
	vigil_lines "verdict=$1 op=open access=w[a-z]* .*exe=\"$qw\" path=\"$q/$2\"" |
		grep -aE -- "${3:-.}"
}

vigil_mode learn
for _ in $(seq 30); do vigil_sentinel /usr/bin/cat 10 2> /dev/null && break; done

# A folder moved once before: the walk (and so the stamp) is in use.
user mkdir $d/m1 && user mv $d/m1 $d/m2

# (a) Observe: the writer may write beneath allowed/, and names ok* in
# names/.
mkdir -p $d/names && chmod 1777 $d/names
vigil_load "subject $w observe {
	file rm /**
	file wct $d/allowed/**
	file wct $d/names/ok*
}"
t_is "the policy loads" "$(cat $VIGIL_FS/policy_errors)" ""
(umask 000 && user mkdir -p $d/allowed/sub $d/allowed/two/sub)
mount --bind $d/allowed $d/bind
writes user "
# The file renamed into another folder (same dentry, other parent).
w('allowed/f'); mv('allowed/f', 'denied/f'); w('denied/f', 1)
# The file renamed in its folder (same dentry and parent, other name).
w('names/ok1'); mv('names/ok1', 'names/bad1'); w('names/bad1', 1)
# Its folder moved, and a folder two levels up.
w('allowed/sub/g'); mv('allowed/sub', 'denied/sub'); w('denied/sub/g', 1)
w('allowed/two/sub/g'); mv('allowed/two', 'denied/two')
w('denied/two/sub/g', 1)
# The same dentry through another mount (a bind mount of allowed/).
w('allowed/b'); w('bind/b', 1)
"
t_ok "a sentinel after the writes" vigil_sentinel
t_is "no would-be denial of a write beneath allowed/ or of names/ok1" \
	"$(recs would-deny '(allowed/.*|names/ok1)' | wc -l)" 0
t_is "a renamed file's repeat by its new folder: a would-be denial" \
	"$(recs would-deny denied/f | wc -l)" 1
t_is "a renamed file's repeat by its new name: a would-be denial" \
	"$(recs would-deny names/bad1 | wc -l)" 1
t_is "a repeat through its moved folder: a would-be denial" \
	"$(recs would-deny denied/sub/g | wc -l)" 1
t_is "through a folder moved two levels up: a would-be denial" \
	"$(recs would-deny denied/two/sub/g | wc -l)" 1
t_is "the same file through a bind mount: a would-be denial" \
	"$(recs would-deny bind/b | wc -l)" 1
umount $d/bind
vigil_load "# nothing"

# (b) Learn: each new identity of a repeated file is recorded, once.
user mkdir -p $d/learn/old
writes user "
w('learn/a'); mv('learn/a', 'learn/b'); w('learn/b')
w('learn/old/c'); mv('learn/old', 'learn/new'); w('learn/new/c')
"
# The uid class: root's repeats, then the same process as the user's uid
# (in a folder without the sticky bit: protected_regular).
mkdir -m 777 $d/learn/uc
writes "
w('learn/uc/u'); os.chmod(d + '/learn/uc/u', 0o666)
os.setgroups([]); os.setresgid(100000, 100000, 100000)
os.setresuid(100000, 100000, 100000); w('learn/uc/u')
"
t_ok "a sentinel after the learned writes" vigil_sentinel
t_is "the file before its rename learned once" "$(recs learned learn/a | wc -l)" 1
t_is "after its rename, its new name learned once" "$(recs learned learn/b | wc -l)" 1
t_is "before its folder's move learned once" "$(recs learned learn/old/c | wc -l)" 1
t_is "after its folder's move learned once" "$(recs learned learn/new/c | wc -l)" 1
t_is "root's writes learned once" "$(recs learned learn/uc/u ' uid=0 ' | wc -l)" 1
t_is "the same process's writes as the user: learned once, apart" \
	"$(recs learned learn/uc/u ' uid=100000 ' | wc -l)" 1
t_match "the learned table has the new name" \
	"$(grep -a " $q/learn/b " $VIGIL_FS/learned)" '.'
t_is "no kernel warning, bug or sanitizer report" "$(kernel_reports)" 0
t_done
