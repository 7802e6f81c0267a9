// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: names that vary between runs (issue 24 §1). From the
 * names a program used in one folder, the least glob that covers them,
 * a '*' over each part that varies and nothing else, when the evidence
 * says the part is made anew by each run or process:
 *
 *  - a number: each name's part is digits (at least VARY_DIGITS_MIN of
 *    them, after a shared prefix such as "temp-"), and the names were
 *    used in separate time spans (one after the other: runs), or each
 *    number is the pid of the task that used the name;
 *  - a random run: each name's part is 6 or more of [A-Za-z0-9_], more
 *    than half of them look random (a digit or both cases, or 8 or more
 *    hex digits: mkstemp may draw "abcdef"), and the parts differ from
 *    the first name's in at least half of their bytes, or in length;
 *  - one name alone whose number is the pid of the task that used it;
 *  - a number of any length (1 or 2 digits too) when the program made
 *    each of the names itself (VIGIL_FILE_C: a create, an O_CREAT open,
 *    a rename's or a link's target): rotations it does ("log.1" renamed
 *    to "log.2"), counters of the files it writes;
 *  - a whole name that is such a counter, 8 or more hex digits wide:
 *    one '?' a digit (fixed_width_counter).
 *
 * Two config files that differ by a digit ("site1.conf", "python2.cfg")
 * or rotations the program only reads or appends to ("log.1", "log.2")
 * are never merged: their numbers are too short to be pids or counters
 * of runs, the program did not make them, and a word with a digit is
 * not random. docs/generate.md lists the rules.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rules_int.h"
#include "rules_text.h"

/* A part of a name: a run of [A-Za-z0-9_] (word) or one other byte. */
struct part {
	const char *s;
	size_t len;
	bool word;
};

#define VARY_PARTS_MAX 64

static bool word_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static bool alnum(char c)
{
	return word_byte(c) && c != '_';
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The parts of the last component of path; -1 when too many. */
static int split(const char *path, struct part *p)
{
	const char *s = strrchr(path, '/');
	int n = 0;

	s = s ? s + 1 : path;
	while (*s) {
		if (n == VARY_PARTS_MAX)
			return -1;
		p[n].s = s;
		p[n].word = word_byte(*s);
		if (p[n].word)
			while (word_byte(*s))
				s++;
		else
			s++;
		p[n].len = (size_t)(s - p[n].s);
		n++;
	}
	return n;
}

static bool all_digits(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!digit(s[i]))
			return false;
	return len > 0;
}

static bool random_run(const char *s, size_t len)
{
	bool dig = false, up = false, low = false, hex = true;
	size_t i;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!word_byte(c))
			return false;
		dig |= digit(c);
		up |= c >= 'A' && c <= 'Z';
		low |= c >= 'a' && c <= 'z';
		hex &= digit(c) || (c >= 'a' && c <= 'f') ||
		       (c >= 'A' && c <= 'F');
	}
	return (len >= 6 && (dig || (up && low))) || (len >= 8 && hex);
}

/* The pid as decimal text equals s[0..len). */
static bool is_pid(const char *s, size_t len, uint32_t pid)
{
	char buf[16];
	int n;

	if (!pid)
		return false;
	n = snprintf(buf, sizeof(buf), "%u", (unsigned int)pid);
	return (size_t)n == len && !memcmp(buf, s, len);
}

/*
 * The varying part of word parts v[0..n) (all of one position): its
 * shared prefix pre and suffix suf are kept. Returns the kind
 * (VIGIL_HEUR_NUMBER, _RANDOM, _PID) or 0 when the part may not vary.
 */
static unsigned int judge(const struct vary_name *names,
			  const struct part *const *v, size_t n, bool spans,
			  size_t *pre, size_t *suf)
{
	size_t p, s, minlen = (size_t)-1, i, looks = 0;
	bool pids = true, apart = true, random = true, made = true;

	for (i = 0; i < n; i++)
		if (v[i]->len < minlen)
			minlen = v[i]->len;
	for (p = 0; p < minlen; p++) {
		for (i = 1; i < n && v[i]->s[p] == v[0]->s[p]; i++)
			;
		if (i < n)
			break;
	}
	for (s = 0; s + p < minlen; s++) {
		for (i = 1; i < n && v[i]->s[v[i]->len - 1 - s] ==
				     v[0]->s[v[0]->len - 1 - s]; i++)
			;
		if (i < n)
			break;
	}
	/* a number: digits, the whole run of them */
	*pre = p;
	*suf = s;
	while (*pre && digit(v[0]->s[*pre - 1]))
		(*pre)--;
	while (*suf && digit(v[0]->s[v[0]->len - *suf]))
		(*suf)--;
	for (i = 0; i < n; i++) {
		const char *m = v[i]->s + *pre;
		size_t ml = v[i]->len - *pre - *suf;

		if (!all_digits(m, ml))
			break;
		pids &= is_pid(m, ml, names[i].pid);
		apart &= ml >= VARY_DIGITS_MIN;
		made &= !!(names[i].access & VIGIL_FILE_C);
	}
	if (i == n && pids)
		return VIGIL_HEUR_PID;
	/* used one after the other: their time spans do not overlap */
	if (i == n && apart && n > 1 && spans)
		return VIGIL_HEUR_NUMBER;
	/* numbers it made, whatever their length: rotations, counters */
	if (i == n && made && n > 1)
		return VIGIL_HEUR_MADE;
	if (n < 2)
		return 0;
	/* a random run: the whole run of letters and digits */
	*pre = p;
	*suf = s;
	while (*pre && alnum(v[0]->s[*pre - 1]))
		(*pre)--;
	while (*suf && alnum(v[0]->s[v[0]->len - *suf]))
		(*suf)--;
	for (i = 0; i < n && random; i++) {
		const char *m = v[i]->s + *pre, *m0 = v[0]->s + *pre;
		size_t ml = v[i]->len - *pre - *suf;
		size_t ml0 = v[0]->len - *pre - *suf, d = 0, q;

		/* mkstemp may draw "abcdef": most, not all, must look it */
		looks += random_run(m, ml);
		random = ml >= 6;
		if (!random || !i || ml != ml0)
			continue;
		for (q = 0; q < ml; q++)
			d += m[q] != m0[q];
		random = 2 * d >= ml;
	}
	random = random && 2 * looks > n;
	return random ? VIGIL_HEUR_RANDOM : 0;
}

static int span_cmp(const void *a, const void *b)
{
	const struct vary_name *x = a, *y = b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return (x->last > y->last) - (x->last < y->last);
}

/*
 * Whether no two of the names' time spans overlap (touching is apart), in
 * O(n log n): sorted by (first, last), each span must end before the next
 * starts. That is the pairwise test when every first <= last (a chain),
 * which the store keeps; any other span is tested pairwise.
 */
static int spans_apart(const struct vary_name *names, size_t n, bool *ret)
{
	struct vary_name *s;
	size_t i, k;

	*ret = true;
	for (i = 0; i < n; i++)
		if (names[i].first > names[i].last)
			break;
	if (i < n) {
		for (i = 0; i < n && *ret; i++)
			for (k = i + 1; k < n && *ret; k++)
				*ret = names[i].last <= names[k].first ||
				       names[k].last <= names[i].first;
		return 0;
	}
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, names, n * sizeof(*s));
	qsort(s, n, sizeof(*s), span_cmp);
	for (i = 0; i + 1 < n && *ret; i++)
		*ret = s[i].last <= s[i + 1].first;
	free(s);
	return 0;
}

size_t rules_vary_calls;

/*
 * A counter of fixed width that is the whole name, each name made by the
 * program: PostgreSQL's write-ahead log segments (000000010000000000000001,
 * ..02, then ..0A: hexadecimal, 24 wide). Its digits vary from the
 * left as it grows, so no shared prefix holds; the glob is one '?' a
 * digit (the same width, any hex digits), not '*' (a folder's worth).
 * At least VARY_WIDTH_MIN wide: short names (1, 2, log1) are no counter
 * of fixed width.
 */
#define VARY_WIDTH_MIN 8

static bool fixed_width_counter(const struct vary_name *names, size_t n,
				const struct part (*parts)[VARY_PARTS_MAX],
				int np)
{
	size_t i, k, len = parts[0][0].len;

	if (np != 1 || n < 2 || len < VARY_WIDTH_MIN)
		return false;
	for (i = 0; i < n; i++) {
		if (parts[i][0].len != len || !(names[i].access & VIGIL_FILE_C))
			return false;
		for (k = 0; k < len; k++) {
			char c = parts[i][0].s[k];

			if (!digit(c) && !(c >= 'a' && c <= 'f') &&
			    !(c >= 'A' && c <= 'F'))
				return false;
		}
	}
	return true;
}

int rules_vary_glob(const struct vary_name *names, size_t n, char **ret,
		    unsigned int *kind)
{
	bool spans = false;
	struct part (*parts)[VARY_PARTS_MAX];
	const struct part **col = NULL;
	size_t dlen, i, k, len = 0, pre, suf;
	int np = -1, m;
	unsigned int kinds = 0, h;
	bool literal = false;
	char *out = NULL, *o;
	const char *slash;
	int rc = 0;

	*ret = NULL;
	*kind = 0;
	rules_vary_calls++;
	if (!n)
		return 0;
	slash = strrchr(names[0].path, '/');
	if (!slash || names[0].path[0] != '/')
		return 0;
	dlen = (size_t)(slash - names[0].path) + 1;
	parts = calloc(n, sizeof(*parts));
	col = calloc(n, sizeof(*col));
	if (!parts || !col) {
		rc = -ENOMEM;
		goto out;
	}
	/* one folder, one shape: the same parts but for words */
	for (i = 0; i < n; i++) {
		if (strncmp(names[i].path, names[0].path, dlen) ||
		    strchr(names[i].path + dlen, '/') ||
		    rules_has_meta(names[i].path))
			goto out;
		m = split(names[i].path, parts[i]);
		if (m <= 0 || (np >= 0 && m != np))
			goto out;
		np = m;
		for (k = 0; k < (size_t)m; k++)
			if (parts[i][k].word != parts[0][k].word ||
			    (!parts[i][k].word &&
			     parts[i][k].s[0] != parts[0][k].s[0]))
				goto out;
		len += strlen(names[i].path);
	}
	if (n > 1) {
		rc = spans_apart(names, n, &spans);
		if (rc)
			goto out;
	}
	out = malloc(len + 2);
	if (!out) {
		rc = -ENOMEM;
		goto out;
	}
	o = mempcpy(out, names[0].path, dlen);
	if (fixed_width_counter(names, n, (const struct part (*)[VARY_PARTS_MAX])parts, np)) {
		memset(o, '?', parts[0][0].len);
		o[parts[0][0].len] = '\0';
		*ret = out;
		*kind = VIGIL_HEUR_MADE;
		out = NULL;
		goto out;
	}
	for (k = 0; k < (size_t)np; k++) {
		const struct part *p0 = &parts[0][k];

		for (i = 1; i < n; i++)
			if (parts[i][k].len != p0->len ||
			    memcmp(parts[i][k].s, p0->s, p0->len))
				break;
		/* n == 1: only a number that is the pid varies */
		if (i == n && (n > 1 || !p0->word ||
			       !judge(names, (const struct part *[]){ p0 }, 1,
				      false, &pre, &suf))) {
			o = mempcpy(o, p0->s, p0->len);
			literal |= p0->word || p0->s[0] != '.';
			continue;
		}
		for (i = 0; i < n; i++)
			col[i] = &parts[i][k];
		h = judge(names, col, n, spans, &pre, &suf);
		if (!h)
			goto fail;
		kinds |= h;
		o = mempcpy(o, p0->s, pre);
		*o++ = '*';
		o = mempcpy(o, p0->s + p0->len - suf, suf);
		literal |= pre || suf;
	}
	*o = '\0';
	/* all of the name varies: that is a folder's worth, not a name */
	if (!kinds || !literal)
		goto fail;
	*ret = out;
	*kind = kinds;
	out = NULL;
	goto out;
fail:
	free(out);
	out = NULL;
out:
	free(out);
	free(parts);
	free(col);
	return rc;
}
