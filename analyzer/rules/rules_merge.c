// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: a subject's rules merged: evidence added up (times,
 * hosts, uids), rules sorted and those of one object made one, a rule's
 * blast note, a rule freed. Below the model (rules.c) and the heuristics,
 * which merge what they generalise.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "rules_int.h"
#include "match.h"

void rules_minmax(int64_t *first, int64_t *last, int64_t f, int64_t l)
{
	if (!*first || f < *first)
		*first = f;
	if (l > *last)
		*last = l;
}

void rules_hosts_or(uint64_t *dst, const uint64_t *src, uint32_t words)
{
	uint32_t i;

	if (!dst || !src)
		return;
	for (i = 0; i < words; i++)
		dst[i] |= src[i];
}

uint32_t rules_hosts_count(const uint64_t *v, uint32_t words)
{
	uint32_t i, n = 0;

	for (i = 0; v && i < words; i++)
		n += (uint32_t)__builtin_popcountll(v[i]);
	return n;
}

/* ---- uids ---- */

/* Add uid to u (sorted, once); past VIGIL_UIDS_MAX only u->more is set. */
void rules_uids_add(struct vigil_uids *u, uint32_t uid)
{
	unsigned int i, j;

	u->classes |= vigil_uid_class_bit(uid);
	for (i = 0; i < u->n && u->v[i] < uid; i++)
		;
	if (i < u->n && u->v[i] == uid)
		return;
	if (u->n == VIGIL_UIDS_MAX) {
		/* keep the lowest: drop the highest */
		if (i == u->n) {
			u->more = true;
			return;
		}
		u->n--;
		u->more = true;
	}
	for (j = u->n; j > i; j--)
		u->v[j] = u->v[j - 1];
	u->v[i] = uid;
	u->n++;
}

void rules_uids_union(struct vigil_uids *dst, const struct vigil_uids *src)
{
	unsigned int i;

	for (i = 0; i < src->n; i++)
		rules_uids_add(dst, src->v[i]);
	dst->more = dst->more || src->more;
	dst->service = dst->service || src->service;
	dst->user_class = dst->user_class || src->user_class;
	dst->classes |= src->classes;
}

void rules_rule_free(struct vigil_rule *r)
{
	unsigned int i;

	free(r->object);
	free(r->glob);
	free(r->why_mem);
	free(r->blast);
	free(r->sensitive);
	free(r->hosts);
	for (i = 0; i < r->nexamples; i++)
		free(r->examples[i]);
	free(r->examples);
}

static int rule_cmp(const void *a, const void *b)
{
	const struct vigil_rule *x = a, *y = b;
	int c;

	if (x->class != y->class)
		return x->class < y->class ? -1 : 1;
	c = strcmp(x->object, y->object);
	if (c)
		return c;
	return strcmp(x->glob, y->glob);
}

/* Merge src into dst (same class and glob); src is freed. */
static void rule_merge(struct vigil_rule *dst, struct vigil_rule *src)
{
	char *ex[6];
	unsigned int n = 0, i = 0, j = 0, k;

	dst->access |= src->access;
	dst->count += src->count;
	rules_minmax(&dst->first, &dst->last, src->first, src->last);
	dst->distinct += src->distinct;
	dst->heuristics |= src->heuristics;
	dst->temp_later = dst->temp_later || src->temp_later;
	if (dst->pid != src->pid)
		dst->pid = 0;
	dst->generalised = dst->generalised || src->generalised;
	rules_uids_union(&dst->uids, &src->uids);
	rules_hosts_or(dst->hosts, src->hosts, dst->host_words);
	if (!dst->blast) {
		dst->blast = src->blast;
		src->blast = NULL;
	}
	/* the smallest three of both sorted example lists */
	while (i < dst->nexamples || j < src->nexamples) {
		if (j >= src->nexamples ||
		    (i < dst->nexamples &&
		     strcmp(dst->examples[i], src->examples[j]) <= 0))
			ex[n++] = dst->examples[i++];
		else
			ex[n++] = src->examples[j++];
	}
	for (k = 3; k < n; k++)
		free(ex[k]);
	dst->nexamples = n < 3 ? n : 3;
	for (k = 0; k < dst->nexamples; k++)
		dst->examples[k] = ex[k];
	src->nexamples = 0;
	rules_rule_free(src);
	memset(src, 0, sizeof(*src));
}

/* Sort rules and merge those of the same class and glob. */
void rules_sort_merge(struct vigil_rule *rules, size_t *n)
{
	size_t i, out = 0;

	qsort(rules, *n, sizeof(*rules), rule_cmp);
	for (i = 0; i < *n; i++) {
		if (out && rules[out - 1].class == rules[i].class &&
		    !strcmp(rules[out - 1].glob, rules[i].glob)) {
			rule_merge(&rules[out - 1], &rules[i]);
			continue;
		}
		if (out != i)
			rules[out] = rules[i];
		out++;
	}
	*n = out;
}

/* Set every rule's blast note to a copy of note. */
int rules_take_glob(struct vigil_rule *r, char **gen, unsigned int heur)
{
	char *g = vigil_glob_escape_dup(*gen, strlen(*gen), true);

	if (!g)
		return -ENOMEM;
	free(r->glob);
	r->glob = g;
	free(r->object);
	r->object = *gen;
	*gen = NULL;
	free(r->sensitive);
	r->sensitive = NULL;
	r->heuristics |= heur;
	r->generalised = true;
	return 0;
}

int rules_set_blast(struct vigil_rule *r, const char *note)
{
	char *d = strdup(note);

	if (!d)
		return -ENOMEM;
	free(r->blast);
	r->blast = d;
	return 0;
}

/*
 * A literal file rule that a random-name glob of the same subject already
 * grants, access and all, is merged into that glob's rule: the one name of
 * several whose random part happened to draw one case and no digit
 * (mkdtemp's "tmp_objdir-incoming-ISMSXH" beside "-aksnRE" and four
 * more: 1 name in 90 does), which the random-name test leaves literal
 * while its siblings take the glob. Only globs of that heuristic absorb,
 * and only names they match whose access they hold: the rule grants
 * nothing more, and one of the next run's names is no longer a literal
 * of this run's.
 */
int rules_absorb_random(struct vigil_rule *rules, size_t *n)
{
	struct vigil_glob *g;
	char why[128];
	size_t i, j, out;
	int rc;

	for (i = 0; i < *n; i++) {
		struct vigil_rule *r = &rules[i];

		if (!r->glob || r->class != VIGIL_CLASS_FILE ||
		    !r->generalised || !(r->heuristics & VIGIL_HEUR_RANDOM))
			continue;
		rc = vigil_glob_compile(r->glob, strlen(r->glob), &g, why,
					sizeof(why));
		if (rc == -ENOMEM)
			return rc;
		if (rc)
			continue;
		for (j = 0; j < *n; j++) {
			struct vigil_rule *l = &rules[j];

			if (j == i || !l->glob || l->generalised ||
			    l->class != VIGIL_CLASS_FILE ||
			    (l->access & ~r->access) ||
			    !vigil_glob_match(g, l->object, strlen(l->object)))
				continue;
			rule_merge(r, l);
		}
		vigil_glob_free(g);
	}
	for (i = 0, out = 0; i < *n; i++) {
		if (!rules[i].glob)
			continue;
		if (out != i)
			rules[out] = rules[i];
		out++;
	}
	*n = out;
	return 0;
}
