// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: a rule's text in the policy language: its object
 * escaped as a glob, whether text holds a glob operator, times as ISO
 * 8601. Below the rule model and blast.c, which both use it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "escape.h"
#include "rules_text.h"

size_t vigil_glob_escape(const char *s, size_t len, bool keep_star,
			 char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t pos = 0, i;

#define PUT(ch)                          \
	do {                             \
		if (pos + 1 < size)      \
			buf[pos] = (ch); \
		pos++;                   \
	} while (0)
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t n = esc_printable(s + i, len - i);

		/* what a terminal would act on, or not UTF-8: \xHH */
		if (!n) {
			PUT('\\');
			PUT('x');
			PUT(hex[c >> 4]);
			PUT(hex[c & 15]);
			continue;
		}
		if (n > 1) {
			for (; n > 1; n--, i++)
				PUT(s[i]);
			PUT(s[i]);
			continue;
		}
		if (strchr(" #\\{},", c) ||
		    ((c == '*' || c == '?') && !keep_star))
			PUT('\\');
		PUT((char)c);
	}
#undef PUT
	if (size)
		buf[pos < size ? pos : size - 1] = '\0';
	return pos;
}

char *vigil_glob_escape_dup(const char *s, size_t len, bool keep_star)
{
	size_t n = vigil_glob_escape(s, len, keep_star, NULL, 0);
	char *buf = malloc(n + 1);

	if (buf)
		vigil_glob_escape(s, len, keep_star, buf, n + 1);
	return buf;
}

const char *vigil_time_iso(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) ||
	    !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "?");
	return buf;
}

bool rules_has_meta(const char *s)
{
	return strpbrk(s, "*?{}\\");
}
