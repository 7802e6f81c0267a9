/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: a parsed candidate policy as a rule set (candidate.c),
 * what "vigil export CANDIDATE" translates.
 */
#ifndef VIGIL_ANALYZER_CANDIDATE_H
#define VIGIL_ANALYZER_CANDIDATE_H

#include <stddef.h>

#include "rules.h"
#include "policy.h"

/*
 * The rules of pol, one subject per block (in file order; a later block
 * of the same executable is never used by the kernel and is skipped),
 * only those named in subjects[0..nsubjects) when nsubjects > 0. Each
 * rule is the candidate's: class, access and glob (r->glob, its canonical
 * source); r->generalised when the glob is not one literal object. obs:
 * observations (a strict rule set from the database) or NULL; each rule
 * gets the count, times and up to 3 examples of the observed objects of
 * its class it covers (a via block: ev's, for its via; ev may be NULL).
 * Children: the other subjects an exec rule (x)
 * names. A block "via V" keeps V in sr->via and its parent (the block
 * of V, a plain one first) in sr->parent; it is kept when its exe or V
 * is named. lines: each block's line in the file (NULL: unknown), for
 * the errors and sr->line. A later block of the same exe and via is
 * skipped. Return 0; -EINVAL (a glob subject or via, a via block
 * without the block it runs under, via blocks in a loop) or -ENOENT (a
 * named subject not in pol) with err filled; -ENOMEM.
 */
/* The observations of the tasks run under each via[i] (strict, one
 * subject per exe): a via block's evidence. */
struct vigil_via_evidence {
	char **via;
	struct vigil_ruleset *rs;
	size_t n;
};

int vigil_ruleset_from_policy(const struct vigil_policy *pol,
			      const unsigned int *lines,
			      const struct vigil_ruleset *obs,
			      const struct vigil_via_evidence *ev,
			      char *const *subjects, size_t nsubjects,
			      struct vigil_ruleset *ret, char *err,
			      size_t err_size);

/*
 * Warn (p_warn, naming file and the block's line) of each program a
 * subject of rs may run (a literal "file x" rule) that no block of pol
 * names when that subject runs it: an enforcing module runs it under the
 * subject's own rules (AppArmor's ix, Landlock's inherited ruleset,
 * SELinux's domain, the unit's sandbox), so what it does beyond them is
 * denied, while vigil's observe mode does not judge it. The number of
 * subjects warned of.
 */
size_t candidate_warn_unnamed_children(const struct vigil_ruleset *rs,
				       const struct vigil_policy *pol,
				       const char *file);

/*
 * Read the candidate policy file ("-": standard input) and parse it with
 * the kernel's parser. 0, with *ret_pol and (ret_text not NULL) the text,
 * NUL-terminated, *ret_len bytes, both the caller's. Else the error is
 * said (p_err) as "FILE: why" (unreadable, larger than 1 MiB) or
 * "FILE:LINE: why" (the parser's), nothing is returned, and the result is
 * read_file's -errno or the parser's.
 */
int candidate_read(const char *file, char **ret_text, size_t *ret_len,
		   struct vigil_policy **ret_pol);

#endif /* VIGIL_ANALYZER_CANDIDATE_H */
