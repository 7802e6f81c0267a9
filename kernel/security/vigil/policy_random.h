/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil: random policies and objects for the differential tests of the
 * rule index (vigil_policy_allows() against vigil_policy_allows_linear()),
 * shared by the KUnit tests (policy_test.c), the userspace unit tests
 * (tests/unit/test_policy.c) and the benchmark (tests/bench/policy-index.c).
 * Deterministic: the same seed gives the same policy in both builds.
 */
#ifndef _SECURITY_VIGIL_POLICY_RANDOM_H
#define _SECURITY_VIGIL_POLICY_RANDOM_H

#include "policy.h"

struct vigil_rand {
	u64 s;
};

static inline void vigil_rand_seed(struct vigil_rand *r, u64 seed)
{
	r->s = seed * 0x9e3779b97f4a7c15ULL + 1;
}

/* xorshift64*. */
static inline u32 vigil_rand_next(struct vigil_rand *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return (u32)((r->s * 0x2545f4914f6cdd1dULL) >> 32);
}

static inline unsigned int vigil_rand_below(struct vigil_rand *r,
					    unsigned int n)
{
	return vigil_rand_next(r) % n;
}

/* Folder and file names of objects; "" makes a "//". */
static const char *const vigil_rand_names[] = {
	"etc", "usr", "lib", "bin", "a", "b", "ab", "abc", "x.conf",
	"libc.so.6", "x86_64-linux-gnu", "share", "doc", "A", "Ab", "",
	"run", "dbus",
};

/* Pieces of a rule glob's component besides the names above. */
static const char *const vigil_rand_globs[] = {
	"*", "**", "?", "a*", "*.conf", "{a,b}", "{lib,etc/x.conf}", "a?",
	"{,a}", "l*b", "\\x41b", "{usr/lib,bin}", "*b*", "{a*,**/doc}",
	"lib{,c.so.6}", "\\x41",
};

static const char *const vigil_rand_net_rules[] = {
	"inet:stream:80", "inet:stream:*", "inet:*", "unix:stream:/run/*",
	"unix:stream:/run/dbus/system_bus_socket", "unix:dgram:/dev/log",
	"inet6:dgram:53", "*:stream:443", "unix:stream:/run/**",
	"unix:{stream,dgram}:/run/dbus/*", "inet{,6}:stream:443",
};

static const char *const vigil_rand_net_objects[] = {
	"inet:stream:80", "inet:stream:443", "inet6:stream:443",
	"unix:stream:/run/dbus/system_bus_socket", "unix:dgram:/dev/log",
	"inet6:dgram:53", "unix:stream:/run/x/y", "unix:dgram:/run/dbus/a",
	"unix:stream:/run/",
};

static const char *const vigil_rand_caps[] = {
	"sys_admin", "net_admin", "net_raw", "chown", "kill", "net_*", "*",
	"sys_*", "{chown,kill}",
};

static const char *const vigil_rand_net_words[] = {
	"socket", "bind", "connect", "listen", "accept",
};

static inline const char *vigil_rand_pick(struct vigil_rand *r,
					  const char *const *a, size_t n)
{
	return a[vigil_rand_below(r, n)];
}

struct vigil_rand_buf {
	char *s;
	size_t size;
	size_t len;
};

static inline void vigil_rand_put(struct vigil_rand_buf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->len + n < b->size) {
		memcpy(b->s + b->len, s, n);
		b->len += n;
		b->s[b->len] = '\0';
	}
}

/* Append one of a[0..n). */
static inline void vigil_rand_put_one(struct vigil_rand *r,
				      struct vigil_rand_buf *b,
				      const char *const *a, size_t n)
{
	vigil_rand_put(b, vigil_rand_pick(r, a, n));
}

/* A file rule's glob: absolute ('/' or "**" first), mostly literal. */
static inline void vigil_rand_file_glob(struct vigil_rand *r,
					struct vigil_rand_buf *b)
{
	unsigned int kind = vigil_rand_below(r, 10), d, i;

	if (kind == 0) {
		vigil_rand_put(b, "**");
		if (vigil_rand_below(r, 2))
			return;
	} else if (kind == 1) {
		vigil_rand_put(b, "{/etc,/usr/lib}");
	}
	d = 1 + vigil_rand_below(r, 4);
	for (i = 0; i < d; i++) {
		vigil_rand_put(b, "/");
		if (vigil_rand_below(r, 10) < 7)
			vigil_rand_put_one(r, b, vigil_rand_names,
					   ARRAY_SIZE(vigil_rand_names));
		else
			vigil_rand_put_one(r, b, vigil_rand_globs,
					   ARRAY_SIZE(vigil_rand_globs));
	}
	/* Sometimes a folder, or its whole tree. */
	if (!vigil_rand_below(r, 6))
		vigil_rand_put(b, vigil_rand_below(r, 2) ? "/**" : "/");
}

/* An access word of class c for a rule. */
static inline void vigil_rand_access(struct vigil_rand *r,
				     struct vigil_rand_buf *b,
				     enum vigil_class c)
{
	static const char letters[] = VIGIL_FILE_LETTERS;
	unsigned int i, n = 0;
	char one[2] = { 0, 0 };

	if (c == VIGIL_CLASS_CAP) {
		vigil_rand_put(b, "use");
		return;
	}
	if (c == VIGIL_CLASS_NET) {
		for (i = 0; i < ARRAY_SIZE(vigil_rand_net_words); i++) {
			if (vigil_rand_below(r, 3) && (n || i + 1 <
						       ARRAY_SIZE(vigil_rand_net_words)))
				continue;
			vigil_rand_put(b, n++ ? "," : "");
			vigil_rand_put(b, vigil_rand_net_words[i]);
		}
		return;
	}
	for (i = 0; i < sizeof(letters) - 1; i++) {
		if (vigil_rand_below(r, 4) && (n || i + 2 < sizeof(letters)))
			continue;
		one[0] = letters[i];
		vigil_rand_put(b, one);
		n++;
	}
}

/*
 * A policy of two blocks (/bin/a and /bin/b) of nrules rules each, mostly
 * file rules, some net and cap rules. Room: 256 bytes a rule.
 */
static inline void vigil_rand_policy(struct vigil_rand *r, char *buf,
				     size_t size, unsigned int nrules)
{
	struct vigil_rand_buf b = { .s = buf, .size = size };
	unsigned int s, i, k;

	buf[0] = '\0';
	for (s = 0; s < 2; s++) {
		vigil_rand_put(&b, s ? "subject /bin/b {\n" :
				       "subject /bin/a {\n");
		for (i = 0; i < nrules; i++) {
			k = vigil_rand_below(r, 10);
			if (k == 0) {
				vigil_rand_put(&b, "\tnet ");
				vigil_rand_access(r, &b, VIGIL_CLASS_NET);
				vigil_rand_put(&b, " ");
				vigil_rand_put_one(r, &b, vigil_rand_net_rules,
						   ARRAY_SIZE(vigil_rand_net_rules));
			} else if (k == 1) {
				vigil_rand_put(&b, "\tcap use ");
				vigil_rand_put_one(r, &b, vigil_rand_caps,
						   ARRAY_SIZE(vigil_rand_caps));
			} else {
				vigil_rand_put(&b, "\tfile ");
				vigil_rand_access(r, &b, VIGIL_CLASS_FILE);
				vigil_rand_put(&b, " ");
				vigil_rand_file_glob(r, &b);
			}
			vigil_rand_put(&b, "\n");
		}
		vigil_rand_put(&b, "}\n");
	}
}

/*
 * An object of class c (file, net or cap) in buf, and access bits of that
 * class (one bit, all, or any mix) in *ret_access. Returns its length.
 */
static inline size_t vigil_rand_object(struct vigil_rand *r,
				       enum vigil_class c, char *buf,
				       size_t size, u64 *ret_access)
{
	struct vigil_rand_buf b = { .s = buf, .size = size };
	unsigned int d, i, bits;
	const char *name;

	bits = c == VIGIL_CLASS_FILE ? 12 : c == VIGIL_CLASS_NET ? 5 : 1;
	switch (vigil_rand_below(r, 3)) {
	case 0:
		*ret_access = 1ULL << vigil_rand_below(r, bits);
		break;
	case 1:
		*ret_access = (1ULL << bits) - 1;
		break;
	default:
		*ret_access = vigil_rand_next(r) & ((1ULL << bits) - 1);
		break;
	}
	buf[0] = '\0';
	if (c == VIGIL_CLASS_NET) {
		vigil_rand_put_one(r, &b, vigil_rand_net_objects,
				   ARRAY_SIZE(vigil_rand_net_objects));
		return b.len;
	}
	if (c == VIGIL_CLASS_CAP) {
		do {
			name = vigil_rand_pick(r, vigil_rand_caps,
					       ARRAY_SIZE(vigil_rand_caps));
		} while (strpbrk(name, "*{"));
		vigil_rand_put(&b, name);
		return b.len;
	}
	if (!vigil_rand_below(r, 20))
		vigil_rand_put(&b, "relative");
	d = 1 + vigil_rand_below(r, 5);
	for (i = 0; i < d; i++) {
		vigil_rand_put(&b, "/");
		vigil_rand_put_one(r, &b, vigil_rand_names,
				   ARRAY_SIZE(vigil_rand_names));
	}
	if (!vigil_rand_below(r, 8))
		vigil_rand_put(&b, "/");
	return b.len;
}

#endif /* _SECURITY_VIGIL_POLICY_RANDOM_H */
