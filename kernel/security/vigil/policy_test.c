// SPDX-License-Identifier: GPL-2.0-only
/* vigil: KUnit tests of the policy language: globs, parser, dump, checks. */

#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/signal.h>

#include "state.h"
#include "subject.h"
#include "vigil.h"
#include "policy_test_cases.h"
#include "policy_random.h"

static_assert(VIGIL_POLICY_MODE_OFF == VIGIL_MODE_OFF, "mode off");
static_assert(VIGIL_POLICY_MODE_LEARN == VIGIL_MODE_LEARN, "mode learn");
static_assert(VIGIL_POLICY_MODE_OBSERVE == VIGIL_MODE_OBSERVE, "mode observe");

static void glob_match_desc(const struct glob_match_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%*pE' ~ '%*pE'",
		 (int)strlen(c->pat), c->pat, (int)strlen(c->text), c->text);
}

KUNIT_ARRAY_PARAM(glob_match, glob_match_cases, glob_match_desc);

static struct vigil_glob *compile_ok(struct kunit *test, const char *pat,
				     size_t len)
{
	struct vigil_glob *g = NULL;
	char why[160];

	KUNIT_ASSERT_EQ_MSG(test, vigil_glob_compile(pat, len, &g, why,
						     sizeof(why)), 0,
			    "%s", why);
	KUNIT_ASSERT_NOT_NULL(test, g);
	return g;
}

static void vigil_glob_match_test(struct kunit *test)
{
	const struct glob_match_case *c = test->param_value;
	struct vigil_glob *g = compile_ok(test, c->pat, strlen(c->pat));

	KUNIT_EXPECT_EQ(test, vigil_glob_match(g, c->text, strlen(c->text)),
			c->match);
	vigil_glob_free(g);
}

static void glob_error_desc(const struct glob_error_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%*pE'", (int)strlen(c->pat),
		 c->pat);
}

KUNIT_ARRAY_PARAM(glob_error, glob_error_cases, glob_error_desc);

static void vigil_glob_error_test(struct kunit *test)
{
	const struct glob_error_case *c = test->param_value;
	struct vigil_glob *g = NULL;
	char why[160];

	KUNIT_EXPECT_EQ(test, vigil_glob_compile(c->pat, strlen(c->pat), &g,
						 why, sizeof(why)),
			-EINVAL);
	KUNIT_EXPECT_NULL(test, g);
	KUNIT_EXPECT_STREQ(test, why, c->msg);
}

static void glob_source_desc(const struct glob_source_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%*pE'", (int)strlen(c->pat),
		 c->pat);
}

KUNIT_ARRAY_PARAM(glob_source, glob_source_cases, glob_source_desc);

static void vigil_glob_source_test(struct kunit *test)
{
	const struct glob_source_case *c = test->param_value;
	struct vigil_glob *g = compile_ok(test, c->pat, strlen(c->pat));
	struct vigil_glob *again;
	const char *src;
	size_t len;

	src = vigil_glob_source(g, &len);
	KUNIT_EXPECT_STREQ(test, src, c->src);
	KUNIT_EXPECT_EQ(test, len, strlen(c->src));
	again = compile_ok(test, src, len);
	KUNIT_EXPECT_STREQ(test, vigil_glob_source(again, NULL), c->src);
	vigil_glob_free(again);
	vigil_glob_free(g);
}

/* Hostile patterns on 4000-byte texts finish in linear time. */
static void vigil_glob_adversarial_test(struct kunit *test)
{
	static const struct {
		const char *pat;
		bool slashes;
		bool match;
	} cases[] = {
		{ "*a*a*a*a*a*a*a*a*b", false, false },
		{ "**a**a**a**a**a**a**a**a**b", false, false },
		{ "**/**/**/**", true, true },
		{ "**/**/**/**b", true, false },
		{ "*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?c", false, false },
		{ "{*a,**a,?*a}{*a,**a,?*a}{*a,**a}{*a,**a}b", true, false },
	};
	char *text = kunit_kmalloc(test, 4000, GFP_KERNEL);
	unsigned int i, k;

	KUNIT_ASSERT_NOT_NULL(test, text);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vigil_glob *g = compile_ok(test, cases[i].pat,
						  strlen(cases[i].pat));
		u64 t0;

		memset(text, 'a', 4000);
		for (k = 1; cases[i].slashes && k < 4000; k += 2)
			text[k] = '/';
		t0 = ktime_get_ns();
		KUNIT_EXPECT_EQ(test, vigil_glob_match(g, text, 4000),
				cases[i].match);
		/* Linear: well under a millisecond; generous for emulators. */
		KUNIT_EXPECT_LT_MSG(test, ktime_get_ns() - t0, 500 * NSEC_PER_MSEC,
				    "%s", cases[i].pat);
		vigil_glob_free(g);
	}
}

static void vigil_glob_long_test(struct kunit *test)
{
	char *text = kunit_kmalloc(test, 4097, GFP_KERNEL);
	char *pat = kunit_kmalloc(test, 1024, GFP_KERNEL);
	struct vigil_glob *g;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_ASSERT_NOT_NULL(test, pat);
	memset(text, 'a', 4097);
	g = compile_ok(test, "**", 2);
	KUNIT_EXPECT_TRUE(test, vigil_glob_match(g, text, 4096));
	KUNIT_EXPECT_FALSE(test, vigil_glob_match(g, text, 4097));
	vigil_glob_free(g);

	/* 1024 bytes: 17 state words, with stars across word boundaries. */
	memset(pat, 'a', 1024);
	for (i = 60; i < 1024; i += 64)
		pat[i] = '*';
	pat[1023] = 'b';
	g = compile_ok(test, pat, 1024);
	KUNIT_EXPECT_FALSE(test, vigil_glob_match(g, text, 2000));
	text[1999] = 'b';
	KUNIT_EXPECT_TRUE(test, vigil_glob_match(g, text, 2000));
	KUNIT_EXPECT_FALSE(test, vigil_glob_match(g, text, 1000));
	vigil_glob_free(g);
}

/*
 * The expansion the analyzer's exporters read (vigil_glob_expand) is the
 * one the compiler matches with: same alternatives, each a match.
 */
static void vigil_glob_expand_test(struct kunit *test)
{
	static const char pat[] = "/x/{b.{1,2},c\\,,d*}";
	static const char *const want[] = { "/x/b.1", "/x/b.2", "/x/c,", "/x/d" };
	struct vigil_glob_alts *a;
	struct vigil_glob *g;
	unsigned int k, p, off = 0, n;
	u16 items[sizeof(pat)];
	char why[128], text[16];

	g = compile_ok(test, pat, strlen(pat));
	KUNIT_ASSERT_EQ(test, vigil_glob_expand(pat, strlen(pat), &a, why,
						sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, a->nalts, vigil_glob_nr_alts(g));
	KUNIT_ASSERT_EQ(test, a->nalts, (unsigned int)ARRAY_SIZE(want));
	for (k = 0; k < a->nalts; k++) {
		for (p = 0, n = 0; p < a->lens[k] && n < sizeof(text) - 1; p++)
			if (a->toks[off + p] < 256)
				text[n++] = a->toks[off + p];
		text[n] = '\0';
		KUNIT_EXPECT_STREQ(test, text, want[k]);
		KUNIT_EXPECT_TRUE(test, vigil_glob_match(g, text, n));
		off += a->lens[k];
	}
	KUNIT_EXPECT_EQ(test, a->toks[off - 1], (u16)VIGIL_GLOB_STAR);
	vigil_glob_alts_free(a);
	vigil_glob_free(g);

	KUNIT_ASSERT_EQ(test, vigil_glob_lex(pat, strlen(pat), items, &n, why,
					     sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, n, 18U);
	KUNIT_EXPECT_EQ(test, items[3], (u16)VIGIL_GLOB_LBRACE);
	KUNIT_EXPECT_EQ(test, items[11], (u16)VIGIL_GLOB_COMMA);
	KUNIT_EXPECT_EQ(test, items[13], (u16)',');
	KUNIT_EXPECT_EQ(test, vigil_glob_lex("/{a", 3, items, &n, why,
					     sizeof(why)), -EINVAL);
	KUNIT_EXPECT_EQ(test, vigil_glob_expand("/{a", 3, &a, why, sizeof(why)),
			-EINVAL);
}

static struct kunit_case vigil_match_test_cases[] = {
	KUNIT_CASE_PARAM(vigil_glob_match_test, glob_match_gen_params),
	KUNIT_CASE_PARAM(vigil_glob_error_test, glob_error_gen_params),
	KUNIT_CASE_PARAM(vigil_glob_source_test, glob_source_gen_params),
	KUNIT_CASE(vigil_glob_adversarial_test),
	KUNIT_CASE(vigil_glob_long_test),
	KUNIT_CASE(vigil_glob_expand_test),
	{}
};

static struct kunit_suite vigil_match_test_suite = {
	.name = "vigil_match",
	.test_cases = vigil_match_test_cases,
};

static void access_desc(const struct access_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s '%s'",
		 vigil_class_name(c->class), c->s);
}

KUNIT_ARRAY_PARAM(access, access_cases, access_desc);

static void vigil_access_test(struct kunit *test)
{
	const struct access_case *c = test->param_value;
	u64 access = 0x5a5a;
	char buf[64];

	KUNIT_ASSERT_EQ(test, vigil_access_parse(c->class, c->s, strlen(c->s),
						 &access),
			c->err);
	if (c->err) {
		KUNIT_EXPECT_EQ(test, access, 0x5a5a);
		return;
	}
	KUNIT_EXPECT_EQ(test, access, c->access);
	KUNIT_EXPECT_EQ(test, vigil_access_format(c->class, access, buf,
						  sizeof(buf)),
			(int)strlen(c->canon));
	KUNIT_EXPECT_STREQ(test, buf, c->canon);
}

static void vigil_names_test(struct kunit *test)
{
	char buf[8];
	int i;

	for (i = 0; i < VIGIL_OP_COUNT; i++) {
		const char *n = vigil_op_name(i);

		KUNIT_EXPECT_EQ(test, vigil_op_from_name(n, strlen(n)), i);
		KUNIT_EXPECT_LT(test, vigil_op_class(i), VIGIL_CLASS_COUNT);
	}
	for (i = 0; i < VIGIL_CLASS_COUNT; i++) {
		const char *n = vigil_class_name(i);

		KUNIT_EXPECT_EQ(test, vigil_class_from_name(n, strlen(n)), i);
	}
	for (i = 0; i <= CAP_LAST_CAP; i++) {
		const char *n = vigil_cap_name(i);

		KUNIT_ASSERT_NOT_NULL(test, n);
		KUNIT_EXPECT_EQ(test, vigil_cap_from_name(n, strlen(n)), i);
	}
	KUNIT_EXPECT_STREQ(test, vigil_cap_name(CAP_NET_BIND_SERVICE),
			   "net_bind_service");
	KUNIT_EXPECT_STREQ(test, vigil_cap_name(CAP_CHECKPOINT_RESTORE),
			   "checkpoint_restore");
	KUNIT_EXPECT_NULL(test, vigil_cap_name(CAP_LAST_CAP + 1));
	KUNIT_EXPECT_STREQ(test, vigil_signal_name(SIGKILL, buf, sizeof(buf)),
			   "kill");
	KUNIT_EXPECT_STREQ(test, vigil_signal_name(SIGTERM, buf, sizeof(buf)),
			   "term");
	KUNIT_EXPECT_STREQ(test, vigil_signal_name(SIGSYS, buf, sizeof(buf)),
			   "sys");
	KUNIT_EXPECT_STREQ(test, vigil_signal_name(SIGRTMIN, buf, sizeof(buf)),
			   "sig32");
	KUNIT_EXPECT_NULL(test, vigil_signal_name(0, buf, sizeof(buf)));
	KUNIT_EXPECT_NULL(test, vigil_signal_name(65, buf, sizeof(buf)));
}

static char *dump_alloc(struct kunit *test, const struct vigil_policy *p)
{
	size_t len = vigil_policy_dump(p, NULL, 0);
	char *buf = kunit_kzalloc(test, len + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, vigil_policy_dump(p, buf, len + 1), len);
	return buf;
}

static void policy_desc(const struct policy_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(policy, policy_cases, policy_desc);

static void vigil_policy_parse_test(struct kunit *test)
{
	const struct policy_case *c = test->param_value;
	struct vigil_policy_error *err;
	struct vigil_policy *p = NULL, *p2 = NULL;
	char *dump;
	int ret;

	err = kunit_kzalloc(test, sizeof(*err), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, err);
	ret = vigil_policy_parse(c->text, policy_case_len(c), &p, err);
	KUNIT_ASSERT_EQ_MSG(test, ret, c->err, "%s", err->msg);
	if (ret) {
		char full[200];

		KUNIT_EXPECT_NULL(test, p);
		policy_error_format(err, full, sizeof(full));
		KUNIT_EXPECT_STREQ(test, full, c->out);
		KUNIT_EXPECT_GT(test, err->line, 0U);
		return;
	}
	dump = dump_alloc(test, p);
	KUNIT_EXPECT_STREQ(test, dump, c->out);
	/* The dump parses back into the same dump. */
	ret = vigil_policy_parse(dump, strlen(dump), &p2, err);
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s", err->msg);
	if (!ret)
		KUNIT_EXPECT_STREQ(test, dump_alloc(test, p2), dump);
	vigil_policy_free(p2);
	vigil_policy_free(p);
}

static void eval_desc(const struct eval_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s %llx %s", c->exe,
		 vigil_class_name(c->class), (unsigned long long)c->access,
		 c->object);
}

KUNIT_ARRAY_PARAM(eval, eval_cases, eval_desc);

static void vigil_policy_eval_test(struct kunit *test)
{
	const struct eval_case *c = test->param_value;
	const struct vigil_policy_subject *s;
	struct vigil_policy *p = NULL;
	int got;

	KUNIT_ASSERT_EQ(test, vigil_policy_parse(eval_policy,
						 strlen(eval_policy), &p, NULL),
			0);
	KUNIT_EXPECT_EQ(test, vigil_policy_nr_subjects(p), 3U);
	KUNIT_EXPECT_EQ(test, vigil_policy_nr_rules(p), 12U);
	KUNIT_EXPECT_TRUE(test, vigil_policy_has_modes(p));
	s = vigil_policy_find_subject(p, c->exe, strlen(c->exe), NULL, 0,
				      VIGIL_POLICY_UCLASS_ALL);
	if (s) {
		got = vigil_policy_allows(s, c->class, c->access, c->object,
					  strlen(c->object));
		KUNIT_EXPECT_EQ(test, vigil_policy_subject_mode(s), c->mode);
	} else {
		got = EVAL_NOT_NAMED;
	}
	KUNIT_EXPECT_EQ(test, got, c->expect);
	vigil_policy_free(p);
}

static void expect_parse_error(struct kunit *test, const char *text,
			       size_t len, int ret, const char *msg)
{
	struct vigil_policy_error *err;
	struct vigil_policy *p = NULL;
	char full[200];

	err = kunit_kzalloc(test, sizeof(*err), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, err);
	KUNIT_EXPECT_EQ(test, vigil_policy_parse(text, len, &p, err), ret);
	KUNIT_EXPECT_NULL(test, p);
	policy_error_format(err, full, sizeof(full));
	KUNIT_EXPECT_STREQ(test, full, msg);
	vigil_policy_free(p);
}

static void vigil_policy_limits_test(struct kunit *test)
{
	size_t size = VIGIL_POLICY_MAX_BYTES + 1;
	char *text = kvmalloc(size, GFP_KERNEL);
	struct vigil_policy *p = NULL;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, text);
	memset(text, '\n', size);
	expect_parse_error(test, text, size, -E2BIG,
			   "policy too large (1048577 > 1048576 bytes)");
	KUNIT_EXPECT_EQ(test, vigil_policy_parse(text, size - 1, &p, NULL), 0);
	vigil_policy_free(p);

	memset(text, ' ', 4097);
	text[0] = '#';
	expect_parse_error(test, text, 4097, -EINVAL,
			   "line 1: line too long (4097 > 4096 bytes)");

	n = scnprintf(text, size, "subject /a {\n file r /");
	memset(text + n, 'a', 1299);
	n += 1299;
	n += scnprintf(text + n, size - n, "\n}\n");
	expect_parse_error(test, text, n, -EINVAL,
			   "line 2: glob too long (1300 > 1024 bytes)");
	kvfree(text);
}

/* Walking a parsed policy, as the analyzer's export does. */
static void chain_desc(const struct chain_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s via %s uid %#x", c->exe,
		 c->chain, c->uclasses);
}

KUNIT_ARRAY_PARAM(chain, chain_cases, chain_desc);

/*
 * A via block names a task only under an ancestor its glob matches; a
 * uid block only the accesses of the uid classes it names.
 */
static void vigil_policy_chain_test(struct kunit *test)
{
	const struct chain_case *c = test->param_value;
	const struct vigil_policy_subject *s, *want = NULL;
	struct vigil_policy_name names[8];
	struct vigil_policy *p = NULL;
	unsigned int n;

	KUNIT_ASSERT_EQ(test, vigil_policy_parse(chain_policy,
						 strlen(chain_policy), &p,
						 NULL), 0);
	n = chain_case_split(c->chain, names, ARRAY_SIZE(names));
	if (c->block >= 0)
		want = vigil_policy_subject_at(p, c->block);
	s = vigil_policy_find_subject(p, c->exe, strlen(c->exe), names, n,
				      c->uclasses ?: VIGIL_POLICY_UCLASS_ALL);
	KUNIT_EXPECT_PTR_EQ(test, s, want);
	KUNIT_EXPECT_TRUE(test, !!vigil_policy_subject_via(vigil_policy_subject_at(p, 0)));
	KUNIT_EXPECT_FALSE(test, !!vigil_policy_subject_via(vigil_policy_subject_at(p, 2)));
	vigil_policy_free(p);
}

static void vigil_policy_walk_test(struct kunit *test)
{
	static const char text[] =
		"subject /a {\n\tnet bind inet:stream:80\n\tfile r /x\n"
		"\tfile w /y\n}\nsubject /b observe {\n}\n";
	const struct vigil_policy_subject *s;
	const struct vigil_glob *g;
	struct vigil_policy *p = NULL;
	size_t len;
	u64 acc = 0;

	KUNIT_ASSERT_EQ(test, vigil_policy_parse(text, sizeof(text) - 1, &p, NULL), 0);
	s = vigil_policy_subject_at(p, 0);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_STREQ(test, vigil_glob_source(vigil_policy_subject_glob(s), &len), "/a");
	KUNIT_EXPECT_EQ(test, vigil_policy_class_nr_rules(s, VIGIL_CLASS_FILE), 2U);
	KUNIT_EXPECT_EQ(test, vigil_policy_class_nr_rules(s, VIGIL_CLASS_NET), 1U);
	KUNIT_EXPECT_EQ(test, vigil_policy_class_nr_rules(s, VIGIL_CLASS_CAP), 0U);
	g = vigil_policy_rule_at(s, VIGIL_CLASS_FILE, 1, &acc);
	KUNIT_ASSERT_NOT_NULL(test, g);
	KUNIT_EXPECT_STREQ(test, vigil_glob_source(g, &len), "/y");
	KUNIT_EXPECT_EQ(test, acc, (u64)VIGIL_FILE_W);
	KUNIT_EXPECT_NULL(test, vigil_policy_rule_at(s, VIGIL_CLASS_FILE, 2, &acc));
	g = vigil_policy_rule_at(s, VIGIL_CLASS_NET, 0, &acc);
	KUNIT_ASSERT_NOT_NULL(test, g);
	KUNIT_EXPECT_EQ(test, acc, (u64)VIGIL_NET_BIND);
	s = vigil_policy_subject_at(p, 1);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_EQ(test, vigil_policy_subject_mode(s), VIGIL_POLICY_MODE_OBSERVE);
	KUNIT_EXPECT_EQ(test, vigil_policy_class_nr_rules(s, VIGIL_CLASS_FILE), 0U);
	KUNIT_EXPECT_NULL(test, vigil_policy_subject_at(p, 2));
	KUNIT_EXPECT_NULL(test, vigil_policy_subject_at(NULL, 0));
	vigil_policy_free(p);
}

static void vigil_policy_dump_size_test(struct kunit *test)
{
	const struct policy_case *c = &policy_cases[0];
	struct vigil_policy *p = NULL;
	char *full, *buf;
	size_t len, size;

	KUNIT_ASSERT_EQ(test, vigil_policy_parse(c->text, policy_case_len(c), &p, NULL), 0);
	full = dump_alloc(test, p);
	len = strlen(full);
	buf = kunit_kmalloc(test, len + 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (size = 1; size <= len + 1; size += 7) {
		buf[size] = 'X';
		KUNIT_EXPECT_EQ(test, vigil_policy_dump(p, buf, size), len);
		KUNIT_EXPECT_EQ(test, strlen(buf), min(len, size - 1));
		KUNIT_EXPECT_EQ(test, memcmp(buf, full, strlen(buf)), 0);
		KUNIT_EXPECT_EQ(test, buf[size], 'X');
	}
	vigil_policy_free(p);
}

/*
 * The rule index against the linear walk: random policies of 1 to 600
 * rules a block (globs, braces, "**", literals, nested folders, net and
 * cap rules) and random objects; every verdict must be the same.
 */
static void vigil_policy_index_test(struct kunit *test)
{
	static const enum vigil_class classes[] = {
		VIGIL_CLASS_FILE, VIGIL_CLASS_FILE, VIGIL_CLASS_FILE,
		VIGIL_CLASS_NET, VIGIL_CLASS_CAP,
	};
	unsigned long checked = 0, allowed = 0;
	unsigned int round, n, k, sub;
	struct vigil_policy_error err;
	struct vigil_rand r;
	char obj[256];

	vigil_rand_seed(&r, 14);
	for (round = 0; round < 200; round++) {
		size_t size, len;
		struct vigil_policy *p = NULL;
		char *text;

		n = round % 50 == 49 ? 600 : 1 + vigil_rand_below(&r, 60);
		size = 256 * (size_t)n * 2 + 64;
		text = kvmalloc(size, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, text);
		vigil_rand_policy(&r, text, size, n);
		len = strlen(text);
		if (vigil_policy_parse(text, len, &p, &err)) {
			kvfree(text);
			KUNIT_FAIL(test, "line %u: %s", err.line, err.msg);
			return;
		}
		for (sub = 0; sub < 2; sub++) {
			const struct vigil_policy_subject *s =
				vigil_policy_subject_at(p, sub);

			for (k = 0; k < 100; k++) {
				enum vigil_class c = classes[vigil_rand_below(&r,
						ARRAY_SIZE(classes))];
				bool want, got;
				u64 access;

				len = vigil_rand_object(&r, c, obj, sizeof(obj),
							&access);
				want = vigil_policy_allows_linear(s, c, access,
								  obj, len);
				got = vigil_policy_allows(s, c, access, obj,
							  len);
				KUNIT_EXPECT_EQ_MSG(test, got, want,
						    "%s %llx '%s' (policy %u)",
						    vigil_class_name(c),
						    (unsigned long long)access,
						    obj, round);
				checked++;
				allowed += got;
			}
		}
		vigil_policy_free(p);
		kvfree(text);
	}
	/* Not vacuous: a fair share of both verdicts. */
	KUNIT_EXPECT_GT(test, allowed, checked / 20);
	KUNIT_EXPECT_LT(test, allowed, checked - checked / 20);
	kunit_info(test, "%lu verdicts agree, %lu allowed\n", checked,
		   allowed);
}

/*
 * A subject's policy block is cached whatever its id: the uncharged
 * subjects of privileged execs take ids above vigil.max_subjects and the
 * overflow subject "?" has id U32_MAX; before, their hooks matched every
 * block's glob on each access. The cache is the subject's, tagged with the
 * policy's generation: renaming the subject behind its back shows that the
 * second lookup used it, and a new generation looks it up again.
 */
static void vigil_policy_block_cache_test(struct kunit *test)
{
	static const char text[] =
		"subject /usr/bin/a {\n\tfile r /etc/a\n}\n"
		"subject /usr/bin/b {\n\tfile r /etc/b\n}\n";
	const u32 ids[] = { 0, vigil_max_subjects, vigil_max_subjects + 7,
			    U32_MAX };
	const struct vigil_policy_subject *a, *b;
	struct vigil_loaded_policy *lp;
	struct vigil_subject *s;
	struct vigil_policy *p;
	int i;

	KUNIT_ASSERT_EQ(test, vigil_policy_parse(text, strlen(text), &p, NULL),
			0);
	a = vigil_policy_subject_at(p, 0);
	b = vigil_policy_subject_at(p, 1);
	lp = kunit_kzalloc(test, sizeof(*lp), GFP_KERNEL);
	s = kunit_kzalloc(test, struct_size(s, exe, 32), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lp);
	KUNIT_ASSERT_NOT_NULL(test, s);
	lp->policy = p;
	s->len = strlen("/usr/bin/a");
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		s->id = ids[i];
		lp->gen = 1000 + i;
		memcpy(s->exe, "/usr/bin/a", s->len);
		KUNIT_EXPECT_PTR_EQ(test, vigil_policy_block(lp, s, VIGIL_UCLASS_ROOT), a);
		/* Cached: the same block, though its name now says b. */
		memcpy(s->exe, "/usr/bin/b", s->len);
		KUNIT_EXPECT_PTR_EQ_MSG(test, vigil_policy_block(lp, s, VIGIL_UCLASS_ROOT), a,
					"id %u", ids[i]);
		/* A new policy generation looks it up again. */
		lp->gen++;
		KUNIT_EXPECT_PTR_EQ(test, vigil_policy_block(lp, s, VIGIL_UCLASS_ROOT), b);
		memcpy(s->exe, "/usr/bin/c", s->len);
		lp->gen++;
		KUNIT_EXPECT_PTR_EQ(test, vigil_policy_block(lp, s, VIGIL_UCLASS_ROOT), NULL);
		/* "Not named" is cached too. */
		memcpy(s->exe, "/usr/bin/a", s->len);
		KUNIT_EXPECT_PTR_EQ_MSG(test, vigil_policy_block(lp, s, VIGIL_UCLASS_ROOT), NULL,
					"id %u", ids[i]);
	}
	vigil_policy_free(p);
}

/*
 * One subject's accesses under different uid classes take the blocks of
 * their classes: each class is cached on its own, and a class no block
 * takes is "not named", cached too.
 */
static void vigil_policy_block_uclass_test(struct kunit *test)
{
	static const char text[] =
		"subject /usr/bin/a uid root {\n\tfile r /etc/a\n}\n"
		"subject /usr/bin/a uid user observe {\n}\n";
	const struct vigil_policy_subject *root, *user;
	struct vigil_loaded_policy *lp;
	struct vigil_subject *s;
	struct vigil_policy *p;
	int round;

	KUNIT_ASSERT_EQ(test, vigil_policy_parse(text, strlen(text), &p, NULL),
			0);
	root = vigil_policy_subject_at(p, 0);
	user = vigil_policy_subject_at(p, 1);
	KUNIT_EXPECT_EQ(test, vigil_policy_subject_uclasses(root),
			VIGIL_POLICY_UCLASS_ROOT);
	lp = kunit_kzalloc(test, sizeof(*lp), GFP_KERNEL);
	s = kunit_kzalloc(test, struct_size(s, exe, 32), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lp);
	KUNIT_ASSERT_NOT_NULL(test, s);
	lp->policy = p;
	lp->gen = 7;
	s->len = strlen("/usr/bin/a");
	memcpy(s->exe, "/usr/bin/a", s->len);
	/* The second round reads the caches the first filled. */
	for (round = 0; round < 2; round++) {
		KUNIT_EXPECT_PTR_EQ(test, vigil_policy_block(lp, s,
							     VIGIL_UCLASS_USER),
				    user);
		KUNIT_EXPECT_PTR_EQ(test, vigil_policy_block(lp, s,
							     VIGIL_UCLASS_ROOT),
				    root);
		KUNIT_EXPECT_PTR_EQ(test,
				    vigil_policy_block(lp, s,
						       VIGIL_UCLASS_SYSTEM),
				    NULL);
	}
	KUNIT_EXPECT_EQ(test, vigil_policy_subject_mode(user),
			VIGIL_POLICY_MODE_OBSERVE);
	vigil_policy_free(p);
}

static struct kunit_case vigil_policy_test_cases[] = {
	KUNIT_CASE_PARAM(vigil_access_test, access_gen_params),
	KUNIT_CASE(vigil_names_test),
	KUNIT_CASE_PARAM(vigil_policy_parse_test, policy_gen_params),
	KUNIT_CASE_PARAM(vigil_policy_eval_test, eval_gen_params),
	KUNIT_CASE_PARAM(vigil_policy_chain_test, chain_gen_params),
	KUNIT_CASE(vigil_policy_limits_test),
	KUNIT_CASE(vigil_policy_dump_size_test),
	KUNIT_CASE(vigil_policy_walk_test),
	KUNIT_CASE(vigil_policy_index_test),
	KUNIT_CASE(vigil_policy_block_cache_test),
	KUNIT_CASE(vigil_policy_block_uclass_test),
	{}
};

static struct kunit_suite vigil_policy_test_suite = {
	.name = "vigil_policy",
	.test_cases = vigil_policy_test_cases,
};

kunit_test_suites(&vigil_match_test_suite, &vigil_policy_test_suite);
