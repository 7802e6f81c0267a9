/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: what rules.c (the model, the heuristics) and
 * rules_load.c (the observations from the database) share.
 */
#ifndef VIGIL_ANALYZER_RULES_INT_H
#define VIGIL_ANALYZER_RULES_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"

struct blast;

/* One observed (class, object) of a subject, before generalisation. */
struct obs {
	enum vigil_class class;
	uint64_t access;
	char *object;
	uint64_t count;
	int64_t first, last;
	bool exec;		/* some of it was op=exec */
	struct vigil_uids uids;
};

void rules_minmax(int64_t *first, int64_t *last, int64_t f, int64_t l);
/* Add uid to u (sorted, once); past VIGIL_UIDS_MAX only u->more is set. */
void rules_uids_add(struct vigil_uids *u, uint32_t uid);
/* Whether s holds a glob metacharacter. */
bool rules_has_meta(const char *s);
/*
 * Build the rules of one subject from its observations (consumed); the
 * tuples no policy line can hold are added to *skipped.
 */
int rules_subject_build(struct vigil_subject_rules *sr, struct obs *obs,
			size_t nobs, bool strict, struct blast *b,
			uint64_t *skipped);

#endif /* VIGIL_ANALYZER_RULES_INT_H */
