// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the random-name heuristic's pattern: the parts of a
 * file name that may be random, and whether two names differ in them
 * (generate folds such names into one rule; report counts them as no
 * new access).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "rules_int.h"

/*
 * A part of a name that may be random, seen in several runs: 6 or more
 * of [A-Za-z0-9_] with a digit or both cases ("oed3caeu" from Python's
 * tempfile). heur_random asks more: that it differ between runs.
 */
static bool maybe_random(const char *s, size_t len)
{
	bool digit = false, upper = false, lower = false;
	size_t i;

	if (len < 6)
		return false;
	for (i = 0; i < len; i++) {
		if (!rules_is_word(s[i]))
			return false;
		digit |= s[i] >= '0' && s[i] <= '9';
		upper |= s[i] >= 'A' && s[i] <= 'Z';
		lower |= s[i] >= 'a' && s[i] <= 'z';
	}
	return digit || (upper && lower);
}

/*
 * The object with each part of its last component (between '.' and '-')
 * that may be random as as many '?'; NULL when it has none (or no
 * memory: *rc).
 */
static char *random_pattern(const char *obj, int *rc)
{
	size_t l = rules_dir_len(obj) + 1, len = strlen(obj), start, j;
	bool changed = false;
	char *p;

	*rc = 0;
	p = strdup(obj);
	if (!p) {
		*rc = -ENOMEM;
		return NULL;
	}
	for (start = l; start <= len;) {
		for (j = start; j < len && obj[j] != '.' && obj[j] != '-'; j++)
			;
		if (maybe_random(obj + start, j - start)) {
			memset(p + start, '?', j - start);
			changed = true;
		}
		start = j + 1;
	}
	if (!changed) {
		free(p);
		return NULL;
	}
	return p;
}

char *vigil_random_pattern(const char *obj, int *rc)
{
	*rc = 0;
	if (obj[0] != '/' || rules_has_meta(obj))
		return NULL;
	return random_pattern(obj, rc);
}

/* Whether b differs from a in at least half of pat's '?' bytes. */
bool vigil_random_variant(const char *pat, const char *a, const char *b)
{
	size_t q = 0, d = 0, k;

	for (k = 0; pat[k] && a[k] && b[k]; k++) {
		if (pat[k] != '?')
			continue;
		q++;
		d += a[k] != b[k];
	}
	return q && 2 * d >= q;
}
