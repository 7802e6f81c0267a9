// SPDX-License-Identifier: GPL-2.0-only
/* vigil: KUnit tests of mode name parsing. */

#include <kunit/test.h>

#include "vigil.h"

struct mode_case {
	const char *in;
	size_t len;
	int err;
	enum vigil_mode mode;
};

static const struct mode_case mode_cases[] = {
	{ "off", 3, 0, VIGIL_MODE_OFF },
	{ "learn\n", 6, 0, VIGIL_MODE_LEARN },
	{ "observe", 7, 0, VIGIL_MODE_OBSERVE },
	{ "observe\n\n", 9, -EINVAL, 0 },
	{ "learnx", 6, -EINVAL, 0 },
	{ "lear", 4, -EINVAL, 0 },
	{ "", 0, -EINVAL, 0 },
	{ "\n", 1, -EINVAL, 0 },
	{ "of\0f", 4, -EINVAL, 0 },
	{ "OFF", 3, -EINVAL, 0 },
};

static void mode_case_desc(const struct mode_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%*pE", (int)c->len, c->in);
}

KUNIT_ARRAY_PARAM(mode, mode_cases, mode_case_desc);

static void vigil_mode_parse_test(struct kunit *test)
{
	const struct mode_case *c = test->param_value;
	enum vigil_mode m = VIGIL_MODE_COUNT;

	KUNIT_EXPECT_EQ(test, vigil_mode_parse(c->in, c->len, &m), c->err);
	if (!c->err)
		KUNIT_EXPECT_EQ(test, m, c->mode);
	else
		KUNIT_EXPECT_EQ(test, m, VIGIL_MODE_COUNT);
}

static void vigil_mode_name_test(struct kunit *test)
{
	enum vigil_mode m, back;

	for (m = 0; m < VIGIL_MODE_COUNT; m++) {
		const char *n = vigil_mode_name(m);

		KUNIT_ASSERT_EQ(test, vigil_mode_parse(n, strlen(n), &back), 0);
		KUNIT_EXPECT_EQ(test, back, m);
	}
	KUNIT_EXPECT_STREQ(test, vigil_mode_name(VIGIL_MODE_COUNT), "?");
}

static struct kunit_case vigil_mode_test_cases[] = {
	KUNIT_CASE_PARAM(vigil_mode_parse_test, mode_gen_params),
	KUNIT_CASE(vigil_mode_name_test),
	{}
};

static struct kunit_suite vigil_mode_test_suite = {
	.name = "vigil_mode",
	.test_cases = vigil_mode_test_cases,
};

kunit_test_suite(vigil_mode_test_suite);
