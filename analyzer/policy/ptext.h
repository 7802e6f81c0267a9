/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: ptext.c: a candidate's text as blocks and rules with
 * their lines (the shared parser keeps none), for diff's "allowed but
 * never used" and review's edits in place. The text must be one
 * vigil_policy_parse() accepted.
 */
#ifndef VIGIL_ANALYZER_PTEXT_H
#define VIGIL_ANALYZER_PTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ops.h"
#include "match.h"

struct vigil_policy_name;
struct vigil_policy_subject;

/* A subject block and a rule of the policy text. */
struct pblock {
	struct vigil_glob *glob;
	struct vigil_glob *via;	/* "via GLOB", or NULL */
	char *src;		/* the subject glob as written */
	char *via_src;		/* its via glob as written, or NULL */
	unsigned int uclasses;	/* VIGIL_POLICY_UCLASS_* it judges ("uid") */
	size_t first_rule, nrules;	/* its rules in ptext.rules */
	unsigned int line, close_line;	/* "subject ... {" and its "}" */
	bool relevant;		/* first match of an observed subject */
};

struct prule {
	size_t block;
	unsigned int line;
	enum vigil_class class;
	uint64_t access, used;
	struct vigil_glob *glob;
	char *text;		/* "CLASS ACCESS OBJECT" as written */
};

struct ptext {
	struct pblock *blocks;
	size_t nblocks;
	struct prule *rules;
	size_t nrules;
};

/*
 * List the blocks and rules of text (already accepted by the parser).
 * -EINVAL (with *ret_line) only if the two readings disagree; -ENOMEM.
 */
int ptext_read(const char *text, size_t len, struct ptext *pt,
	       unsigned int *ret_line);
void ptext_free(struct ptext *pt);

/*
 * The first block whose glob matches exe, that judges one of the uid
 * classes uclasses (VIGIL_POLICY_UCLASS_* bits) and, for a via block,
 * whose via glob matches one of the ancestors chain[0..n), as the parser
 * decides it; -1 when none.
 */
long ptext_find_block(const struct ptext *pt, const char *exe,
		      const struct vigil_policy_name *chain, unsigned int n,
		      unsigned int uclasses);

/*
 * Warn (p_warn, naming file and lines) of each block whose subject and
 * via are written as an earlier block's: the kernel uses the first only,
 * so its rules are never used. text as for ptext_read. The number of
 * such blocks, or -ENOMEM.
 */
int ptext_warn_repeated(const char *file, const char *text, size_t len);

/*
 * Print an error (p_err, naming file and lines) for each pair of blocks
 * that name the same subject and via for different uid classes, of the
 * subjects[0..n) (none: all): every export target confines every uid's
 * run of a program with one set of rules, so it cannot keep them apart.
 * The number of such pairs, or -ENOMEM.
 */
int ptext_refuse_split(const char *file, const char *text, size_t len,
		       char *const *subjects, size_t nsubjects);

/* The access of rule bits r that an observed access a exercises (a write
 * rule is used by an append it covers). */
uint64_t ptext_exercised(enum vigil_class class, uint64_t r, uint64_t a);

/* What block ps (NULL: none, so nothing) does not allow of access (bits
 * of class) on obj: the bits of access it lacks, 0 when it allows all. */
uint64_t ptext_missing(const struct vigil_policy_subject *ps,
		       enum vigil_class class, uint64_t access, const char *obj);

/* A line's tokens (escapes kept), up to a comment. */
#define PTEXT_MAX_TOKENS 8
struct ptext_token {
	const char *s;
	size_t len;
};
/* Split s[0..len) into at most PTEXT_MAX_TOKENS tokens in tok; return
 * how many there are (possibly more than were kept). */
size_t ptext_tokenize(const char *s, size_t len, struct ptext_token *tok);

#endif /* VIGIL_ANALYZER_PTEXT_H */
