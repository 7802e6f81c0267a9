// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the time arguments of report and generate (--since,
 * --until).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timearg.h"

/* ---- time arguments -------------------------------------------------------- */

/*
 * ISO 8601 (UTC: 2026-12-03, 2026-12-03T08:00, 2026-12-03T08:00:00Z) or
 * audit's words now, recent, today, yesterday, this-week, boot; words in
 * local time like ausearch, but independent of the locale.
 */
int report_parse_time(const char *s, long long *ret_ms)
{
	time_t now = time(NULL);
	struct tm tm = { 0 };
	int y, mo, d, h = 0, mi = 0, se = 0, n = 0;
	char z = 0;

	if (!strcmp(s, "now")) {
		*ret_ms = (long long)now * 1000;
		return 0;
	}
	if (!strcmp(s, "recent")) {
		*ret_ms = ((long long)now - 600) * 1000;
		return 0;
	}
	if (!strcmp(s, "boot")) {
		double up = 0;
		FILE *f = fopen("/proc/uptime", "r");

		if (!f || fscanf(f, "%lf", &up) != 1) {
			if (f)
				fclose(f);
			return -EINVAL;
		}
		fclose(f);
		*ret_ms = ((long long)now - (long long)up) * 1000;
		return 0;
	}
	if (!strcmp(s, "today") || !strcmp(s, "yesterday") ||
	    !strcmp(s, "this-week")) {
		localtime_r(&now, &tm);
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		if (!strcmp(s, "yesterday"))
			tm.tm_mday -= 1;
		else if (!strcmp(s, "this-week"))
			tm.tm_mday -= (tm.tm_wday + 6) % 7;	/* Monday */
		tm.tm_isdst = -1;
		*ret_ms = (long long)mktime(&tm) * 1000;
		return 0;
	}
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3)
		return -EINVAL;
	if (s[n] == 'T' || s[n] == ' ') {
		int m = 0;

		if (sscanf(s + n + 1, "%2d:%2d%n", &h, &mi, &m) != 2)
			return -EINVAL;
		n += 1 + m;
		if (s[n] == ':') {
			if (sscanf(s + n + 1, "%2d%n", &se, &m) != 1)
				return -EINVAL;
			n += 1 + m;
		}
	}
	if (s[n] == 'Z')
		z = s[n++];
	if (s[n] || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
	    mi > 59 || se > 60)
		return -EINVAL;
	(void)z;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = se;
	*ret_ms = (long long)timegm(&tm) * 1000;
	/* timegm() moves 2026-02-30 to March 2: a day the month lacks is
	 * refused */
	if (tm.tm_mday != d || tm.tm_mon != mo - 1)
		return -EINVAL;
	return 0;
}

