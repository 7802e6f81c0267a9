// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests: the kernel's learned table lines (vigil snapshot). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "vigil.h"
#include "store.h"
#include "kernel.h"

static void test_unescape(void **state)
{
	char a[] = "/tmp/a\\040b\\134c\\011d";
	char b[] = "plain";
	char bad1[] = "x\\04";
	char bad2[] = "x\\400";
	char bad3[] = "x\\000";
	char bad4[] = "x\\";

	(void)state;
	assert_int_equal(unescape_octal(a), 0);
	assert_string_equal(a, "/tmp/a b\\c\td");
	assert_int_equal(unescape_octal(b), 0);
	assert_string_equal(b, "plain");
	assert_int_equal(unescape_octal(bad1), -EINVAL);
	assert_int_equal(unescape_octal(bad2), -EINVAL);
	assert_int_equal(unescape_octal(bad3), -EINVAL);
	assert_int_equal(unescape_octal(bad4), -EINVAL);
}

static void test_parse_ok(void **state)
{
	char line[] = "12 learned open r 7 1796284356 1796284400 0 "
		      "/usr/bin/cat /etc/host\\040name";
	char line2[] = "0 allowed capable use 3 1 2 4294967295 /x\\012y ?";
	struct vigil_tuple t;

	(void)state;
	assert_int_equal(vigil_learned_parse(line, &t), 0);
	assert_int_equal(t.seq, 12);
	assert_string_equal(t.verdict, "learned");
	assert_string_equal(t.op, "open");
	assert_string_equal(t.access, "r");
	assert_int_equal(t.count, 7);
	assert_int_equal(t.first, 1796284356);
	assert_int_equal(t.last, 1796284400);
	assert_int_equal(t.uid, 0);
	assert_string_equal(t.exe, "/usr/bin/cat");
	assert_string_equal(t.object, "/etc/host name");

	assert_int_equal(vigil_learned_parse(line2, &t), 0);
	assert_string_equal(t.verdict, "allowed");
	assert_int_equal(t.uid, 4294967295u);
	assert_string_equal(t.exe, "/x\ny");
	assert_null(t.object);
}

/* The via column (issue 13 §5): last, "-" for none; older lines parse. */
static void test_parse_via(void **state)
{
	char l12[] = "5 learned open r 1 1 2 0 0 /usr/bin/grep /etc/passwd "
		     "/usr/lib/systemd/systemd//opt/my\\040svc";
	char none[] = "6 learned exec x 1 1 2 0 0 /sbin/init /bin/sh -";
	char l11[] = "7 learned open r 1 1 2 0 4026532000 /usr/bin/grep /etc/x";
	char bad1[] = "8 learned open r 1 1 2 0 0 /a /b /c//";
	char bad2[] = "8 learned open r 1 1 2 0 0 /a /b x/y";
	char bad3[] = "8 learned open r 1 1 2 0 0 /a /b /c///d";
	char bad4[] = "8 learned open r 1 1 2 0 0 /a /b /c /d";
	struct vigil_tuple t;
	const char *why;

	(void)state;
	assert_int_equal(vigil_learned_parse(l12, &t), 0);
	assert_string_equal(t.exe, "/usr/bin/grep");
	assert_string_equal(t.object, "/etc/passwd");
	assert_string_equal(t.via, "/usr/lib/systemd/systemd//opt/my svc");
	assert_int_equal(t.mntns, 0);
	assert_int_equal(vigil_learned_parse(none, &t), 0);
	assert_null(t.via);
	assert_string_equal(t.object, "/bin/sh");
	assert_int_equal(vigil_learned_parse(l11, &t), 0);
	assert_null(t.via);
	assert_int_equal(t.mntns, 4026532000u);
	assert_string_equal(t.object, "/etc/x");
	assert_int_equal(vigil_learned_parse_why(bad1, &t, &why), -EINVAL);
	assert_non_null(strstr(why, "via"));
	assert_int_equal(vigil_learned_parse_why(bad2, &t, &why), -EINVAL);
	assert_non_null(strstr(why, "via"));
	assert_int_equal(vigil_learned_parse_why(bad3, &t, &why), -EINVAL);
	assert_non_null(strstr(why, "via"));
	assert_int_equal(vigil_learned_parse_why(bad4, &t, &why), -EINVAL);
}

/* The mntns column as NUMBER:ID (issue 25 §7); the number alone parses. */
static void test_parse_mntnsid(void **state)
{
	static const char *const bad[] = {
		"1 learned open r 1 1 2 0 5: /a /b -",
		"1 learned open r 1 1 2 0 5:0 /a /b -",
		"1 learned open r 1 1 2 0 0:4 /a /b -",
		"1 learned open r 1 1 2 0 :4 /a /b -",
		"1 learned open r 1 1 2 0 5:4:4 /a /b -",
		"1 learned open r 1 1 2 0 5:x /a /b -",
	};
	char ok[] = "9 learned open r 1 1 2 0 4026532091:17 /usr/bin/cat /x -";
	char old[] = "9 learned open r 1 1 2 0 4026532091 /usr/bin/cat /x -";
	struct vigil_tuple t;
	const char *why;

	(void)state;
	assert_int_equal(vigil_learned_parse(ok, &t), 0);
	assert_int_equal(t.mntns, 4026532091u);
	assert_int_equal(t.mntnsid, 17);
	assert_string_equal(t.exe, "/usr/bin/cat");
	assert_string_equal(t.object, "/x");
	assert_int_equal(vigil_learned_parse(old, &t), 0);
	assert_int_equal(t.mntns, 4026532091u);
	assert_int_equal(t.mntnsid, 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char buf[128];

		strcpy(buf, bad[i]);
		if (vigil_learned_parse_why(buf, &t, &why) != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
		assert_non_null(strstr(why, "mntns"));
	}
}

/* A 13th column, netns: an abstract unix name of another namespace. */
static void test_parse_netns(void **state)
{
	char ok[] = "9 learned connect connect 1 1 2 100000 0 /usr/bin/py "
		    "unix:stream:@bus - 4097";
	char none[] = "9 learned connect connect 1 1 2 100000 0 /usr/bin/py "
		      "unix:stream:@bus -";
	char zero[] = "9 learned connect connect 1 1 2 0 0 /a @b - 0";
	char bad[] = "9 learned connect connect 1 1 2 0 0 /a @b - x";
	char more[] = "9 learned connect connect 1 1 2 0 0 /a @b - 1 2";
	struct vigil_tuple t;
	const char *why;

	(void)state;
	assert_int_equal(vigil_learned_parse(ok, &t), 0);
	assert_int_equal(t.netns, 4097);
	assert_null(t.via);
	assert_string_equal(t.object, "unix:stream:@bus");
	assert_int_equal(vigil_learned_parse(none, &t), 0);
	assert_int_equal(t.netns, 0);
	assert_int_equal(vigil_learned_parse_why(zero, &t, &why), -EINVAL);
	assert_non_null(strstr(why, "netns"));
	assert_int_equal(vigil_learned_parse_why(bad, &t, &why), -EINVAL);
	assert_non_null(strstr(why, "netns"));
	assert_int_equal(vigil_learned_parse(more, &t), -EINVAL);
}

static void test_parse_header_and_bad(void **state)
{
	static const char *const bad[] = {
		"12 learned open r 7 1 2 0 /usr/bin/cat",	/* 9 fields */
		"12 learned open r 7 1 2 0 /a /b extra",	/* 11 */
		"x learned open r 7 1 2 0 /a /b",		/* seq */
		"1 maybe open r 7 1 2 0 /a /b",			/* verdict */
		"1 learned open r 7 1 2 4294967296 /a /b",	/* uid */
		"1 learned open r 99999999999999999999 1 2 0 /a /b",
		"1 learned open r 7 -1 2 0 /a /b",
		"1 learned open r 7 1 2 0 /a\\9 /b",
		"1  learned open r 7 1 2 0 /a /b",		/* empty */
	};
	char hdr[] = "# seq verdict op access count first last uid exe object";
	char empty[] = "";
	struct vigil_tuple t;

	(void)state;
	assert_int_equal(vigil_learned_parse(hdr, &t), 1);
	assert_int_equal(vigil_learned_parse(empty, &t), 1);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char buf[128];

		strcpy(buf, bad[i]);
		if (vigil_learned_parse(buf, &t) != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unescape),
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_via),
		cmocka_unit_test(test_parse_mntnsid),
		cmocka_unit_test(test_parse_netns),
		cmocka_unit_test(test_parse_header_and_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
