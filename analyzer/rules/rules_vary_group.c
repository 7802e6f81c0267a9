// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the names-that-vary heuristic over a subject's rules:
 * literal names grouped by folder and shape, each group's glob made by
 * rules_vary.c and judged by the machine; then the temporary-name
 * heuristic on the names left to it (rule.temp_later).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "blast.h"
#include "rules_int.h"

#define VARY_SHAPE_MAX 64
/*
 * Names that vary between runs (rules_vary.c): literal file rules of one
 * folder and one shape whose names differ only in parts made anew by
 * each run or process become one rule, a '*' over each such part
 * (".state.*.tmp"); one name whose number is its task's pid too. Each
 * glob is judged by the machine (sensitive list, blast radius).
 */
struct vary_ix {
	size_t i;		/* the rule */
	size_t dlen;		/* its folder's length */
	char shape[VARY_SHAPE_MAX];	/* its name's non-word bytes */
};

static const struct vigil_rule *vary_base;

static void vary_shape(const char *name, char *shape)
{
	size_t n = 0;

	for (; *name && n + 2 < VARY_SHAPE_MAX; name++) {
		if (rules_is_word(*name)) {
			if (n && shape[n - 1] == 'w')
				continue;
			shape[n++] = 'w';
		} else {
			shape[n++] = *name;
		}
	}
	shape[n] = '\0';
}

static int vary_cmp(const void *a, const void *b)
{
	const struct vary_ix *x = a, *y = b;
	const char *ox = vary_base[x->i].object, *oy = vary_base[y->i].object;
	int c;

	if (x->dlen != y->dlen)
		return x->dlen < y->dlen ? -1 : 1;
	c = memcmp(ox, oy, x->dlen);
	if (!c)
		c = strcmp(x->shape, y->shape);
	if (!c)
		c = strcmp(ox, oy);
	return c;
}

static bool vary_same(const struct vary_ix *x, const struct vary_ix *y)
{
	return x->dlen == y->dlen &&
	       !memcmp(vary_base[x->i].object, vary_base[y->i].object,
		       x->dlen) && !strcmp(x->shape, y->shape);
}

/* Make the rules of ix[m[0..nm)] one glob, if the machine allows it. */
static int vary_apply(struct vigil_rule *rules, const struct vary_ix *ix,
		      const size_t *m, size_t nm, char *glob,
		      unsigned int kind, struct blast *b, bool *any)
{
	char *note = NULL;
	size_t k;
	int rc = 1;

	if (b)
		rc = blast_judge(b, glob, (unsigned int)nm, true, &note);
	if (rc < 0)
		goto out;
	for (k = 0; k < nm; k++) {
		struct vigil_rule *r = &rules[ix[m[k]].i];
		char *g, *o;

		if (note && rules_set_blast(r, note)) {
			rc = -ENOMEM;
			goto out;
		}
		if (rc != 1)
			continue;
		g = vigil_glob_escape_dup(glob, strlen(glob), true);
		o = strdup(glob);
		if (!g || !o) {
			free(g);
			free(o);
			rc = -ENOMEM;
			goto out;
		}
		free(r->glob);
		r->glob = g;
		free(r->object);
		r->object = o;
		free(r->sensitive);
		r->sensitive = NULL;
		r->heuristics |= kind;
		r->generalised = true;
		*any = true;
	}
	rc = 0;
out:
	free(note);
	return rc;
}

bool rules_vary_off;

/*
 * What a name may vary by (rules_vary.c's judge), from its last component
 * and its record alone: a part of a name can vary only as a whole run of
 * digits (the pid's, VARY_DIGITS_MIN or more of them, or in a name the
 * program made) or as a word of 6 or more bytes (random). Two names of
 * one group must share one of these, and for VARY_NUMBER their time
 * spans must not overlap; for a random word, one of the two must look
 * random (a group of them needs more than half to: two names that do not
 * look random could only join one as its minority, which is not tried).
 */
enum {
	VARY_CAN_PID = 1,	/* a run of digits is the pid */
	VARY_CAN_NUMBER = 2,	/* a run of VARY_DIGITS_MIN or more digits */
	VARY_CAN_MADE = 4,	/* made by it, a run of digits */
	VARY_CAN_RANDOM = 8,	/* a word of 6 or more bytes */
	VARY_LOOKS = 16,	/* ... that looks random (judge's random_run) */
};

static unsigned int vary_can(const struct vigil_rule *r, size_t dlen)
{
	const char *s = r->object + dlen + 1, *e;
	unsigned int can = 0;
	char pid[16];
	int pl = r->pid ? snprintf(pid, sizeof(pid), "%u",
				   (unsigned int)r->pid) : 0;

	while (*s) {
		if (!rules_is_word(*s)) {
			s++;
			continue;
		}
		bool dig = false, up = false, low = false;
		const char *w;
		size_t hex = 0;

		for (e = s; rules_is_word(*e); e++) {
			dig |= *e >= '0' && *e <= '9';
			up |= *e >= 'A' && *e <= 'Z';
			low |= *e >= 'a' && *e <= 'z';
		}
		if (e - s >= 6)
			can |= VARY_CAN_RANDOM;
		/* a random run: a digit or both cases, or 8 hex digits */
		if (e - s >= 6 && (dig || (up && low)))
			can |= VARY_LOOKS;
		for (w = s; w < e; w++) {
			hex = isxdigit((unsigned char)*w) ? hex + 1 : 0;
			if (hex >= 8)
				can |= VARY_LOOKS;
		}
		for (; s < e; s++) {
			const char *d = s;

			if (*s < '0' || *s > '9')
				continue;
			while (d < e && *d >= '0' && *d <= '9')
				d++;
			if (d - s >= VARY_DIGITS_MIN)
				can |= VARY_CAN_NUMBER;
			if (r->access & VIGIL_FILE_C)
				can |= VARY_CAN_MADE;
			if (pl && d - s == pl && !memcmp(s, pid, (size_t)pl))
				can |= VARY_CAN_PID;
			s = d - 1;
		}
	}
	return can;
}

/* Index arrays of a folder and shape sorted by first and by last seen. */
static const struct vigil_rule *vary_rules;
static const struct vary_ix *vary_ixs;

static int by_first(const void *a, const void *b)
{
	int64_t x = vary_rules[vary_ixs[*(const size_t *)a].i].first,
		y = vary_rules[vary_ixs[*(const size_t *)b].i].first;

	return (x > y) - (x < y);
}

static int by_last(const void *a, const void *b)
{
	int64_t x = vary_rules[vary_ixs[*(const size_t *)a].i].last,
		y = vary_rules[vary_ixs[*(const size_t *)b].i].last;

	return (x > y) - (x < y);
}

static int idx_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* rules_vary_glob over ix[m[0..nm)]: *glob (NULL: none). */
static int vary_try(const struct vigil_rule *rules, const struct vary_ix *ix,
		    const size_t *m, size_t nm, struct vary_name *vn,
		    char **glob, unsigned int *kind)
{
	size_t q;

	for (q = 0; q < nm; q++) {
		const struct vigil_rule *r = &rules[ix[m[q]].i];

		vn[q] = (struct vary_name){ r->object, r->first, r->last,
					    r->pid, r->access };
	}
	return rules_vary_glob(vn, nm, glob, kind);
}

/*
 * Names that vary between runs, a folder and shape at a time. From each
 * name not yet in a group (in name order) a group grows by the names
 * after it that keep a glob possible, in name order: the same groups as
 * trying each of them in turn, but only the names that can share a kind
 * of variation with the first are tried (vary_can: the pid's, numbers
 * used apart, numbers it made, random words), and a run of them at once
 * (twice as many after each success, back to one after a failure), so
 * that a folder of 2,000 names costs O(n log n) calls, not n^2/2.
 */
int rules_heur_vary(struct vigil_rule *rules, size_t *n, struct blast *b)
{
	struct vary_ix *ix;
	struct vary_name *vn = NULL;
	size_t *m = NULL, *cand = NULL, *byf = NULL, *byl = NULL;
	size_t ni = 0, i, j, k, g, nm, nc, nd, lo, hi, pos, step, q;
	unsigned char *can = NULL, *mark = NULL;
	bool *done = NULL, any = false;
	unsigned int kind;
	char *glob;
	int rc = 0;

	if (rules_vary_off)
		return 0;
	ix = calloc(*n ? *n : 1, sizeof(*ix));
	vn = calloc(*n ? *n : 1, sizeof(*vn));
	m = calloc(*n ? *n : 1, sizeof(*m));
	cand = calloc(*n ? *n : 1, sizeof(*cand));
	byf = calloc(*n ? *n : 1, sizeof(*byf));
	byl = calloc(*n ? *n : 1, sizeof(*byl));
	can = calloc(*n ? *n : 1, sizeof(*can));
	mark = calloc(*n ? *n : 1, sizeof(*mark));
	done = calloc(*n ? *n : 1, sizeof(*done));
	if (!ix || !vn || !m || !cand || !byf || !byl || !can || !mark ||
	    !done) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < *n; i++) {
		const struct vigil_rule *r = &rules[i];

		if (r->class != VIGIL_CLASS_FILE || r->generalised ||
		    r->heuristics || r->object[0] != '/' ||
		    rules_has_meta(r->object))
			continue;
		ix[ni].i = i;
		ix[ni].dlen = rules_dir_len(r->object);
		vary_shape(r->object + ix[ni].dlen + 1, ix[ni].shape);
		ni++;
	}
	vary_base = rules;
	qsort(ix, ni, sizeof(*ix), vary_cmp);
	for (g = 0; g < ni; g++)
		can[g] = (unsigned char)vary_can(&rules[ix[g].i], ix[g].dlen);
	vary_rules = rules;
	vary_ixs = ix;
	for (i = 0; i < ni && !rc; i = j) {
		for (j = i + 1; j < ni && vary_same(&ix[i], &ix[j]); j++)
			;
		/* the names of VARY_CAN_NUMBER by first and by last seen */
		for (nd = 0, k = i; k < j; k++)
			if (can[k] & VARY_CAN_NUMBER)
				byf[nd] = byl[nd] = k, nd++;
		qsort(byf, nd, sizeof(*byf), by_first);
		qsort(byl, nd, sizeof(*byl), by_last);
		for (g = i; g < j && !rc; g++) {
			const struct vigil_rule *rg = &rules[ix[g].i];

			if (done[g])
				continue;
			/* the candidates: after g, not done, a kind shared
			 * (random: one of the two must look it) */
			nc = 0;
			for (k = g + 1; k < j; k++)
				if (!done[k] &&
				    ((can[g] & can[k] &
				      (VARY_CAN_PID | VARY_CAN_MADE)) ||
				     ((can[g] & can[k] & VARY_CAN_RANDOM) &&
				      ((can[g] | can[k]) & VARY_LOOKS))))
					cand[nc++] = k, mark[k] = 1;
			if (can[g] & VARY_CAN_NUMBER) {
				/* used apart from g: ended before it began,
				 * or began after it ended */
				for (lo = 0, hi = nd; lo < hi;) {
					q = (lo + hi) / 2;
					if (rules[ix[byl[q]].i].last <= rg->first)
						lo = q + 1;
					else
						hi = q;
				}
				for (q = 0; q < lo; q++)
					if (byl[q] > g && !done[byl[q]] &&
					    !mark[byl[q]])
						cand[nc++] = byl[q],
						mark[byl[q]] = 1;
				for (lo = 0, hi = nd; lo < hi;) {
					q = (lo + hi) / 2;
					if (rules[ix[byf[q]].i].first < rg->last)
						lo = q + 1;
					else
						hi = q;
				}
				for (q = lo; q < nd; q++)
					if (byf[q] > g && !done[byf[q]] &&
					    !mark[byf[q]])
						cand[nc++] = byf[q],
						mark[byf[q]] = 1;
			}
			for (q = 0; q < nc; q++)
				mark[cand[q]] = 0;
			qsort(cand, nc, sizeof(*cand), idx_cmp);
			/* grow: a run of candidates at once, in order */
			nm = 0;
			m[nm++] = g;
			for (pos = 0, step = 1; pos < nc && !rc;) {
				size_t run = step < nc - pos ? step : nc - pos;

				memcpy(m + nm, cand + pos, run * sizeof(*m));
				rc = vary_try(rules, ix, m, nm + run, vn,
					      &glob, &kind);
				if (rc)
					break;
				if (glob) {
					nm += run;
					pos += run;
					step *= 2;
				} else if (run == 1) {
					pos++;
					step = 1;
				} else {
					step = run / 2;
				}
				free(glob);
			}
			if (rc)
				break;
			rc = vary_try(rules, ix, m, nm, vn, &glob, &kind);
			if (rc || !glob)
				continue;
			for (k = 0; k < nm; k++)
				done[m[k]] = true;
			rc = vary_apply(rules, ix, m, nm, glob, kind, b, &any);
			free(glob);
		}
	}
	if (!rc && any)
		rules_sort_merge(rules, n);
out:
	free(ix);
	free(vn);
	free(m);
	free(cand);
	free(byf);
	free(byl);
	free(can);
	free(mark);
	free(done);
	return rc;
}

/*
 * The temporary-name heuristic on the names left to rules_heur_vary first
 * (rule.temp_later): on a literal name as before, on the glob rules_heur_vary
 * made its random-looking parts too (one run's .tmp-*-pack-aB3xYz.pack:
 * the pid from the record, the random part by its look).
 */
int rules_heur_temp_later(struct vigil_rule *rules, size_t *n,
			  struct blast *b)
{
	bool any = false;
	size_t i;
	int rc = 0;

	for (i = 0; i < *n && !rc; i++) {
		struct vigil_rule *r = &rules[i];
		unsigned int heur = 0;
		char *gen = NULL, *note = NULL;

		if (!r->temp_later || r->class != VIGIL_CLASS_FILE ||
		    (r->heuristics & VIGIL_HEUR_TEMP))
			continue;
		rc = rules_generalise_path(r->object, &gen, &heur,
					   r->generalised ? GEN_STAR_OK : 0);
		if (rc || !gen || !(heur & VIGIL_HEUR_TEMP) ||
		    !strcmp(gen, r->object)) {
			free(gen);
			continue;
		}
		rc = b ? blast_judge(b, gen, r->distinct, true, &note) : 1;
		if (rc < 0) {
			free(gen);
			break;
		}
		if (note && rules_set_blast(r, note)) {
			rc = -ENOMEM;
		} else if (rc == 1) {
			rc = rules_take_glob(r, &gen, heur);
			any |= !rc;
		} else {
			rc = 0;
		}
		free(gen);
		free(note);
	}
	if (!rc && any)
		rules_sort_merge(rules, n);
	return rc;
}
