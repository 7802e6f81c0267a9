/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: a policy text's blocks and rules with their lines
 * (ptext.c), listed by re-reading a text the shared parser accepted (the
 * parser keeps no line numbers). vigil diff and generate --update use it.
 */
#ifndef VIGIL_ANALYZER_PTEXT_H
#define VIGIL_ANALYZER_PTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"
#include "policy.h"

/* A subject block and a rule of the policy text. */
struct pblock {
	struct vigil_glob *glob;
	struct vigil_glob *via;	/* "via GLOB", or NULL */
	char *src;		/* the subject glob as written */
	size_t first_rule, nrules;	/* its rules in ptext.rules */
	bool relevant;		/* first match of an observed subject */
	unsigned int line, end_line;	/* 'subject' and its '}' (1-based) */
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

void ptext_free(struct ptext *pt);
/*
 * List the blocks and rules of text (already accepted by the parser).
 * -EINVAL (with *ret_line) only if the two readings disagree; -ENOMEM.
 */
int ptext_read(const char *text, size_t len, struct ptext *pt,
	       unsigned int *ret_line);
/* The block the parser would pick for exe run under chain[0..n), or -1. */
long ptext_find_block(const struct ptext *pt, const char *exe,
		      const struct vigil_policy_name *chain, unsigned int n);
/* The access of rule r that observed access a exercises. */
uint64_t ptext_exercised(enum vigil_class class, uint64_t r, uint64_t a);
/* What block ps (NULL: none) does not allow of r's access on obj. */
uint64_t ptext_missing(const struct vigil_policy_subject *ps,
		       const struct vigil_rule *r, const char *obj);

#endif /* VIGIL_ANALYZER_PTEXT_H */
