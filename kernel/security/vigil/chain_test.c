// SPDX-License-Identifier: GPL-2.0-only
/* vigil: KUnit tests of exec chains (chain.c). */

#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "vigil_limits.h"
#include "policy.h"
#include "subject.h"
#include "vigil.h"

struct build_case {
	const char *name;
	const char *via;	/* the parent's chain */
	const char *exe;	/* the parent's executable */
	bool cut;
	const char *want;
	bool crossed;
};

static const struct build_case build_cases[] = {
	{ "first ancestor", "", "/bin/bash", false, "/bin/bash" },
	{ "appended nearest last", "/sbin/init", "/bin/bash", false,
	  "/sbin/init//bin/bash" },
	{ "a program that execs itself collapses", "/sbin/init//bin/sh",
	  "/bin/sh", false, "/sbin/init//bin/sh" },
	{ "a uid class change keeps a repeat", "/lib/systemd/systemd",
	  "/lib/systemd/systemd", false,
	  "/lib/systemd/systemd//lib/systemd/systemd", true },
	{ "only consecutive duplicates collapse", "/bin/sh//usr/bin/env",
	  "/bin/sh", false, "/bin/sh//usr/bin/env//bin/sh" },
	{ "an ancestor that cuts gives ?", "/sbin/init", "/bin/bash", true,
	  "?" },
	{ "the overflow subject gives ?", "", "?", false, "?" },
	{ "a name holding // cannot be an element", "/a",
	  "/memfd:x//usr/bin/svc (deleted)", false, "?" },
	{ "a name ending in / cannot be an element", "/a", "/b/", false,
	  "?" },
	{ "a relative name cannot be an element", "/a", "b", false, "?" },
	{ "under a cut chain", "?", "/bin/sh", false, "?//bin/sh" },
	{ "a cut chain collapses too", "?//bin/sh", "/bin/sh", false,
	  "?//bin/sh" },
	{ "eight elements fit", "/1//2//3//4//5//6//7", "/8", false,
	  "/1//2//3//4//5//6//7//8" },
	{ "a ninth cuts the root-most two", "/1//2//3//4//5//6//7//8", "/9",
	  false, "?//3//4//5//6//7//8//9" },
	{ "a cut chain stays at eight with ?", "?//3//4//5//6//7//8", "/9",
	  false, "?//3//4//5//6//7//8//9" },
};

static void build_desc(const struct build_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(build, build_cases, build_desc);

static void vigil_chain_build_test(struct kunit *test)
{
	const struct build_case *c = test->param_value;
	char *buf = kunit_kzalloc(test, VIGIL_VIA_MAX + 1, GFP_KERNEL);
	size_t n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	n = vigil_via_build(buf, c->via, strlen(c->via), c->exe,
			    strlen(c->exe), c->cut, c->crossed);
	KUNIT_EXPECT_STREQ(test, buf, c->want);
	KUNIT_EXPECT_EQ(test, n, strlen(c->want));
}

/* "/" then @len - 1 copies of @c. */
static char *long_name(struct kunit *test, char c, size_t len)
{
	char *s = kunit_kzalloc(test, len + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s[0] = '/';
	memset(s + 1, c, len - 1);
	return s;
}

/* VIGIL_VIA_MAX bytes at most: the nearest elements that fit after "?". */
static void vigil_chain_bytes_test(struct kunit *test)
{
	char *buf = kunit_kzalloc(test, VIGIL_VIA_MAX + 1, GFP_KERNEL);
	char *a = long_name(test, 'a', 400), *b = long_name(test, 'b', 400);
	char *c = long_name(test, 'c', 400), *via;
	size_t n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	via = kunit_kzalloc(test, 2 * 400 + 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, via);
	n = scnprintf(via, 2 * 400 + 2, "%s/%s", a, b);
	/* 400 + 1 + 400 + 1 + 400 = 1202 > 1024: a goes, ? comes. */
	n = vigil_via_build(buf, via, n, c, 400, false, false);
	KUNIT_EXPECT_EQ(test, n, (size_t)(1 + 401 + 401));
	KUNIT_EXPECT_EQ(test, buf[0], '?');
	KUNIT_EXPECT_EQ(test, memcmp(buf + 2, b, 400), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 403, c, 400), 0);

	/* Exactly VIGIL_VIA_MAX bytes fit as they are. */
	a = long_name(test, 'a', 511);
	b = long_name(test, 'b', VIGIL_VIA_MAX - 512);
	n = vigil_via_build(buf, a, 511, b, VIGIL_VIA_MAX - 512, false,
			    false);
	KUNIT_EXPECT_EQ(test, n, (size_t)VIGIL_VIA_MAX);
	KUNIT_EXPECT_EQ(test, buf[0], '/');
	KUNIT_EXPECT_EQ(test, strlen(buf), (size_t)VIGIL_VIA_MAX);

	/* A nearest ancestor longer than the bound: nothing but "?". */
	c = long_name(test, 'c', VIGIL_VIA_MAX);
	n = vigil_via_build(buf, "/a", 2, c, VIGIL_VIA_MAX, false, false);
	KUNIT_EXPECT_STREQ(test, buf, "?");
}

/*
 * Ten nested distinct programs, each chain built from the one before, as
 * the exec hook does: never more than eight elements, "?" first once cut,
 * only as the first element, and splitting gives the elements back.
 */
static void vigil_chain_depth_test(struct kunit *test)
{
	struct vigil_policy_name names[VIGIL_VIA_ELEMS + 1];
	char *via = kunit_kzalloc(test, VIGIL_VIA_MAX + 1, GFP_KERNEL);
	char *next = kunit_kzalloc(test, VIGIL_VIA_MAX + 1, GFP_KERNEL);
	char exe[16];
	size_t len = 0;
	unsigned int i, j, n;
	bool cut;

	KUNIT_ASSERT_NOT_NULL(test, via);
	KUNIT_ASSERT_NOT_NULL(test, next);
	for (i = 0; i < 10; i++) {
		scnprintf(exe, sizeof(exe), "/usr/bin/p%u", i);
		len = vigil_via_build(next, via, len, exe, strlen(exe), false,
				      false);
		memcpy(via, next, len + 1);
		n = vigil_via_split(via, len, names, ARRAY_SIZE(names), &cut);
		KUNIT_EXPECT_EQ(test, n + cut, min(i + 1, 8U));
		KUNIT_EXPECT_EQ(test, cut, i >= 8);
		KUNIT_EXPECT_EQ(test, names[n - 1].len, strlen(exe));
		KUNIT_EXPECT_EQ(test, memcmp(names[n - 1].s, exe, strlen(exe)),
				0);
		for (j = 0; j < n; j++)
			KUNIT_EXPECT_EQ(test, names[j].s[0], '/');
		KUNIT_EXPECT_EQ(test, via[0], cut ? '?' : '/');
	}
	KUNIT_EXPECT_STREQ(test, via,
			   "?//usr/bin/p3//usr/bin/p4//usr/bin/p5//usr/bin/p6//usr/bin/p7//usr/bin/p8//usr/bin/p9");
}

static void vigil_chain_split_test(struct kunit *test)
{
	struct vigil_policy_name names[3];
	unsigned int n;
	bool cut;

	n = vigil_via_split("", 0, names, ARRAY_SIZE(names), &cut);
	KUNIT_EXPECT_EQ(test, n, 0U);
	KUNIT_EXPECT_FALSE(test, cut);
	n = vigil_via_split("?", 1, names, ARRAY_SIZE(names), &cut);
	KUNIT_EXPECT_EQ(test, n, 0U);
	KUNIT_EXPECT_TRUE(test, cut);
	n = vigil_via_split("?//a/b//c", 9, names, ARRAY_SIZE(names), &cut);
	KUNIT_ASSERT_EQ(test, n, 2U);
	KUNIT_EXPECT_TRUE(test, cut);
	KUNIT_EXPECT_EQ(test, names[0].len, (size_t)4);
	KUNIT_EXPECT_EQ(test, memcmp(names[0].s, "/a/b", 4), 0);
	KUNIT_EXPECT_EQ(test, names[1].len, (size_t)2);
	KUNIT_EXPECT_EQ(test, memcmp(names[1].s, "/c", 2), 0);
	/* More elements than room: the nearest, marked cut. */
	n = vigil_via_split("/1//2//3//4", 11, names, ARRAY_SIZE(names), &cut);
	KUNIT_ASSERT_EQ(test, n, 3U);
	KUNIT_EXPECT_TRUE(test, cut);
	KUNIT_EXPECT_EQ(test, memcmp(names[0].s, "/2", 2), 0);
	KUNIT_EXPECT_EQ(test, memcmp(names[2].s, "/4", 2), 0);
}

static struct kunit_case vigil_chain_test_cases[] = {
	KUNIT_CASE_PARAM(vigil_chain_build_test, build_gen_params),
	KUNIT_CASE(vigil_chain_bytes_test),
	KUNIT_CASE(vigil_chain_depth_test),
	KUNIT_CASE(vigil_chain_split_test),
	{}
};

static struct kunit_suite vigil_chain_test_suite = {
	.name = "vigil_chain",
	.test_cases = vigil_chain_test_cases,
};

kunit_test_suite(vigil_chain_test_suite);
