/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: rules_text.c: a rule's text in the policy language
 * (glob escaping, glob operators, ISO times), below rules.c and blast.c.
 */
#ifndef VIGIL_ANALYZER_RULES_TEXT_H
#define VIGIL_ANALYZER_RULES_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Write s[0..len) as a glob matching exactly s, escaped as the policy
 * language requires (space, '#', '\\', glob metacharacters; control
 * bytes and DEL as \xHH); keep_star: '*' stays an operator. snprintf
 * semantics: returns the length needed.
 */
size_t vigil_glob_escape(const char *s, size_t len, bool keep_star,
			 char *buf, size_t size);
/* The same into a new string, or NULL (no memory). */
char *vigil_glob_escape_dup(const char *s, size_t len, bool keep_star);
/* t (seconds since the epoch) as ISO 8601 UTC: "2026-12-01T10:00:00Z". */
const char *vigil_time_iso(int64_t t, char *buf, size_t size);
/* Whether s holds a glob metacharacter. */
bool rules_has_meta(const char *s);

#endif /* VIGIL_ANALYZER_RULES_TEXT_H */
