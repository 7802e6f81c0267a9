// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: review's writing: the answers as additions to each
 * block (before its closing "}") and new blocks, applied to the
 * candidate's text with every hand edit kept, written atomically (signals
 * held) after checking the file did not change. review.c is the verb;
 * docs/review.md.
 */
#include <errno.h>
#include <signal.h>
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

/* ---- writing ---- */


static void put_evidence_comment(FILE *f, const struct review *rv,
				 const struct question *q, const char *what)
{
	fprintf(f, "\t# vigil review: %s (%s risk: %s); ", what,
		review_risk_name(q->risk.level), q->risk.why);
	review_put_seen(f, rv, q);
	fputc('\n', f);
}

static void put_policy_rule(FILE *f, enum vigil_class class, uint64_t access,
			    const char *glob)
{
	char acc[256];

	vigil_access_format(class, access, acc, sizeof(acc));
	fprintf(f, "\t%s %s %s\n", vigil_class_name(class), acc, glob);
}

/* The decisions as text: into each block, or new blocks at the end. */
int review_make_edits(struct review *rv, struct edits *e)
{
	e->block = calloc(rv->pt.nblocks + 1, sizeof(*e->block));
	e->block_len = calloc(rv->pt.nblocks + 1, sizeof(*e->block_len));
	e->bf = calloc(rv->pt.nblocks + 1, sizeof(*e->bf));
	e->new_exe = calloc(rv->nq + 1, sizeof(*e->new_exe));
	if (!e->block || !e->block_len || !e->bf || !e->new_exe)
		return -ENOMEM;
	e->tail = open_memstream(&e->tail_text, &e->tail_len);
	if (!e->tail)
		return -ENOMEM;
	/* new blocks: one per subject, its questions in order */
	for (size_t i = 0; i < rv->nq; i++) {
		const struct question *q = &rv->q[i];
		size_t k;
		char *esc;

		if (q->block >= 0 || (q->answer != 'a' && q->answer != 'g'))
			continue;
		for (k = 0; k < e->nnew && strcmp(e->new_exe[k], q->exe); k++)
			;
		if (k < e->nnew)
			continue;
		e->new_exe[e->nnew++] = (char *)q->exe;
		esc = vigil_glob_escape_dup(q->exe, strlen(q->exe), false);
		if (!esc)
			return -ENOMEM;
		fprintf(e->tail, "\n# vigil review: a new block\nsubject %s {\n",
			esc);
		free(esc);
		for (size_t j = i; j < rv->nq; j++) {
			const struct question *p = &rv->q[j];

			if (p->block >= 0 || strcmp(p->exe, q->exe) ||
			    (p->answer != 'a' && p->answer != 'g'))
				continue;
			if (p->answer == 'g') {
				put_evidence_comment(e->tail, rv, p, "a glob");
				put_policy_rule(e->tail, p->class, p->miss,
						p->glob);
				continue;
			}
			put_evidence_comment(e->tail, rv, p, "as seen");
			for (k = 0; k < p->nitems; k++) {
				const struct item *it =
					&rv->items[p->items[k]];

				put_policy_rule(e->tail, p->class, it->miss,
						it->r->glob);
			}
		}
		fputs("}\n", e->tail);
	}
	for (size_t i = 0; i < rv->nq; i++) {
		const struct question *q = &rv->q[i];
		FILE *f;
		char *esc;

		if (q->answer == 's' || (q->block < 0 && q->answer != 'l'))
			continue;
		if (q->block < 0) {
			f = e->tail;
		} else {
			if (!e->bf[q->block]) {
				e->bf[q->block] = open_memstream(
					&e->block[q->block],
					&e->block_len[q->block]);
				if (!e->bf[q->block])
					return -ENOMEM;
			}
			f = e->bf[q->block];
		}
		if (q->answer == 'g') {
			put_evidence_comment(f, rv, q, "a glob");
			put_policy_rule(f, q->class, q->miss, q->glob);
			continue;
		}
		if (q->answer == 'a') {
			put_evidence_comment(f, rv, q, "as seen");
			for (size_t k = 0; k < q->nitems; k++) {
				const struct item *it =
					&rv->items[q->items[k]];

				put_policy_rule(f, q->class, it->miss,
						it->r->glob);
			}
			continue;
		}
		/* left out: the glob if one was offered, else each object */
		esc = vigil_glob_escape_dup(q->exe, strlen(q->exe), false);
		if (!esc)
			return -ENOMEM;
		if (q->glob) {
			char acc[256];

			vigil_access_format(q->class, q->miss, acc,
					    sizeof(acc));
			fprintf(f, "%s%s%s %s %s %s\n", f == e->tail ? "" :
				"\t", LEFT_OUT, esc, vigil_class_name(q->class),
				acc, q->glob);
		} else {
			for (size_t k = 0; k < q->nitems; k++) {
				const struct item *it =
					&rv->items[q->items[k]];
				char acc[256];

				vigil_access_format(q->class, it->miss, acc,
						    sizeof(acc));
				fprintf(f, "%s%s%s %s %s %s\n",
					f == e->tail ? "" : "\t", LEFT_OUT, esc,
					vigil_class_name(q->class), acc,
					it->r->glob);
			}
		}
		free(esc);
	}
	for (size_t b = 0; b < rv->pt.nblocks; b++)
		if (e->bf[b] && fclose(e->bf[b]))
			return -ENOMEM;
	free(e->bf);
	e->bf = NULL;
	if (fclose(e->tail))
		return -ENOMEM;
	e->tail = NULL;
	return 0;
}

void review_edits_free(struct edits *e, size_t nblocks)
{
	if (e->bf)
		for (size_t b = 0; b < nblocks; b++)
			if (e->bf[b])
				fclose(e->bf[b]);
	free(e->bf);
	if (e->tail)
		fclose(e->tail);
	if (e->block)
		for (size_t b = 0; b < nblocks; b++)
			free(e->block[b]);
	free(e->block);
	free(e->block_len);
	free(e->tail_text);
	free(e->new_exe);
}

/* The candidate's text with the edits: every line of it kept. */
int review_apply_edits(const struct review *rv, const struct edits *e,
		       char **ret, size_t *ret_len)
{
	FILE *f = open_memstream(ret, ret_len);
	size_t pos = 0;
	unsigned int line = 0;

	if (!f)
		return -ENOMEM;
	while (pos < rv->len) {
		const char *s = rv->text + pos;
		const char *nl = memchr(s, '\n', rv->len - pos);
		size_t l = nl ? (size_t)(nl - s) + 1 : rv->len - pos;

		line++;
		for (size_t b = 0; b < rv->pt.nblocks; b++)
			if (rv->pt.blocks[b].close_line == line &&
			    e->block[b])
				fwrite(e->block[b], 1, e->block_len[b], f);
		fwrite(s, 1, l, f);
		pos += l;
	}
	if (e->tail_len) {
		if (rv->len && rv->text[rv->len - 1] != '\n')
			fputc('\n', f);
		fwrite(e->tail_text, 1, e->tail_len, f);
	}
	return fclose(f) ? -ENOMEM : 0;
}

/*
 * Write text over the candidate: refused when the file changed since it
 * was read (a hand edit made meanwhile is never lost); checked by the
 * parser first; temporary file and rename with the terminal's signals
 * held, so an interrupt leaves the old file or the new one, whole.
 */
int review_write_candidate(const struct review *rv, const char *text,
			   size_t len)
{
	struct vigil_policy_error perr = { 0 };
	struct vigil_policy *pol = NULL;
	sigset_t hold, old;
	char *now = NULL;
	size_t nlen;
	int rc;

	if (len > VIGIL_POLICY_MAX_BYTES) {
		p_err("%s: the reviewed policy would be larger than 1 MiB (the "
		      "kernel's limit): nothing written", shown(rv->file));
		return -EFBIG;
	}
	rc = vigil_policy_parse(text, len, &pol, &perr);
	vigil_policy_free(pol);
	if (rc) {
		p_err("%s: the reviewed text fails the parser at line %u (%s):"
		      " nothing written (a bug)", shown(rv->file), perr.line,
		      perr.msg);
		return -EINVAL;
	}
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigaddset(&hold, SIGTSTP);
	sigprocmask(SIG_BLOCK, &hold, &old);
	rc = read_file(rv->file, VIGIL_POLICY_MAX_BYTES, &now, &nlen);
	if (rc) {
		p_err("%s: %s: nothing written", shown(rv->file),
		      strerror(-rc));
	} else if (nlen != rv->len || memcmp(now, rv->text, nlen)) {
		p_err("%s changed while it was reviewed: nothing written "
		      "(run review again)", shown(rv->file));
		rc = -EAGAIN;
	} else {
		rc = write_file_atomic(rv->file, text, len);
		if (rc)
			p_err("%s: %s: nothing written", shown(rv->file),
			      strerror(-rc));
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(now);
	return rc;
}

