// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the shared policy parser and matcher, as the kernel
 * runs them (the same source, built for userspace). Every accepted policy
 * must dump to a text that parses to the same dump, and matching must not
 * fault.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vigil_policy_error err;
	struct vigil_policy *p, *q;
	const struct vigil_policy_subject *s;
	char *a, *b;
	size_t n, m;

	if (vigil_policy_parse((const char *)data, size, &p, &err))
		return 0;
	n = vigil_policy_dump(p, NULL, 0);
	a = malloc(n + 1);
	if (!a)
		abort();
	vigil_policy_dump(p, a, n + 1);
	if (vigil_policy_parse(a, n, &q, &err))
		abort();	/* a dump that does not parse */
	m = vigil_policy_dump(q, NULL, 0);
	b = malloc(m + 1);
	if (!b)
		abort();
	vigil_policy_dump(q, b, m + 1);
	if (m != n || memcmp(a, b, n))
		abort();	/* the canonical form is not a fixed point */
	s = vigil_policy_find_subject(p, "/usr/bin/demo", 13);
	if (s) {
		vigil_policy_allows(s, VIGIL_CLASS_FILE, VIGIL_FILE_R,
				    "/etc/hostname", 13);
		vigil_policy_allows(s, VIGIL_CLASS_NET, VIGIL_NET_BIND,
				    "inet:stream:8080", 16);
	}
	free(a);
	free(b);
	vigil_policy_free(q);
	vigil_policy_free(p);
	return 0;
}
