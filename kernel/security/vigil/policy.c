// SPDX-License-Identifier: GPL-2.0-only
/* vigil: policy language parser, canonical dump and evaluation. */

#include "policy_env.h"
#include "policy.h"

struct vigil_policy_rule {
	struct vigil_glob *glob;
	u64 access;
};

/*
 * The index of a block's rules (built by index_build()). A rule whose
 * glob is a literal is keyed by its whole text ("exact"); one whose glob
 * starts with literal bytes is keyed by them ("/usr/lib/lib" for
 * "/usr/lib/lib*.so*", "inet:stream:" for "inet:stream:*"). A rule can only
 * match an object equal to its exact key or starting with its prefix key,
 * so vigil_policy_allows() looks the object up in a hash table, and each
 * of its prefixes whose length is that of a prefix key (a bitmap of
 * them), and walks only the rules found there and the rules without a key
 * (rest[]: those starting with a wildcard or a brace with no common
 * prefix: "**.conf", "{/etc,/usr}/x").
 */
struct vigil_policy_key {
	const char *s;		/* the glob's prefix bytes */
	u32 hash;
	u32 next;		/* the next key of the bucket, or NO_KEY */
	u32 rule;		/* index in rules[] */
	u16 len;
	u8 class;
	u8 exact;
};

#define NO_KEY ((u32)-1)
/* Words of the bitmap of prefix key lengths 1..VIGIL_GLOB_MAX_LEN. */
#define KEY_LEN_WORDS ((VIGIL_GLOB_MAX_LEN + 1 + 63) / 64)

/* One block; its rules are grouped by class, in file order within one. */
struct vigil_policy_subject {
	struct vigil_glob *glob;
	struct vigil_glob *via;	/* an ancestor it must run under, or NULL */
	struct vigil_policy_rule *rules;
	unsigned int start[VIGIL_CLASS_COUNT + 1];
	/* The index: keys, buckets, rest and key_lens in one allocation. */
	struct vigil_policy_key *keys;
	u64 *key_lens;		/* bit n: a prefix key n bytes long */
	u32 *buckets;		/* first key of each bucket, or NO_KEY */
	u32 bucket_mask;	/* buckets - 1, a power of two minus one */
	u32 *rest;		/* rules without a key, grouped by class */
	unsigned int rest_start[VIGIL_CLASS_COUNT + 1];
	int mode;
	/* VIGIL_POLICY_UCLASS_*: the uid classes whose accesses it judges. */
	unsigned int uclasses;
};

struct vigil_policy {
	struct vigil_policy_subject *subjects;
	unsigned int nr_subjects;
	unsigned int nr_rules;
	bool has_modes;
};

static const char *const mode_names[] = {
	[VIGIL_POLICY_MODE_OFF] = "off",
	[VIGIL_POLICY_MODE_LEARN] = "learn",
	[VIGIL_POLICY_MODE_OBSERVE] = "observe",
};

static const char *const uclass_names[] = { "root", "system", "user" };
#define UCLASS_HINT "(root, system or user, joined by ',')"
#define SUBJECT_SYNTAX "subject GLOB [via GLOB] [uid CLASSES] [MODE] {"

/* Tokens of one line; more are counted but not kept. */
#define MAX_TOKENS 8

struct token {
	const char *s;
	size_t len;
};

struct pending_rule {
	struct vigil_glob *glob;
	u64 access;
	unsigned int class;
};

struct parser {
	struct vigil_policy *policy;
	struct vigil_policy_error *err;
	unsigned int line;
	unsigned int cap_subjects;
	bool open;		/* a subject block is open */
	unsigned int open_line;
	struct pending_rule *rules;	/* of the open block */
	unsigned int nr_rules;
	unsigned int cap_rules;
	size_t memory;		/* of compiled globs */
};

static __printf(2, 3)
int parse_error(struct parser *p, const char *fmt, ...)
{
	struct vigil_policy_error *err = p->err;
	va_list args;

	if (!err)
		return -EINVAL;
	err->line = p->line;
	va_start(args, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, args);
	va_end(args);
	return -EINVAL;
}

static bool tok_is(const struct token *t, const char *word)
{
	return strlen(word) == t->len && !memcmp(t->s, word, t->len);
}

static const char *quote(char *buf, const struct token *t)
{
	return vigil_quote(buf, VIGIL_QUOTE_SIZE, t->s, t->len);
}

/*
 * Split a line into tokens at unescaped spaces and tabs, up to a token
 * starting with '#'. Returns the number of tokens, of which the first
 * MAX_TOKENS are stored.
 */
static unsigned int tokenize(const char *s, size_t len, struct token *tok)
{
	unsigned int n = 0;
	size_t i = 0, start;

	for (;;) {
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == len || s[i] == '#')
			return n;
		start = i;
		while (i < len && s[i] != ' ' && s[i] != '\t')
			i += (s[i] == '\\' && i + 1 < len) ? 2 : 1;
		if (n < MAX_TOKENS) {
			tok[n].s = s + start;
			tok[n].len = i - start;
		}
		n++;
	}
}

/* Grow an array of *cap elements of size bytes to hold one more. */
static int grow(void **array, unsigned int *cap, unsigned int used,
		size_t size)
{
	unsigned int ncap = *cap ? *cap * 2 : 16;
	void *n;

	if (used < *cap)
		return 0;
	n = kvmalloc_array(ncap, size, GFP_KERNEL);
	if (!n)
		return -ENOMEM;
	if (used)
		memcpy(n, *array, used * size);
	kvfree(*array);
	*array = n;
	*cap = ncap;
	return 0;
}

static int compile(struct parser *p, const struct token *t,
		   struct vigil_glob **ret_glob)
{
	char why[VIGIL_QUOTE_SIZE + 64];
	int ret;

	ret = vigil_glob_compile(t->s, t->len, ret_glob, why, sizeof(why));
	if (ret == -EINVAL)
		return parse_error(p, "%s", why);
	if (ret)
		return ret;
	p->memory += vigil_glob_size(*ret_glob);
	if (p->memory > VIGIL_POLICY_MAX_MEMORY) {
		vigil_glob_free(*ret_glob);
		return parse_error(p, "policy too large once compiled (> %d bytes)",
				   VIGIL_POLICY_MAX_MEMORY);
	}
	return 0;
}

/*
 * "root", "system,user": the uid classes of a block's "uid" word into
 * *ret (VIGIL_POLICY_UCLASS_* bits), each named once.
 */
static int parse_uclasses(struct parser *p, const struct token *t,
			  unsigned int *ret)
{
	char q[VIGIL_QUOTE_SIZE];
	size_t at = 0, end, k;
	unsigned int c;

	*ret = 0;
	while (at <= t->len) {
		for (end = at; end < t->len && t->s[end] != ','; end++)
			;
		for (c = 0; c < ARRAY_SIZE(uclass_names); c++) {
			k = strlen(uclass_names[c]);
			if (end - at == k && !memcmp(t->s + at, uclass_names[c], k))
				break;
		}
		if (c == ARRAY_SIZE(uclass_names))
			return parse_error(p, "unknown uid class in '%s' " UCLASS_HINT,
					   quote(q, t));
		if (*ret & (1U << c))
			return parse_error(p, "uid class %s named twice in '%s'",
					   uclass_names[c], quote(q, t));
		*ret |= 1U << c;
		at = end + 1;
	}
	return 0;
}

/*
 * subject GLOB [via GLOB] [uid CLASSES] [MODE] {
 * tok[0] is "subject" and tok[n - 1] must be "{".
 */
static int parse_subject(struct parser *p, const struct token *tok,
			 unsigned int n)
{
	struct vigil_policy *policy = p->policy;
	struct vigil_policy_subject *s;
	struct vigil_glob *glob, *via = NULL;
	char q[VIGIL_QUOTE_SIZE];
	int mode = VIGIL_POLICY_MODE_UNSET;
	unsigned int uclasses = VIGIL_POLICY_UCLASS_ALL;
	unsigned int at = 2;	/* the token after the subject glob */
	int ret;

	if (p->open)
		return parse_error(p, "subject inside the subject block opened at line %u",
				   p->open_line);
	if (n >= 3 && n <= MAX_TOKENS && !tok_is(&tok[n - 1], "{"))
		return parse_error(p, "expected '{' at the end of the subject line");
	if (n < 3 || n > MAX_TOKENS)
		return parse_error(p, "expected '" SUBJECT_SYNTAX "', got %u tokens",
				   n);
	if (tok_is(&tok[at], "via")) {
		if (at + 2 > n - 1)
			return parse_error(p, "expected a glob after 'via'");
		at += 2;
	}
	if (at < n - 1 && tok_is(&tok[at], "uid")) {
		if (at + 2 > n - 1)
			return parse_error(p, "expected uid classes after 'uid' " UCLASS_HINT);
		ret = parse_uclasses(p, &tok[at + 1], &uclasses);
		if (ret)
			return ret;
		at += 2;
	}
	if (at < n - 1) {
		for (mode = 0; mode < (int)ARRAY_SIZE(mode_names); mode++)
			if (tok_is(&tok[at], mode_names[mode]))
				break;
		if (mode == (int)ARRAY_SIZE(mode_names))
			return parse_error(p, "unknown mode '%s' (learn, observe or off)",
					   quote(q, &tok[at]));
		at++;
	}
	if (at != n - 1)
		return parse_error(p, "expected '{' after the mode, got '%s'",
				   quote(q, &tok[at]));
	if (policy->nr_subjects == VIGIL_POLICY_MAX_SUBJECTS)
		return parse_error(p, "too many subjects (> %d)",
				   VIGIL_POLICY_MAX_SUBJECTS);
	ret = grow((void **)&policy->subjects, &p->cap_subjects,
		   policy->nr_subjects, sizeof(*s));
	if (ret)
		return ret;
	ret = compile(p, &tok[1], &glob);
	if (ret)
		return ret;
	if (tok_is(&tok[2], "via")) {
		ret = compile(p, &tok[3], &via);
		if (ret) {
			vigil_glob_free(glob);
			return ret;
		}
	}
	s = &policy->subjects[policy->nr_subjects++];
	memset(s, 0, sizeof(*s));
	s->glob = glob;
	s->via = via;
	s->mode = mode;
	s->uclasses = uclasses;
	if (mode != VIGIL_POLICY_MODE_UNSET)
		policy->has_modes = true;
	if (!vigil_glob_is_absolute(glob))
		return parse_error(p, "subject glob must start with '/' or '**': '%s'",
				   quote(q, &tok[1]));
	if (via && !vigil_glob_is_absolute(via))
		return parse_error(p, "via glob must start with '/' or '**': '%s'",
				   quote(q, &tok[3]));
	p->open = true;
	p->open_line = p->line;
	return 0;
}

/* FNV-1a over a key's bytes, seeded with its class. */
static u32 key_hash_init(unsigned int class)
{
	return 2166136261U ^ (class * 0x9e3779b9U);
}

static u32 key_hash_step(u32 h, char c)
{
	return (h ^ (u8)c) * 16777619U;
}

/* A prefix key and an exact key of the same bytes hash apart. */
static u32 key_hash_final(u32 h, bool exact)
{
	h ^= exact ? 0x5bd1e995U : 0;
	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	return h;
}

/* The key of a rule: false when it has none (its glob starts with a wildcard). */
static bool rule_key(const struct vigil_glob *glob, const char **ret_s,
		     size_t *ret_len, bool *ret_exact)
{
	size_t len;
	const char *s = vigil_glob_literal(glob, &len);

	*ret_exact = !!s;
	if (!s)
		s = vigil_glob_prefix(glob, &len);
	*ret_s = s;
	*ret_len = len;
	return len > 0;
}

/*
 * Build the index of a block whose rules are in place. Allocates with
 * GFP_KERNEL (may sleep); the lookup never allocates.
 */
static int index_build(struct vigil_policy_subject *s)
{
	unsigned int n = s->start[VIGIL_CLASS_COUNT], nkeys = 0, nrest = 0;
	unsigned int nbuckets = 1, c, i, k, r;
	size_t size;
	void *mem;

	for (i = 0; i < n; i++) {
		const char *ks;
		size_t klen;
		bool exact;

		if (rule_key(s->rules[i].glob, &ks, &klen, &exact))
			nkeys++;
		else
			nrest++;
	}
	while (nbuckets < 2 * nkeys)
		nbuckets *= 2;
	size = nkeys * sizeof(*s->keys) + KEY_LEN_WORDS * sizeof(u64) +
	       (nbuckets + nrest) * sizeof(u32);
	mem = kvzalloc(size, GFP_KERNEL);
	if (!mem)
		return -ENOMEM;
	s->keys = mem;
	s->key_lens = (u64 *)(s->keys + nkeys);
	s->buckets = (u32 *)(s->key_lens + KEY_LEN_WORDS);
	s->rest = s->buckets + nbuckets;
	s->bucket_mask = nbuckets - 1;
	for (i = 0; i < nbuckets; i++)
		s->buckets[i] = NO_KEY;
	k = 0;
	r = 0;
	for (c = 0; c < VIGIL_CLASS_COUNT; c++) {
		s->rest_start[c] = r;
		for (i = s->start[c]; i < s->start[c + 1]; i++) {
			struct vigil_policy_key *key = &s->keys[k];
			const char *ks;
			size_t klen, j;
			bool exact;
			u32 h;

			if (!rule_key(s->rules[i].glob, &ks, &klen, &exact)) {
				s->rest[r++] = i;
				continue;
			}
			h = key_hash_init(c);
			for (j = 0; j < klen; j++)
				h = key_hash_step(h, ks[j]);
			key->s = ks;
			key->len = klen;
			key->class = c;
			key->exact = exact;
			key->rule = i;
			key->hash = key_hash_final(h, exact);
			if (!exact)
				s->key_lens[klen / 64] |= 1ULL << (klen % 64);
			key->next = s->buckets[key->hash & s->bucket_mask];
			s->buckets[key->hash & s->bucket_mask] = k++;
		}
	}
	s->rest_start[VIGIL_CLASS_COUNT] = r;
	return 0;
}

/* Move the pending rules to the open subject, grouped by class. */
static int close_block(struct parser *p)
{
	struct vigil_policy_subject *s =
		&p->policy->subjects[p->policy->nr_subjects - 1];
	unsigned int next[VIGIL_CLASS_COUNT], c, i;

	p->open = false;
	if (!p->nr_rules)
		return index_build(s);
	s->rules = kvmalloc_array(p->nr_rules, sizeof(*s->rules), GFP_KERNEL);
	if (!s->rules)
		return -ENOMEM;
	memset(s->start, 0, sizeof(s->start));
	for (i = 0; i < p->nr_rules; i++)
		s->start[p->rules[i].class + 1]++;
	for (c = 0; c < VIGIL_CLASS_COUNT; c++) {
		s->start[c + 1] += s->start[c];
		next[c] = s->start[c];
	}
	for (i = 0; i < p->nr_rules; i++) {
		struct vigil_policy_rule *r = &s->rules[next[p->rules[i].class]++];

		r->glob = p->rules[i].glob;
		r->access = p->rules[i].access;
	}
	p->policy->nr_rules += p->nr_rules;
	p->nr_rules = 0;
	return index_build(s);
}

/* Whether s[0..len) is one of names, or prefix followed by digits. */
static bool net_name_known(const char *s, size_t len,
			   const char *const *names, size_t n,
			   const char *prefix)
{
	size_t i, pl = strlen(prefix);

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && !memcmp(s, names[i], len))
			return true;
	if (len <= pl || memcmp(s, prefix, pl))
		return false;
	for (i = pl; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

static bool net_literal(const char *s, size_t len)
{
	return !memchr(s, '*', len) && !memchr(s, '?', len);
}

/*
 * A net object is FAMILY:TYPE[:ADDRESS] as the kernel writes it: the
 * literal parts of it must be names it can write, and an inet port a
 * number 0..65535, or the rule could never match. The canonical source of
 * the pattern is checked (what a dump writes, so that a dump parses
 * again); one with braces or escapes is not split (a ':' may be inside an
 * alternative).
 */
static int check_net_object(struct parser *p, const struct vigil_glob *glob)
{
	static const char *const families[] = {
		"unix", "inet", "inet6", "netlink", "packet",
	};
	static const char *const types[] = {
		"stream", "dgram", "raw", "seqpacket", "rdm", "packet",
	};
	const char *c1, *c2, *addr;
	char q[VIGIL_QUOTE_SIZE];
	size_t len, flen, tlen, alen, i;
	const char *s = vigil_glob_source(glob, &len);
	unsigned int port = 0;

	if (memchr(s, '{', len) || memchr(s, '\\', len))
		return 0;
	c1 = memchr(s, ':', len);
	flen = c1 ? (size_t)(c1 - s) : len;
	if (net_literal(s, flen) &&
	    !net_name_known(s, flen, families, ARRAY_SIZE(families), "af"))
		return parse_error(p, "unknown socket family '%s'",
				   vigil_quote(q, sizeof(q), s, flen));
	if (!c1) {
		if (net_literal(s, len))
			return parse_error(p, "net object must be FAMILY:TYPE[:ADDRESS]: '%s'",
					   vigil_quote(q, sizeof(q), s, len));
		return 0;
	}
	c2 = memchr(c1 + 1, ':', len - flen - 1);
	tlen = c2 ? (size_t)(c2 - c1 - 1) : len - flen - 1;
	if (net_literal(c1 + 1, tlen) &&
	    !net_name_known(c1 + 1, tlen, types, ARRAY_SIZE(types), "type"))
		return parse_error(p, "unknown socket type '%s'",
				   vigil_quote(q, sizeof(q), c1 + 1, tlen));
	if (!c2 || !net_literal(s, flen) ||
	    !((flen == 4 && !memcmp(s, "inet", 4)) ||
	      (flen == 5 && !memcmp(s, "inet6", 5))))
		return 0;
	addr = c2 + 1;
	alen = len - (size_t)(addr - s);
	if (!net_literal(addr, alen))
		return 0;
	for (i = 0; i < alen && port <= 65535; i++) {
		if (addr[i] < '0' || addr[i] > '9')
			break;
		port = port * 10 + (unsigned int)(addr[i] - '0');
	}
	if (!alen || i < alen || port > 65535)
		return parse_error(p, "invalid port '%s' (a number 0..65535)",
				   vigil_quote(q, sizeof(q), addr, alen));
	/* records write 8089: a rule of 08089 would never match */
	if (alen > 1 && addr[0] == '0')
		return parse_error(p, "invalid port '%s' (no leading zero)",
				   vigil_quote(q, sizeof(q), addr, alen));
	return 0;
}

static int parse_rule(struct parser *p, const struct token *tok,
		      unsigned int n)
{
	struct pending_rule *r;
	struct vigil_glob *glob;
	char q[VIGIL_QUOTE_SIZE];
	const char *lit;
	size_t litlen;
	u64 access;
	int class, ret;

	if (n != 3)
		return parse_error(p, "expected 'CLASS ACCESS OBJECT', got %u token%s",
				   n, n == 1 ? "" : "s");
	class = vigil_class_from_name(tok[0].s, tok[0].len);
	if (class < 0)
		return parse_error(p, "unknown class '%s'", quote(q, &tok[0]));
	if (vigil_access_parse(class, tok[1].s, tok[1].len, &access))
		return parse_error(p, "access '%s' invalid for class %s",
				   quote(q, &tok[1]), vigil_class_name(class));
	if (p->policy->nr_rules + p->nr_rules == VIGIL_POLICY_MAX_RULES)
		return parse_error(p, "too many rules (> %d)",
				   VIGIL_POLICY_MAX_RULES);
	ret = grow((void **)&p->rules, &p->cap_rules, p->nr_rules,
		   sizeof(*r));
	if (ret)
		return ret;
	ret = compile(p, &tok[2], &glob);
	if (ret)
		return ret;
	r = &p->rules[p->nr_rules++];
	r->glob = glob;
	r->access = access;
	r->class = class;

	switch (class) {
	case VIGIL_CLASS_FILE:
	case VIGIL_CLASS_MOUNT:
	case VIGIL_CLASS_MODULE:
		if (!vigil_glob_is_absolute(glob))
			return parse_error(p, "object must start with '/' or '**': '%s'",
					   quote(q, &tok[2]));
		break;
	case VIGIL_CLASS_CAP:
		lit = vigil_glob_literal(glob, &litlen);
		if (lit && vigil_cap_from_name(lit, litlen) < 0)
			return parse_error(p, "unknown capability '%s'",
					   quote(q, &tok[2]));
		break;
	case VIGIL_CLASS_NET:
		return check_net_object(p, glob);
	default:
		break;
	}
	return 0;
}

static int parse_line(struct parser *p, const char *s, size_t len)
{
	struct token tok[MAX_TOKENS];
	char q[VIGIL_QUOTE_SIZE];
	unsigned int n;

	if (len > VIGIL_POLICY_MAX_LINE)
		return parse_error(p, "line too long (%zu > %d bytes)", len,
				   VIGIL_POLICY_MAX_LINE);
	n = tokenize(s, len, tok);
	if (!n)
		return 0;
	if (tok_is(&tok[0], "subject"))
		return parse_subject(p, tok, n);
	if (tok_is(&tok[0], "}")) {
		if (n != 1)
			return parse_error(p, "expected '}' alone on a line");
		if (!p->open)
			return parse_error(p, "'}' without an open subject block");
		return close_block(p);
	}
	if (!p->open) {
		if (vigil_class_from_name(tok[0].s, tok[0].len) >= 0)
			return parse_error(p, "rule outside a subject block");
		return parse_error(p, "unknown keyword '%s' (expected 'subject')",
				   quote(q, &tok[0]));
	}
	return parse_rule(p, tok, n);
}

void vigil_policy_free(struct vigil_policy *policy)
{
	unsigned int i, j;

	if (!policy)
		return;
	for (i = 0; i < policy->nr_subjects; i++) {
		struct vigil_policy_subject *s = &policy->subjects[i];

		if (s->rules)
			for (j = 0; j < s->start[VIGIL_CLASS_COUNT]; j++)
				vigil_glob_free(s->rules[j].glob);
		kvfree(s->rules);
		kvfree(s->keys);
		vigil_glob_free(s->glob);
		vigil_glob_free(s->via);
	}
	kvfree(policy->subjects);
	kfree(policy);
}

static void set_error(struct vigil_policy_error *err, unsigned int line,
		      const char *msg)
{
	if (err) {
		err->line = line;
		scnprintf(err->msg, sizeof(err->msg), "%s", msg);
	}
}

int vigil_policy_parse(const char *text, size_t len,
		       struct vigil_policy **ret_policy,
		       struct vigil_policy_error *err)
{
	struct parser p = { .err = err };
	const char *nul;
	size_t pos = 0;
	unsigned int i;
	int ret;

	if (err)
		memset(err, 0, sizeof(*err));
	if (len > VIGIL_POLICY_MAX_BYTES) {
		if (err)
			scnprintf(err->msg, sizeof(err->msg),
				  "policy too large (%zu > %d bytes)", len,
				  VIGIL_POLICY_MAX_BYTES);
		return -E2BIG;
	}
	nul = len ? memchr(text, '\0', len) : NULL;
	if (nul) {
		p.line = 1;
		for (i = 0; text + i < nul; i++)
			p.line += text[i] == '\n';
		return parse_error(&p, "NUL byte in policy");
	}
	p.policy = kzalloc(sizeof(*p.policy), GFP_KERNEL);
	if (!p.policy) {
		set_error(err, 0, "out of memory");
		return -ENOMEM;
	}
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		size_t n = end - pos;

		p.line++;
		if (n && text[pos + n - 1] == '\r')
			n--;
		ret = parse_line(&p, text + pos, n);
		if (ret)
			goto fail;
		pos = end + 1;
	}
	if (p.open) {
		ret = parse_error(&p, "unterminated subject block opened at line %u",
				  p.open_line);
		goto fail;
	}
	kvfree(p.rules);
	*ret_policy = p.policy;
	return 0;

fail:
	if (ret == -ENOMEM)
		set_error(err, p.line, "out of memory");
	for (i = 0; i < p.nr_rules; i++)
		vigil_glob_free(p.rules[i].glob);
	kvfree(p.rules);
	vigil_policy_free(p.policy);
	return ret;
}

struct dump {
	char *buf;
	size_t size;
	size_t pos;
};

static void dump_put(struct dump *d, const char *s, size_t n)
{
	if (d->pos + 1 < d->size)
		memcpy(d->buf + d->pos, s, min(n, d->size - 1 - d->pos));
	d->pos += n;
}

static void dump_str(struct dump *d, const char *s)
{
	dump_put(d, s, strlen(s));
}

static void dump_glob(struct dump *d, const struct vigil_glob *glob)
{
	size_t len;
	const char *s = vigil_glob_source(glob, &len);

	dump_put(d, s, len);
}

static void dump_access(struct dump *d, enum vigil_class class, u64 access)
{
	if (d->pos < d->size)
		d->pos += vigil_access_format(class, access, d->buf + d->pos,
					      d->size - d->pos);
	else
		d->pos += vigil_access_format(class, access, NULL, 0);
}

size_t vigil_policy_dump(const struct vigil_policy *policy, char *buf,
			 size_t size)
{
	struct dump d = { .buf = buf, .size = size };
	unsigned int i, c, j;

	for (i = 0; policy && i < policy->nr_subjects; i++) {
		const struct vigil_policy_subject *s = &policy->subjects[i];

		if (i)
			dump_str(&d, "\n");
		dump_str(&d, "subject ");
		dump_glob(&d, s->glob);
		if (s->via) {
			dump_str(&d, " via ");
			dump_glob(&d, s->via);
		}
		if (s->uclasses != VIGIL_POLICY_UCLASS_ALL) {
			dump_str(&d, " uid ");
			for (c = 0, j = 0; c < ARRAY_SIZE(uclass_names); c++) {
				if (!(s->uclasses & (1U << c)))
					continue;
				dump_str(&d, j++ ? "," : "");
				dump_str(&d, uclass_names[c]);
			}
		}
		if (s->mode != VIGIL_POLICY_MODE_UNSET) {
			dump_str(&d, " ");
			dump_str(&d, mode_names[s->mode]);
		}
		dump_str(&d, " {\n");
		for (c = 0; c < VIGIL_CLASS_COUNT; c++) {
			for (j = s->start[c]; j < s->start[c + 1]; j++) {
				dump_str(&d, "\t");
				dump_str(&d, vigil_class_name(c));
				dump_str(&d, " ");
				dump_access(&d, c, s->rules[j].access);
				dump_str(&d, " ");
				dump_glob(&d, s->rules[j].glob);
				dump_str(&d, "\n");
			}
		}
		dump_str(&d, "}\n");
	}
	if (size)
		buf[min(d.pos, size - 1)] = '\0';
	return d.pos;
}

/* Whether one of the ancestors in chain[0..n) matches the via glob. */
static bool chain_matches(const struct vigil_glob *via,
			  const struct vigil_policy_name *chain, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (vigil_glob_match(via, chain[i].s, chain[i].len))
			return true;
	return false;
}

const struct vigil_policy_subject *
vigil_policy_find_subject(const struct vigil_policy *policy, const char *exe,
			  size_t len, const struct vigil_policy_name *chain,
			  unsigned int nr_chain, unsigned int uclasses)
{
	unsigned int i;

	if (!policy)
		return NULL;
	for (i = 0; i < policy->nr_subjects; i++) {
		const struct vigil_policy_subject *s = &policy->subjects[i];

		if ((s->uclasses & uclasses) &&
		    vigil_glob_match(s->glob, exe, len) &&
		    (!s->via || chain_matches(s->via, chain, nr_chain)))
			return s;
	}
	return NULL;
}

int vigil_policy_subject_mode(const struct vigil_policy_subject *subject)
{
	return subject ? subject->mode : VIGIL_POLICY_MODE_UNSET;
}

/* The access a rule grants: file w also grants a. */
static u64 granted(enum vigil_class class, u64 access)
{
	if (class == VIGIL_CLASS_FILE && (access & VIGIL_FILE_W))
		access |= VIGIL_FILE_A;
	return access;
}

/* Grant what rule i of the block grants when its glob matches. */
static u64 try_rule(const struct vigil_policy_subject *subject,
		    enum vigil_class class, unsigned int i, u64 missing,
		    const char *object, size_t len)
{
	const struct vigil_policy_rule *r = &subject->rules[i];
	u64 grant = granted(class, r->access);

	if ((grant & missing) && vigil_glob_match(r->glob, object, len))
		missing &= ~grant;
	return missing;
}

bool vigil_policy_allows_linear(const struct vigil_policy_subject *subject,
				enum vigil_class class, u64 access,
				const char *object, size_t len)
{
	u64 missing = access;
	unsigned int i;

	if (!subject || (unsigned int)class >= VIGIL_CLASS_COUNT)
		return false;
	for (i = subject->start[class];
	     missing && i < subject->start[class + 1]; i++)
		missing = try_rule(subject, class, i, missing, object, len);
	return !missing;
}

/* Try the rules keyed by object[0..len) (exact or prefix) with hash h. */
static u64 try_key(const struct vigil_policy_subject *subject,
		   enum vigil_class class, bool exact, u32 h, u64 missing,
		   const char *object, size_t len, size_t full)
{
	u32 k = subject->buckets[h & subject->bucket_mask];

	for (; missing && k != NO_KEY; k = subject->keys[k].next) {
		const struct vigil_policy_key *key = &subject->keys[k];

		if (key->hash == h && key->len == len &&
		    key->class == class && key->exact == exact &&
		    !memcmp(key->s, object, len))
			missing = try_rule(subject, class, key->rule, missing,
					   object, full);
	}
	return missing;
}

bool vigil_policy_allows(const struct vigil_policy_subject *subject,
			 enum vigil_class class, u64 access,
			 const char *object, size_t len)
{
	u64 missing = access;
	unsigned int i;
	size_t j;
	u32 h;

	if (!subject || (unsigned int)class >= VIGIL_CLASS_COUNT)
		return false;
	/* The rules without a key (few, in usual policies). */
	for (i = subject->rest_start[class];
	     missing && i < subject->rest_start[class + 1]; i++)
		missing = try_rule(subject, class, subject->rest[i], missing,
				   object, len);
	/* Those keyed by a prefix of the object... */
	h = key_hash_init(class);
	for (j = 1; missing && j <= len; j++) {
		h = key_hash_step(h, object[j - 1]);
		if (j <= VIGIL_GLOB_MAX_LEN &&
		    (subject->key_lens[j / 64] >> (j % 64)) & 1)
			missing = try_key(subject, class, false,
					  key_hash_final(h, false), missing,
					  object, j, len);
	}
	/* ...and by the object itself. */
	if (missing)
		missing = try_key(subject, class, true, key_hash_final(h, true),
				  missing, object, len, len);
	return !missing;
}

unsigned int vigil_policy_nr_subjects(const struct vigil_policy *policy)
{
	return policy ? policy->nr_subjects : 0;
}

unsigned int vigil_policy_nr_rules(const struct vigil_policy *policy)
{
	return policy ? policy->nr_rules : 0;
}

bool vigil_policy_has_modes(const struct vigil_policy *policy)
{
	return policy && policy->has_modes;
}

const struct vigil_policy_subject *
vigil_policy_subject_at(const struct vigil_policy *policy, unsigned int i)
{
	return policy && i < policy->nr_subjects ? &policy->subjects[i] : NULL;
}

unsigned int vigil_policy_subject_index(const struct vigil_policy *policy,
					const struct vigil_policy_subject *s)
{
	return s - policy->subjects;
}

const struct vigil_glob *
vigil_policy_subject_glob(const struct vigil_policy_subject *subject)
{
	return subject->glob;
}

const struct vigil_glob *
vigil_policy_subject_via(const struct vigil_policy_subject *subject)
{
	return subject->via;
}

unsigned int
vigil_policy_subject_uclasses(const struct vigil_policy_subject *subject)
{
	return subject->uclasses;
}

unsigned int vigil_policy_class_nr_rules(const struct vigil_policy_subject *s,
					 enum vigil_class class)
{
	if ((unsigned int)class >= VIGIL_CLASS_COUNT)
		return 0;
	return s->start[class + 1] - s->start[class];
}

const struct vigil_glob *
vigil_policy_rule_at(const struct vigil_policy_subject *s,
		     enum vigil_class class, unsigned int i, u64 *ret_access)
{
	const struct vigil_policy_rule *r;

	if (i >= vigil_policy_class_nr_rules(s, class))
		return NULL;
	r = &s->rules[s->start[class] + i];
	*ret_access = r->access;
	return r->glob;
}
