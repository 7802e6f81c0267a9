// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the rule model. A subject's observed tuples (loaded
 * from the database by rules_load.c) become its rules, generalised by
 * explained heuristics unless strict (one absolute path: rules_path.c;
 * over the subject's rules: rules_hashed.c, rules_vary_group.c,
 * rules_siblings.c), each rule with why. Library-like: reports errors,
 * never logs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vigil.h"
#include "rules.h"
#include "match.h"
#include "blast.h"
#include "rules_int.h"

static const char *const heur_names[] = {
	"per-pid /proc",
	"temporary name",
	"versioned library",
	"many siblings",
	"home folder",
	"not a path",
	"random name",
	"varying number",
	"pid in name",
	"content-addressed store",
	"numbers it made",
	"beneath a folder that varies",
	"pty number",
};

static bool object_is_path(enum vigil_class class)
{
	return class == VIGIL_CLASS_FILE || class == VIGIL_CLASS_MOUNT ||
	       class == VIGIL_CLASS_MODULE;
}

/* A rule from one observed object (examples: the object). */
/* Whether the last component of glob keeps a number of 3+ digits. */
static bool keeps_number(const char *glob)
{
	const char *c = strrchr(glob, '/');
	size_t run = 0;

	for (c = c ? c + 1 : glob; *c; c++) {
		run = *c >= '0' && *c <= '9' ? run + 1 : 0;
		if (run >= 3)
			return true;
	}
	return false;
}

static int rule_from_obs(const struct obs *o, bool strict, struct blast *b,
			 struct vigil_rule *r)
{
	char *gen = NULL;
	unsigned int heur = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	r->class = o->class;
	r->access = o->access;
	r->count = o->count;
	r->first = o->first;
	r->last = o->last;
	r->distinct = 1;
	r->uids = o->uids;
	r->pid = o->pid;
	r->examples = calloc(3, sizeof(*r->examples));
	if (!r->examples)
		return -ENOMEM;
	r->examples[0] = strdup(o->object);
	if (!r->examples[0])
		goto nomem;
	r->nexamples = 1;
	if (object_is_path(o->class) && o->object[0] != '/') {
		size_t n = strlen(o->object);

		r->heuristics = VIGIL_HEUR_RELATIVE;
		r->object = malloc(n + 3);
		r->glob = vigil_glob_escape_dup(o->object, n, false);
		if (!r->object || !r->glob)
			goto nomem;
		memcpy(r->object, "**", 2);
		memcpy(r->object + 2, o->object, n + 1);
		gen = malloc(strlen(r->glob) + 3);
		if (!gen)
			goto nomem;
		sprintf(gen, "**%s", r->glob);
		free(r->glob);
		r->glob = gen;
		r->generalised = true;
		return 0;
	}
	if (!strict && o->class == VIGIL_CLASS_FILE && !rules_has_meta(o->object)) {
		rc = rules_generalise_path(o->object, &gen, &heur, 0);
		if (rc)
			goto fail;
		/*
		 * A number the temporary-name heuristic keeps literal
		 * (.tmp-16583-pack-*.pack): the names-that-vary heuristic
		 * sees the names first, with their evidence.
		 */
		if (gen && (heur & VIGIL_HEUR_TEMP) && keeps_number(gen)) {
			free(gen);
			gen = NULL;
			heur = 0;
			r->temp_later = true;
			rc = rules_generalise_path(o->object, &gen, &heur,
						   GEN_NO_TEMP);
			if (rc)
				goto fail;
		}
	}
	if (gen && b) {
		rc = blast_judge(b, gen, 1,
				 !(heur & (VIGIL_HEUR_PROC | VIGIL_HEUR_PTY)),
				 &r->blast);
		if (rc < 0)
			goto fail;
		if (!rc) {
			free(gen);
			gen = NULL;
			heur = 0;
		}
	}
	if (gen) {
		r->object = gen;
		r->heuristics = heur;
		r->generalised = true;
		r->glob = vigil_glob_escape_dup(gen, strlen(gen), true);
	} else {
		const char *sens = NULL;

		if (o->class == VIGIL_CLASS_FILE)
			sens = blast_sensitive(b, o->object);
		r->object = strdup(o->object);
		r->glob = vigil_glob_escape_dup(o->object, strlen(o->object),
						false);
		if (sens) {
			r->sensitive = strdup(sens);
			if (!r->sensitive)
				goto nomem;
		}
	}
	if (!r->object || !r->glob)
		goto nomem;
	return 0;
nomem:
	rc = -ENOMEM;
fail:
	rules_rule_free(r);
	memset(r, 0, sizeof(*r));
	return rc;
}

static int rule_why(struct vigil_rule *r)
{
	size_t len = 0, i;
	char *p;

	if (!r->heuristics)
		return 0;
	for (i = 0; i < ARRAY_SIZE(heur_names); i++)
		if (r->heuristics & (1u << i))
			len += strlen(heur_names[i]) + 3;
	r->why_mem = malloc(len + 1);
	if (!r->why_mem)
		return -ENOMEM;
	p = r->why_mem;
	*p = '\0';
	for (i = 0; i < ARRAY_SIZE(heur_names); i++) {
		if (!(r->heuristics & (1u << i)))
			continue;
		if (p != r->why_mem)
			p = stpcpy(p, " + ");
		p = stpcpy(p, heur_names[i]);
	}
	r->why = r->why_mem;
	return 0;
}

/* Whether the glob compiles, so that every policy line parses. */
static bool glob_ok(const char *glob)
{
	struct vigil_glob *g = NULL;
	char why[8];
	int rc;

	/* rule lines are at most VIGIL_POLICY_MAX_LINE bytes: leave room */
	if (strlen(glob) > 4000)
		return false;
	rc = vigil_glob_compile(glob, strlen(glob), &g, why, sizeof(why));
	vigil_glob_free(g);
	return rc == 0;
}

static int obs_cmp(const void *a, const void *b)
{
	const struct obs *x = a, *y = b;

	if (x->class != y->class)
		return x->class < y->class ? -1 : 1;
	return strcmp(x->object, y->object);
}

/* Build the rules of one subject from its observations (consumed). */
int rules_subject_build(struct vigil_subject_rules *sr, struct obs *obs,
			 size_t nobs, bool strict, struct blast *b,
			 uint64_t *skipped)
{
	struct vigil_rule *rules = NULL;
	size_t i, out = 0, n = 0, nf = 0;
	char **fobs = NULL;
	int rc = 0;

	/* one observation per (class, object) */
	qsort(obs, nobs, sizeof(*obs), obs_cmp);
	for (i = 0; i < nobs; i++) {
		if (out && obs[out - 1].class == obs[i].class &&
		    !strcmp(obs[out - 1].object, obs[i].object)) {
			struct obs *d = &obs[out - 1];

			d->access |= obs[i].access;
			d->count += obs[i].count;
			d->exec = d->exec || obs[i].exec;
			if (d->pid != obs[i].pid)
				d->pid = 0;
			rules_uids_union(&d->uids, &obs[i].uids);
			rules_hosts_or(d->hosts, obs[i].hosts, d->host_words);
			rules_minmax(&d->first, &d->last, obs[i].first,
			       obs[i].last);
			free(obs[i].object);
			obs[i].object = NULL;
			free(obs[i].hosts);
			obs[i].hosts = NULL;
			continue;
		}
		if (out != i) {
			obs[out] = obs[i];
			obs[i].object = NULL;
			obs[i].hosts = NULL;
		}
		out++;
	}
	nobs = out;
	rules = calloc(nobs ? nobs : 1, sizeof(*rules));
	fobs = calloc(nobs ? nobs : 1, sizeof(*fobs));
	if (!rules || !fobs) {
		free(rules);
		free(fobs);
		return -ENOMEM;
	}
	/* the observed files, sorted: what a glob may admit */
	for (i = 0; i < nobs; i++)
		if (obs[i].class == VIGIL_CLASS_FILE)
			fobs[nf++] = obs[i].object;
	if (b)
		blast_set_observed(b, fobs, nf);
	for (i = 0; i < nobs; i++) {
		rc = rule_from_obs(&obs[i], strict, b, &rules[n]);
		if (rc)
			goto fail;
		rules[n].hosts = obs[i].hosts;
		rules[n].host_words = obs[i].host_words;
		obs[i].hosts = NULL;
		n++;
	}
	rules_sort_merge(rules, &n);
	if (!strict) {
		rc = rules_heur_store(rules, &n, b);
		if (!rc)
			rc = rules_heur_vary(rules, &n, b);
		if (!rc)
			rc = rules_heur_temp_later(rules, &n, b);
		if (!rc)
			rc = rules_heur_beneath(rules, &n, b);
		if (!rc)
			rc = rules_heur_siblings(rules, &n, b);
		if (!rc)
			rc = rules_absorb_random(rules, &n);
		if (rc)
			goto fail;
	}
	/* drop what cannot be written as a policy line */
	for (i = 0, out = 0; i < n; i++) {
		if (!glob_ok(rules[i].glob)) {
			*skipped += rules[i].distinct;
			rules_rule_free(&rules[i]);
			continue;
		}
		if (out != i)
			rules[out] = rules[i];
		out++;
	}
	n = out;
	for (i = 0; i < n; i++) {
		rc = rule_why(&rules[i]);
		if (rc)
			goto fail;
	}
	for (i = 0; i < n; i++) {
		sr->flagged += vigil_rule_flagged(&rules[i]);
		rules[i].nhosts = rules_hosts_count(rules[i].hosts,
						    rules[i].host_words);
	}
	sr->rules = rules;
	sr->nrules = n;
	if (b)
		blast_set_observed(b, NULL, 0);
	free(fobs);
	return 0;
fail:
	for (i = 0; i < n; i++)
		rules_rule_free(&rules[i]);
	free(rules);
	if (b)
		blast_set_observed(b, NULL, 0);
	free(fobs);
	return rc;
}

void vigil_ruleset_free(struct vigil_ruleset *rs)
{
	size_t i, j;

	if (!rs)
		return;
	for (i = 0; i < rs->nsubjects; i++) {
		struct vigil_subject_rules *sr = &rs->subjects[i];

		for (j = 0; j < sr->nrules; j++)
			rules_rule_free(&sr->rules[j]);
		free(sr->rules);
		for (j = 0; j < sr->nleft_out; j++)
			rules_rule_free(&sr->left_out[j]);
		free(sr->left_out);
		for (j = 0; j < sr->nchildren; j++)
			free(sr->children[j]);
		free(sr->children);
		free(sr->service_uids);
		free(sr->exe);
		free(sr->via);
		free(sr->chain);
	}
	free(rs->subjects);
	memset(rs, 0, sizeof(*rs));
}
