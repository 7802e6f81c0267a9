/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: escape.c: how a name from a record (an executable, an
 * object, a comm, an AppArmor name: bytes any local user chose) is
 * written, one rule per kind of output (docs/report.md, "Names from
 * records"). Nothing here depends on the rest of the analyzer.
 */
#ifndef VIGIL_ANALYZER_ESCAPE_H
#define VIGIL_ANALYZER_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The length (1 to 4) of the printable UTF-8 character at s (at most max
 * bytes), or 0 when it is not one: a C0 control, DEL, a C1 control
 * (U+0080..U+009F), a bidirectional-text control or line/paragraph
 * separator (U+061C, U+200E, U+200F, U+2028..U+202E, U+2066..U+2069), or
 * bytes that are not UTF-8 (truncated, overlong, surrogate, > U+10FFFF).
 */
size_t esc_printable(const char *s, size_t max);

/*
 * Terminal text (report --format text, diff, trial, status, messages):
 * each byte of what is not a printable character (esc_printable) as \xHH
 * (two lowercase hex digits); everything else, backslash included, as
 * itself. esc_text_len: the bytes esc_text writes.
 */
void esc_text(FILE *f, const char *s);
size_t esc_text_len(const char *s);
/* The same into a new string (NULL: out of memory). */
char *esc_text_dup(const char *s);

/*
 * HTML, in text and in attribute values: the terminal text's form, with
 * & < > " ' as &amp; &lt; &gt; &quot; &#39;.
 */
void esc_html(FILE *f, const char *s);

/*
 * JSON: "KEY":"VALUE" written by jansson (control characters as \u00XX,
 * " and \ escaped). A value holding a C1 or bidirectional-text control is
 * written all ASCII (every non-ASCII character as \uXXXX). A value that
 * is not UTF-8 has each stray byte as U+FFFD and is followed by
 * "KEY_hex":"HEX": its exact bytes, two uppercase hex digits each (as
 * audit writes untrusted fields). s NULL: null. 0, or -ENOMEM.
 */
int esc_json_member(FILE *f, const char *key, const char *s);

/* "KEY": (a member's name and colon; its value written by the caller),
 * KEY escaped by jansson. 0, or -ENOMEM. */
int esc_json_key(FILE *f, const char *key);

/* Whether s is UTF-8 throughout (controls allowed). */
bool esc_is_utf8(const char *s, size_t len);

#endif /* VIGIL_ANALYZER_ESCAPE_H */
