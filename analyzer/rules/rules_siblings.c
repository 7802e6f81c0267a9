// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the many-siblings heuristic over a subject's rules:
 * VIGIL_SIBLINGS_MIN or more files of one folder, one access, as
 * DIR/STAR, judged by the machine.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "blast.h"
#include "rules_int.h"

/* Siblings: index sorted by (access, folder). */
static const struct vigil_rule *sib_base;

/*
 * A file in a folder without a glob: the pid folders of /proc/STAR/maps
 * are never siblings (a folder made by a heuristic is not one folder).
 */
static bool sib_eligible(const struct vigil_rule *r)
{
	size_t l = rules_dir_len(r->object);

	return r->class == VIGIL_CLASS_FILE &&
	       !(r->heuristics & VIGIL_HEUR_RELATIVE) &&
	       (r->generalised || !rules_has_meta(r->object)) &&
	       l > 0 && r->object[l + 1] && !memchr(r->object, '*', l) &&
	       !memchr(r->object, '?', l);
}

static int sib_cmp(const void *a, const void *b)
{
	const struct vigil_rule *x = &sib_base[*(const size_t *)a];
	const struct vigil_rule *y = &sib_base[*(const size_t *)b];
	size_t lx = rules_dir_len(x->object), ly = rules_dir_len(y->object);
	int c;

	if (x->access != y->access)
		return x->access < y->access ? -1 : 1;
	c = memcmp(x->object, y->object, lx < ly ? lx : ly);
	if (c)
		return c;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static bool same_group(const struct vigil_rule *x, const struct vigil_rule *y)
{
	size_t l = rules_dir_len(x->object);

	return x->access == y->access && l == rules_dir_len(y->object) &&
	       !memcmp(x->object, y->object, l);
}

int rules_heur_siblings(struct vigil_rule *rules, size_t *n, struct blast *b)
{
	size_t *idx, ni = 0, i, j, k;
	bool any = false;
	int rc = 0;

	idx = malloc((*n ? *n : 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (i = 0; i < *n; i++)
		if (sib_eligible(&rules[i]))
			idx[ni++] = i;
	sib_base = rules;
	qsort(idx, ni, sizeof(*idx), sib_cmp);
	for (i = 0; i < ni; i = j) {
		unsigned int names = 0, distinct = 0;
		char *note = NULL;

		/* names in the folder, not observed objects: six pids of
		 * /proc/STAR/maps are one name */
		for (j = i; j < ni && same_group(&rules[idx[i]],
						 &rules[idx[j]]); j++) {
			names++;
			distinct += rules[idx[j]].distinct;
		}
		if (names < VIGIL_SIBLINGS_MIN)
			continue;
		if (b) {
			const struct vigil_rule *r0 = &rules[idx[i]];
			size_t l = rules_dir_len(r0->object);
			char *dir = malloc(l + 3);

			if (!dir) {
				rc = -ENOMEM;
				goto out;
			}
			memcpy(dir, r0->object, l);
			memcpy(dir + l, "/*", 3);
			rc = blast_judge(b, dir, distinct, true, &note);
			free(dir);
			if (rc < 0)
				goto out;
			for (k = i; k < j && note; k++) {
				if (rules_set_blast(&rules[idx[k]], note)) {
					free(note);
					rc = -ENOMEM;
					goto out;
				}
			}
			free(note);
			if (!rc)
				continue;
			rc = 0;
		}
		for (k = i; k < j; k++) {
			struct vigil_rule *r = &rules[idx[k]];
			size_t l = rules_dir_len(r->object);
			char *glob;

			memcpy(r->object + l, "/*", 3);
			glob = vigil_glob_escape_dup(r->object, l + 2, true);
			if (!glob) {
				rc = -ENOMEM;
				goto out;
			}
			free(r->glob);
			r->glob = glob;
			r->heuristics |= VIGIL_HEUR_SIBLINGS;
			r->generalised = true;
			any = true;
		}
	}
	if (any)
		rules_sort_merge(rules, n);
out:
	free(idx);
	return rc;
}
