#!/bin/bash
# Run in the guest by tests/deb/run: the kernel booted is the one from the
# linux-image package, the analyzer the one from the vigil package
# (extracted under ROOT); the loop on a real Debian program.
# usage: guest.sh ROOT KERNEL_RELEASE
. "$(dirname "$0")/../vm/lib.sh"

root=$1
release=$2
vigil=$root/usr/sbin/vigil
w=/tmp/vigil-t/deb
mkdir -p $w
export VIGIL_DB=$w/vigil.db

t_is "the kernel running is the packaged one" "$(uname -r)" "$release"
t_match "vigil is an active LSM" "$(cat /sys/kernel/security/lsm)" '(^|,)vigil(,|$)'
t_ok "the packaged vigil runs" "$vigil" --version
t_ok "its man page is in the package" test -s "$root/usr/share/man/man8/vigil.8.gz"
t_ok "vigil status" "$vigil" status
t_ok "vigil mode learn" "$vigil" mode learn
cat=$(vigil_subject cat)
t_ok "learn: a copy of cat reads /etc/hostname" "$cat" /etc/hostname
vigil_settle
t_ok "vigil ingest" "$vigil" ingest /var/log/audit/audit.log
n=$(sqlite3 "$VIGIL_DB" "SELECT count(*) FROM records WHERE exe = '$cat'")
t_ok "cat's records are stored ($n)" test "$n" -ge 1
t_ok "vigil generate" "$vigil" generate --subject "$cat" -o $w/cand.policy
t_ok "the candidate names /etc/hostname" grep -q "file r /etc/hostname" $w/cand.policy
t_ok "vigil load" "$vigil" load $w/cand.policy
t_ok "vigil mode observe" "$vigil" mode observe
t_ok "observe: cat reads /etc/hostname" "$cat" /etc/hostname
t_ok "observe: cat reads /etc/os-release" "$cat" /etc/os-release
vigil_settle
t_ok "vigil ingest the trial" "$vigil" ingest /var/log/audit/audit.log
t_is "a would-deny for os-release, not in the candidate" \
	"$(sqlite3 "$VIGIL_DB" "SELECT count(*) FROM records WHERE verdict = 'would-deny' AND exe = '$cat' AND object LIKE '%/os-release'")" 1
t_is "none for /etc/hostname, which it allows" \
	"$(sqlite3 "$VIGIL_DB" "SELECT count(*) FROM records WHERE verdict = 'would-deny' AND exe = '$cat' AND object = '/etc/hostname'")" 0
t_ok "vigil report (the packaged gnuplot scripts)" "$vigil" report -o $w/report
t_ok "the report's charts are drawn" grep -q 'Produced by GNUPLOT' $w/report/discovery.svg
t_ok "vigil export --to apparmor CANDIDATE" "$vigil" export --to apparmor -o $w/aa $w/cand.policy
t_ok "apparmor_parser accepts the profile" sh -c "apparmor_parser -Q -K $w/aa/*"
"$vigil" mode learn
cp -r $w/report "$VIGIL_OUT/" 2>/dev/null
t_done
