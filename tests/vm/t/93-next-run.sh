# A policy that holds on the next run (issue 24): real programs whose
# names change from run to run and which create their data tree afresh,
# through the README's loop: learn over 3 runs, generate one candidate,
# trial it in vigil's observe mode and AppArmor's complain mode, export
# that same file, enforce it with AppArmor and with Landlock on a fresh
# run (new pids, new temp names, a tree created anew).
#  - a Perl program (Debian's perl) that creates its tree on first run,
#    writes .state.<pid>.tmp and renames it over state.json, writes a job
#    as incoming/job.<pid> and moves it to active/ (across folders:
#    Landlock's refer);
#  - git (Debian's): init, add, commit twice, push to a bare repository,
#    clone it, commit and push from the clone, gc, on fresh repositories:
#    a content-addressed object store with fan-out folders, hashed and
#    temporary names, packs whose names are hashes, a push's quarantine
#    folder (tmp_objdir-incoming-XXXXXX) moved into the store, a local
#    clone's objects hard-linked across repositories (Landlock's refer).
# Each must give the output it gives unconfined, with 0 denials, and its
# variant that reads /etc/shadow is caught by the trial and denied.
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
vigil=$top/analyzer/vigil
w=/tmp/vigil-t/$_t_file
rm -rf $w
mkdir -p $w
export VIGIL_DB=$w/vigil.db
# the programs' trees are their own, not temporary ones (the temporary
# name heuristic would take their names under /tmp first; /var/lib is a
# tmpfs in the guest)
t=/var/lib/t93
rm -rf $t
mkdir -p $t/home
for c in perl git; do
	if ! command -v $c > /dev/null; then
		t_ok "$c is installed (scripts/install-deps)" false
		t_done
		exit
	fi
done

# ---- the programs ----------------------------------------------------------
perl=$(vigil_subject perl /usr/bin/perl)
cat > $w/state.pl <<'EOF'
use strict;
# its tree, made on first run; its state rewritten through a pid-numbered
# temporary file; a job moved from incoming/ to active/
my $t = $ARGV[0];
for my $d ($t, "$t/incoming", "$t/active") {
	-d $d or mkdir $d or die "mkdir $d: $!";
}
my $n = 0;
if (open(my $in, '<', "$t/state.json")) {
	($n) = <$in> =~ /(\d+)/;
	close $in;
}
$n++;
my $tmp = "$t/.state.$$.tmp";
open(my $o, '>', $tmp) or die "$tmp: $!";
print $o "{\"runs\": $n}\n";
close $o or die;
rename($tmp, "$t/state.json") or die "rename: $!";
open(my $j, '>', "$t/incoming/job.$$") or die "job: $!";
print $j "job $n\n";
close $j;
rename("$t/incoming/job.$$", "$t/active/job.$$") or die "move job: $!";
opendir(my $dh, "$t/active") or die;
my $jobs = grep { /^job\./ } readdir($dh);
print "run $n, $jobs jobs\n";
if ($ENV{STATE_SHADOW}) {
	open(my $s, '<', '/etc/shadow') or die "shadow: $!\n";
}
EOF
# pl_work [PREFIX...]: a fresh tree, two runs of the program
pl_work() {
	rm -rf $t/ptree
	"$@" $perl $w/state.pl $t/ptree 2>&1
	"$@" $perl $w/state.pl $t/ptree 2>&1
}

git=$(vigil_subject git /usr/bin/git)
# git_work N [PREFIX...]: fresh repositories in $t: repo (init, two
# commits dated by N, so that each run makes other objects), pushed to a
# bare repository bare.git (init --bare), cloned from it to clone, a
# third commit pushed from the clone, gc in repo and bare.git; prints
# what each holds. (Not git pull: its merge, a child process, reads the
# files of the work tree only when their times are racy with the
# index's, so a learning run may or may not see those reads.)
git_work() {
	local n=$1 d
	shift
	d="@$((1700000000 + n * 1000)) +0000"
	rm -rf $t/repo $t/bare.git $t/clone
	(
		export HOME=$t/home GIT_CONFIG_NOSYSTEM=1 \
			GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" \
			GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org \
			GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
		"$@" $git init -q -b main $t/repo || exit 1
		"$@" $git init -q --bare -b main $t/bare.git || exit 1
		cd $t/repo || exit 1
		echo "one $n" > a.txt
		"$@" $git add a.txt || exit 1
		"$@" $git commit -q -m one || exit 1
		echo "two $n" > b.txt
		"$@" $git add b.txt || exit 1
		"$@" $git commit -q -m two || exit 1
		"$@" $git push -q $t/bare.git main || exit 1
		"$@" $git clone -q $t/bare.git $t/clone || exit 1
		cd $t/clone || exit 1
		echo "three $n" > c.txt
		"$@" $git add c.txt || exit 1
		"$@" $git commit -q -m three || exit 1
		"$@" $git push -q origin main || exit 1
		cd $t/repo || exit 1
		"$@" $git gc -q || exit 1
		"$@" $git -C $t/bare.git gc -q || exit 1
		echo "$("$@" $git rev-list --count HEAD) commits, $("$@" $git count-objects -v | sed -n 's/^in-pack: //p') packed, $(ls .git/objects | grep -c '^[0-9a-f][0-9a-f]$') loose folders"
		echo "bare: $("$@" $git -C $t/bare.git rev-list --count main) commits, $("$@" $git -C $t/bare.git count-objects -v | sed -n 's/^in-pack: //p') packed; clone: $("$@" $git -C $t/clone log --format=%s | paste -sd ' ' -)"
	) 2>&1
}
# the variants that read a secret: one more run on the tree left
pl_shadow() { STATE_SHADOW=1 "$@" $perl $w/state.pl $t/ptree 2>&1; }
git_shadow() { (cd $t/repo && HOME=$t/home GIT_CONFIG_NOSYSTEM=1 "$@" $git hash-object /etc/shadow) 2>&1; }

# /etc/shadow readable by all, so that only the MAC decides
cp /etc/shadow $w/shadow-copy
chmod 644 $w/shadow-copy
mount --bind $w/shadow-copy /etc/shadow

# ---- 1. learn over three runs (nothing is denied: unconfined) --------------
vigil_mode learn
for i in 1 2 3; do
	want_pl=$(pl_work)
	want_git=$(git_work $i)
done
t_is "the Perl program while learning (unconfined)" "$want_pl" "run 1, 1 jobs
run 2, 2 jobs"
t_is "git while learning (unconfined)" "$want_git" "2 commits, 6 packed, 0 loose folders
bare: 3 commits, 9 packed; clone: three two one"
vigil_settle
t_ok "vigil ingest" "$vigil" ingest

# ---- 2. generate -------------------------------------------------------------
subjects=(--subject $perl --subject $git --children)
t_ok "vigil generate" "$vigil" generate "${subjects[@]}" -o $w/cand.policy
t_ok "the candidate loads (vigil load -n)" "$vigil" load -n $w/cand.policy
block() { sed -n "\|^subject $1 {|,/^}/p" $w/cand.policy | grep -v '^subject\|^}' ; }
rule_of() { block "$1" | grep -v '^	#' | grep -c -- "$2"; }
t_is "perl: the pid-numbered temp file, one glob over the number" \
	"$(rule_of $perl "^	file [a-z]* $t/ptree/\.state\.\*\.tmp\$")" 1
t_is "perl: the moved job, one glob in each folder" \
	"$(rule_of $perl "^	file [a-z]* $t/ptree/\(incoming\|active\)/job\.\*\$")" 2
t_is "perl: no literal pid-numbered name" \
	"$(rule_of $perl "\.state\.[0-9]*\.tmp\|job\.[0-9]")" 0
t_ok "perl: its # why names the evidence (pid in name)" \
	sh -c "grep -B1 '^	file [a-z]* $t/ptree/\.state\.\*\.tmp\$' $w/cand.policy | grep -q 'e.g. $t/ptree/\.state\.[0-9]*\.tmp, .*heuristic: pid in name'"
objs=$t/repo/.git/objects
t_ok "git: the object store as one glob over its shape" \
	sh -c "grep -q '^	file [a-z]* $objs/??/\*\$' $w/cand.policy"
t_ok "git: its fan-out folders too" \
	sh -c "grep -q '^	file [a-z]*c[a-z]* $objs/??\$' $w/cand.policy"
t_ok "git: packs named by their hash, one glob over the hash" \
	sh -c "grep -q '^	file [a-z]* $objs/pack/pack-\*\.pack\$' $w/cand.policy"
bq=$t/bare.git/objects/tmp_objdir-incoming
t_ok "git: the push's quarantine folder, one glob over its random name" \
	sh -c "grep -q '^	file [a-z]*c[a-z]* $bq-\*\$' $w/cand.policy"
t_ok "git: ... and what the push makes beneath it, under that glob" \
	sh -c "grep -q '^	file [a-z]*c[a-z]* $bq-\*/??/\*\$' $w/cand.policy"
t_is "git: no literal quarantine name" \
	"$(grep -v '^[[:space:]]*#' $w/cand.policy | grep -c 'tmp_objdir-incoming-[^*]')" 0
t_is "git: no literal hashed name" \
	"$(grep -v '^[[:space:]]*#' $w/cand.policy | grep -c '[0-9a-f]\{30\}')" 0
t_is "no rule names /etc/shadow" "$(grep -v '^[[:space:]]*#' $w/cand.policy | grep -c shadow)" 0
sed -n 's/^subject \(.*\) {$/\1/p' $w/cand.policy | while read -r s; do
	t_diag "$s: $(block "$s" | grep -vc '^	#') rules, $(block "$s" | grep -c '^	# why:') generalised: $(block "$s" | grep -A1 '^	# why:' | grep -v '^	#\|^--' | sed "s|$t|T|g" | tr '\n' ' ')"
	block "$s" | grep '^	# why:' | sed -n "s|.*heuristic: \([^;]*\).*|\1|p" | sort | uniq -c | while read -r l; do t_diag "  heuristic $l"; done
done
t_diag "candidate: $(grep -c '^subject ' $w/cand.policy) subjects, $(grep -c '^	[a-z]* [^ ]* [^ ]*$' $w/cand.policy) rules, $(grep -c '^	# why:' $w/cand.policy) generalised"

# ---- 3. trial: vigil observe and AppArmor complain ----------------------------
t_ok "vigil load the candidate" "$vigil" load $w/cand.policy
t_ok "vigil mode observe" "$vigil" mode observe
t_ok "vigil trial --to apparmor" "$vigil" trial --to apparmor -o $w/aatrial $w/cand.policy
wd0=$(vigil_count 'verdict=would-deny')
t_is "the Perl program under observation: same output" "$(pl_work)" "$want_pl"
t_is "git under observation: same output" "$(git_work 7)" "$want_git"
vigil_settle
t_is "the trial: 0 vigil would-be denials for fresh runs" "$(($(vigil_count 'verdict=would-deny') - wd0))" 0
vigil_lines 'verdict=would-deny' | tail -n +$((wd0 + 1)) | head -n 20 | while read -r l; do t_diag "$l"; done
t_ok "vigil ingest the fresh runs" "$vigil" ingest
rc=0; "$vigil" trial --report $w/aatrial > $w/trial1.out 2>&1 || rc=$?
t_is "vigil trial --report: nothing for fresh runs, in either mode (exit 0)" \
	"$rc $(tail -n 1 $w/trial1.out)" "0 0 AppArmor, 0 vigil would-be denials since the trial started (run vigil ingest first)"
t_diag "$(cat $w/trial1.out)"
pl_shadow > /dev/null
git_shadow > /dev/null
vigil_settle
t_is "the trial catches the Perl program's /etc/shadow read" \
	"$(vigil_count "verdict=would-deny op=open access=r .*exe=\"$perl\" path=\"/etc/shadow\"")" 1
t_is "... and git's" \
	"$(vigil_count "verdict=would-deny op=open access=r .*exe=\"$git\" path=\"/etc/shadow\"")" 1
t_ok "vigil ingest the variants" "$vigil" ingest
rc=0; "$vigil" trial --stop $w/aatrial > $w/trial2.out 2>&1 || rc=$?
t_is "vigil trial --stop: the variants' reads, in both modes (exit 1)" \
	"$rc $(grep -c 'open /etc/shadow (r)$' $w/trial2.out)" "1 2"
t_diag "$(cat $w/trial2.out)"
vigil_mode learn
echo '# nothing' | dd of=$VIGIL_FS/policy status=none

# ---- 4. export that same file; enforce with AppArmor ---------------------------
t_ok "vigil export --to apparmor CANDIDATE" "$vigil" export --to apparmor -o $w/aa $w/cand.policy
profs=()
for s in $perl $git; do
	profs+=("$w/aa/$(echo "${s#/}" | tr / .)")
done
t_ok "apparmor_parser -r loads both profiles" apparmor_parser -r -W "${profs[@]}"
s0=$(audit_serial)
t_is "the Perl program confined, fresh tree: same output" "$(pl_work)" "$want_pl"
t_is "git confined, fresh repository: same output" "$(git_work 9)" "$want_git"
vigil_settle
t_is "with 0 AppArmor denials" "$(audit_since $s0 'apparmor="DENIED"' | wc -l)" 0
audit_since $s0 'apparmor="DENIED"' | head -n 20 | while read -r l; do t_diag "$l"; done
t_match "the Perl program's /etc/shadow: refused by AppArmor" "$(pl_shadow)" 'shadow: Permission denied'
t_match "git's /etc/shadow: refused by AppArmor" "$(git_shadow)" 'Permission denied'
vigil_settle
t_is "AppArmor denied exactly those reads, all of /etc/shadow" \
	"$(audit_since $s0 'apparmor="DENIED"' | grep -c 'name="/etc/shadow"') $(audit_since $s0 'apparmor="DENIED"' | wc -l)" "2 2"
apparmor_parser -R "${profs[@]}" 2>/dev/null

# ---- 5. Landlock -----------------------------------------------------------------
t_ok "vigil export --to landlock CANDIDATE" "$vigil" export --to landlock -o $w/ll $w/cand.policy
ll() { echo "$w/ll/$(echo "${1#/}" | tr / .).landlock.json"; }
llt() { echo "$w/ll/$(echo "${1#/}" | tr / .).landlock.txt"; }
t_is "the rulesets name no path of the trees the programs create" \
	"$(cat "$(ll $perl)" "$(ll $git)" | grep -c "\"$t/")" 0
t_ok "... and say where their rights went" \
	sh -c "grep -q '^#   - $t/ptree: may not exist when the ruleset is applied (created by the program while learning): its rights are granted on $t, the nearest folder that exists' $(llt $perl)"
t_ok "the Perl program's ruleset grants refer (it moved a job across folders)" \
	sh -c "grep -q '\"refer\"' $(ll $perl)"
t_ok "git's ruleset grants refer (objects moved from the quarantine, a clone's links)" \
	sh -c "grep -q '\"refer\"' $(ll $git)"
rm -rf $t/ptree $t/repo $t/bare.git $t/clone
t_is "the Perl program under Landlock, fresh tree: same output" \
	"$(pl_work "$vigil" run --landlock "$(ll $perl)" --)" "$want_pl"
t_is "git under Landlock, fresh repository: same output" \
	"$(git_work 11 "$vigil" run --landlock "$(ll $git)" --)" "$want_git"
t_match "the Perl program's /etc/shadow: refused by Landlock" \
	"$(pl_shadow "$vigil" run --landlock "$(ll $perl)" --)" 'shadow: Permission denied'
t_match "git's /etc/shadow: refused by Landlock" \
	"$(git_shadow "$vigil" run --landlock "$(ll $git)" --)" 'Permission denied'

umount /etc/shadow
rm -rf $t
t_done
