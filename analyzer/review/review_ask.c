// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: review's questions and answers: each question as
 * terminal text, its evidence, the answers from the terminal or a file,
 * the findings beyond the bound. review.c is the verb; docs/review.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blast.h"
#include "escape.h"
#include "policy.h"
#include "ptext.h"
#include "record.h"
#include "review_int.h"
#include "rules.h"
#include "store.h"
#include "util.h"
#include "vigil.h"

/* ---- asking ---- */

static void put_rule(FILE *f, enum vigil_class class, uint64_t access,
		     const char *glob)
{
	char acc[256];

	vigil_access_format(class, access, acc, sizeof(acc));
	fprintf(f, "%s %s ", vigil_class_name(class), acc);
	esc_text(f, glob);
}

/* Count, times and uids of the question's items. */
void review_put_seen(FILE *f, const struct review *rv,
		     const struct question *q)
{
	uint64_t count = 0;
	int64_t first = INT64_MAX, last = INT64_MIN;
	struct vigil_uids u = { 0 };
	char t1[32], t2[32];

	for (size_t i = 0; i < q->nitems; i++) {
		const struct vigil_rule *r = rv->items[q->items[i]].r;

		count += r->count;
		first = r->first < first ? r->first : first;
		last = r->last > last ? r->last : last;
		for (unsigned int k = 0; k < r->uids.n; k++) {
			unsigned int m;

			for (m = 0; m < u.n && u.v[m] != r->uids.v[k]; m++)
				;
			if (m == u.n && u.n < VIGIL_UIDS_MAX)
				u.v[u.n++] = r->uids.v[k];
			else if (m == u.n)
				u.more = true;
		}
		u.more |= r->uids.more;
	}
	fprintf(f, "%zu object%s, count %llu, first %s, last %s", q->nitems,
		q->nitems == 1 ? "" : "s", (unsigned long long)count,
		vigil_time_iso(first, t1, sizeof(t1)),
		vigil_time_iso(last, t2, sizeof(t2)));
	for (unsigned int k = 0; k < u.n; k++)
		fprintf(f, "%s%u", k ? "," : u.n > 1 || u.more ? ", uids " :
			", uid ", (unsigned int)u.v[k]);
	fputs(u.more ? ",..." : "", f);
	for (size_t k = 0; k < q->nitems; k++)
		if (review_aa_showed(rv, &rv->items[q->items[k]])) {
			fputs("; AppArmor's trial showed it", f);
			break;
		}
}

#define SHOW_AS_SEEN 5

void review_put_question(FILE *f, const struct review *rv,
			 const struct question *q, size_t i, size_t n)
{
	fprintf(f, "\n[%zu/%zu] Severity: %s (%s)\n", i + 1, n,
		review_risk_name(q->risk.level), q->risk.why);
	fputs("  Subject: ", f);
	esc_text(f, q->exe);
	if (q->block < 0)
		fputs("  (no block yet: one is added)", f);
	fputs("\n  Seen:    ", f);
	review_put_seen(f, rv, q);
	fputs("\n   1 - as seen:", f);
	for (size_t k = 0; k < q->nitems && k < SHOW_AS_SEEN; k++) {
		const struct item *it = &rv->items[q->items[k]];

		fputs(q->nitems > 1 ? "\n         " : " ", f);
		put_rule(f, q->class, it->miss, it->r->glob);
	}
	if (q->nitems > SHOW_AS_SEEN)
		fprintf(f, "\n         (%zu more: e shows them)",
			q->nitems - SHOW_AS_SEEN);
	if (q->glob) {
		fputs("\n   2 - glob:    ", f);
		put_rule(f, q->class, q->miss, q->glob);
		fputs("\n         ", f);
		esc_text(f, q->glob_note);
	} else if (q->glob_note) {
		fputs("\n       (", f);
		esc_text(f, q->glob_note);
		fputc(')', f);
	}
	fputc('\n', f);
}

static char default_answer(const struct question *q)
{
	return q->risk.level == REVIEW_RISK_HIGH ? 's' : 'a';
}

void review_put_prompt(FILE *f, const struct question *q)
{
	char d = default_answer(q);

	fprintf(f, "  (A)llow as seen%s / (L)eave out / (E)vidence / (S)kip /"
		" (F)inish / (Q)uit [%c]: ", q->glob ? " / (G)lob" : "",
		d - 'a' + 'A');
}

void review_put_evidence(FILE *f, const struct review *rv,
			 const struct question *q)
{
	char t1[32], t2[32];

	for (size_t k = 0; k < q->nitems; k++) {
		const struct item *it = &rv->items[q->items[k]];
		const struct vigil_rule *r = it->r;

		fputs("    ", f);
		put_rule(f, q->class, it->miss, r->glob);
		fprintf(f, ": count %llu, first %s, last %s",
			(unsigned long long)r->count,
			vigil_time_iso(r->first, t1, sizeof(t1)),
			vigil_time_iso(r->last, t2, sizeof(t2)));
		for (unsigned int u = 0; u < r->uids.n; u++)
			fprintf(f, "%s%u", u ? "," : ", uid ",
				(unsigned int)r->uids.v[u]);
		if (r->pid)
			fprintf(f, ", pid %u", (unsigned int)r->pid);
		if (it->sr->chain) {
			fputs(", run via ", f);
			esc_text(f, it->sr->chain);
		}
		if (review_aa_showed(rv, it))
			fputs("; AppArmor's trial showed it", f);
		if (vigil_rule_flagged(r))
			fputs("; FLAG: never a uid this subject ran as", f);
		fputc('\n', f);
	}
}


/*
 * The next answer to q: a letter of "aglesfq" (d is l, as aa-logprof's
 * deny), or 0 at the end of the answers; -1 after naming a bad answer
 * from a file (a terminal is asked again).
 */
int review_next_answer(struct answers *a, const struct question *q)
{
	for (;;) {
		ssize_t n;
		char c;

		fflush(stdout);
		n = getline(&a->buf, &a->cap, a->in);
		if (n < 0)
			return 0;
		a->line++;
		while (n && (a->buf[n - 1] == '\n' || a->buf[n - 1] == '\r' ||
			     a->buf[n - 1] == ' ' || a->buf[n - 1] == '\t'))
			a->buf[--n] = '\0';
		if (a->name && a->buf[0] == '#')
			continue;
		if (a->name)
			printf("%s\n", a->buf[0] ? a->buf : "(default)");
		c = a->buf[0] ? a->buf[0] : default_answer(q);
		if (c >= 'A' && c <= 'Z')
			c = c - 'A' + 'a';
		if (c == 'd')
			c = 'l';
		if (c && (strchr("alesfq", c) || (c == 'g' && q->glob)))
			return c;
		if (a->name) {
			char *b = esc_text_dup(a->buf);

			p_err("%s:%u: '%s' is no answer to this question "
			      "(a%s, l or d, e, s, f, q)", shown(a->name),
			      a->line, b ? b : "?", q->glob ? ", g" : "");
			free(b);
			return -1;
		}
		printf("  '%s'? ", shown(a->buf));
		review_put_prompt(stdout, q);
	}
}


void review_put_findings(FILE *f, const struct review *rv)
{
	char t1[32];

	if (!rv->nfindings)
		return;
	fprintf(f, "\nBeyond the bound (findings, not questions: the program "
		"did this, the bound allows no program of its kind to):\n");
	for (size_t i = 0; i < rv->nfindings; i++) {
		const struct item *it = &rv->findings[i];

		fputs("  ", f);
		esc_text(f, it->sr->exe);
		fputs(": ", f);
		put_rule(f, it->r->class, it->miss, it->r->glob);
		fprintf(f, "\t# count %llu, last %s\n",
			(unsigned long long)it->r->count,
			vigil_time_iso(it->r->last, t1, sizeof(t1)));
	}
}
