// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: a candidate policy file (parsed by the kernel's own
 * parser) as the rule set the exporters translate. The rules are the
 * candidate's, exactly; observations from the database, when given, only
 * add evidence (counts, times, examples) to the rules that cover them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "escape.h"
#include "rules.h"
#include "util.h"
#include "export.h"
#include "export/driver.h"
#include "candidate.h"

static void min_max(int64_t *first, int64_t *last, int64_t f, int64_t l)
{
	if (!f && !l)
		return;
	if (!*first || f < *first)
		*first = f;
	if (l > *last)
		*last = l;
}

/* The evidence of the observed literal objects glob covers. */
static int add_evidence(struct vigil_rule *r, const struct vigil_glob *glob,
			const struct vigil_subject_rules *obs)
{
	size_t i;

	for (i = 0; obs && i < obs->nrules; i++) {
		const struct vigil_rule *o = &obs->rules[i];
		/* the observed object itself (strict rules) */
		const char *x = o->nexamples ? o->examples[0] : o->object;

		if (o->class != r->class || !(o->access & r->access) ||
		    !vigil_glob_match(glob, x, strlen(x)))
			continue;
		r->count += o->count;
		r->distinct++;
		min_max(&r->first, &r->last, o->first, o->last);
		if (r->nexamples < 3) {
			r->examples[r->nexamples] = strdup(x);
			if (!r->examples[r->nexamples])
				return -ENOMEM;
			r->nexamples++;
		}
	}
	return 0;
}

static int rule_of(struct vigil_rule *r, enum vigil_class class,
		   uint64_t access, const struct vigil_glob *glob,
		   const struct vigil_subject_rules *obs)
{
	const char *src, *lit;
	size_t len;
	int rc;

	memset(r, 0, sizeof(*r));
	r->class = class;
	r->access = access;
	src = vigil_glob_source(glob, &len);
	r->glob = strndup(src, len);
	lit = vigil_glob_literal(glob, &len);
	r->generalised = !lit;
	r->object = lit ? strndup(lit, len) : strdup(r->glob ? r->glob : "");
	r->examples = calloc(3, sizeof(*r->examples));
	if (!r->glob || !r->object || !r->examples)
		return -ENOMEM;
	rc = add_evidence(r, glob, obs);
	if (rc)
		return rc;
	if (r->generalised) {
		if (asprintf(&r->why_mem, "glob of the candidate, covering %u "
			     "observed object%s", r->distinct,
			     r->distinct == 1 ? "" : "s") < 0) {
			r->why_mem = NULL;
			return -ENOMEM;
		}
		r->why = r->why_mem;
	}
	return 0;
}

/* Exec rules naming another subject of rs make it a child. */
static int find_children(struct vigil_ruleset *rs,
			 const struct vigil_policy *pol)
{
	size_t i, j;
	unsigned int k, n;

	for (i = 0; i < rs->nsubjects; i++) {
		struct vigil_subject_rules *sr = &rs->subjects[i];
		const struct vigil_policy_subject *ps =
			vigil_policy_subject_at(pol, sr->block);

		sr->children = calloc(rs->nsubjects, sizeof(*sr->children));
		if (!sr->children)
			return -ENOMEM;
		n = vigil_policy_class_nr_rules(ps, VIGIL_CLASS_FILE);
		for (j = 0; j < rs->nsubjects; j++) {
			const char *c = rs->subjects[j].exe;

			if (j == i || !export_runs(rs, i, j))
				continue;
			for (k = 0; k < n; k++) {
				uint64_t acc;
				const struct vigil_glob *g =
					vigil_policy_rule_at(ps,
							     VIGIL_CLASS_FILE,
							     k, &acc);

				if ((acc & VIGIL_FILE_X) &&
				    vigil_glob_match(g, c, strlen(c)))
					break;
			}
			if (k == n)
				continue;
			sr->children[sr->nchildren] = strdup(c);
			if (!sr->children[sr->nchildren])
				return -ENOMEM;
			sr->nchildren++;
		}
	}
	return 0;
}

size_t candidate_warn_unnamed_children(const struct vigil_ruleset *rs,
				       const struct vigil_policy *pol,
				       const char *file)
{
	size_t i, warned = 0;

	for (i = 0; i < rs->nsubjects; i++) {
		const struct vigil_subject_rules *sr = &rs->subjects[i];
		const struct vigil_policy_subject *ps =
			vigil_policy_subject_at(pol, sr->block);
		struct vigil_policy_name chain[2];
		unsigned int k, n, nchain = 0, nshown = 0, more = 0;
		char *list = NULL, *e;
		size_t ll = 0;
		FILE *f;

		if (!ps)
			continue;
		/* the child's chain: the subject, and what it runs under */
		chain[nchain].s = sr->exe;
		chain[nchain++].len = strlen(sr->exe);
		if (sr->via) {
			chain[nchain].s = sr->via;
			chain[nchain++].len = strlen(sr->via);
		}
		f = open_memstream(&list, &ll);
		if (!f)
			return warned;
		n = vigil_policy_class_nr_rules(ps, VIGIL_CLASS_FILE);
		for (k = 0; k < n; k++) {
			uint64_t acc;
			const struct vigil_glob *g =
				vigil_policy_rule_at(ps, VIGIL_CLASS_FILE, k,
						     &acc);
			const char *lit;
			size_t len;

			if (!(acc & VIGIL_FILE_X))
				continue;
			lit = vigil_glob_literal(g, &len);
			if (!lit || (len == strlen(sr->exe) &&
				     !memcmp(lit, sr->exe, len)) ||
			    vigil_policy_find_subject(pol, lit, len, chain,
						      nchain,
						      VIGIL_POLICY_UCLASS_ALL))
				continue;
			if (nshown == 3) {
				more++;
				continue;
			}
			e = strndup(lit, len);
			lit = e ? esc_text_dup(e) : NULL;
			free(e);
			fprintf(f, "%s%s", nshown++ ? ", " : "", lit ? lit : "?");
			free((char *)lit);
		}
		if (more)
			fprintf(f, " and %u more", more);
		if (fclose(f) || !list) {
			free(list);
			return warned;
		}
		if (nshown) {
			e = esc_text_dup(sr->exe);
			p_warn("%s:%u: subject %s runs %s (file x), which no "
			       "block names when it runs it: an enforcing "
			       "module runs it under %s's own rules (AppArmor "
			       "ix, Landlock's inherited ruleset, the same "
			       "SELinux domain), so what it does beyond them "
			       "is denied, while vigil's observe mode does "
			       "not judge it; add its block (vigil generate "
			       "--subject %s --children)", shown(file),
			       sr->line, e ? e : "?", list, e ? e : "?",
			       e ? e : "?");
			free(e);
			warned++;
		}
		free(list);
	}
	return warned;
}

static bool wanted(char *const *subjects, size_t n, const char *exe)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(subjects[i], exe))
			return true;
	return !n;
}

/* The block of rs (other than self) whose exe is exe, a plain one first. */
static ssize_t block_of(const struct vigil_ruleset *rs, size_t self,
			const char *exe)
{
	ssize_t any = -1;
	size_t i;

	for (i = 0; i < rs->nsubjects; i++) {
		if (i == self || strcmp(rs->subjects[i].exe, exe))
			continue;
		if (!rs->subjects[i].via)
			return (ssize_t)i;
		if (any < 0)
			any = (ssize_t)i;
	}
	return any;
}

/*
 * Each via block's parent: the block of its via. -EINVAL with err when
 * there is none or the via blocks run under each other in a loop.
 */
static int find_parents(struct vigil_ruleset *rs, char *err, size_t err_size)
{
	size_t i, j, steps;

	for (i = 0; i < rs->nsubjects; i++) {
		struct vigil_subject_rules *sr = &rs->subjects[i];
		ssize_t p;

		if (!sr->via)
			continue;
		p = block_of(rs, i, sr->via);
		if (p < 0) {
			snprintf(err, err_size, "line %u: subject %s via %s: "
				 "no block of %s in this export: a via block "
				 "is exported inside the profile, domain or "
				 "ruleset of the block it runs under (add "
				 "that block, or drop 'via' to export it as "
				 "a program of its own)", sr->line, sr->exe,
				 sr->via, sr->via);
			return -EINVAL;
		}
		sr->parent = (size_t)p;
	}
	for (i = 0; i < rs->nsubjects; i++) {
		for (j = i, steps = 0; rs->subjects[j].via &&
		     steps <= rs->nsubjects; steps++)
			j = rs->subjects[j].parent;
		if (rs->subjects[j].via) {
			snprintf(err, err_size, "line %u: subject %s via %s: "
				 "its via blocks run under each other in a "
				 "loop: no program of its own runs them",
				 rs->subjects[i].line, rs->subjects[i].exe,
				 rs->subjects[i].via);
			return -EINVAL;
		}
	}
	return 0;
}

static bool same_via(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

int vigil_ruleset_from_policy(const struct vigil_policy *pol,
			      const unsigned int *lines,
			      const struct vigil_ruleset *obs,
			      const struct vigil_via_evidence *ev,
			      char *const *subjects, size_t nsubjects,
			      struct vigil_ruleset *ret, char *err,
			      size_t err_size)
{
	struct vigil_ruleset rs = { 0 };
	unsigned int i, n = vigil_policy_nr_subjects(pol), k, m;
	size_t cap, j;
	int rc = -ENOMEM, c;

	rs.subjects = calloc(n ? n : 1, sizeof(*rs.subjects));
	if (!rs.subjects)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct vigil_policy_subject *ps =
			vigil_policy_subject_at(pol, i);
		const struct vigil_glob *sg = vigil_policy_subject_glob(ps);
		const struct vigil_glob *vg = vigil_policy_subject_via(ps);
		const struct vigil_subject_rules *o = NULL;
		struct vigil_subject_rules *sr;
		const char *lit, *vlit = NULL;
		size_t len, vlen = 0, x;
		bool dup = false;

		lit = vigil_glob_literal(sg, &len);
		if (!lit) {
			snprintf(err, err_size, "subject %s is a glob: an "
				 "export needs one executable per block",
				 vigil_glob_source(sg, &len));
			rc = -EINVAL;
			goto fail;
		}
		if (vg) {
			vlit = vigil_glob_literal(vg, &vlen);
			if (!vlit) {
				snprintf(err, err_size, "line %u: subject %s "
					 "via %s: the via glob must name one "
					 "executable (the block it runs under) "
					 "for an export",
					 lines ? lines[i] : 0,
					 vigil_glob_source(sg, &len),
					 vigil_glob_source(vg, &vlen));
				rc = -EINVAL;
				goto fail;
			}
		}
		sr = &rs.subjects[rs.nsubjects];
		sr->exe = strndup(lit, len);
		sr->via = vlit ? strndup(vlit, vlen) : NULL;
		if (!sr->exe || (vlit && !sr->via))
			goto fail;
		sr->line = lines ? lines[i] : 0;
		sr->block = i;
		/* a later block of the same exe and via is never used */
		for (x = 0; x < rs.nsubjects; x++)
			dup |= !strcmp(rs.subjects[x].exe, sr->exe) &&
			       same_via(rs.subjects[x].via, sr->via);
		if (dup || (!wanted(subjects, nsubjects, sr->exe) &&
			    !(sr->via &&
			      wanted(subjects, nsubjects, sr->via)))) {
			free(sr->exe);
			free(sr->via);
			sr->exe = sr->via = NULL;
			continue;
		}
		rs.nsubjects++;
		/* evidence: the exe's observations; for a via block, those
		 * of the tasks run under its via */
		if (obs && !sr->via) {
			o = export_find_subject(obs, sr->exe);
		} else if (obs && ev) {
			for (x = 0; x < ev->n; x++)
				if (!strcmp(ev->via[x], sr->via))
					o = export_find_subject(&ev->rs[x],
								sr->exe);
		}
		if (o) {
			sr->events = o->events;
			sr->first = o->first;
			sr->last = o->last;
		}
		cap = 0;
		for (c = 0; c < VIGIL_CLASS_COUNT; c++)
			cap += vigil_policy_class_nr_rules(ps, c);
		sr->rules = calloc(cap ? cap : 1, sizeof(*sr->rules));
		if (!sr->rules)
			goto fail;
		for (c = 0; c < VIGIL_CLASS_COUNT; c++) {
			m = vigil_policy_class_nr_rules(ps, c);
			for (k = 0; k < m; k++) {
				uint64_t acc;
				const struct vigil_glob *g =
					vigil_policy_rule_at(ps, c, k, &acc);

				rc = rule_of(&sr->rules[sr->nrules], c, acc,
					     g, o);
				sr->nrules++;
				if (rc)
					goto fail;
			}
		}
	}
	for (j = 0; j < nsubjects; j++) {
		if (!export_find_subject(&rs, subjects[j])) {
			snprintf(err, err_size, "subject '%s' is not in the "
				 "candidate", subjects[j]);
			rc = -ENOENT;
			goto fail;
		}
	}
	rc = find_parents(&rs, err, err_size);
	if (rc)
		goto fail;
	rc = find_children(&rs, pol);
	if (rc)
		goto fail;
	if (obs) {
		rs.first = obs->first;
		rs.last = obs->last;
		rs.records = obs->records;
	}
	*ret = rs;
	return 0;
fail:
	vigil_ruleset_free(&rs);
	return rc;
}

int candidate_read(const char *file, char **ret_text, size_t *ret_len,
		   struct vigil_policy **ret_pol)
{
	struct vigil_policy_error perr = { 0 };
	char *text = NULL;
	size_t len = 0;
	int rc;

	*ret_pol = NULL;
	if (ret_text)
		*ret_text = NULL;
	rc = read_file(file, VIGIL_POLICY_MAX_BYTES, &text, &len);
	if (rc) {
		p_err("%s: %s", file,
		      rc == -EFBIG ? "policy larger than 1 MiB (the kernel's "
				     "limit)" : strerror(-rc));
		return rc;
	}
	rc = vigil_policy_parse(text, len, ret_pol, &perr);
	if (rc) {
		p_err("%s:%u: %s", file, perr.line,
		      perr.msg[0] ? perr.msg : strerror(-rc));
		free(text);
		*ret_pol = NULL;
		return rc;
	}
	if (ret_text) {
		*ret_text = text;
		*ret_len = len;
	} else {
		free(text);
	}
	return 0;
}
