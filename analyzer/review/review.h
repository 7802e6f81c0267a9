/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil analyzer: review.c, "vigil review": its risk ranking. */
#ifndef VIGIL_ANALYZER_REVIEW_H
#define VIGIL_ANALYZER_REVIEW_H

#include <stdint.h>

#include "ops.h"

/* How much a grant widens what a compromised program could do. */
enum {
	REVIEW_RISK_ROUTINE = 0,	/* its libraries, its own config */
	REVIEW_RISK_MEDIUM = 1,
	REVIEW_RISK_HIGH = 2,		/* asked first, apart */
};
struct review_risk {
	int level;
	const char *why;	/* a phrase: "write and exec on one path" */
};

/*
 * The risk of granting access (bits of class) on object (the observed
 * one: a path, a capability name, a net address, a target executable)
 * to the program exe; glob: the glob offered for it (unescaped '*'
 * operators), or NULL; sensitive: the sensitive pattern object matches,
 * or NULL. High: the capabilities that widen a program's reach
 * (sys_admin, dac_override, setuid, net_raw, ...), module loading,
 * mounts, ptrace, raw sockets, a sensitive object, write and exec on one
 * path, a recursive glob within two folders of /, writes to another
 * program's or the system's files. Routine: reads and maps of libraries,
 * system data and the program's own files. Medium: the rest.
 */
void review_risk_of(const char *exe, enum vigil_class class, uint64_t access,
		    const char *object, const char *glob,
		    const char *sensitive, struct review_risk *ret);
const char *review_risk_name(int level);

#endif /* VIGIL_ANALYZER_REVIEW_H */
