# vigil stacked with AppArmor enforcing a profile: AppArmor still decides,
# and vigil learns only what was allowed.
. "$(dirname "$0")/../lib.sh"

if ! command -v apparmor_parser > /dev/null; then
	t_ok "apparmor_parser is installed (package apparmor)" false
	t_done
	exit
fi
mkdir -p /sys/kernel/security/apparmor 2>/dev/null
cat=$(vigil_subject cat)
cat > /tmp/vigil-t/70.profile <<PROF
abi <abi/3.0>,
profile vigil-t70 $cat {
  /etc/hostname r,
  /etc/ld.so.cache r,
  /usr/lib/** rm,
  /dev/null rw,
}
PROF
t_ok "the AppArmor profile loads" apparmor_parser -r -W /tmp/vigil-t/70.profile
vigil_mode learn
t_ok "AppArmor allows what the profile allows" "$cat" /etc/hostname
t_fails "AppArmor still denies /etc/passwd with vigil learning" "$cat" /etc/passwd
t_ok "vigil learned the allowed read" vigil_wait "exe=\"$cat\" path=\"/etc/hostname\""
t_ok "a sentinel access after the denied read is recorded" vigil_sentinel
t_is "vigil recorded nothing for the denied read" \
	"$(vigil_count "exe=\"$cat\" path=\"/etc/passwd\"")" 0
t_ok "AppArmor logged its own denial, of this profile, for this read" \
	test "$(audit_since 0 'apparmor="DENIED"' | grep -a 'operation="open"' |
		grep -a 'profile="vigil-t70"' | grep -ac 'name="/etc/passwd"')" -ge 1
t_done
