// SPDX-License-Identifier: GPL-2.0-only
/* vigil: glob compiler (brace expansion, position masks) and NFA matcher. */

#include "policy_env.h"
#include "match.h"

/*
 * Pattern items (after lexing) and tokens (after brace expansion):
 * 0..255 a literal byte, or one of enum vigil_glob_tok.
 */
#define GT_STAR VIGIL_GLOB_STAR
#define GT_DSTAR VIGIL_GLOB_DSTAR
#define GT_ANY VIGIL_GLOB_ANY
#define GT_LBRACE VIGIL_GLOB_LBRACE
#define GT_RBRACE VIGIL_GLOB_RBRACE
#define GT_COMMA VIGIL_GLOB_COMMA

/* Words of a state: one bit per position 0..ntok of one alternative. */
#define GLOB_MAX_WORDS ((VIGIL_GLOB_MAX_LEN + 1 + 63) / 64)

/*
 * One brace-free alternative. Its masks start at glob->masks[off], each
 * nwords long, in this order: any (positions of "?"), star (positions of
 * "*" and "**"), dstar (positions of "**"), then one literal mask per byte
 * class (positions of literal bytes of that class; class 0 is empty).
 */
struct vigil_glob_alt {
	u32 off;
	u16 nwords;
	u16 ntok;
	u16 minlen;	/* bytes any match needs */
	bool star;	/* has "*" or "**", else matches are minlen long */
};

struct vigil_glob {
	size_t size;
	const struct vigil_glob_alt *alts;
	const char *src;	/* canonical source */
	const char *lit;	/* literal text when no metacharacter, or NULL */
	const char *prefix;	/* literal bytes every match starts with */
	u16 srclen;
	u16 litlen;
	u16 prefixlen;
	u16 nalts;
	u16 nclasses;
	bool absolute;
	const u8 *cls;		/* byte -> class; NULL when lit is set */
	u64 masks[];
};

struct glob_build {
	const char *pat;
	size_t len;
	char *why;
	size_t why_size;
	char quoted[VIGIL_QUOTE_SIZE];
	u16 *items;		/* len entries */
	u32 *match;		/* GT_LBRACE item -> its GT_RBRACE item */
	unsigned int nitems;
	size_t ulen;		/* bytes after unescaping */
	bool meta;		/* any metacharacter */
	char *src;		/* canonical source, 4 * len + 1 */
	size_t srclen;
	u16 *toks;		/* all alternatives, VIGIL_GLOB_MAX_EXPANDED */
	u16 *alt;		/* one alternative, VIGIL_GLOB_MAX_LEN */
	unsigned int altlen;
	u16 lens[VIGIL_GLOB_MAX_ALTS];
	unsigned int nalts;
};

static bool is_star(unsigned int t)
{
	return t == GT_STAR || t == GT_DSTAR;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void qput(char *buf, size_t size, size_t *pos, const char *s,
		 size_t n)
{
	while (n--) {
		if (*pos + 1 < size)
			buf[*pos] = *s;
		(*pos)++;
		s++;
	}
}

char *vigil_quote(char *buf, size_t size, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t pos = 0, out = 0, i;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];
		bool raw = c >= 0x20 && c < 0x7f;
		char esc[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

		if (out + (raw ? 1 : 4) > VIGIL_QUOTE_MAX) {
			qput(buf, size, &pos, "...", 3);
			break;
		}
		if (raw)
			qput(buf, size, &pos, s + i, 1);
		else
			qput(buf, size, &pos, esc, 4);
		out += raw ? 1 : 4;
	}
	if (size)
		buf[min(pos, size - 1)] = '\0';
	return buf;
}

static int glob_error_quoted(struct glob_build *b, const char *what,
			     const char *s, size_t len)
{
	char q[VIGIL_QUOTE_SIZE];

	vigil_quote(q, sizeof(q), s, len);
	scnprintf(b->why, b->why_size, "%s '%s'", what, q);
	return -EINVAL;
}

static int glob_error(struct glob_build *b, const char *what)
{
	return glob_error_quoted(b, what, b->pat, b->len);
}

static void src_put(struct glob_build *b, const char *s, size_t n)
{
	memcpy(b->src + b->srclen, s, n);
	b->srclen += n;
}

/* Append a literal byte: to the items and, escaped, to the source. */
static void lex_literal(struct glob_build *b, unsigned char c,
			unsigned int depth)
{
	static const char hex[] = "0123456789abcdef";

	b->items[b->nitems++] = c;
	b->ulen++;
	if (c < 0x20 || c == 0x7f) {
		char esc[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

		src_put(b, esc, 4);
		return;
	}
	if (memchr(" #\\*?{}", c, 7) || (c == ',' && depth)) {
		char esc[2] = { '\\', c };

		src_put(b, esc, 2);
		return;
	}
	src_put(b, (const char *)&c, 1);
}

static void lex_meta(struct glob_build *b, unsigned int item)
{
	static const char *const spell[] = {
		"*", "**", "?", "{", "}", ",",
	};
	const char *s = spell[item - GT_STAR];

	b->items[b->nitems++] = item;
	b->ulen += strlen(s);
	b->meta = true;
	src_put(b, s, strlen(s));
}

/* Decode the escape at pat[*pos] ('\\'). Return: the byte, or -EINVAL. */
static int lex_escape(struct glob_build *b, size_t *pos)
{
	size_t i = *pos, rest = b->len - i;
	char d;

	if (rest < 2)
		return glob_error_quoted(b, "bad escape", b->pat + i, rest);
	d = b->pat[i + 1];
	if (d && memchr(" \t#\\*?{},", d, 9)) {
		*pos += 2;
		return (unsigned char)d;
	}
	if (d == 'x' && rest >= 4 && hexval(b->pat[i + 2]) >= 0 &&
	    hexval(b->pat[i + 3]) >= 0) {
		int v = hexval(b->pat[i + 2]) * 16 + hexval(b->pat[i + 3]);

		if (v) {
			*pos += 4;
			return v;
		}
	}
	return glob_error_quoted(b, "bad escape", b->pat + i,
				 d == 'x' ? min_t(size_t, rest, 4) : 2);
}

static int glob_lex(struct glob_build *b)
{
	u32 open[VIGIL_GLOB_MAX_DEPTH];
	unsigned int depth = 0;
	size_t i = 0;

	while (i < b->len) {
		char c = b->pat[i];
		int v;

		if (c == '\\') {
			v = lex_escape(b, &i);
			if (v < 0)
				return v;
			lex_literal(b, v, depth);
			continue;
		}
		i++;
		switch (c) {
		case '*':
			if (i < b->len && b->pat[i] == '*') {
				i++;
				lex_meta(b, GT_DSTAR);
			} else {
				lex_meta(b, GT_STAR);
			}
			break;
		case '?':
			lex_meta(b, GT_ANY);
			break;
		case '{':
			if (depth == VIGIL_GLOB_MAX_DEPTH)
				return glob_error(b, "braces nested too deep (> 3) in");
			open[depth++] = b->nitems;
			lex_meta(b, GT_LBRACE);
			break;
		case '}':
			if (!depth)
				return glob_error(b, "unbalanced '}' in");
			b->match[open[--depth]] = b->nitems;
			lex_meta(b, GT_RBRACE);
			break;
		case ',':
			if (depth)
				lex_meta(b, GT_COMMA);
			else
				lex_literal(b, c, depth);
			break;
		case '\0':
			return glob_error(b, "NUL byte in");
		default:
			lex_literal(b, c, depth);
			break;
		}
	}
	if (depth)
		return glob_error(b, "unterminated '{' in");
	if (b->ulen > VIGIL_GLOB_MAX_LEN) {
		scnprintf(b->why, b->why_size, "glob too long (%zu > %d bytes)",
			  b->ulen, VIGIL_GLOB_MAX_LEN);
		return -EINVAL;
	}
	if (!b->ulen) {
		scnprintf(b->why, b->why_size, "empty glob");
		return -EINVAL;
	}
	return 0;
}

/* The end of the branch starting at item i: a top-level comma or end. */
static unsigned int branch_end(const struct glob_build *b, unsigned int i,
			       unsigned int end)
{
	while (i < end && b->items[i] != GT_COMMA) {
		if (b->items[i] == GT_LBRACE)
			i = b->match[i];
		i++;
	}
	return i;
}

#define ALTS_CLAMP (VIGIL_GLOB_MAX_ALTS + 1)

static unsigned int count_group(const struct glob_build *b, unsigned int lb);

/* Alternatives of items[i..end), clamped to ALTS_CLAMP. */
static unsigned int count_seq(const struct glob_build *b, unsigned int i,
			      unsigned int end)
{
	unsigned int n = 1;

	while (i < end) {
		if (b->items[i] == GT_LBRACE) {
			n *= count_group(b, i);
			if (n > ALTS_CLAMP)
				n = ALTS_CLAMP;
			i = b->match[i] + 1;
		} else {
			i++;
		}
	}
	return n;
}

/* Alternatives of the group opened at item lb, clamped to ALTS_CLAMP. */
static unsigned int count_group(const struct glob_build *b, unsigned int lb)
{
	unsigned int rb = b->match[lb], start = lb + 1, end, n = 0;

	for (;;) {
		end = branch_end(b, start, rb);
		n += count_seq(b, start, end);
		if (n > ALTS_CLAMP)
			n = ALTS_CLAMP;
		if (end == rb)
			return n;
		start = end + 1;
	}
}

/* Append a token to b->alt, merging adjacent stars. */
static void gen_token(struct glob_build *b, unsigned int t)
{
	if (is_star(t) && b->altlen && is_star(b->alt[b->altlen - 1])) {
		if (t == GT_DSTAR)
			b->alt[b->altlen - 1] = GT_DSTAR;
		return;
	}
	b->alt[b->altlen++] = t;
}

static void gen_group(struct glob_build *b, unsigned int lb, unsigned int k);

/* Append alternative k of items[i..end) to b->alt (first group varies slowest). */
static void gen_seq(struct glob_build *b, unsigned int i, unsigned int end,
		    unsigned int k)
{
	unsigned int total = count_seq(b, i, end);

	while (i < end) {
		if (b->items[i] == GT_LBRACE) {
			total /= count_group(b, i);
			gen_group(b, i, k / total);
			k %= total;
			i = b->match[i] + 1;
		} else {
			gen_token(b, b->items[i++]);
		}
	}
}

static void gen_group(struct glob_build *b, unsigned int lb, unsigned int k)
{
	unsigned int rb = b->match[lb], start = lb + 1, end, n;

	for (;;) {
		end = branch_end(b, start, rb);
		n = count_seq(b, start, end);
		if (k < n || end == rb) {
			gen_seq(b, start, end, k);
			return;
		}
		k -= n;
		start = end + 1;
	}
}

static int glob_expand(struct glob_build *b)
{
	size_t total = 0, used = 0;
	unsigned int n, k;

	n = count_seq(b, 0, b->nitems);
	if (n > VIGIL_GLOB_MAX_ALTS) {
		char q[VIGIL_QUOTE_SIZE];

		vigil_quote(q, sizeof(q), b->pat, b->len);
		scnprintf(b->why, b->why_size,
			  "too many alternatives in '%s' (> %d)", q,
			  VIGIL_GLOB_MAX_ALTS);
		return -EINVAL;
	}
	for (k = 0; k < n; k++) {
		b->altlen = 0;
		gen_seq(b, 0, b->nitems, k);
		total += b->altlen;
		if (total <= VIGIL_GLOB_MAX_EXPANDED) {
			memcpy(b->toks + used, b->alt, b->altlen * sizeof(u16));
			used += b->altlen;
		}
		b->lens[k] = b->altlen;
	}
	b->nalts = n;
	if (total > VIGIL_GLOB_MAX_EXPANDED) {
		char q[VIGIL_QUOTE_SIZE];

		vigil_quote(q, sizeof(q), b->pat, b->len);
		scnprintf(b->why, b->why_size,
			  "'%s' expands to too many bytes (%zu > %d)", q, total,
			  VIGIL_GLOB_MAX_EXPANDED);
		return -EINVAL;
	}
	return 0;
}

static void set_bit64(u64 *mask, unsigned int pos)
{
	mask[pos / 64] |= 1ULL << (pos % 64);
}

/*
 * The number of leading tokens that are literal bytes and the same in every
 * alternative: the bytes every match starts with.
 */
static unsigned int common_prefix(const struct glob_build *b)
{
	unsigned int n = b->nalts ? b->lens[0] : 0, k, p;
	const u16 *t = b->toks, *first = b->toks;

	for (k = 0; k < b->nalts; k++) {
		n = min_t(unsigned int, n, b->lens[k]);
		for (p = 0; p < n; p++)
			if (t[p] >= 256 || t[p] != first[p])
				break;
		n = p;
		t += b->lens[k];
	}
	return n;
}

/* Build the compiled glob from the expanded alternatives. */
static int glob_build_masks(struct glob_build *b, struct vigil_glob **ret_glob)
{
	u8 cls[256] = { 0 };
	unsigned int ncls = 1, k, p, plen = 0;
	size_t words = 0, size, off;
	struct vigil_glob_alt *alts;
	struct vigil_glob *g;
	const u16 *t;
	char *chars;

	t = b->toks;
	for (k = 0; k < b->nalts; k++) {
		for (p = 0; p < b->lens[k]; p++, t++)
			if (*t < 256 && !cls[*t])
				cls[*t] = ncls++;
	}
	for (k = 0; k < b->nalts; k++)
		words += (size_t)(3 + ncls) * ((b->lens[k] + 1 + 63) / 64);

	if (!b->meta)
		words = 0;	/* matched with memcmp() */
	else
		plen = common_prefix(b);
	size = sizeof(*g) + words * sizeof(u64) +
	       b->nalts * sizeof(struct vigil_glob_alt) + b->srclen + 1;
	size += b->meta ? sizeof(cls) + plen + 1 : b->ulen + 1;
	g = kvzalloc(size, GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	g->size = size;
	g->nclasses = ncls;
	g->nalts = b->nalts;
	alts = (struct vigil_glob_alt *)(g->masks + words);
	g->alts = alts;
	chars = (char *)(alts + b->nalts);
	if (b->meta) {
		memcpy(chars, cls, sizeof(cls));
		g->cls = (const u8 *)chars;
		chars += sizeof(cls);
	}
	memcpy(chars, b->src, b->srclen);
	g->src = chars;
	g->srclen = b->srclen;
	chars += b->srclen + 1;
	if (!b->meta) {
		for (p = 0; p < b->nitems; p++)
			chars[p] = (char)b->items[p];
		g->lit = chars;
		g->litlen = b->nitems;
		g->prefix = chars;
		g->prefixlen = b->nitems;
		g->absolute = b->items[0] == '/';
		*ret_glob = g;
		return 0;
	}

	for (p = 0; p < plen; p++)
		chars[p] = (char)b->toks[p];
	g->prefix = chars;
	g->prefixlen = plen;
	g->absolute = true;
	t = b->toks;
	off = 0;
	for (k = 0; k < b->nalts; k++) {
		struct vigil_glob_alt *a = &alts[k];
		unsigned int w = (b->lens[k] + 1 + 63) / 64;
		u64 *any = g->masks + off, *star = any + w, *dstar = star + w;
		u64 *lit = dstar + w;

		a->off = off;
		a->nwords = w;
		a->ntok = b->lens[k];
		if (!a->ntok || (t[0] != '/' && t[0] != GT_DSTAR))
			g->absolute = false;
		for (p = 0; p < a->ntok; p++, t++) {
			switch (*t) {
			case GT_DSTAR:
				set_bit64(dstar, p);
				fallthrough;
			case GT_STAR:
				set_bit64(star, p);
				a->star = true;
				break;
			case GT_ANY:
				set_bit64(any, p);
				a->minlen++;
				break;
			default:
				set_bit64(lit + (size_t)cls[*t] * w, p);
				a->minlen++;
				break;
			}
		}
		off += (size_t)(3 + ncls) * w;
	}
	*ret_glob = g;
	return 0;
}

static void glob_build_free(struct glob_build *b)
{
	if (!b)
		return;
	kfree(b->alt);
	kfree(b->toks);
	kfree(b->src);
	kfree(b->match);
	kfree(b->items);
	kfree(b);
}

/* A builder for pat[0..len), lexed (and expanded when @expand). */
static int glob_build_run(const char *pat, size_t len, bool expand,
			  struct glob_build **ret_b, char *why,
			  size_t why_size)
{
	struct glob_build *b;
	int ret;

	if (why_size)
		why[0] = '\0';
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->pat = pat;
	b->len = len;
	b->why = why;
	b->why_size = why_size;
	ret = -ENOMEM;
	b->items = kmalloc_array(len + 1, sizeof(u16), GFP_KERNEL);
	b->match = kmalloc_array(len + 1, sizeof(u32), GFP_KERNEL);
	b->src = kmalloc(4 * len + 1, GFP_KERNEL);
	b->toks = kmalloc_array(VIGIL_GLOB_MAX_EXPANDED, sizeof(u16),
				GFP_KERNEL);
	b->alt = kmalloc_array(VIGIL_GLOB_MAX_LEN, sizeof(u16), GFP_KERNEL);
	if (!b->items || !b->match || !b->src || !b->toks || !b->alt)
		goto err;
	ret = glob_lex(b);
	if (!ret && expand)
		ret = glob_expand(b);
	if (ret)
		goto err;
	*ret_b = b;
	return 0;
err:
	glob_build_free(b);
	return ret;
}

int vigil_glob_compile(const char *pat, size_t len,
		       struct vigil_glob **ret_glob, char *why,
		       size_t why_size)
{
	struct glob_build *b;
	int ret;

	ret = glob_build_run(pat, len, true, &b, why, why_size);
	if (ret)
		return ret;
	ret = glob_build_masks(b, ret_glob);
	glob_build_free(b);
	return ret;
}

int vigil_glob_lex(const char *pat, size_t len, u16 *items,
		   unsigned int *ret_n, char *why, size_t why_size)
{
	struct glob_build *b;
	int ret;

	ret = glob_build_run(pat, len, false, &b, why, why_size);
	if (ret)
		return ret;
	memcpy(items, b->items, b->nitems * sizeof(u16));
	*ret_n = b->nitems;
	glob_build_free(b);
	return 0;
}

int vigil_glob_expand(const char *pat, size_t len,
		      struct vigil_glob_alts **ret_alts, char *why,
		      size_t why_size)
{
	struct vigil_glob_alts *a;
	struct glob_build *b;
	unsigned int k;
	size_t used = 0;
	int ret;

	ret = glob_build_run(pat, len, true, &b, why, why_size);
	if (ret)
		return ret;
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (a) {
		a->nalts = b->nalts;
		for (k = 0; k < b->nalts; k++) {
			a->lens[k] = b->lens[k];
			used += b->lens[k];
		}
		memcpy(a->toks, b->toks, used * sizeof(u16));
		*ret_alts = a;
	}
	glob_build_free(b);
	return a ? 0 : -ENOMEM;
}

void vigil_glob_alts_free(struct vigil_glob_alts *alts)
{
	kfree(alts);
}

void vigil_glob_free(struct vigil_glob *glob)
{
	kvfree(glob);
}

/* Run the NFA of one alternative over s[0..len). */
static bool alt_match(const struct vigil_glob *g, const struct vigil_glob_alt *a,
		      const unsigned char *s, size_t len)
{
	unsigned int nw = a->nwords, w;
	const u64 *any = g->masks + a->off;
	const u64 *star = any + nw, *dstar = star + nw, *lit = dstar + nw;
	u64 d[GLOB_MAX_WORDS];
	size_t i;

	if (WARN_ON_ONCE(nw > GLOB_MAX_WORDS))
		return false;
	memset(d, 0, nw * sizeof(u64));
	/* Start: position 0, and 1 when token 0 is a star (it may be empty). */
	d[0] = 1 | ((star[0] & 1) << 1);
	for (i = 0; i < len; i++) {
		const u64 *l = lit + (size_t)g->cls[s[i]] * nw;
		const u64 *stay = s[i] == '/' ? dstar : star;
		bool slash = s[i] == '/';
		u64 carry = 0, ecarry = 0, alive = 0;

		for (w = 0; w < nw; w++) {
			u64 x = d[w], adv, nx, e;

			/* Consume s[i]: literal or "?" moves on, stars stay. */
			adv = x & (l[w] | (slash ? 0 : any[w]));
			nx = (adv << 1) | carry | (x & stay[w]);
			carry = adv >> 63;
			/* A star may match nothing: skip over it. */
			e = nx & star[w];
			nx |= (e << 1) | ecarry;
			ecarry = e >> 63;
			d[w] = nx;
			alive |= nx;
		}
		if (!alive)
			return false;
	}
	return (d[a->ntok / 64] >> (a->ntok % 64)) & 1;
}

bool vigil_glob_match(const struct vigil_glob *glob, const char *s,
		      size_t len)
{
	unsigned int k;

	if (!glob || len > VIGIL_GLOB_MAX_TEXT)
		return false;
	if (glob->lit)
		return len == glob->litlen && !memcmp(s, glob->lit, len);
	for (k = 0; k < glob->nalts; k++) {
		const struct vigil_glob_alt *a = &glob->alts[k];

		if (len < a->minlen || (!a->star && len != a->minlen))
			continue;
		if (alt_match(glob, a, (const unsigned char *)s, len))
			return true;
	}
	return false;
}

const char *vigil_glob_source(const struct vigil_glob *glob, size_t *ret_len)
{
	if (ret_len)
		*ret_len = glob->srclen;
	return glob->src;
}

const char *vigil_glob_literal(const struct vigil_glob *glob, size_t *ret_len)
{
	if (ret_len)
		*ret_len = glob->lit ? glob->litlen : 0;
	return glob->lit;
}

const char *vigil_glob_prefix(const struct vigil_glob *glob, size_t *ret_len)
{
	*ret_len = glob->prefixlen;
	return glob->prefix;
}

bool vigil_glob_is_absolute(const struct vigil_glob *glob)
{
	return glob->absolute;
}

unsigned int vigil_glob_nr_alts(const struct vigil_glob *glob)
{
	return glob->nalts;
}

size_t vigil_glob_size(const struct vigil_glob *glob)
{
	return glob ? glob->size : 0;
}
