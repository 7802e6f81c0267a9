/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: review's parts (review.c the verb; review_plan.c what
 * the candidate lacks, grouped into questions and ranked by risk;
 * review_ask.c the questions and answers; review_write.c the candidate
 * rewritten), and what they share. Not for the rest of the analyzer.
 */
#ifndef VIGIL_ANALYZER_REVIEW_INT_H
#define VIGIL_ANALYZER_REVIEW_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "blast.h"
#include "intern.h"
#include "policy.h"
#include "ptext.h"
#include "review.h"
#include "rules.h"

#define LEFT_OUT "# vigil review: left out "

/* One observed object the candidate lacks some access on. */
struct item {
	const struct vigil_subject_rules *sr;	/* strict: one per chain */
	const struct vigil_rule *r;		/* one observed object */
	uint64_t miss;				/* what to ask about */
	long block;	/* the candidate's block of its uid class, -1: none */
};

/* One question: the items of one subject, class and glob or folder. */
struct question {
	const char *exe;
	long block;		/* the candidate's block, -1: none */
	enum vigil_class class;
	uint64_t miss;		/* the union of the items' */
	const void *key;	/* a generate glob (rule), or an item */
	const struct vigil_rule *gen;	/* generate's glob covering them */
	char *folder;		/* the folder key (malloc'd) */
	size_t *items, nitems, cap;
	char *glob;		/* the glob offered, policy form, or NULL */
	char *glob_note;	/* why and its blast radius, or why none */
	struct review_risk risk;
	char answer;		/* 'a' 'g' 'l', or 's' (not decided) */
};

/* A "# vigil review: left out SUBJECT CLASS ACCESS GLOB" line. */
struct left_out {
	struct vigil_glob *subject, *glob;
	enum vigil_class class;
	uint64_t access;
};

struct review {
	const char *file;
	char *text;
	size_t len;
	struct vigil_policy *pol, *bound;
	struct ptext pt;
	struct left_out *lo;
	size_t nlo, lo_cap;
	struct vigil_ruleset strict, gen;
	struct blast *blast;
	struct item *items;
	size_t nitems, items_cap;
	struct item *findings;
	size_t nfindings, findings_cap;
	struct question *q;
	size_t nq, q_cap;
	size_t left_earlier;	/* items a left-out line already covers */
	/* what an AppArmor complain trial showed (its ALLOWED records read
	 * as would-be denials): review_aa_key()s */
	struct strtab aa;
};

/* The key of an access in review.aa: EXE, CLASS and OBJECT (malloc'd). */
char *review_aa_key(const char *exe, enum vigil_class class,
		    const char *object, size_t *len);
/* Whether AppArmor's trial showed item it (review.aa). */
bool review_aa_showed(const struct review *rv, const struct item *it);

/* Where answers come from. */
struct answers {
	FILE *in;
	const char *name;	/* the file, or NULL: the terminal */
	unsigned int line;
	char *buf;
	size_t cap;
};

/* The additions for each block, and the new blocks. */
struct edits {
	char **block;		/* per block: text before its "}" */
	size_t *block_len;
	FILE **bf;
	FILE *tail;		/* new blocks and left-out lines at the end */
	char *tail_text;
	size_t tail_len;
	char **new_exe;		/* subjects given a new block (in tail) */
	size_t nnew;
};

/* ---- review_plan.c ---- */
/* The candidate's left-out lines (rv->text): 0 or -ENOMEM. */
int review_left_out_read(struct review *rv);
void review_left_out_free(struct review *rv);
/* What the candidate lacks (rv->strict, rv->gen), as questions grouped,
 * each with its glob offered and its risk, riskiest first. 0 or -ENOMEM. */
int review_plan(struct review *rv);

/* ---- review_ask.c ---- */
/* A question (i of n) as terminal text; its prompt; its evidence; the
 * findings beyond the bound; the next answer (a letter of "aglesfq", 0
 * at the end of the answers, -1 after naming a bad one from a file). */
void review_put_question(FILE *f, const struct review *rv,
			 const struct question *q, size_t i, size_t n);
void review_put_findings(FILE *f, const struct review *rv);
void review_put_prompt(FILE *f, const struct question *q);
/* What its items saw: counts, times, uids (a comment's text too). */
void review_put_seen(FILE *f, const struct review *rv,
		     const struct question *q);
int review_next_answer(struct answers *a, const struct question *q);
void review_put_evidence(FILE *f, const struct review *rv,
			 const struct question *q);

/* ---- review_write.c ---- */
/* The answers as additions per block and new blocks; applied to the
 * candidate's text; written atomically (0, or the error said). */
int review_make_edits(struct review *rv, struct edits *e);
int review_apply_edits(const struct review *rv, const struct edits *e,
		       char **ret, size_t *ret_len);
int review_write_candidate(const struct review *rv, const char *text,
			   size_t len);
void review_edits_free(struct edits *e, size_t nblocks);

#endif /* VIGIL_ANALYZER_REVIEW_INT_H */
