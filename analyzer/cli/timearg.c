// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the time arguments of report and generate (--since,
 * --until, --boot).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "escape.h"
#include "rules.h"
#include "store.h"
#include "timearg.h"
#include "util.h"

/* ---- time arguments -------------------------------------------------------- */

/*
 * ISO 8601 (UTC: 2026-12-03, 2026-12-03T08:00, 2026-12-03T08:00:00Z;
 * with an offset from UTC after a time: 2026-12-03T09:00+01:00, +0100,
 * -05) or audit's words now, recent, today, yesterday, this-week,
 * week-ago, this-month, this-year, boot; words in local time like
 * ausearch, but independent of the locale.
 */
int report_parse_time(const char *s, long long *ret_ms)
{
	time_t now = time(NULL);
	struct tm tm = { 0 };
	int y, mo, d, h = 0, mi = 0, se = 0, n = 0;
	long off = 0;		/* the offset from UTC, seconds east */
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
	    !strcmp(s, "this-week") || !strcmp(s, "week-ago") ||
	    !strcmp(s, "this-month") || !strcmp(s, "this-year")) {
		localtime_r(&now, &tm);
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		if (!strcmp(s, "yesterday"))
			tm.tm_mday -= 1;
		else if (!strcmp(s, "this-week"))
			tm.tm_mday -= (tm.tm_wday + 6) % 7;	/* Monday */
		else if (!strcmp(s, "week-ago"))
			tm.tm_mday -= 7;	/* midnight, as ausearch */
		else if (!strcmp(s, "this-month"))
			tm.tm_mday = 1;
		else if (!strcmp(s, "this-year"))
			tm.tm_mday = 1, tm.tm_mon = 0;
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
	if (s[n] == 'Z') {
		z = s[n++];
	} else if ((s[n] == '+' || s[n] == '-') && n > 10) {
		/* an offset from UTC: +HH, +HHMM or +HH:MM (after a time) */
		const char *o = s + n + 1;
		int oh, om = 0;

		if (o[0] < '0' || o[0] > '9' || o[1] < '0' || o[1] > '9')
			return -EINVAL;
		oh = (o[0] - '0') * 10 + (o[1] - '0');
		o += 2;
		if (*o == ':')
			o++;
		if (*o) {
			if (o[0] < '0' || o[0] > '9' || o[1] < '0' ||
			    o[1] > '9' || o[2])
				return -EINVAL;
			om = (o[0] - '0') * 10 + (o[1] - '0');
			o += 2;
		}
		if (oh > 23 || om > 59)
			return -EINVAL;
		off = (oh * 3600 + om * 60) * (s[n] == '+' ? 1 : -1);
		n = (int)(o - s);
	}
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
	*ret_ms = ((long long)timegm(&tm) - off) * 1000;
	/* timegm() moves 2026-02-30 to March 2: a day the month lacks is
	 * refused */
	if (tm.tm_mday != d || tm.tm_mon != mo - 1)
		return -EINVAL;
	return 0;
}


/* ---- --boot ---------------------------------------------------------------- */

/* "-2" .. "3": a boot number; 0 on success. */
static int parse_boot_number(const char *s, long long *ret)
{
	char *end;

	errno = 0;
	*ret = strtoll(s, &end, 10);
	return !*s || *end || errno ? -1 : 0;
}

static void boots_print(const char *db, const struct vigil_store_boot *v,
			size_t n, bool json)
{
	char t1[32], t2[32];
	size_t i;

	if (json) {
		/* {"version":1,"database":DB,"boots":[{...}...]} */
		fputs("{\"version\":1,", stdout);
		if (esc_json_member(stdout, "database", db))
			p_err("out of memory");
		fputs(",\"boots\":[", stdout);
		for (i = 0; i < n; i++)
			printf("%s{\"number\":%zu,\"from_latest\":%lld,"
			       "\"first\":\"%s\",\"last\":\"%s\","
			       "\"first_ms\":%lld,\"last_ms\":%lld,"
			       "\"records\":%llu}", i ? "," : "", i + 1,
			       (long long)i - (long long)(n - 1),
			       vigil_time_iso(v[i].first_ms / 1000, t1,
					      sizeof(t1)),
			       vigil_time_iso(v[i].last_ms / 1000, t2,
					      sizeof(t2)),
			       (long long)v[i].first_ms,
			       (long long)v[i].last_ms,
			       (unsigned long long)v[i].records);
		fputs("]}\n", stdout);
		return;
	}

	printf("# %zu boot%s in %s, oldest first: NUMBER (and as counted "
	       "from the latest) FIRST .. LAST RECORDS\n",
	       n, n == 1 ? "" : "s", shown(db));
	for (i = 0; i < n; i++)
		printf("%zu %lld %s .. %s %llu\n", i + 1,
		       (long long)i - (long long)(n - 1),
		       vigil_time_iso(v[i].first_ms / 1000, t1, sizeof(t1)),
		       vigil_time_iso(v[i].last_ms / 1000, t2, sizeof(t2)),
		       (unsigned long long)v[i].records);
}

int boot_window(struct vigil_store *s, const char *db, const char *arg,
		bool json, int64_t *since_ms, int64_t *until_ms)
{
	struct vigil_store_boot *v = NULL;
	long long k = 0;
	size_t n = 0;
	int rc;

	if (strcmp(arg, "list") && parse_boot_number(arg, &k)) {
		p_err("--boot: '%s' is not a boot number (1 the oldest, 0 the "
		      "latest, -1 the one before) or 'list'", arg);
		return BOOT_USAGE;
	}
	rc = vigil_store_boots(s, &v, &n);
	if (rc == -EXDEV) {
		p_err("--boot: %s holds the records of more than one machine "
		      "(node=): their boots cannot be told apart; use "
		      "--since/--until", db);
		return BOOT_USAGE;
	}
	if (rc) {
		p_err("%s: %s", db, rc == -EIO ? vigil_store_errmsg(s) :
		      strerror(-rc));
		return BOOT_ERROR;
	}
	if (!strcmp(arg, "list")) {
		boots_print(db, v, n, json);
		free(v);
		return BOOT_LISTED;
	}
	if (k > 0 && (unsigned long long)k <= n) {
		k -= 1;
	} else if (k <= 0 && (unsigned long long)-k < n) {
		k += (long long)n - 1;
	} else {
		p_err("--boot %s: %s holds %zu boot%s (1..%zu, or %lld..0; "
		      "--boot list shows them)", arg, db, n, n == 1 ? "" : "s",
		      n, -(long long)n + 1);
		free(v);
		return BOOT_USAGE;
	}
	/* From the end of the boot before (what came between two boots'
	 * records, such as another module's records, is the later boot's)
	 * to the start of the next; the latest has no end. */
	*since_ms = k ? v[k - 1].last_ms + 1 : v[k].first_ms;
	*until_ms = (size_t)k + 1 < n ? v[k + 1].first_ms - 1 : INT64_MAX;
	free(v);
	return 0;
}
