// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests: recognising and decoding vigil's audit records. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "vigil.h"
#include "record.h"
#include "policy.h"

static auparse_state_t *au;

/* Load one record line into auparse, as ingest does. */
static void load(const char *line)
{
	char buf[8192];
	size_t n = strlen(line);

	assert_true(n + 1 < sizeof(buf));
	memcpy(buf, line, n);
	buf[n] = '\n';
	assert_int_equal(auparse_new_buffer(au, buf, n + 1), 0);
	assert_int_equal(auparse_next_event(au), 1);
}

/* A valid record's fields up to comm=, before the field a test varies */
#define GOOD_HEAD "type=KERNEL_OTHER msg=audit(1.000:1): vigil=1 seq=1 " \
	"verdict=learned op=open access=r uid=0 exe=\"/a\" path=\"/b\" " \
	"target=? pid=1 comm=\"a\" "

/*
 * Each of bad[] after PREFIX (the line's type=, msg= and the fields before
 * it) is refused with -EINVAL and a reason; naming FIELD when not NULL.
 */
static void expect_rejected(const char *prefix, const char *const *bad,
			    size_t n, const char *field)
{
	struct vigil_record r = { 0 };

	for (size_t i = 0; i < n; i++) {
		char line[2048];
		const char *why = NULL;

		snprintf(line, sizeof(line), "%s%s", prefix, bad[i]);
		load(line);
		if (vigil_record_parse(au, &r, &why) != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
		assert_non_null(why);
		if (field && !strstr(why, field))
			fail_msg("%s: the reason names no %s: %s", bad[i],
				 field, why);
	}
	vigil_record_free(&r);
}

static int setup(void **state)
{
	(void)state;
	au = auparse_init(AUSOURCE_BUFFER, "");
	return au ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	auparse_destroy(au);
	return 0;
}

static void test_decode(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(audit_value_decode("\"/etc/hostname\"", out), 0);
	assert_string_equal(out, "/etc/hostname");
	assert_int_equal(audit_value_decode("2F746D702F61206220", out), 0);
	assert_string_equal(out, "/tmp/a b ");
	assert_int_equal(audit_value_decode("2f610a62", out), 0);
	assert_string_equal(out, "/a\nb");
	assert_int_equal(audit_value_decode("?", out), 1);
	assert_int_equal(audit_value_decode("\"\"", out), 0);
	assert_string_equal(out, "");
	assert_int_equal(audit_value_decode("\"/a", out), -EINVAL);
	assert_int_equal(audit_value_decode("\"", out), -EINVAL);
	assert_int_equal(audit_value_decode("\"a\"b\"", out), -EINVAL);
	assert_int_equal(audit_value_decode("2F7", out), -EINVAL);
	assert_int_equal(audit_value_decode("2FZZ", out), -EINVAL);
	assert_int_equal(audit_value_decode("2F00", out), -EINVAL);
	assert_int_equal(audit_value_decode("", out), -EINVAL);
	assert_int_equal(audit_value_decode("(null)", out), -EINVAL);
}

static void test_kinds(void **state)
{
	static const struct {
		const char *line;
		enum rec_kind kind;
	} cases[] = {
		{ "type=KERNEL_OTHER msg=audit(1.000:1): vigil=1 seq=1", REC_VIGIL },
		{ "node=h1 type=KERNEL_OTHER msg=audit(1.000:1): vigil=1 seq=1", REC_VIGIL },
		{ "type=KERNEL_OTHER msg=audit(1.000:1): lsm=x vigil=1", REC_FOREIGN_OTHER },
		{ "type=AVC msg=audit(1.000:1): apparmor=\"DENIED\" operation=\"open\"", REC_APPARMOR },
		{ "type=AVC msg=audit(1.000:1): avc:  denied  { read } for  pid=1 comm=\"x\" tclass=file permissive=1", REC_SELINUX },
		{ "type=AVC msg=audit(1.000:1): foo=bar", REC_FOREIGN_OTHER },
		{ "type=LANDLOCK_ACCESS msg=audit(1.000:1): domain=1 blockers=fs.write_file", REC_LANDLOCK },
		{ "type=LANDLOCK_DOMAIN msg=audit(1.000:1): domain=1 status=allocated", REC_LANDLOCK },
		{ "type=UNKNOWN[1423] msg=audit(1.000:1): domain=1", REC_LANDLOCK },
		{ "type=1424 msg=audit(1.000:1): domain=1", REC_LANDLOCK },
		{ "type=USER_AVC msg=audit(1.000:1): pid=1 uid=0 msg='avc:  denied'", REC_FOREIGN_OTHER },
		{ "type=SELINUX_ERR msg=audit(1.000:1): op=x", REC_FOREIGN_OTHER },
		{ "type=1503 msg=audit(1.000:1): apparmor=\"DENIED\"", REC_APPARMOR },
		{ "type=SYSCALL msg=audit(1.000:1): arch=c000003e syscall=2", REC_CONTEXT },
		{ "type=UNKNOWN[1999] msg=audit(1.000:1): a=b", REC_CONTEXT },
		{ "type=FOOBAR msg=audit(1.000:1): a=b", REC_CONTEXT },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		load(cases[i].line);
		if (vigil_record_kind(au) != cases[i].kind)
			fail_msg("%s: kind %d, expected %d", cases[i].line,
				 vigil_record_kind(au), cases[i].kind);
	}
}

static void test_parse_full(void **state)
{
	struct vigil_record r = { 0 };
	const char *why = NULL;

	(void)state;
	load("type=KERNEL_OTHER msg=audit(1796284357.020:61): vigil=1 seq=14 "
	     "verdict=learned op=open access=w uid=1000 "
	     "exe=2F686F6D652F6D7920746F6F6C path=2F746D702F610A62 target=? "
	     "pid=216 comm=6D792072756E");
	assert_int_equal(vigil_record_parse(au, &r, &why), 0);
	assert_int_equal(r.seq, 14);
	assert_string_equal(r.verdict, "learned");
	assert_string_equal(r.op, "open");
	assert_string_equal(r.access, "w");
	assert_int_equal(r.uid, 1000);
	assert_string_equal(r.exe, "/home/my tool");
	assert_string_equal(r.path, "/tmp/a\nb");
	assert_null(r.target);
	assert_string_equal(r.object, "/tmp/a\nb");
	assert_int_equal(r.pid, 216);
	assert_string_equal(r.comm, "my run");
	assert_string_equal(r.extra, "");

	load("type=KERNEL_OTHER msg=audit(1.000:2): vigil=1 seq=18446744073709551615 "
	     "verdict=would-deny op=signal access=kill uid=4294967295 "
	     "exe=\"/usr/bin/kill\" path=? target=\"/usr/sbin/nginx\" pid=9 "
	     "comm=\"kill\" opid=300 ocomm=\"nginx\"");
	assert_int_equal(vigil_record_parse(au, &r, &why), 0);
	assert_true(r.seq == UINT64_MAX);
	assert_string_equal(r.verdict, "would-deny");
	assert_int_equal(r.uid, 4294967295u);
	assert_null(r.path);
	assert_string_equal(r.object, "/usr/sbin/nginx");
	assert_string_equal(r.extra, "opid=300 ocomm=\"nginx\"");

	/* module from memory: path=? so the object is the target */
	load("type=KERNEL_OTHER msg=audit(1.000:3): vigil=1 seq=3 "
	     "verdict=learned op=module access=load uid=0 exe=\"/sbin/insmod\" "
	     "path=? target=\"(memory)\" pid=9 comm=\"insmod\"");
	assert_int_equal(vigil_record_parse(au, &r, &why), 0);
	assert_string_equal(r.object, "(memory)");
	vigil_record_free(&r);
	vigil_record_free(&r);	/* twice is fine */
}

static void test_parse_bad(void **state)
{
	static const char *const bad[] = {
		/* truncated */
		"vigil=1 seq=1 verdict=learned op=open access=r uid=0 exe=\"/a\"",
		/* order */
		"vigil=1 verdict=learned seq=1 op=open access=r uid=0 exe=\"/a\" path=? target=? pid=1 comm=\"a\"",
		/* version */
		"vigil=2 seq=1 verdict=learned op=open access=r uid=0 exe=\"/a\" path=? target=? pid=1 comm=\"a\"",
		/* numbers */
		"vigil=1 seq=-1 verdict=learned op=open access=r uid=0 exe=\"/a\" path=? target=? pid=1 comm=\"a\"",
		"vigil=1 seq=18446744073709551616 verdict=learned op=open access=r uid=0 exe=\"/a\" path=? target=? pid=1 comm=\"a\"",
		"vigil=1 seq=1 verdict=learned op=open access=r uid=4294967296 exe=\"/a\" path=? target=? pid=1 comm=\"a\"",
		"vigil=1 seq=1 verdict=learned op=open access=r uid=0 exe=\"/a\" path=? target=? pid=x comm=\"a\"",
		/* words */
		"vigil=1 seq=1 verdict=allowed op=open access=r uid=0 exe=\"/a\" path=? target=? pid=1 comm=\"a\"",
		"vigil=1 seq=1 verdict=learned op=OPEN access=r uid=0 exe=\"/a\" path=? target=? pid=1 comm=\"a\"",
		"vigil=1 seq=1 verdict=learned op=open access=r;x uid=0 exe=\"/a\" path=? target=? pid=1 comm=\"a\"",
		/* strings: a space in a quoted value splits it */
		"vigil=1 seq=1 verdict=learned op=open access=r uid=0 exe=\"/a b\" path=? target=? pid=1 comm=\"a\"",
		"vigil=1 seq=1 verdict=learned op=open access=r uid=0 exe=\"/a\" path=2F6 target=? pid=1 comm=\"a\"",
		"vigil=1 seq=1 verdict=learned op=open access=r uid=0 exe=\"/a\" path=? target=2F00 pid=1 comm=\"a\"",
		"vigil=1",
	};

	(void)state;
	expect_rejected("type=KERNEL_OTHER msg=audit(1.000:1): ", bad,
			ARRAY_SIZE(bad), NULL);
}

/* via= (issue 13 §5): the exec ancestors, before mntns= */
static void test_parse_via(void **state)
{
	static const char *const bad[] = {
		"via=\"\"",			/* empty */
		"via=\"usr/bin/x\"",		/* not absolute */
		"via=\"/a//b//\"",		/* ends with a separator */
		"via=\"/a///b\"",		/* an element "//b" */
		"via=\"?/a\"",			/* ? glued to an element */
		"via=\"/1//2//3//4//5//6//7//8//9\"",	/* 9 elements */
		"via=2F61 via=2F62",		/* twice */
		"via=2F6",			/* bad hex */
	};
	struct vigil_record r = { 0 };
	struct vigil_policy_name chain[8];
	char line[2048], *p;
	const char *why = NULL;

	(void)state;
	load("type=KERNEL_OTHER msg=audit(1.000:7): vigil=1 seq=7 "
	     "verdict=learned op=open access=r uid=0 exe=\"/usr/bin/grep\" "
	     "path=\"/etc/passwd\" target=? pid=9 comm=\"grep\" "
	     "via=\"/usr/lib/systemd/systemd//usr/local/bin/svc\" "
	     "mntns=4026532000");
	assert_int_equal(vigil_record_parse(au, &r, &why), 0);
	assert_string_equal(r.via, "/usr/lib/systemd/systemd//usr/local/bin/svc");
	assert_int_equal(r.mntns, 4026532000u);
	assert_string_equal(r.extra, "");
	assert_int_equal(vigil_via_chain(r.via, chain, 8), 2);
	assert_int_equal(chain[0].len, strlen("/usr/lib/systemd/systemd"));
	assert_memory_equal(chain[1].s, "/usr/local/bin/svc", 18);
	assert_int_equal(chain[1].len, 18);
	assert_true(vigil_via_has(r.via, "/usr/local/bin/svc"));
	assert_true(vigil_via_has(r.via, "/usr/lib/systemd/systemd"));
	assert_false(vigil_via_has(r.via, "/usr/local/bin"));
	assert_false(vigil_via_has(r.via, "/usr/local/bin/sv"));

	/* after capability fields; hex with a space; cut: "?" first */
	load("type=KERNEL_OTHER msg=audit(1.000:8): vigil=1 seq=8 "
	     "verdict=learned op=signal access=kill uid=0 exe=\"/bin/kill\" "
	     "path=? target=\"/x\" pid=9 comm=\"kill\" opid=3 ocomm=\"x\" "
	     "via=3F2F2F6F707420612F737663");
	assert_int_equal(vigil_record_parse(au, &r, &why), 0);
	assert_string_equal(r.via, "?//opt a/svc");
	assert_string_equal(r.extra, "opid=3 ocomm=\"x\"");
	assert_int_equal(vigil_via_chain(r.via, chain, 8), 1);
	assert_int_equal(chain[0].len, 10);
	assert_true(vigil_via_has(r.via, "/opt a/svc"));
	assert_false(vigil_via_has(r.via, "?"));

	/* the same element twice in a row: a change of uid class (a
	 * user's manager under root's, issue 25 §2) */
	assert_true(vigil_via_valid("/lib/systemd/systemd//lib/systemd/systemd",
				    &why));

	/* none: NULL */
	load("type=KERNEL_OTHER msg=audit(1.000:9): vigil=1 seq=9 "
	     "verdict=learned op=open access=r uid=0 exe=\"/sbin/init\" "
	     "path=\"/etc/x\" target=? pid=1 comm=\"init\"");
	assert_int_equal(vigil_record_parse(au, &r, &why), 0);
	assert_null(r.via);
	assert_int_equal(vigil_via_chain(r.via, chain, 8), 0);

	/* 8 elements, 1024 bytes: the bounds */
	assert_true(vigil_via_valid("/1//2//3//4//5//6//7//8", &why));
	assert_true(vigil_via_valid("?//2//3//4//5//6//7//8//9", &why));
	assert_false(vigil_via_valid("?//2//3//4//5//6//7//8//9//10", &why));
	assert_true(vigil_via_valid("?", &why));
	assert_true(vigil_via_valid("?//a/b", &why));
	p = line;
	*p++ = '/';
	memset(p, 'a', 1024);
	p[1024] = '\0';
	assert_false(vigil_via_valid(line, &why));
	assert_non_null(strstr(why, "1024"));
	line[1024] = '\0';
	assert_true(vigil_via_valid(line, &why));

	vigil_record_free(&r);
	expect_rejected(GOOD_HEAD, bad, ARRAY_SIZE(bad), "via=");
}

/* uclass= (issue 25 §2): the uid class the kernel keyed the tuple by */
static void test_parse_uclass(void **state)
{
	static const char *const bad[] = {
		"uclass=admin", "uclass=USER", "uclass=user uclass=root",
		"uclass=\"user\"x",
	};
	struct vigil_record r = { 0 };
	const char *why = NULL;

	(void)state;
	load("type=KERNEL_OTHER msg=audit(1.000:7): vigil=1 seq=7 "
	     "verdict=learned op=open access=r uid=100000 exe=\"/usr/bin/x\" "
	     "path=\"/etc/x\" target=? pid=9 comm=\"x\" "
	     "via=\"/a//a\" uclass=user");
	assert_int_equal(vigil_record_parse(au, &r, &why), 0);
	assert_string_equal(r.uclass, "user");
	assert_string_equal(r.via, "/a//a");
	assert_string_equal(r.extra, "");
	load("type=KERNEL_OTHER msg=audit(1.000:8): vigil=1 seq=8 "
	     "verdict=learned op=open access=r uid=998 exe=\"/usr/bin/x\" "
	     "path=\"/etc/x\" target=? pid=9 comm=\"x\" mntns=5 "
	     "uclass=system");
	assert_int_equal(vigil_record_parse(au, &r, &why), 0);
	assert_string_equal(r.uclass, "system");
	assert_int_equal(r.mntns, 5);
	load("type=KERNEL_OTHER msg=audit(1.000:9): vigil=1 seq=9 "
	     "verdict=learned op=open access=r uid=0 exe=\"/usr/bin/x\" "
	     "path=\"/etc/x\" target=? pid=9 comm=\"x\"");
	assert_int_equal(vigil_record_parse(au, &r, &why), 0);
	assert_null(r.uclass);
	vigil_record_free(&r);
	expect_rejected(GOOD_HEAD, bad, ARRAY_SIZE(bad), "uclass=");
}

/*
 * mntnsid= (issue 25 §7): the unique id of the namespace mntns= numbers,
 * after it; records without it (older kernels) still parse.
 */
static void test_parse_mntnsid(void **state)
{
	static const char *const bad[] = {
		"mntnsid=4 uclass=user",		/* no mntns= */
		"mntns=5 mntnsid=0",			/* 0 */
		"mntns=5 mntnsid=x",
		"mntns=5 mntnsid=4 mntnsid=4",		/* twice */
		"mntns=5 mntnsid=9223372036854775808",	/* past INT64_MAX */
	};
	struct vigil_record r = { 0 };
	const char *why = NULL;

	(void)state;
	load(GOOD_HEAD "mntns=4026532091 mntnsid=17 uclass=user");
	assert_int_equal(vigil_record_parse(au, &r, &why), 0);
	assert_int_equal(r.mntns, 4026532091u);
	assert_int_equal(r.mntnsid, 17);
	assert_string_equal(r.uclass, "user");
	assert_string_equal(r.extra, "");
	load(GOOD_HEAD "mntns=4026532091 uclass=user");
	assert_int_equal(vigil_record_parse(au, &r, &why), 0);
	assert_int_equal(r.mntns, 4026532091u);
	assert_int_equal(r.mntnsid, 0);
	vigil_record_free(&r);
	expect_rejected(GOOD_HEAD, bad, ARRAY_SIZE(bad), "mntnsid=");
}

/* netns= (issue 25 §7): an abstract unix name of another network namespace */
static void test_parse_netns(void **state)
{
	static const char *const bad[] = {
		"netns=0 uclass=user", "netns=x", "netns=3 netns=3",
		"netns=-1",
	};
	struct vigil_record r = { 0 };
	const char *why = NULL;

	(void)state;
	load("type=KERNEL_OTHER msg=audit(1.000:1): vigil=1 seq=1 "
	     "verdict=learned op=connect access=connect uid=100000 "
	     "exe=\"/usr/bin/python3.11\" path=? target=\"unix:stream:@bus\" "
	     "pid=1 comm=\"python3\" netns=4097 uclass=user");
	assert_int_equal(vigil_record_parse(au, &r, &why), 0);
	assert_int_equal(r.netns, 4097);
	assert_string_equal(r.object, "unix:stream:@bus");
	assert_string_equal(r.extra, "");
	load(GOOD_HEAD "uclass=user");
	assert_int_equal(vigil_record_parse(au, &r, &why), 0);
	assert_int_equal(r.netns, 0);
	vigil_record_free(&r);
	expect_rejected(GOOD_HEAD, bad, ARRAY_SIZE(bad), "netns=");
}

static void test_file_ops(void **state)
{
	(void)state;
	assert_true(vigil_op_is_file("open"));
	assert_true(vigil_op_is_file("module"));
	assert_true(vigil_op_is_file("umount"));
	assert_false(vigil_op_is_file("capable"));
	assert_false(vigil_op_is_file("connect"));
	assert_false(vigil_op_is_file("signal"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_parse_full),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_via),
		cmocka_unit_test(test_parse_uclass),
		cmocka_unit_test(test_parse_mntnsid),
		cmocka_unit_test(test_parse_netns),
		cmocka_unit_test(test_file_ops),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
