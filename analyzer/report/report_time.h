/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: report_time.c: the report's times (sorted, ISO 8601,
 * convergence), below the report's scan and its outputs.
 */
#ifndef VIGIL_ANALYZER_REPORT_TIME_H
#define VIGIL_ANALYZER_REPORT_TIME_H

#include <stdbool.h>
#include <stddef.h>

struct subj_row;

/* Converged: no new access for at least half of the subject's span. */
bool report_converged(const struct subj_row *s, long long end_ms);
/* Sort v ascending (at once when it already is). */
void report_sort_ll(long long *v, size_t n);
/* ms as ISO 8601 UTC, "-" for none. */
const char *report_iso(long long ms, char *buf, size_t size);

#endif /* VIGIL_ANALYZER_REPORT_TIME_H */
