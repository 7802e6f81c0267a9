// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the escaping rules of the outputs, one per kind
 * (escape.h). A name in a record is whatever bytes a local user put in a
 * path or a comm: it may hold terminal escapes, bytes that are not UTF-8,
 * HTML or markup. Each output writes it through its rule here.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "escape.h"

/* The UTF-8 character at s (at most max bytes): its length and code
 * point, or 0 when the bytes are not one. */
static size_t utf8_char(const unsigned char *s, size_t max, uint32_t *cp)
{
	uint32_t c;
	size_t n, i;

	if (!max)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > max)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* A character a terminal acts on, or one that reorders what is shown. */
static bool unprintable(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x61c ||
	       c == 0x200e || c == 0x200f || (c >= 0x2028 && c <= 0x202e) ||
	       (c >= 0x2066 && c <= 0x2069);
}

size_t esc_printable(const char *s, size_t max)
{
	uint32_t c;
	size_t n = utf8_char((const unsigned char *)s, max, &c);

	return n && !unprintable(c) ? n : 0;
}

bool esc_is_utf8(const char *s, size_t len)
{
	uint32_t c;
	size_t i = 0, n;

	while (i < len) {
		n = utf8_char((const unsigned char *)s + i, len - i, &c);
		if (!n)
			return false;
		i += n;
	}
	return true;
}

static const char hex[] = "0123456789abcdef";

/* The terminal form of s into buf (size bytes, NUL-terminated when size):
 * the length it needs. */
static size_t text_form(const char *s, char *buf, size_t size)
{
	size_t len = strlen(s), i = 0, pos = 0, n;

#define PUT(ch)                          \
	do {                             \
		if (pos + 1 < size)      \
			buf[pos] = (ch); \
		pos++;                   \
	} while (0)
	while (i < len) {
		n = esc_printable(s + i, len - i);
		if (n) {
			for (; n; n--, i++)
				PUT(s[i]);
			continue;
		}
		PUT('\\');
		PUT('x');
		PUT(hex[(unsigned char)s[i] >> 4]);
		PUT(hex[(unsigned char)s[i] & 15]);
		i++;
	}
#undef PUT
	if (size)
		buf[pos < size ? pos : size - 1] = '\0';
	return pos;
}

size_t esc_text_len(const char *s)
{
	return text_form(s, NULL, 0);
}

char *esc_text_dup(const char *s)
{
	size_t n = text_form(s, NULL, 0);
	char *buf = malloc(n + 1);

	if (buf)
		text_form(s, buf, n + 1);
	return buf;
}

void esc_text(FILE *f, const char *s)
{
	size_t len = strlen(s), i = 0, n;

	while (i < len) {
		n = esc_printable(s + i, len - i);
		if (n) {
			fwrite(s + i, 1, n, f);
			i += n;
		} else {
			fprintf(f, "\\x%c%c", hex[(unsigned char)s[i] >> 4],
				hex[(unsigned char)s[i] & 15]);
			i++;
		}
	}
}

void esc_html(FILE *f, const char *s)
{
	size_t len = strlen(s), i = 0, n;

	while (i < len) {
		n = esc_printable(s + i, len - i);
		if (!n) {
			fprintf(f, "\\x%c%c", hex[(unsigned char)s[i] >> 4],
				hex[(unsigned char)s[i] & 15]);
			i++;
			continue;
		}
		switch (s[i]) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fwrite(s + i, 1, n, f);
		}
		i += n;
	}
}

/* One JSON value by jansson: 0 or -ENOMEM. */
static int json_put(FILE *f, const char *s, size_t len, bool ascii)
{
	json_t *j = json_stringn(s, len);
	int rc;

	if (!j)
		return -ENOMEM;
	rc = json_dumpf(j, f, JSON_ENCODE_ANY | (ascii ? JSON_ENSURE_ASCII : 0));
	json_decref(j);
	return rc ? -ENOMEM : 0;
}

int esc_json_key(FILE *f, const char *key)
{
	int rc = json_put(f, key, strlen(key), false);

	if (!rc)
		fputc(':', f);
	return rc;
}

int esc_json_member(FILE *f, const char *key, const char *s)
{
	size_t len, i = 0, n, w = 0;
	bool ascii = false, utf8 = true;
	char *fixed;
	uint32_t c;
	int rc;

	rc = json_put(f, key, strlen(key), false);
	if (rc)
		return rc;
	fputc(':', f);
	if (!s) {
		fputs("null", f);
		return 0;
	}
	len = strlen(s);
	/* Stray bytes as U+FFFD (3 bytes each): valid UTF-8 for jansson. */
	fixed = malloc(3 * len + 1);
	if (!fixed)
		return -ENOMEM;
	while (i < len) {
		n = utf8_char((const unsigned char *)s + i, len - i, &c);
		if (!n) {
			memcpy(fixed + w, "\xef\xbf\xbd", 3);
			w += 3;
			i++;
			utf8 = false;
			continue;
		}
		if (c >= 0x80 && unprintable(c))
			ascii = true;
		memcpy(fixed + w, s + i, n);
		w += n;
		i += n;
	}
	rc = json_put(f, fixed, w, ascii);
	free(fixed);
	if (rc || utf8)
		return rc;
	fixed = malloc(strlen(key) + 5);
	if (!fixed)
		return -ENOMEM;
	strcpy(fixed, key);
	strcat(fixed, "_hex");
	fputc(',', f);
	rc = json_put(f, fixed, strlen(fixed), false);
	free(fixed);
	if (rc)
		return rc;
	fputs(":\"", f);
	for (i = 0; i < len; i++)
		fprintf(f, "%02X", (unsigned char)s[i]);
	fputc('"', f);
	return 0;
}
