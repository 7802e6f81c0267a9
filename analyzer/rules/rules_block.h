/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: rules_block.c: the blocks of a candidate that judge an
 * observed rule, one per uid class its evidence was seen under ("subject
 * GLOB uid CLASSES {", docs/policy-language.md), as the kernel picks them.
 */
#ifndef VIGIL_ANALYZER_RULES_BLOCK_H
#define VIGIL_ANALYZER_RULES_BLOCK_H

#include <stdint.h>

#include "rules.h"

struct vigil_policy;
struct vigil_policy_subject;
struct ptext;

/* Up to one block per uid class (root, system, user). */
struct rule_block {
	unsigned int uclasses;	/* the rule's classes it judges */
	const struct vigil_policy_subject *ps;	/* NULL: none names them */
	long b;			/* its index in the ptext, -1 when none */
	uint64_t miss;		/* what it lacks of the rule's access */
};

struct rule_blocks {
	struct rule_block v[3];
	unsigned int n;
	uint64_t miss;		/* the union: what one of them lacks */
};

/*
 * The blocks of pol (pt its text, or NULL) that name sr's exe and exec
 * chain, looked up once per subject: one per uid class, and the first of
 * any class (for evidence of no known class).
 */
struct subject_blocks {
	const struct vigil_policy_subject *ps[4];
	long b[4];		/* -1 when none, or without pt */
};

/* Fill sb for sr. 0, or -EINVAL when pol and pt disagree. */
int rules_subject_blocks(const struct vigil_policy *pol,
			 const struct ptext *pt,
			 const struct vigil_subject_rules *sr,
			 struct subject_blocks *sb);

/*
 * The blocks of sb (its subject's) that judge rule r: for each uid class
 * of r's evidence (r->uids.classes; every class when none is known), the
 * block of that class, the classes that share one block together.
 */
void rules_blocks_of(const struct subject_blocks *sb,
		     const struct vigil_rule *r, struct rule_blocks *out);

/* Whether any block of pol judges only some uid classes. */
int rules_policy_scoped(const struct vigil_policy *pol);

/* "root", "root,user": the classes of bits uclasses into buf. */
const char *rules_uclasses_name(unsigned int uclasses, char *buf,
				size_t size);

#endif
