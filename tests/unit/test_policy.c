// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil: userspace unit tests of the policy language (the same sources as
 * the kernel's, built with the policy_env.h shim). Build and run from the
 * repository root:
 *
 *   cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g \
 *      -fsanitize=address,undefined -fno-sanitize-recover=all \
 *      -Ikernel/security/vigil -o test_policy tests/unit/test_policy.c \
 *      kernel/security/vigil/policy.c kernel/security/vigil/match.c \
 *      kernel/security/vigil/ops.c -lcmocka && ./test_policy
 */
#ifndef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L	/* clock_gettime() */
#endif

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "policy_test_cases.h"
#include "policy_random.h"

/* Forms of the tables' entries in failure messages. */
static void note(const char *what, const char *s)
{
	print_message("  case %s '%s'\n", what, s);
}

static char *dump_alloc(const struct vigil_policy *policy)
{
	size_t len = vigil_policy_dump(policy, NULL, 0);
	char *buf = malloc(len + 1);

	assert_non_null(buf);
	assert_int_equal(vigil_policy_dump(policy, buf, len + 1), len);
	assert_int_equal(strlen(buf), len);
	return buf;
}

static struct vigil_glob *compile_ok(const char *pat, size_t len)
{
	struct vigil_glob *g = NULL;
	char why[160];
	int ret = vigil_glob_compile(pat, len, &g, why, sizeof(why));

	if (ret)
		print_message("  compile '%s': %d %s\n", pat, ret, why);
	assert_int_equal(ret, 0);
	assert_non_null(g);
	return g;
}

static void test_glob_match_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(glob_match_cases); i++) {
		const struct glob_match_case *c = &glob_match_cases[i];
		struct vigil_glob *g = compile_ok(c->pat, strlen(c->pat));
		bool m = vigil_glob_match(g, c->text, strlen(c->text));

		if (m != c->match) {
			note("pattern", c->pat);
			note("text", c->text);
		}
		assert_int_equal(m, c->match);
		vigil_glob_free(g);
	}
}

static void test_glob_error_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(glob_error_cases); i++) {
		const struct glob_error_case *c = &glob_error_cases[i];
		struct vigil_glob *g = NULL;
		char why[160];

		assert_int_equal(vigil_glob_compile(c->pat, strlen(c->pat), &g,
						    why, sizeof(why)),
				 -EINVAL);
		assert_null(g);
		assert_string_equal(why, c->msg);
	}
}

static void test_glob_source_table(void **state)
{
	size_t i, len;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(glob_source_cases); i++) {
		const struct glob_source_case *c = &glob_source_cases[i];
		struct vigil_glob *g = compile_ok(c->pat, strlen(c->pat));
		struct vigil_glob *again;
		const char *src = vigil_glob_source(g, &len);

		assert_string_equal(src, c->src);
		assert_int_equal(len, strlen(c->src));
		/* The canonical form is a fixed point. */
		again = compile_ok(src, len);
		assert_string_equal(vigil_glob_source(again, NULL), c->src);
		vigil_glob_free(again);
		vigil_glob_free(g);
	}
}

static void test_access_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(access_cases); i++) {
		const struct access_case *c = &access_cases[i];
		u64 access = 0x5a5a;
		char buf[64];
		int ret;

		ret = vigil_access_parse(c->class, c->s, strlen(c->s), &access);
		if (ret != c->err)
			note("access", c->s);
		assert_int_equal(ret, c->err);
		if (ret) {
			assert_int_equal(access, 0x5a5a);
			continue;
		}
		assert_int_equal(access, c->access);
		assert_int_equal(vigil_access_format(c->class, access, buf,
						     sizeof(buf)),
				 strlen(c->canon));
		assert_string_equal(buf, c->canon);
	}
}

static void test_access_format_truncation(void **state)
{
	char buf[8];
	int n;

	(void)state;
	n = vigil_access_format(VIGIL_CLASS_NET, 0x1f, buf, sizeof(buf));
	assert_int_equal(n, strlen("socket,bind,connect,listen,accept"));
	assert_string_equal(buf, "socket,");
	n = vigil_access_format(VIGIL_CLASS_SIGNAL, ~0ULL, NULL, 0);
	assert_true(n > 64 * 3);
	assert_int_equal(vigil_access_format(VIGIL_CLASS_FILE, 0, buf, 8), 0);
	assert_string_equal(buf, "");
}

static void test_names(void **state)
{
	char buf[8];
	int i;

	(void)state;
	for (i = 0; i < VIGIL_OP_COUNT; i++) {
		const char *n = vigil_op_name(i);

		assert_int_equal(vigil_op_from_name(n, strlen(n)), i);
		assert_true(vigil_op_class(i) < VIGIL_CLASS_COUNT);
	}
	assert_string_equal(vigil_op_name(VIGIL_OP_COUNT), "?");
	assert_int_equal(vigil_op_from_name("opens", 4), VIGIL_OP_OPEN);
	assert_int_equal(vigil_op_from_name("opens", 5), -1);
	assert_int_equal(vigil_op_class(VIGIL_OP_UMOUNT), VIGIL_CLASS_MOUNT);
	assert_int_equal(vigil_op_class(VIGIL_OP_CAPABLE), VIGIL_CLASS_CAP);
	assert_int_equal(vigil_op_class(VIGIL_OP_ACCEPT), VIGIL_CLASS_NET);
	assert_int_equal(vigil_op_class(VIGIL_OP_IOCTL), VIGIL_CLASS_FILE);
	for (i = 0; i < VIGIL_CLASS_COUNT; i++) {
		const char *n = vigil_class_name(i);

		assert_int_equal(vigil_class_from_name(n, strlen(n)), i);
	}
	assert_string_equal(vigil_class_name(VIGIL_CLASS_COUNT), "?");
	for (i = 0; i < VIGIL_CAP_COUNT; i++) {
		const char *n = vigil_cap_name(i);

		assert_non_null(n);
		assert_int_equal(vigil_cap_from_name(n, strlen(n)), i);
	}
	assert_string_equal(vigil_cap_name(0), "chown");
	assert_string_equal(vigil_cap_name(10), "net_bind_service");
	assert_string_equal(vigil_cap_name(21), "sys_admin");
	assert_string_equal(vigil_cap_name(40), "checkpoint_restore");
	assert_null(vigil_cap_name(41));
	assert_null(vigil_cap_name(-1));
	assert_int_equal(vigil_cap_from_name("cap_chown", 9), -1);
	assert_string_equal(vigil_signal_name(9, buf, sizeof(buf)), "kill");
	assert_string_equal(vigil_signal_name(15, buf, sizeof(buf)), "term");
	assert_string_equal(vigil_signal_name(31, buf, sizeof(buf)), "sys");
	assert_string_equal(vigil_signal_name(34, buf, sizeof(buf)), "sig34");
	assert_string_equal(vigil_signal_name(64, buf, sizeof(buf)), "sig64");
	assert_null(vigil_signal_name(0, buf, sizeof(buf)));
	assert_null(vigil_signal_name(65, buf, sizeof(buf)));
	for (i = 1; i <= VIGIL_SIGNAL_MAX; i++) {
		const char *n = vigil_signal_name(i, buf, sizeof(buf));
		u64 access;

		assert_int_equal(vigil_access_parse(VIGIL_CLASS_SIGNAL, n,
						    strlen(n), &access), 0);
		assert_int_equal(access, 1ULL << (i - 1));
	}
}

/* Parse, dump, parse the dump, dump again: both dumps must be equal. */
static void check_round_trip(const char *dump)
{
	struct vigil_policy_error err;
	struct vigil_policy *p = NULL;
	char *again;
	int ret;

	ret = vigil_policy_parse(dump, strlen(dump), &p, &err);
	if (ret)
		print_message("  reparse: %s\n  of: %s\n", err.msg, dump);
	assert_int_equal(ret, 0);
	again = dump_alloc(p);
	assert_string_equal(again, dump);
	free(again);
	vigil_policy_free(p);
}

static void test_policy_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(policy_cases); i++) {
		const struct policy_case *c = &policy_cases[i];
		struct vigil_policy_error err;
		struct vigil_policy *p = NULL;
		char *dump;
		int ret;

		ret = vigil_policy_parse(c->text, policy_case_len(c), &p, &err);
		if (ret != c->err)
			print_message("  case '%s': %d %s\n", c->name, ret,
				      ret ? err.msg : "");
		assert_int_equal(ret, c->err);
		if (ret) {
			char full[200];

			assert_null(p);
			policy_error_format(&err, full, sizeof(full));
			if (strcmp(full, c->out))
				note("name", c->name);
			assert_string_equal(full, c->out);
			assert_true(err.line > 0);
			continue;
		}
		dump = dump_alloc(p);
		if (strcmp(dump, c->out))
			note("name", c->name);
		assert_string_equal(dump, c->out);
		check_round_trip(dump);
		free(dump);
		vigil_policy_free(p);
	}
}

static void test_policy_dump_truncation(void **state)
{
	const struct policy_case *c = &policy_cases[0];
	struct vigil_policy *p = NULL;
	size_t len, size;
	char *full;

	(void)state;
	assert_int_equal(vigil_policy_parse(c->text, policy_case_len(c), &p, NULL), 0);
	full = dump_alloc(p);
	len = strlen(full);
	for (size = 0; size <= len + 2; size++) {
		char *buf = malloc(size + 1);

		assert_non_null(buf);
		buf[size] = 'X';
		assert_int_equal(vigil_policy_dump(p, size ? buf : NULL, size),
				 len);
		if (size) {
			assert_int_equal(strlen(buf), min(len, size - 1));
			assert_memory_equal(buf, full, strlen(buf));
		}
		assert_int_equal(buf[size], 'X');
		free(buf);
	}
	free(full);
	vigil_policy_free(p);
	assert_int_equal(vigil_policy_dump(NULL, NULL, 0), 0);
	vigil_policy_free(NULL);
}

static void test_eval_table(void **state)
{
	struct vigil_policy_error err;
	struct vigil_policy *p = NULL;
	size_t i;

	(void)state;
	assert_int_equal(vigil_policy_parse(eval_policy, strlen(eval_policy),
					    &p, &err), 0);
	assert_int_equal(vigil_policy_nr_subjects(p), 3);
	assert_int_equal(vigil_policy_nr_rules(p), 12);
	assert_true(vigil_policy_has_modes(p));
	for (i = 0; i < ARRAY_SIZE(eval_cases); i++) {
		const struct eval_case *c = &eval_cases[i];
		const struct vigil_policy_subject *s;
		int got;

		s = vigil_policy_find_subject(p, c->exe, strlen(c->exe), NULL, 0,
					      VIGIL_POLICY_UCLASS_ALL);
		if (!s) {
			got = EVAL_NOT_NAMED;
		} else {
			got = vigil_policy_allows(s, c->class, c->access,
						  c->object, strlen(c->object));
			assert_int_equal(vigil_policy_subject_mode(s), c->mode);
		}
		if (got != c->expect) {
			note("exe", c->exe);
			note("object", c->object);
		}
		assert_int_equal(got, c->expect);
	}
	assert_false(vigil_policy_allows(NULL, VIGIL_CLASS_FILE, 1, "/", 1));
	assert_null(vigil_policy_find_subject(NULL, "/a", 2, NULL, 0,
					      VIGIL_POLICY_UCLASS_ALL));
	vigil_policy_free(p);
}

static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);

	assert_non_null(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

static void expect_parse_error(const char *text, size_t len, int err,
			       const char *msg)
{
	struct vigil_policy_error e;
	struct vigil_policy *p = NULL;
	char full[200];

	assert_int_equal(vigil_policy_parse(text, len, &p, &e), err);
	assert_null(p);
	policy_error_format(&e, full, sizeof(full));
	assert_string_equal(full, msg);
}

/* A via block names a task only under an ancestor its glob matches. */
static void test_chain_table(void **state)
{
	struct vigil_policy *p = NULL;
	size_t i;

	(void)state;
	assert_int_equal(vigil_policy_parse(chain_policy, strlen(chain_policy),
					    &p, NULL), 0);
	assert_non_null(vigil_policy_subject_via(vigil_policy_subject_at(p, 0)));
	assert_null(vigil_policy_subject_via(vigil_policy_subject_at(p, 2)));
	for (i = 0; i < ARRAY_SIZE(chain_cases); i++) {
		const struct chain_case *c = &chain_cases[i];
		const struct vigil_policy_subject *want = NULL;
		struct vigil_policy_name names[8];
		unsigned int n = chain_case_split(c->chain, names, 8);

		if (c->block >= 0)
			want = vigil_policy_subject_at(p, (unsigned int)c->block);
		if (vigil_policy_find_subject(p, c->exe, strlen(c->exe), names,
					      n, c->uclasses ? c->uclasses :
					      VIGIL_POLICY_UCLASS_ALL) != want)
			fail_msg("%s via '%s' uid %#x: expected block %d",
				 c->exe, c->chain, c->uclasses, c->block);
	}
	vigil_policy_free(p);
}

static void test_policy_limits(void **state)
{
	struct vigil_policy *p = NULL;
	char *text, *glob, *t;
	size_t i, n;

	(void)state;
	/* Text size. */
	text = repeat('\n', VIGIL_POLICY_MAX_BYTES + 1);
	expect_parse_error(text, VIGIL_POLICY_MAX_BYTES + 1, -E2BIG,
			   "policy too large (1048577 > 1048576 bytes)");
	assert_int_equal(vigil_policy_parse(text, VIGIL_POLICY_MAX_BYTES, &p,
					    NULL), 0);
	assert_int_equal(vigil_policy_nr_subjects(p), 0);
	vigil_policy_free(p);
	free(text);

	/* Line length: 4096 is fine, 4097 is not. */
	text = repeat(' ', 4097);
	memcpy(text, "# ", 2);
	expect_parse_error(text, 4097, -EINVAL,
			   "line 1: line too long (4097 > 4096 bytes)");
	assert_int_equal(vigil_policy_parse(text, 4096, &p, NULL), 0);
	vigil_policy_free(p);
	free(text);

	/* Glob length after unescaping. */
	glob = repeat('a', 1300);
	glob[0] = '/';
	text = malloc(1400);
	assert_non_null(text);
	n = sprintf(text, "subject /a {\n file r %s\n}\n", glob);
	expect_parse_error(text, n, -EINVAL,
			   "line 2: glob too long (1300 > 1024 bytes)");
	glob[1024] = '\0';
	n = sprintf(text, "subject /a {\n file r %s\n}\n", glob);
	assert_int_equal(vigil_policy_parse(text, n, &p, NULL), 0);
	vigil_policy_free(p);
	free(text);
	free(glob);

	/* Escapes count once: 1000 "\x41" are 1000 bytes, in 4000. */
	text = malloc(4100);
	assert_non_null(text);
	t = text + sprintf(text, "subject /a {\n file r /");
	for (i = 0; i < 1000; i++)
		t += sprintf(t, "\\x41");
	t += sprintf(t, "\n}\n");
	assert_int_equal(vigil_policy_parse(text, t - text, &p, NULL), 0);
	vigil_policy_free(p);
	free(text);

	/* Subjects. */
	text = malloc(1100 * 20);
	assert_non_null(text);
	t = text;
	for (i = 0; i < VIGIL_POLICY_MAX_SUBJECTS; i++)
		t += sprintf(t, "subject /s%zu {\n}\n", i);
	assert_int_equal(vigil_policy_parse(text, t - text, &p, NULL), 0);
	assert_int_equal(vigil_policy_nr_subjects(p), 1024);
	vigil_policy_free(p);
	t += sprintf(t, "subject /s {\n}\n");
	expect_parse_error(text, t - text, -EINVAL,
			   "line 2049: too many subjects (> 1024)");
	free(text);

	/* Rules, over several blocks. */
	text = malloc(16400 * 16 + 100);
	assert_non_null(text);
	t = text;
	for (i = 0; i < VIGIL_POLICY_MAX_RULES; i++) {
		if (i % 5000 == 0)
			t += sprintf(t, "%ssubject /a {\n", i ? "}\n" : "");
		t += sprintf(t, "file r /%zu\n", i);
	}
	t += sprintf(t, "}\n");
	assert_int_equal(vigil_policy_parse(text, t - text, &p, NULL), 0);
	assert_int_equal(vigil_policy_nr_rules(p), 16384);
	vigil_policy_free(p);
	t -= 2;
	t += sprintf(t, "file r /x\n}\n");
	expect_parse_error(text, t - text, -EINVAL,
			   "line 16392: too many rules (> 16384)");
	free(text);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Hostile patterns on long texts: each match must stay linear. */
static void test_glob_adversarial(void **state)
{
	static const struct {
		const char *pat;
		char fill;
		bool slashes;
		bool match;
	} cases[] = {
		{ "*a*a*a*a*a*a*a*a*b", 'a', false, false },
		{ "**a**a**a**a**a**a**a**a**b", 'a', false, false },
		{ "**/**/**/**", 'a', true, true },
		{ "**/**/**/**b", 'a', true, false },
		{ "*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?c", 'a', false, false },
		{ "{*a,**a,?*a}{*a,**a,?*a}{*a,**a}{*a,**a}b", 'a', true,
		  false },
	};
	char *text = repeat('a', 4000);
	double t0, worst = 0;
	size_t i, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vigil_glob *g = compile_ok(cases[i].pat,
						  strlen(cases[i].pat));
		double dt;

		memset(text, cases[i].fill, 4000);
		for (k = 1; cases[i].slashes && k < 4000; k += 2)
			text[k] = '/';
		t0 = now();
		for (k = 0; k < 10; k++)
			assert_int_equal(vigil_glob_match(g, text, 4000),
					 cases[i].match);
		dt = (now() - t0) / 10;
		if (dt > worst)
			worst = dt;
		vigil_glob_free(g);
	}
	print_message("  worst adversarial match: %.3f ms\n", worst * 1e3);
	/* Linear: milliseconds even with sanitizers; backtracking: years. */
	assert_true(worst < 0.5);
	free(text);
}

static void test_glob_long_texts(void **state)
{
	struct vigil_glob *g = compile_ok("**", 2);
	char *text = repeat('a', 4097);
	char *pat;
	size_t i;

	(void)state;
	assert_true(vigil_glob_match(g, text, 4096));
	assert_false(vigil_glob_match(g, text, 4097));
	vigil_glob_free(g);
	free(text);

	/* Patterns over several state words: 1024 bytes, stars across. */
	pat = repeat('a', 1024);
	text = repeat('a', 2000);
	for (i = 60; i < 1024; i += 64)
		pat[i] = '*';
	pat[1023] = 'b';
	g = compile_ok(pat, 1024);
	assert_false(vigil_glob_match(g, text, 2000));
	text[1999] = 'b';
	assert_true(vigil_glob_match(g, text, 2000));
	assert_false(vigil_glob_match(g, text, 1000));
	vigil_glob_free(g);
	free(pat);
	free(text);
}

/* xorshift32: the same sequence everywhere. */
static unsigned int rnd(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/*
 * A backtracking reference matcher, for small inputs only. "**" must have
 * been replaced by \x01 first, so that "{*,a}*" expands to two stars.
 */
static bool ref_match(const char *p, const char *s)
{
	if (*p == '{') {
		const char *q = p + 1, *alt = q, *close;
		int depth = 0;

		for (close = q; *close && (depth || *close != '}'); close++)
			depth += (*close == '{') - (*close == '}');
		for (q = alt;; q++) {
			if ((*q == ',' && !depth) || q == close) {
				char buf[256];

				snprintf(buf, sizeof(buf), "%.*s%s",
					 (int)(q - alt), alt, close + 1);
				if (ref_match(buf, s))
					return true;
				if (q == close)
					return false;
				alt = q + 1;
				continue;
			}
			depth += (*q == '{') - (*q == '}');
		}
	}
	if (*p == '\x01') {
		for (;; s++) {
			if (ref_match(p + 1, s))
				return true;
			if (!*s)
				return false;
		}
	}
	if (*p == '*') {
		for (;; s++) {
			if (ref_match(p + 1, s))
				return true;
			if (!*s || *s == '/')
				return false;
		}
	}
	if (!*p)
		return !*s;
	if (!*s)
		return false;
	if (*p == '?')
		return *s != '/' && ref_match(p + 1, s + 1);
	return *p == *s && ref_match(p + 1, s + 1);
}

static void test_glob_differential(void **state)
{
	static const char *const pieces[] = {
		"a", "b", "/", "*", "**", "?", "{a,b}", "{,a/}", "{*,b{a,}}",
	};
	static const char alphabet[] = "ab/";
	unsigned int seed = 12345, round, checked = 0;

	(void)state;
	for (round = 0; round < 3000; round++) {
		char pat[128] = "", ref[128], text[16], why[160];
		struct vigil_glob *g;
		size_t n, i, k;

		n = 1 + rnd(&seed) % 7;
		for (i = 0; i < n; i++)
			strcat(pat, pieces[rnd(&seed) % ARRAY_SIZE(pieces)]);
		if (vigil_glob_compile(pat, strlen(pat), &g, why, sizeof(why))) {
			/* Only when the pieces multiply beyond 64. */
			assert_non_null(strstr(why, "too many alternatives"));
			continue;
		}
		for (i = 0, k = 0; pat[i]; i++, k++) {
			bool two = pat[i] == '*' && pat[i + 1] == '*';

			ref[k] = two ? '\x01' : pat[i];
			i += two;
		}
		ref[k] = '\0';
		for (k = 0; k < 40; k++) {
			size_t len = rnd(&seed) % 10;
			bool want, got;

			for (i = 0; i < len; i++)
				text[i] = alphabet[rnd(&seed) % 3];
			text[len] = '\0';
			want = ref_match(ref, text);
			got = vigil_glob_match(g, text, len);
			if (want != got) {
				note("pattern", pat);
				note("text", text);
			}
			assert_int_equal(got, want);
			checked++;
		}
		vigil_glob_free(g);
	}
	print_message("  %u pattern/text pairs agree\n", checked);
}

/* Random edits of valid policies: no crash, and valid ones round-trip. */
static void test_policy_mutations(void **state)
{
	static const char extra[] = " \t\n\r\\{},#*?x/0";
	unsigned int seed = 777, round, valid = 0;

	(void)state;
	for (round = 0; round < 20000; round++) {
		const struct policy_case *c =
			&policy_cases[rnd(&seed) % ARRAY_SIZE(policy_cases)];
		struct vigil_policy_error err;
		struct vigil_policy *p = NULL;
		char text[2048];
		size_t len = policy_case_len(c), edits, i;

		if (len + 8 > sizeof(text))
			continue;
		memcpy(text, c->text, len);
		edits = 1 + rnd(&seed) % 3;
		for (i = 0; i < edits && len; i++) {
			size_t at = rnd(&seed) % len;
			char ch = extra[rnd(&seed) % (sizeof(extra) - 1)];

			switch (rnd(&seed) % 3) {
			case 0:
				text[at] = ch;
				break;
			case 1:
				memmove(text + at + 1, text + at, len - at);
				text[at] = ch;
				len++;
				break;
			default:
				memmove(text + at, text + at + 1, len - at - 1);
				len--;
				break;
			}
		}
		if (vigil_policy_parse(text, len, &p, &err)) {
			assert_null(p);
			assert_true(strlen(err.msg) > 0);
			continue;
		}
		{
			char *dump = dump_alloc(p);

			check_round_trip(dump);
			free(dump);
		}
		vigil_policy_free(p);
		valid++;
	}
	print_message("  %u valid mutants round-tripped\n", valid);
}

/*
 * The rule index against the linear walk: random policies of 1 to 600
 * rules a block (globs, braces, "**", literals, nested folders, net and
 * cap rules) and random objects; every verdict must be the same.
 */
static void test_policy_index_differential(void **state)
{
	static const enum vigil_class classes[] = {
		VIGIL_CLASS_FILE, VIGIL_CLASS_FILE, VIGIL_CLASS_FILE,
		VIGIL_CLASS_NET, VIGIL_CLASS_CAP,
	};
	unsigned long checked = 0, allowed = 0, rules = 0;
	unsigned int round;
	struct vigil_rand r;

	(void)state;
	vigil_rand_seed(&r, 2026);
	for (round = 0; round < 1500; round++) {
		unsigned int n = round % 100 == 99 ? 600 :
				 1 + vigil_rand_below(&r, 60);
		size_t size = 256 * (size_t)n * 2 + 64;
		char *text = malloc(size), obj[256];
		struct vigil_policy_error err;
		struct vigil_policy *p = NULL;
		unsigned int k, sub;
		int ret;

		assert_non_null(text);
		vigil_rand_policy(&r, text, size, n);
		ret = vigil_policy_parse(text, strlen(text), &p, &err);
		if (ret)
			print_message("  line %u: %s\n%s", err.line, err.msg,
				      text);
		assert_int_equal(ret, 0);
		rules += vigil_policy_nr_rules(p);
		for (sub = 0; sub < 2; sub++) {
			const struct vigil_policy_subject *s =
				vigil_policy_subject_at(p, sub);

			for (k = 0; k < 200; k++) {
				enum vigil_class c = classes[vigil_rand_below(&r, ARRAY_SIZE(classes))];
				size_t len;
				u64 access;
				bool want, got;

				len = vigil_rand_object(&r, c, obj, sizeof(obj),
							&access);
				want = vigil_policy_allows_linear(s, c, access,
								  obj, len);
				got = vigil_policy_allows(s, c, access, obj,
							  len);
				if (want != got) {
					print_message("  %s %llx '%s': index %d, linear %d\n%s",
						      vigil_class_name(c),
						      (unsigned long long)access,
						      obj, got, want, text);
				}
				assert_int_equal(got, want);
				checked++;
				allowed += got;
			}
		}
		vigil_policy_free(p);
		free(text);
	}
	/* Not vacuous: a fair share of both verdicts. */
	assert_true(allowed > checked / 20);
	assert_true(allowed < checked - checked / 20);
	print_message("  %lu verdicts agree (%lu allowed) over %lu rules\n",
		      checked, allowed, rules);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glob_match_table),
		cmocka_unit_test(test_glob_error_table),
		cmocka_unit_test(test_glob_source_table),
		cmocka_unit_test(test_access_table),
		cmocka_unit_test(test_access_format_truncation),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_policy_table),
		cmocka_unit_test(test_policy_dump_truncation),
		cmocka_unit_test(test_eval_table),
		cmocka_unit_test(test_chain_table),
		cmocka_unit_test(test_policy_limits),
		cmocka_unit_test(test_glob_adversarial),
		cmocka_unit_test(test_glob_long_texts),
		cmocka_unit_test(test_glob_differential),
		cmocka_unit_test(test_policy_mutations),
		cmocka_unit_test(test_policy_index_differential),
	};

	return cmocka_run_group_tests_name("vigil_policy", tests, NULL, NULL);
}
