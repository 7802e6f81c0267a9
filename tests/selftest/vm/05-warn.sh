#!/bin/bash
# Self-test: a guest test that passes while the kernel logs a WARN. The
# report is written into the kernel log through /dev/kmsg, in the shape the
# kernel's __warn() prints (the test kernel has no LKDTM to raise a real
# one); the runner scans the kernel log after every test.
. "$(dirname "$0")/../../vm/lib.sh"
printf '<4>------------[ cut here ]------------\n' > /dev/kmsg
printf '<4>WARNING: CPU: 0 PID: %d at security/vigil/selftest.c:1 selftest_warn+0x0/0x10\n' $$ > /dev/kmsg
t_ok "the report is in the kernel log" sh -c 'dmesg | grep -q "selftest_warn"'
t_done
