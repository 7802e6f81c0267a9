// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests: the escaping rule of each output (escape.c), the glob
 * escape of the candidate policy, and the AppArmor profile names report
 * and diff match (record.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "escape.h"
#include "record.h"
#include "rules.h"

/* What f wrote, as a string (the caller frees it). */
static char *written(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void check_text(const char *in, const char *want)
{
	char *got = written(esc_text, in), *dup = esc_text_dup(in);

	assert_string_equal(got, want);
	assert_string_equal(dup, want);
	assert_int_equal(esc_text_len(in), strlen(want));
	free(got);
	free(dup);
}

static void printable(void **state)
{
	(void)state;
	assert_int_equal(esc_printable("a", 1), 1);
	assert_int_equal(esc_printable("\xc3\xa9", 2), 2);		/* é */
	assert_int_equal(esc_printable("\xe2\x82\xac", 3), 3);	/* € */
	assert_int_equal(esc_printable("\xf0\x9f\x98\x80", 4), 4);
	assert_int_equal(esc_printable("\x1b", 1), 0);
	assert_int_equal(esc_printable("\x7f", 1), 0);
	assert_int_equal(esc_printable("\xc2\x9b", 2), 0);	/* C1 CSI */
	assert_int_equal(esc_printable("\x9b", 1), 0);
	assert_int_equal(esc_printable("\xe2\x80\xae", 3), 0);	/* RLO */
	assert_int_equal(esc_printable("\xe2\x81\xa6", 3), 0);	/* LRI */
	assert_int_equal(esc_printable("\xe2\x80\xa8", 3), 0);	/* LS */
	assert_int_equal(esc_printable("\xc0\xaf", 2), 0);	/* overlong */
	assert_int_equal(esc_printable("\xed\xa0\x80", 3), 0);	/* surrogate */
	assert_int_equal(esc_printable("\xf4\x90\x80\x80", 4), 0);
	assert_int_equal(esc_printable("\xc3\xa9", 1), 0);	/* truncated */
	assert_int_equal(esc_printable("\xc3(", 2), 0);
	assert_true(esc_is_utf8("a\x1b\xc3\xa9", 4));
	assert_false(esc_is_utf8("a\xff", 2));
}

static void text(void **state)
{
	(void)state;
	check_text("/usr/bin/cat", "/usr/bin/cat");
	check_text("/tmp/\x1b]0;PWNED\a\x1b[2J\x1b[31mevil",
		   "/tmp/\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mevil");
	check_text("a\nb\tc\x7f", "a\\x0ab\\x09c\\x7f");
	check_text("\xc2\x9b\x9b", "\\xc2\\x9b\\x9b");
	check_text("caf\xc3\xa9 \xe2\x80\xae", "caf\xc3\xa9 \\xe2\\x80\\xae");
	check_text("\xff\xfe\xc3(", "\\xff\\xfe\\xc3(");
	/* a backslash is itself: the text is for eyes, JSON for programs */
	check_text("a\\x1b", "a\\x1b");
	check_text("", "");
}

static void html(void **state)
{
	char *got;

	(void)state;
	got = written(esc_html, "</script><img src=x onerror='a(1)'>&\"\x1b\xff");
	assert_string_equal(got, "&lt;/script&gt;&lt;img src=x onerror=&#39;"
			    "a(1)&#39;&gt;&amp;&quot;\\x1b\\xff");
	free(got);
}

/* esc_json_member's output, in an object. */
static char *json_member(const char *key, const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fputc('{', f);
	assert_int_equal(esc_json_member(f, key, s), 0);
	fputc('}', f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void json(void **state)
{
	char *got;
	json_t *j;
	json_error_t err;

	(void)state;
	got = json_member("exe", "/usr/bin/caf\xc3\xa9 \"q\"\\\n\x1b");
	assert_string_equal(got, "{\"exe\":\"/usr/bin/caf\xc3\xa9 \\\"q\\\"\\\\\\n\\u001B\"}");
	free(got);
	/* a C1 or bidi control: all ASCII */
	got = json_member("exe", "caf\xc3\xa9\xc2\x9b");
	assert_string_equal(got, "{\"exe\":\"caf\\u00E9\\u009B\"}");
	free(got);
	/* not UTF-8: U+FFFD, and the exact bytes beside */
	got = json_member("object", "/a\xff\xc3(");
	assert_string_equal(got, "{\"object\":\"/a\xef\xbf\xbd\xef\xbf\xbd(\","
			    "\"object_hex\":\"2F61FFC328\"}");
	j = json_loads(got, 0, &err);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "object_hex")),
			    "2F61FFC328");
	json_decref(j);
	free(got);
	got = json_member("exe", NULL);
	assert_string_equal(got, "{\"exe\":null}");
	free(got);
}

/* The candidate policy's glob escape: what is not printable UTF-8 as \xHH
 * (the parser reads it back), UTF-8 as itself. */
static void glob_escape(void **state)
{
	char *e;

	(void)state;
	e = vigil_glob_escape_dup("/tmp/caf\xc3\xa9 \xff\xc2\x9b\n*",
				  strlen("/tmp/caf\xc3\xa9 \xff\xc2\x9b\n*"), false);
	assert_string_equal(e, "/tmp/caf\xc3\xa9\\ \\xff\\xc2\\x9b\\x0a\\*");
	free(e);
}

static void apparmor_names(void **state)
{
	char *n;

	(void)state;
	n = aa_profile_name("/tmp/x/y");
	assert_string_equal(n, "tmp.x.y");
	free(n);
	n = aa_profile_name("/usr/lib/a b+c-d_e.f\xff");
	assert_string_equal(n, "usr.lib.a_b+c-d_e.f_");
	free(n);
	n = aa_profile_name("/.hidden/x");
	assert_string_equal(n, "xhidden.x");
	free(n);
	n = aa_profile_name("/");
	assert_string_equal(n, "root");
	free(n);
	assert_true(aa_profile_of("/tmp/x/y", "/tmp/x/y"));
	assert_true(aa_profile_of("/tmp/x/y//null-/usr/bin/rm", "/tmp/x/y"));
	assert_true(aa_profile_of("tmp.x.y", "/tmp/x/y"));
	assert_true(aa_profile_of("tmp.x.y//child", "/tmp/x/y"));
	assert_false(aa_profile_of("tmp.x.yz", "/tmp/x/y"));
	assert_false(aa_profile_of("tmp.x", "/tmp/x/y"));
	assert_false(aa_profile_of("/tmp/x/yz", "/tmp/x/y"));
	assert_false(aa_profile_of("unconfined", "/tmp/x/y"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(printable),
		cmocka_unit_test(text),
		cmocka_unit_test(html),
		cmocka_unit_test(json),
		cmocka_unit_test(glob_escape),
		cmocka_unit_test(apparmor_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
