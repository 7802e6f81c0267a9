// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the blocks of a candidate that judge an observed rule,
 * per uid class (see rules_block.h).
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>

#include "policy.h"
#include "ptext.h"
#include "record.h"
#include "rules_block.h"

static const char *const class_names[] = { "root", "system", "user" };

int rules_subject_blocks(const struct vigil_policy *pol,
			 const struct ptext *pt,
			 const struct vigil_subject_rules *sr,
			 struct subject_blocks *sb)
{
	struct vigil_policy_name chain[VIGIL_VIA_MAX_ELEMENTS];
	unsigned int n = vigil_via_chain(sr->chain, chain,
					 VIGIL_VIA_MAX_ELEMENTS);
	unsigned int c;

	for (c = 0; c < 4; c++) {
		unsigned int bits = c < 3 ? 1U << c : VIGIL_POLICY_UCLASS_ALL;

		sb->ps[c] = vigil_policy_find_subject(pol, sr->exe,
						      strlen(sr->exe), chain,
						      n, bits);
		sb->b[c] = pt ? ptext_find_block(pt, sr->exe, chain, n,
						 bits) : -1;
		if (pt && (sb->b[c] < 0) != !sb->ps[c])
			return -EINVAL;	/* the two readings disagree */
	}
	return 0;
}

void rules_blocks_of(const struct subject_blocks *sb,
		     const struct vigil_rule *r, struct rule_blocks *out)
{
	unsigned int classes = r->uids.classes & VIGIL_POLICY_UCLASS_ALL;
	const char *obj = r->examples[0];
	unsigned int c, k;

	memset(out, 0, sizeof(*out));
	for (c = 0; c < 3; c++) {
		unsigned int i = classes ? c : 3;
		const struct vigil_policy_subject *ps = sb->ps[i];

		if (classes && !(classes & (1U << c)))
			continue;
		for (k = 0; k < out->n && out->v[k].ps != ps; k++)
			;
		if (k == out->n) {
			out->v[k].ps = ps;
			out->v[k].b = sb->b[i];
			out->v[k].miss = ptext_missing(ps, r->class, r->access,
						       obj);
			out->miss |= out->v[k].miss;
			out->n++;
		}
		out->v[k].uclasses |= classes ? 1U << c :
					VIGIL_POLICY_UCLASS_ALL;
		if (!classes)
			break;
	}
}

int rules_policy_scoped(const struct vigil_policy *pol)
{
	const struct vigil_policy_subject *ps;
	unsigned int i;

	for (i = 0; (ps = vigil_policy_subject_at(pol, i)); i++)
		if (vigil_policy_subject_uclasses(ps) !=
		    VIGIL_POLICY_UCLASS_ALL)
			return 1;
	return 0;
}

const char *rules_uclasses_name(unsigned int uclasses, char *buf,
				size_t size)
{
	size_t at = 0;
	unsigned int c;

	if (size)
		buf[0] = '\0';
	for (c = 0; c < 3; c++)
		if (uclasses & (1U << c) && at < size)
			at += (size_t)snprintf(buf + at, size - at, "%s%s",
					       at ? "," : "", class_names[c]);
	return buf;
}
