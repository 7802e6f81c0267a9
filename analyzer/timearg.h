/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil analyzer: timearg.c: --since and --until values. */
#ifndef VIGIL_ANALYZER_TIMEARG_H
#define VIGIL_ANALYZER_TIMEARG_H

/*
 * A --since/--until value (ISO 8601 UTC, or now, recent,
 * today, yesterday, this-week, boot) as ms since the epoch: 0 or -EINVAL.
 */
int report_parse_time(const char *s, long long *ret_ms);

#endif /* VIGIL_ANALYZER_TIMEARG_H */
