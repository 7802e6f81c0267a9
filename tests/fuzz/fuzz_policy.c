// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the shared policy parser and matcher, as the kernel
 * runs them (the same source, built for userspace). Every accepted policy
 * must dump to a text that parses to the same dump, matching must not
 * fault, and the rule index must reach the verdicts of the linear walk
 * (vigil_policy_allows_linear()) on objects built from the policy's own
 * rules.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"

static void check_index(const struct vigil_policy_subject *s,
			enum vigil_class c, const char *obj, size_t len)
{
	static const u64 accesses[] = { 1, 2, 4, 0xfff, 0x1f };
	size_t i;

	for (i = 0; i < sizeof(accesses) / sizeof(accesses[0]); i++)
		if (vigil_policy_allows(s, c, accesses[i], obj, len) !=
		    vigil_policy_allows_linear(s, c, accesses[i], obj, len))
			abort();	/* the index lost or invented a rule */
}

/* Objects near each rule: its prefix, and that followed by "a", "/a/b". */
static void check_subject(const struct vigil_policy_subject *s)
{
	static const char *const fixed[] = {
		"", "/", "/etc/hostname", "inet:stream:8080", "sys_admin",
		"unix:stream:/run/x", "/usr/lib/x86_64-linux-gnu/libc.so.6",
	};
	static const char *const tails[] = { "", "a", "/a/b", "/" };
	char obj[4200];
	unsigned int c, i, t;
	size_t n, k;

	for (c = 0; c < VIGIL_CLASS_COUNT; c++) {
		for (k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++)
			check_index(s, c, fixed[k], strlen(fixed[k]));
		for (i = 0; i < vigil_policy_class_nr_rules(s, c) && i < 64; i++) {
			u64 access;
			const struct vigil_glob *g = vigil_policy_rule_at(s, c, i, &access);
			const char *pre = vigil_glob_prefix(g, &n);

			for (t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
				size_t tl = strlen(tails[t]);

				if (n + tl > sizeof(obj))
					continue;
				memcpy(obj, pre, n);
				memcpy(obj + n, tails[t], tl);
				check_index(s, c, obj, n + tl);
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct vigil_policy_name chain[] = {
		{ "/usr/bin/dash", 13 }, { "/usr/sbin/svc", 13 },
	};
	struct vigil_policy_error err;
	struct vigil_policy *p, *q;
	const struct vigil_policy_subject *s;
	char *a, *b;
	size_t n, m;
	unsigned int i;

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
	for (i = 0; i < 8 && vigil_policy_subject_at(p, i); i++)
		check_subject(vigil_policy_subject_at(p, i));
	/* Each uid class, and all: the kernel asks with one. */
	for (i = 0; i < 4; i++) {
		s = vigil_policy_find_subject(p, "/usr/bin/demo", 13, chain, 2,
					      i < 3 ? 1U << i :
					      VIGIL_POLICY_UCLASS_ALL);
		if (s && !(vigil_policy_subject_uclasses(s) &
			   (i < 3 ? 1U << i : VIGIL_POLICY_UCLASS_ALL)))
			abort();	/* a block of another class */
	}
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
