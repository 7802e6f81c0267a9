/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil: persons: the owners of subordinate uid ranges (person.c). */
#ifndef _SECURITY_VIGIL_PERSON_H
#define _SECURITY_VIGIL_PERSON_H

#include <linux/types.h>
#include <linux/uidgid.h>

#include "vigil_limits.h"

/*
 * person.c: the owners of subordinate uid ranges (the owners file): a uid
 * in a range is charged to its owner.
 */
struct vigil_owner_range {
	u32 first;
	u32 count;
	u32 owner;
};

struct vigil_owners {
	unsigned int n;
	struct vigil_owner_range r[];	/* sorted, not overlapping */
};

kuid_t vigil_person(kuid_t uid);
kuid_t vigil_owners_lookup(const struct vigil_owners *o, u32 uid);
int vigil_owners_parse(const char *text, struct vigil_owners **ret,
		       char *err, size_t errsize);
void vigil_owners_replace(struct vigil_owners *o);
char *vigil_owners_dump(size_t *ret_len);

#endif /* _SECURITY_VIGIL_PERSON_H */
