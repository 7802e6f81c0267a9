/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: an AppArmor complain trial's ALLOWED record as the access
 * vigil would have recorded (generate --update, review): which program's
 * block needs it, and the op, access and object of a vigil record.
 * docs/generate.md ("An AppArmor complain trial's records too") has the
 * table.
 */
#ifndef VIGIL_ANALYZER_AA_ACCESS_H
#define VIGIL_ANALYZER_AA_ACCESS_H

#include <stdbool.h>

#include "record.h"

struct aa_access {
	const char *exe;	/* whose block: what exe_of() gave */
	const char *op;		/* vigil's op word (static) */
	char access[16];	/* vigil's access text */
	char *object;		/* malloc'd: path, capability, net, exe */
	bool path;		/* object is a file's path (else a target) */
};

/*
 * What f (an ALLOWED record's fields) is to vigil. exe_of(ctx, label):
 * the stored program whose profile label is (vigil's export name for
 * it, or its path), else NULL. 0: *a filled (free a->object); 1: an
 * optional check (aa_optional()), not a would-be denial; 2: not
 * translated, *why says why (static text); -ENOMEM.
 */
int aa_access_of(const struct aa_fields *f,
		 const char *(*exe_of)(void *ctx, const char *label),
		 void *ctx, struct aa_access *a, const char **why);

#endif /* VIGIL_ANALYZER_AA_ACCESS_H */
