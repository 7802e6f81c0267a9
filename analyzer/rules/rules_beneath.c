// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the rules beneath a folder whose name varies between
 * runs take that folder's glob (issue 24 §2: a push's quarantine folder).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blast.h"
#include "rules.h"
#include "rules_int.h"

/*
 * What is beneath a folder whose name varies between runs (issue 24 §2:
 * a push's quarantine objects/tmp_objdir-incoming-XXXXXX/, with its own
 * fan-out folders and temp names): when the names-that-vary heuristics
 * made one glob of such folders (DIR/tmp_objdir-incoming-STAR, from two
 * or more names, or a pid-numbered one), each rule beneath one of the
 * folders it covers takes that glob in its path, when the machine allows
 * it; the rules that become one are merged. Only a glob whose '*' are its
 * only operators, in its last component, over a literal folder; never
 * the globs of other heuristics (siblings, stores, /proc, home folders).
 */
#define BENEATH_HEUR (VIGIL_HEUR_RANDOM | VIGIL_HEUR_NUMBER | \
		      VIGIL_HEUR_PID | VIGIL_HEUR_MADE)

static bool beneath_folder_glob(const struct vigil_rule *r)
{
	const char *last;

	if (r->class != VIGIL_CLASS_FILE || !r->generalised ||
	    !(r->heuristics & BENEATH_HEUR) ||
	    (r->heuristics & ~(BENEATH_HEUR | VIGIL_HEUR_TEMP)) ||
	    r->object[0] != '/' ||
	    (r->distinct < 2 && !(r->heuristics & VIGIL_HEUR_PID)))
		return false;
	last = strrchr(r->object, '/') + 1;
	/* '*' only, in the last component */
	return !memchr(r->object, '*', (size_t)(last - r->object)) &&
	       strchr(last, '*') && !strpbrk(r->object, "?[]{}\\");
}

/* Whether name (len bytes, no '/') matches pat, whose operator is '*'. */
static bool star_match(const char *pat, const char *name, size_t len)
{
	const char *star = strchr(pat, '*');
	size_t pre, i;

	if (!star)
		return strlen(pat) == len && !memcmp(pat, name, len);
	pre = (size_t)(star - pat);
	if (len < pre || memcmp(pat, name, pre))
		return false;
	for (i = pre; i <= len; i++)
		if (star_match(star + 1, name + i, len - i))
			return true;
	return false;
}

int rules_heur_beneath(struct vigil_rule *rules, size_t *n, struct blast *b)
{
	bool any = false;
	size_t f, i;
	int rc = 0;

	for (f = 0; f < *n && !rc; f++) {
		const char *fo = rules[f].object, *last;
		size_t plen;

		if (!beneath_folder_glob(&rules[f]))
			continue;
		last = strrchr(fo, '/') + 1;
		plen = (size_t)(last - fo);	/* "DIR/" */
		for (i = 0; i < *n && !rc; i++) {
			struct vigil_rule *r = &rules[i];
			const char *c, *slash;
			char *gen, *note = NULL;

			if (i == f || r->class != VIGIL_CLASS_FILE ||
			    (r->heuristics & VIGIL_HEUR_RELATIVE) ||
			    strncmp(r->object, fo, plen))
				continue;
			c = r->object + plen;
			slash = strchr(c, '/');
			if (!slash || !slash[1] ||
			    !star_match(last, c, (size_t)(slash - c)) ||
			    (!r->generalised && rules_has_meta(slash)))
				continue;
			/* already the folder's glob */
			if ((size_t)(slash - c) == strlen(last) &&
			    !memcmp(c, last, strlen(last)))
				continue;
			if (asprintf(&gen, "%s%s", fo, slash) < 0) {
				rc = -ENOMEM;
				break;
			}
			rc = b ? blast_judge(b, gen, r->distinct, true, &note)
			       : 1;
			if (rc < 0) {
				free(gen);
				break;
			}
			if (note && rules_set_blast(r, note)) {
				rc = -ENOMEM;
			} else if (rc == 1) {
				rc = rules_take_glob(r, &gen, VIGIL_HEUR_BENEATH);
				any |= !rc;
			} else {
				rc = 0;
			}
			free(gen);
			free(note);
		}
	}
	if (!rc && any)
		rules_sort_merge(rules, n);
	return rc;
}
