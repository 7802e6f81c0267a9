// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests: the time arguments of report and generate (timearg.c):
 * ausearch's words (week-ago, this-month, this-year beside today and
 * this-week), ISO 8601 with an offset from UTC, what is refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <setjmp.h>
#include <time.h>
#include <cmocka.h>

#include "timearg.h"

static long long t(const char *s)
{
	long long ms = -1;

	if (report_parse_time(s, &ms))
		fail_msg("'%s' refused", s);
	return ms;
}

static void refused(const char *s)
{
	long long ms;

	if (!report_parse_time(s, &ms))
		fail_msg("'%s' accepted", s);
}

/* The local time of ms. */
static struct tm local(long long ms)
{
	time_t s = (time_t)(ms / 1000);
	struct tm tm;

	localtime_r(&s, &tm);
	return tm;
}

static void test_words(void **state)
{
	long long today, week, month, year, now = (long long)time(NULL) * 1000;
	struct tm tm;

	(void)state;
	today = t("today");
	week = t("week-ago");
	month = t("this-month");
	year = t("this-year");
	/* midnights, local time */
	tm = local(week);
	assert_true(tm.tm_hour == 0 && tm.tm_min == 0 && tm.tm_sec == 0);
	/* seven days before today's midnight (an hour either way: DST) */
	assert_true(today - week >= 7 * 86400000LL - 3600000 &&
		    today - week <= 7 * 86400000LL + 3600000);
	tm = local(month);
	assert_true(tm.tm_mday == 1 && tm.tm_hour == 0 && tm.tm_min == 0);
	assert_true(month <= today && now - month < 32 * 86400000LL);
	tm = local(year);
	assert_true(tm.tm_mon == 0 && tm.tm_mday == 1 && tm.tm_hour == 0);
	assert_true(year <= month && now - year < 367 * 86400000LL);
	assert_true(t("this-week") <= today);
	assert_true(today - t("yesterday") >= 23 * 3600000LL);
}

static void test_offsets(void **state)
{
	(void)state;
	assert_int_equal(t("2026-12-03T09:00+01:00"),
			 t("2026-12-03T08:00:00Z"));
	assert_int_equal(t("2026-12-03T09:00:30+0100"),
			 t("2026-12-03T08:00:30Z"));
	assert_int_equal(t("2026-12-03T09:00-05"), t("2026-12-03T14:00Z"));
	assert_int_equal(t("2026-12-03T00:30+05:30"), t("2026-12-02T19:00Z"));
	assert_int_equal(t("2026-12-03T09:00"), t("2026-12-03T09:00Z"));
	refused("2026-12-03+01:00");	/* an offset needs a time */
	refused("2026-12-03T09:00+1");
	refused("2026-12-03T09:00+24:00");
	refused("2026-12-03T09:00+01:60");
	refused("2026-12-03T09:00+01:00Z");
	refused("2026-12-03T09:00Z+01");
	refused("2026-02-30");
	refused("week");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_offsets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
