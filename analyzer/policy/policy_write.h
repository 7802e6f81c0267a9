/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil analyzer: a rule set written as a candidate policy (policy_write.c). */
#ifndef VIGIL_ANALYZER_POLICY_WRITE_H
#define VIGIL_ANALYZER_POLICY_WRITE_H

#include <stdbool.h>
#include <stdio.h>

#include "rules.h"

/*
 * Write rs as a policy (header comment naming db, one block per subject,
 * "# why: ..." before each generalised rule; compact: no comment before
 * literal rules, to stay under the kernel's 1 MiB). 0 or -errno.
 */
int vigil_policy_write(FILE *f, const struct vigil_ruleset *rs,
		       const char *db, bool strict, bool compact);

/*
 * One rule of sr as generate writes it: its evidence comment (# why: or
 * # count), # sensitive: and # FLAG: lines, then the rule, each line
 * starting with a tab; with rs (its ruleset, or NULL) over several
 * hosts, its "# seen on N of M hosts" too. 0 or -EINVAL.
 */
int vigil_policy_write_rule(FILE *f, const struct vigil_ruleset *rs,
			    const struct vigil_subject_rules *sr,
			    const struct vigil_rule *r, bool compact);

#endif /* VIGIL_ANALYZER_POLICY_WRITE_H */
