// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: a rule set written as a candidate policy, the text vigil
 * generate prints: a header saying what it was made from, one block per
 * subject, each rule's evidence (count, times, uids, why) and flags.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "rules_block.h"
#include "vigil.h"
#include "rules.h"
#include "policy_write.h"
#include "nodes.h"

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* "e.g. A, B, C" with the examples escaped (no newline can slip in). */
static void put_examples(FILE *f, const struct vigil_rule *r)
{
	unsigned int i;

	for (i = 0; i < r->nexamples; i++) {
		char *e = vigil_glob_escape_dup(r->examples[i],
						strlen(r->examples[i]), false);

		fprintf(f, "%s%s", i ? ", " : ", e.g. ", e ? e : "?");
		free(e);
	}
}

/* "0, 33" (", ..." when more were seen than kept). */
static void put_uid_list(FILE *f, const uint32_t *v, size_t n, bool more)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%u", i ? ", " : "", (unsigned int)v[i]);
	if (more)
		fputs(", ...", f);
}

/*
 * "PRE class user" or "PRE classes root, system": the uid classes of
 * v[0..n) (vigil_uid_class()), as the kernel keys its tuples.
 */
static void put_uid_classes(FILE *f, const char *pre, const uint32_t *v,
			    size_t n)
{
	static const char *const names[] = { "root", "system", "user" };
	bool has[3] = { false, false, false };
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		has[!v[i] ? 0 : vigil_uid_is_user(v[i]) ? 2 : 1] = true;
	for (i = 0; i < 3; i++)
		k += has[i];
	if (!k)
		return;
	fprintf(f, "%sclass%s", pre, k > 1 ? "es" : "");
	for (i = 0, k = 0; i < 3; i++)
		if (has[i])
			fprintf(f, "%s%s", k++ ? ", " : " ", names[i]);
}

/*
 * " uid root,system" for a block of generate --uid's classes, or "" when
 * it made rules of every class.
 */
static const char *uid_word(const struct vigil_ruleset *rs, char *buf,
			    size_t size)
{
	char names[32];

	if (!rs->uclasses || rs->uclasses == VIGIL_POLICY_UCLASS_ALL)
		return "";
	snprintf(buf, size, " uid %s",
		 rules_uclasses_name(rs->uclasses, names, sizeof(names)));
	return buf;
}

/* What a block's "uid" word means, above it. */
static void put_uid_scope(FILE *f, const struct vigil_ruleset *rs)
{
	char names[32];

	if (!rs->uclasses || rs->uclasses == VIGIL_POLICY_UCLASS_ALL)
		return;
	fprintf(f, "# only its accesses under uid class %s (generate --uid): "
		"vigil judges no other uid's; an export confines every uid's "
		"run of it\n",
		rules_uclasses_name(rs->uclasses, names, sizeof(names)));
}

/* "; uid 0" or "; uids 0, 33": the evidence's uids. */
static void put_uids(FILE *f, const struct vigil_uids *u)
{
	if (!u->n)
		return;
	fprintf(f, "; uid%s ", u->n > 1 || u->more ? "s" : "");
	put_uid_list(f, u->v, u->n, u->more);
}

/* Host name number h, escaped for a comment (no newline slips in). */
static void put_host(FILE *f, const struct vigil_ruleset *rs, size_t h)
{
	const char *n = h < rs->nodes->n ? rs->nodes->names[h] : "?";
	char *e = vigil_glob_escape_dup(n, strlen(n), false);

	fputs(e ? e : "?", f);
	free(e);
}

/* ": a, b, c" (the first three hosts of v, "..." after them). */
static void put_host_names(FILE *f, const struct vigil_ruleset *rs,
			   const struct vigil_rule *r)
{
	unsigned int shown = 0;
	size_t h;

	for (h = 0; h < (size_t)r->host_words * 64; h++) {
		if (!(r->hosts[h / 64] >> (h % 64) & 1))
			continue;
		if (shown == 3) {
			fputs(", ...", f);
			break;
		}
		fputs(shown++ ? ", " : ": ", f);
		put_host(f, rs, h);
	}
}

/* "# seen on N of M hosts" (the hosts named when few). */
static void put_seen_on(FILE *f, const struct vigil_ruleset *rs,
			const struct vigil_subject_rules *sr,
			const struct vigil_rule *r)
{
	fprintf(f, "\t# seen on %u of %u host%s", r->nhosts, sr->nhosts,
		sr->nhosts == 1 ? "" : "s");
	if (r->nhosts < sr->nhosts && r->nhosts <= 3)
		put_host_names(f, rs, r);
	fputc('\n', f);
}

int vigil_policy_write_rule(FILE *f, const struct vigil_ruleset *rs,
			    const struct vigil_subject_rules *sr,
			    const struct vigil_rule *r, bool compact)
{
	char acc[1024], t1[32], t2[32];

	vigil_time_iso(r->first, t1, sizeof(t1));
	vigil_time_iso(r->last, t2, sizeof(t2));
	if (r->generalised) {
		fprintf(f, "\t# why: %u distinct, count %llu, first %s, last %s",
			r->distinct, (unsigned long long)r->count, t1, t2);
		put_examples(f, r);
		fprintf(f, "; heuristic: %s", r->why ? r->why : "?");
		if (r->blast)
			fprintf(f, "; %s", r->blast);
		put_uids(f, &r->uids);
		fputc('\n', f);
	} else if (!compact) {
		fprintf(f, "\t# count %llu, first %s, last %s%s%s",
			(unsigned long long)r->count, t1, t2,
			r->blast ? "; " : "", r->blast ? r->blast : "");
		put_uids(f, &r->uids);
		fputc('\n', f);
	} else if (r->blast) {
		fprintf(f, "\t# %s\n", r->blast);
	}
	if (rs && rs->nodes && rs->nhosts > 1 && r->hosts &&
	    (!compact || r->generalised))
		put_seen_on(f, rs, sr, r);
	if (r->sensitive && !r->generalised) {
		char acc0[64];

		if (vigil_access_format(r->class, r->access, acc0,
					sizeof(acc0)) >= (int)sizeof(acc0))
			return -EINVAL;
		fprintf(f, "\t# sensitive: it matches %s of the sensitive "
			"list; the program used it (%s) while learning: keep "
			"it only if it must\n", r->sensitive, acc0);
	}
	if (vigil_rule_flagged(r)) {
		fprintf(f, "\t# FLAG: seen only under uid%s ",
			r->uids.n > 1 || r->uids.more ? "s" : "");
		put_uid_list(f, r->uids.v, r->uids.n, r->uids.more);
		put_uid_classes(f, " (", r->uids.v, r->uids.n);
		fprintf(f, "), never a uid this subject ran as (");
		put_uid_list(f, sr->service_uids, sr->nservice_uids, false);
		put_uid_classes(f, ": ", sr->service_uids, sr->nservice_uids);
		fputs("): review before keeping it\n", f);
	}
	if (vigil_access_format(r->class, r->access, acc, sizeof(acc)) >=
	    (int)sizeof(acc))
		return -EINVAL;
	fprintf(f, "\t%s %s %s\n", vigil_class_name(r->class), acc, r->glob);
	return 0;
}

/*
 * --min-hosts: the rules left out, as comments in the block: those seen on
 * the most hosts first (the nearest to being kept), at most
 * LEFT_OUT_LISTED of them; a fleet's thousands of one-host names would
 * otherwise fill the kernel's policy limit with comments. The rest are
 * counted and named by how to list them.
 */
#define LEFT_OUT_LISTED 50

static const struct vigil_rule *left_out_base;

static int by_hosts_desc(const void *a, const void *b)
{
	const struct vigil_rule *x = &left_out_base[*(const size_t *)a];
	const struct vigil_rule *y = &left_out_base[*(const size_t *)b];

	if (x->nhosts != y->nhosts)
		return x->nhosts > y->nhosts ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int put_left_out(FILE *f, const struct vigil_ruleset *rs,
			const struct vigil_subject_rules *sr)
{
	char acc[1024];
	size_t j, n, *order;

	if (!sr->nleft_out)
		return 0;
	order = calloc(sr->nleft_out, sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (j = 0; j < sr->nleft_out; j++)
		order[j] = j;
	left_out_base = sr->left_out;
	qsort(order, sr->nleft_out, sizeof(*order), by_hosts_desc);
	n = sr->nleft_out < LEFT_OUT_LISTED ? sr->nleft_out : LEFT_OUT_LISTED;
	fprintf(f, "\t# --min-hosts: %zu rule%s left out, seen on fewer "
		"than %u host%s (%u ran it); add back what it needs:\n",
		sr->nleft_out, plural(sr->nleft_out), sr->min_hosts,
		plural(sr->min_hosts), sr->nhosts);
	for (j = 0; j < n; j++) {
		const struct vigil_rule *r = &sr->left_out[order[j]];

		if (vigil_access_format(r->class, r->access, acc,
					sizeof(acc)) >= (int)sizeof(acc)) {
			free(order);
			return -EINVAL;
		}
		fprintf(f, "\t#   %s %s %s\t(%u host%s", vigil_class_name(r->class),
			acc, r->glob, r->nhosts, plural(r->nhosts));
		if (r->hosts)
			put_host_names(f, rs, r);
		fputs(")\n", f);
	}
	if (n < sr->nleft_out)
		fprintf(f, "\t#   ... and %zu more, each seen on fewer hosts than "
			"those above: 'vigil diff --node HOST CANDIDATE' lists "
			"what a host did that this candidate lacks\n",
			sr->nleft_out - n);
	free(order);
	return 0;
}

/* The policy text of rs, written to f. */
int vigil_policy_write(FILE *f, const struct vigil_ruleset *rs,
		       const char *db, bool strict, bool compact)
{
	char t1[32], t2[32], words[48];
	size_t i, j;
	int rc;

	fprintf(f, "# vigil candidate policy, generated by vigil %s\n",
		VIGIL_VERSION);
	fprintf(f, "# database: %s\n", db);
	if (rs->tuples) {
		fprintf(f, "# observed from %s to %s\n",
			vigil_time_iso(rs->first, t1, sizeof(t1)),
			vigil_time_iso(rs->last, t2, sizeof(t2)));
	} else {
		fprintf(f, "# nothing observed\n");
	}
	fprintf(f, "# %llu record%s", (unsigned long long)rs->records,
		plural(rs->records));
	if (rs->snapshot)
		fprintf(f, " and kernel snapshot %lld (%llu tuple%s)",
			(long long)rs->snapshot,
			(unsigned long long)rs->snapshot_tuples,
			plural(rs->snapshot_tuples));
	fprintf(f, ": %llu distinct tuple%s, %zu subject%s\n",
		(unsigned long long)rs->tuples, plural(rs->tuples),
		rs->nsubjects, plural(rs->nsubjects));
	if (rs->skipped)
		fprintf(f,
			"# %llu observed tuple%s cannot be written as rules "
			"(no subject, no object, or too long)\n",
			(unsigned long long)rs->skipped, plural(rs->skipped));
	fprintf(f, "# %s\n",
		strict ? "strict: one literal rule per observed object" :
			 "generalised rules say why (--strict: literal only)");
	if (rs->made_from)
		fprintf(f, "# %s\n", rs->made_from);
	if (rs->nodes && rs->nhosts > 1) {
		size_t h, shown = 0;

		fprintf(f, "# hosts: %zu (", rs->nhosts);
		for (h = 0; h < rs->nodes->n; h++) {
			if (!rs->nodes->selected[h])
				continue;
			if (shown++ == 10) {
				fputs(", ...", f);
				break;
			}
			if (shown > 1)
				fputs(", ", f);
			put_host(f, rs, h);
		}
		fputs("); each rule says on how many of the hosts that "
		      "ran its subject it was seen\n", f);
	}
	if (rs->flagged)
		fprintf(f, "# %llu rule%s marked FLAG: seen only under uids "
			"the subject never ran as (docs/generate.md)\n",
			(unsigned long long)rs->flagged, plural(rs->flagged));
	if (compact)
		fprintf(f, "# evidence of literal rules left out: the policy "
			"would exceed the kernel's 1 MiB\n");
	fprintf(f, "# review, then: vigil load FILE; vigil mode observe\n");
	for (i = 0; i < rs->nsubjects; i++) {
		const struct vigil_subject_rules *sr = &rs->subjects[i];
		char *exe = vigil_glob_escape_dup(sr->exe, strlen(sr->exe),
						  false);

		if (!exe)
			return -ENOMEM;
		fprintf(f, "\n# %llu access%s, first %s, last %s",
			(unsigned long long)sr->events,
			sr->events == 1 ? "" : "es",
			vigil_time_iso(sr->first, t1, sizeof(t1)),
			vigil_time_iso(sr->last, t2, sizeof(t2)));
		if (sr->nservice_uids) {
			fprintf(f, "; ran as uid%s ",
				sr->nservice_uids > 1 ? "s" : "");
			put_uid_list(f, sr->service_uids, sr->nservice_uids,
				     false);
		}
		if (rs->nodes && rs->nhosts > 1)
			fprintf(f, "; observed on %u of %zu hosts", sr->nhosts,
				rs->nhosts);
		fputc('\n', f);
		if (sr->via) {
			char *via = vigil_glob_escape_dup(sr->via,
							  strlen(sr->via),
							  false);

			if (!via) {
				free(exe);
				return -ENOMEM;
			}
			fprintf(f, "# only what it did run by %s (via=, at any "
				"depth); this block applies to nothing else\n",
				via);
			put_uid_scope(f, rs);
			fprintf(f, "subject %s via %s%s {\n", exe, via,
				uid_word(rs, words, sizeof(words)));
			free(via);
		} else {
			if (sr->unscoped)
				fprintf(f, "# run by a subject named here (exec "
					"records), but its records carry no "
					"via= (a kernel before exec-chain "
					"scoping): all it did, whoever ran it; "
					"this block applies to every run of it\n");
			put_uid_scope(f, rs);
			fprintf(f, "subject %s%s {\n", exe,
				uid_word(rs, words, sizeof(words)));
		}
		free(exe);
		for (j = 0; j < sr->nchildren; j++) {
			char *c = vigil_glob_escape_dup(sr->children[j],
							strlen(sr->children[j]),
							false);

			if (!c)
				return -ENOMEM;
			fprintf(f, "\t# runs subject %s\n", c);
			free(c);
		}
		for (j = 0; j < sr->nrules; j++) {
			rc = vigil_policy_write_rule(f, rs, sr, &sr->rules[j],
						     compact);
			if (rc)
				return rc;
		}
		rc = put_left_out(f, rs, sr);
		if (rc)
			return rc;
		fprintf(f, "}\n");
	}
	return ferror(f) ? -EIO : 0;
}

