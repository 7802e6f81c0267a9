// SPDX-License-Identifier: GPL-2.0-only
/* vigil: KUnit tests of persons (the owners map) and of shared pools. */

#include <kunit/test.h>
#include <linux/slab.h>

#include "bounds.h"
#include "person.h"
#include "vigil.h"

/* Persons together fill 3/4; one holding little gets 7/8; root the rest. */
static void pool_bounds(struct kunit *test)
{
	const u64 cap = 4096;

	KUNIT_EXPECT_TRUE(test, vigil_pool_admit(cap, 0, 0, 1));
	KUNIT_EXPECT_TRUE(test, vigil_pool_admit(cap, 3071, 512, 1));
	KUNIT_EXPECT_FALSE(test, vigil_pool_admit(cap, 3072, 512, 1));
	/* A person holding little still gets in past the bulk... */
	KUNIT_EXPECT_TRUE(test, vigil_pool_admit(cap, 3072, 0, 1));
	KUNIT_EXPECT_TRUE(test, vigil_pool_admit(cap, 3583, 63, 1));
	/* ...until it holds its 1/64, or persons hold 7/8. */
	KUNIT_EXPECT_FALSE(test, vigil_pool_admit(cap, 3200, 64, 1));
	KUNIT_EXPECT_FALSE(test, vigil_pool_admit(cap, 3584, 0, 1));
	/* Sizes, not only counts. */
	KUNIT_EXPECT_FALSE(test, vigil_pool_admit(cap, 3000, 0, 600));
}

/* Eight uids holding 512 subjects each leave a new person its own. */
static void pool_many_uids(struct kunit *test)
{
	const u64 cap = 4096, share = cap / 8;
	u64 used = 0, held;
	int uid;

	for (uid = 0; uid < 8; uid++)
		for (held = 0; held < share + 8; held++)
			if (vigil_pool_admit(cap, used, held, 1))
				used++;
	KUNIT_EXPECT_LE(test, used, vigil_pool_unpriv(cap));
	KUNIT_EXPECT_TRUE(test, vigil_pool_admit(cap, used, 0, 1));
}

static void owners_parse_lookup(struct kunit *test)
{
	static const char text[] =
		"# subordinate ranges\n"
		"300000 65536 1001\n"
		"\n"
		"100000 65536 1000\n"
		"4294901759 65536 1002";
	struct vigil_owners *o;
	char err[128] = "";

	KUNIT_ASSERT_EQ_MSG(test, vigil_owners_parse(text, &o, err,
						     sizeof(err)), 0, err);
	KUNIT_ASSERT_NOT_NULL(test, o);
	KUNIT_EXPECT_EQ(test, o->n, 3U);
	KUNIT_EXPECT_EQ(test, o->r[0].first, 100000U);
	KUNIT_EXPECT_EQ(test, __kuid_val(vigil_owners_lookup(o, 99999)),
			99999U);
	KUNIT_EXPECT_EQ(test, __kuid_val(vigil_owners_lookup(o, 100000)),
			1000U);
	KUNIT_EXPECT_EQ(test, __kuid_val(vigil_owners_lookup(o, 165535)),
			1000U);
	KUNIT_EXPECT_EQ(test, __kuid_val(vigil_owners_lookup(o, 165536)),
			165536U);
	KUNIT_EXPECT_EQ(test, __kuid_val(vigil_owners_lookup(o, 300001)),
			1001U);
	KUNIT_EXPECT_EQ(test, __kuid_val(vigil_owners_lookup(o, 4294967294U)),
			1002U);
	KUNIT_EXPECT_EQ(test, __kuid_val(vigil_owners_lookup(o, 1000)),
			1000U);
	kvfree(o);
	KUNIT_EXPECT_EQ(test, vigil_owners_parse("", &o, err, sizeof(err)), 0);
	KUNIT_EXPECT_NULL(test, o);
	KUNIT_EXPECT_EQ(test, __kuid_val(vigil_owners_lookup(NULL, 5)), 5U);
}

static void owners_rejected(struct kunit *test)
{
	static const char *const bad[] = {
		"100000 65536\n",		/* a field missing */
		"100000 65536 1000 7\n",	/* one too many */
		"100000 0 1000\n",		/* empty */
		"0 10 1000\n",			/* holds root */
		"100000 10 100005\n",		/* holds its owner */
		"100000 10 0\n",		/* owned by root */
		"4294967290 10 1000\n",		/* past 4294967294 */
		"100000 100 1000\n100050 10 1001\n",	/* overlap */
		"100000 100 1000\n200000 10 100001\n",	/* owner in a range */
		"100000 -1 1000\n",
		"100000  65536 1000\n",
		"99999999999 1 1000\n",
	};
	struct vigil_owners *o;
	char err[128];
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		KUNIT_EXPECT_EQ_MSG(test, vigil_owners_parse(bad[i], &o, err,
							     sizeof(err)),
				    -EINVAL, "%s", bad[i]);
		KUNIT_EXPECT_NULL(test, o);
		KUNIT_EXPECT_NE(test, err[0], '\0');
	}
}

static struct kunit_case vigil_person_test_cases[] = {
	KUNIT_CASE(pool_bounds),
	KUNIT_CASE(pool_many_uids),
	KUNIT_CASE(owners_parse_lookup),
	KUNIT_CASE(owners_rejected),
	{}
};

static struct kunit_suite vigil_person_test_suite = {
	.name = "vigil_person",
	.test_cases = vigil_person_test_cases,
};

kunit_test_suite(vigil_person_test_suite);
