// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the report's times, shared by its scan (report.c), its
 * charts, outputs and hosts and by vigil subjects: sorted, as ISO 8601,
 * and whether a subject's learning has converged.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "report.h"
#include "report_time.h"

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static bool sorted_ll(const long long *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] < v[i - 1])
			return false;
	return true;
}

void report_sort_ll(long long *v, size_t n)
{
	if (!sorted_ll(v, n))
		qsort(v, n, sizeof(*v), cmp_ll);
}

/* Converged: no new access for at least half of the subject's span. */
bool report_converged(const struct subj_row *s, long long end_ms)
{
	long long span = end_ms - s->first_ms;

	if (s->last_new_ms < 0 || span <= 0)
		return false;
	return (end_ms - s->last_new_ms) * 2 >= span;
}

const char *report_iso(long long ms, char *buf, size_t size)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	if (ms <= 0 || !gmtime_r(&t, &tm) ||
	    !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "-");
	return buf;
}
