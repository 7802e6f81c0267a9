# The guest booted our kernel with vigil stacked beside the enforcing LSMs.
. "$(dirname "$0")/../lib.sh"

lsms=$(cat /sys/kernel/security/lsm)
t_match "vigil is an active LSM" "$lsms" '(^|,)vigil(,|$)'
t_match "apparmor is active beside it" "$lsms" '(^|,)apparmor(,|$)'
t_match "landlock is active beside it" "$lsms" '(^|,)landlock(,|$)'
t_match "vigil comes after the enforcing modules" "$lsms" 'apparmor.*vigil'
# Since Linux 6.8 every LSM has an id, listed by lsm_list_modules(2) in
# the order they were initialized: vigil's is LSM_ID_VIGIL (114, our
# patch 0004 for 6.12), after AppArmor's (104). 6.1 has no such call.
case $(uname -r) in
6.1.*)
	t_is "lsm_list_modules(2) does not exist on 6.1" \
		"$(python3 "$(dirname "$0")/../lsm-ids.py")" ENOSYS
	;;
*)
	ids=$(python3 "$(dirname "$0")/../lsm-ids.py" | tr '\n' ' ')
	t_match "lsm_list_modules(2) lists vigil (LSM_ID_VIGIL 114)" "$ids" '(^| )114 '
	t_match "lsm_list_modules(2) lists it after apparmor (104)" "$ids" '(^| )104 (.* )?114 '
	;;
esac
t_ok "securityfs has /sys/kernel/security/vigil/" test -d /sys/kernel/security/vigil
t_match "the running kernel is ours" "$(uname -r)" 'vigil$'
t_ok "auditd is running" pgrep -x auditd
t_ok "audit.log is filling" test -s /var/log/audit/audit.log
t_ok "the root file system is read-only" sh -c '! touch /usr/.vigil-rw-test 2>/dev/null'
t_ok "/tmp is writable" touch /tmp/.vigil-rw-test
t_ok "\$VIGIL_OUT is writable" touch "$VIGIL_OUT/.probe"
rm -f "$VIGIL_OUT/.probe"
t_done
