/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil analyzer: timearg.c: --since, --until and --boot values. */
#ifndef VIGIL_ANALYZER_TIMEARG_H
#define VIGIL_ANALYZER_TIMEARG_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A --since/--until value (ISO 8601 UTC or with an offset after the
 * time, +HH:MM, +HHMM, +HH; or now, recent, today, yesterday, this-week,
 * week-ago, this-month, this-year, boot) as ms since the epoch: 0 or
 * -EINVAL.
 */
int report_parse_time(const char *s, long long *ret_ms);

struct vigil_store;
/*
 * --boot ARG: the window of one boot of the machine in the records of
 * store s (database path db, for messages): ARG 1 is the oldest, 0 the
 * latest, -1 the one before (journalctl's numbering); "list" prints them
 * all. 0 with [*since_ms, *until_ms] set to the boot's window: from just
 * after the boot before's last record (the first boot: its own first) to
 * just before the next boot's first (the latest: INT64_MAX), or a BOOT_*
 * below, the error printed (p_err). json: "list" prints one JSON object
 * (docs/analyzer.md).
 */
enum { BOOT_LISTED = 1, BOOT_USAGE, BOOT_ERROR };
int boot_window(struct vigil_store *s, const char *db, const char *arg,
		bool json, int64_t *since_ms, int64_t *until_ms);

#endif /* VIGIL_ANALYZER_TIMEARG_H */
