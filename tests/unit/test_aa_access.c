// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of aa_access_of(): an AppArmor complain trial's ALLOWED record
 * (Linux 6.1's formats: security/apparmor file.c, capability.c, net.c,
 * ipc.c, task.c) as the access vigil would have recorded, or why not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aa_access.h"
#include "record.h"

/* The stored programs: vigil's export name -> the program. */
static const char *exe_of(void *ctx, const char *label)
{
	static const char *const t[][2] = {
		{ "usr.sbin.kvd", "/usr/sbin/kvd" },
		{ "usr.sbin.kvd-helper", "/usr/sbin/kvd-helper" },
		{ "opt.my_app", "/opt/my app" },
	};

	(void)ctx;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i][0], label) || !strcmp(t[i][1], label))
			return t[i][1];
	return NULL;
}

struct tcase {
	const char *rec;	/* after apparmor="ALLOWED" */
	int rc;
	const char *exe, *op, *access, *object;
	bool path;
};

#define P "profile=\"usr.sbin.kvd\" pid=2210 comm=\"kvd\" "
#define H "profile=\"usr.sbin.kvd-helper\" pid=2211 comm=\"kvd-helper\" "
#define SIG(m, s, peer) "operation=\"signal\" " P "requested_mask=\"" m \
	"\" denied_mask=\"" m "\" signal=" s " peer=" peer

static const struct tcase cases[] = {
	/* files: vigil's letters, exec and mmap ops */
	{ "operation=\"open\" " P "name=\"/etc/kvd/x.conf\" "
	  "requested_mask=\"rw\" denied_mask=\"rw\" fsuid=0 ouid=0",
	  0, "/usr/sbin/kvd", "open", "rw", "/etc/kvd/x.conf", true },
	{ "operation=\"exec\" " P "name=\"/usr/bin/rm\" requested_mask=\"x\" "
	  "denied_mask=\"x\" fsuid=0 ouid=0 target=\"usr.sbin.kvd//null-/usr/bin/rm\"",
	  0, "/usr/sbin/kvd", "exec", "x", "/usr/bin/rm", true },
	{ "operation=\"file_mmap\" " P "name=\"/usr/lib/x.so\" "
	  "requested_mask=\"rm\" denied_mask=\"m\" fsuid=0 ouid=0",
	  0, "/usr/sbin/kvd", "mmap", "rm", "/usr/lib/x.so", true },
	/* a name with a space: hex, decoded */
	{ "operation=\"mknod\" " P "name=2F746D702F6120622E736F636B "
	  "requested_mask=\"c\" denied_mask=\"c\" fsuid=0 ouid=0",
	  0, "/usr/sbin/kvd", "open", "c", "/tmp/a b.sock", true },
	/* a path-named profile is its program's too */
	{ "operation=\"open\" profile=\"/usr/sbin/kvd\" name=\"/etc/a\" pid=1 "
	  "comm=\"kvd\" requested_mask=\"r\" denied_mask=\"r\" fsuid=0 ouid=0",
	  0, "/usr/sbin/kvd", "open", "r", "/etc/a", true },
	{ "operation=\"capable\" " P "capability=24  capname=\"sys_resource\"",
	  0, "/usr/sbin/kvd", "capable", "use", "sys_resource", false },
	{ "operation=\"capable\" info=\"optional: no audit\" error=-1 " P
	  "capability=12  capname=\"net_admin\"", 1, NULL, NULL, NULL, NULL,
	  false },
	/* network: net socket FAMILY:TYPE whatever the operation */
	{ "operation=\"connect\" " P "family=\"inet6\" sock_type=\"stream\" "
	  "protocol=6 requested_mask=\"connect\" denied_mask=\"connect\"",
	  0, "/usr/sbin/kvd", "socket", "socket", "inet6:stream", false },
	{ "operation=\"listen\" " P "laddr=127.0.0.1 lport=6379 "
	  "family=\"inet\" sock_type=\"stream\" protocol=6 "
	  "requested_mask=\"listen\" denied_mask=\"listen\"",
	  0, "/usr/sbin/kvd", "socket", "socket", "inet:stream", false },
	{ "operation=\"create\" " P "family=\"packet\" sock_type=\"raw\" "
	  "protocol=768 requested_mask=\"create\" denied_mask=\"create\"",
	  0, "/usr/sbin/kvd", "socket", "socket", "packet:raw", false },
	{ "operation=\"create\" " P "family=\"bluetooth\" sock_type=\"dccp\" "
	  "protocol=0 requested_mask=\"create\" denied_mask=\"create\"",
	  0, "/usr/sbin/kvd", "socket", "socket", "af31:type6", false },
	{ "operation=\"create\" " P "family=\"unknown(47)\" "
	  "sock_type=\"unknown(9)\" protocol=0 requested_mask=\"create\" "
	  "denied_mask=\"create\"",
	  0, "/usr/sbin/kvd", "socket", "socket", "af47:type9", false },
	{ "operation=\"create\" " P "family=\"nosuch\" sock_type=\"stream\" "
	  "protocol=0 requested_mask=\"create\" denied_mask=\"create\"",
	  2, NULL, NULL, NULL, NULL, false },
	/* signals: the sender's block, the target from the peer */
	{ SIG("send", "term", "\"usr.sbin.kvd-helper\""),
	  0, "/usr/sbin/kvd", "signal", "term", "/usr/sbin/kvd-helper", false },
	{ SIG("send", "stp", "\"usr.sbin.kvd-helper\""),
	  0, "/usr/sbin/kvd", "signal", "tstp", "/usr/sbin/kvd-helper", false },
	{ SIG("send", "rtmin+0", "\"usr.sbin.kvd-helper\""),
	  0, "/usr/sbin/kvd", "signal", "sig32", "/usr/sbin/kvd-helper", false },
	{ SIG("send", "rtmin+32", "\"usr.sbin.kvd-helper\""),
	  0, "/usr/sbin/kvd", "signal", "sig64", "/usr/sbin/kvd-helper", false },
	{ SIG("send", "rtmin+33", "\"usr.sbin.kvd-helper\""),
	  2, NULL, NULL, NULL, NULL, false },
	{ SIG("send", "exists", "\"usr.sbin.kvd-helper\""),
	  2, NULL, NULL, NULL, NULL, false },
	{ SIG("send", "hup", "\"unconfined\""), 2, NULL, NULL, NULL, NULL,
	  false },
	/* a path-named peer no program of the store: its path; hex */
	{ SIG("send", "kill", "\"/usr/bin/other\""),
	  0, "/usr/sbin/kvd", "signal", "kill", "/usr/bin/other", false },
	{ SIG("send", "kill", "2F6F7074206D792F78"),
	  0, "/usr/sbin/kvd", "signal", "kill", "/opt my/x", false },
	{ SIG("send", "kill", "\"usr.sbin.kvd//null-/usr/bin/rm\""),
	  2, NULL, NULL, NULL, NULL, false },
	/* receive: the target's record, the rule is the sender's */
	{ "operation=\"signal\" " H "requested_mask=\"receive\" "
	  "denied_mask=\"receive\" signal=usr1 peer=\"usr.sbin.kvd\"",
	  0, "/usr/sbin/kvd", "signal", "usr1", "/usr/sbin/kvd-helper", false },
	{ "operation=\"signal\" " H "requested_mask=\"receive\" "
	  "denied_mask=\"receive\" signal=usr1 peer=\"unconfined\"",
	  2, NULL, NULL, NULL, NULL, false },
	/* ptrace: read/trace from the tracer, readby/tracedby from the
	 * tracee's profile (the rule is the tracer's) */
	{ "operation=\"ptrace\" " P "requested_mask=\"trace\" "
	  "denied_mask=\"trace\" peer=\"usr.sbin.kvd-helper\"",
	  0, "/usr/sbin/kvd", "ptrace", "attach", "/usr/sbin/kvd-helper", false },
	{ "operation=\"ptrace\" " H "requested_mask=\"readby\" "
	  "denied_mask=\"readby\" peer=\"usr.sbin.kvd\"",
	  0, "/usr/sbin/kvd", "ptrace", "read", "/usr/sbin/kvd-helper", false },
	{ "operation=\"ptrace\" " P "requested_mask=\"read\" "
	  "denied_mask=\"read\" peer=\"opt.my_app\"",
	  0, "/usr/sbin/kvd", "ptrace", "read", "/opt/my app", false },
	/* what names no program or no rule */
	{ "operation=\"open\" profile=\"usr.sbin.other\" name=\"/etc/o\" "
	  "pid=1 comm=\"o\" requested_mask=\"r\" denied_mask=\"r\" fsuid=0 "
	  "ouid=0", 2, NULL, NULL, NULL, NULL, false },
	{ "operation=\"mount\" " P "info=\"failed flags match\" error=-13 "
	  "name=\"/mnt/\" flags=\"rw\"", 2, NULL, NULL, NULL, NULL, false },
	{ "operation=\"open\" " P "name=\"/etc/a\" requested_mask=\"rN\" "
	  "denied_mask=\"rN\" fsuid=0 ouid=0", 2, NULL, NULL, NULL, NULL,
	  false },
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *c = &cases[i];
		char *text;
		struct aa_fields f;
		struct aa_access a;
		const char *why;
		int rc;

		assert_true(asprintf(&text, "apparmor=\"ALLOWED\" %s",
				     c->rec) > 0);
		aa_fields_parse(&f, text);
		rc = aa_access_of(&f, exe_of, NULL, &a, &why);
		if (rc != c->rc)
			fail_msg("case %zu (%s): rc %d, want %d", i, c->rec,
				 rc, c->rc);
		if (rc == 2)
			assert_non_null(why);
		if (!rc) {
			assert_string_equal(a.exe, c->exe);
			assert_string_equal(a.op, c->op);
			assert_string_equal(a.access, c->access);
			assert_string_equal(a.object, c->object);
			assert_int_equal(a.path, c->path);
		} else {
			assert_null(a.object);
		}
		free(a.object);
		aa_fields_free(&f);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
