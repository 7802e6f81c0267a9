// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the rule model. Observed tuples (records and the latest
 * kernel snapshot) become rules per subject, generalised by explained
 * heuristics unless strict. Library-like: reports errors, never logs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sqlite3.h>

#include "vigil.h"
#include "rules.h"
#include "match.h"
#include "blast.h"

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

static void minmax(int64_t *first, int64_t *last, int64_t f, int64_t l)
{
	if (!*first || f < *first)
		*first = f;
	if (l > *last)
		*last = l;
}

/* ---- uids ---- */

/* Add uid to u (sorted, once); past VIGIL_UIDS_MAX only u->more is set. */
static void uids_add(struct vigil_uids *u, uint32_t uid)
{
	unsigned int i, j;

	for (i = 0; i < u->n && u->v[i] < uid; i++)
		;
	if (i < u->n && u->v[i] == uid)
		return;
	if (u->n == VIGIL_UIDS_MAX) {
		/* keep the lowest: drop the highest */
		if (i == u->n) {
			u->more = true;
			return;
		}
		u->n--;
		u->more = true;
	}
	for (j = u->n; j > i; j--)
		u->v[j] = u->v[j - 1];
	u->v[i] = uid;
	u->n++;
}

static void uids_union(struct vigil_uids *dst, const struct vigil_uids *src)
{
	unsigned int i;

	for (i = 0; i < src->n; i++)
		uids_add(dst, src->v[i]);
	dst->more = dst->more || src->more;
	dst->service = dst->service || src->service;
}

static bool uid_in(const uint32_t *v, size_t n, uint32_t uid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == uid)
			return true;
	return false;
}

/* ---- escaping and times ---- */

size_t vigil_glob_escape(const char *s, size_t len, bool keep_star,
			 char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t pos = 0, i;

#define PUT(ch)                          \
	do {                             \
		if (pos + 1 < size)      \
			buf[pos] = (ch); \
		pos++;                   \
	} while (0)
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f) {
			PUT('\\');
			PUT('x');
			PUT(hex[c >> 4]);
			PUT(hex[c & 15]);
			continue;
		}
		if (strchr(" #\\{},", c) ||
		    ((c == '*' || c == '?') && !keep_star))
			PUT('\\');
		PUT((char)c);
	}
#undef PUT
	if (size)
		buf[pos < size ? pos : size - 1] = '\0';
	return pos;
}

char *vigil_glob_escape_dup(const char *s, size_t len, bool keep_star)
{
	size_t n = vigil_glob_escape(s, len, keep_star, NULL, 0);
	char *buf = malloc(n + 1);

	if (buf)
		vigil_glob_escape(s, len, keep_star, buf, n + 1);
	return buf;
}

const char *vigil_time_iso(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) ||
	    !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "?");
	return buf;
}

/* ---- heuristics on one absolute path ---- */

static const char *const heur_names[] = {
	"per-pid /proc",
	"temporary name",
	"versioned library",
	"many siblings",
	"home folder",
	"not a path",
	"random name",
};

static bool has_meta(const char *s)
{
	return strpbrk(s, "*?{}\\");
}

static bool all_digits(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

static bool is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/*
 * A random-looking name: 6 or more of [A-Za-z0-9_], with two digits and a
 * letter, or upper and lower case letters ("aB3xYz", "k3j_x9a2", hex);
 * not "python3" or "utf8ab" (one digit in a word).
 */
static bool looks_random(const char *s, size_t len)
{
	bool upper = false, lower = false;
	unsigned int digit = 0;
	size_t i;

	if (len < 6)
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!is_word(c))
			return false;
		if (c >= '0' && c <= '9')
			digit++;
		else if (c >= 'A' && c <= 'Z')
			upper = true;
		else if (c >= 'a' && c <= 'z')
			lower = true;
	}
	return (digit >= 2 && (upper || lower)) || (upper && lower);
}

/* Path components, for the heuristics. */
#define MAX_COMPS 256
struct comps {
	char *c[MAX_COMPS];	/* each NUL-terminated, owned */
	size_t n;
};

static void comps_free(struct comps *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		free(cs->c[i]);
	cs->n = 0;
}

/* Split an absolute path; -E2BIG when it has too many components. */
static int comps_split(const char *path, struct comps *cs)
{
	const char *p = path + 1, *e;

	cs->n = 0;
	for (;;) {
		e = strchr(p, '/');
		if (!e)
			e = p + strlen(p);
		if (cs->n == MAX_COMPS) {
			comps_free(cs);
			return -E2BIG;
		}
		cs->c[cs->n] = strndup(p, e - p);
		if (!cs->c[cs->n]) {
			comps_free(cs);
			return -ENOMEM;
		}
		cs->n++;
		if (!*e)
			return 0;
		p = e + 1;
	}
}

static int comp_set(struct comps *cs, size_t i, const char *v)
{
	char *d = strdup(v);

	if (!d)
		return -ENOMEM;
	free(cs->c[i]);
	cs->c[i] = d;
	return 0;
}

static char *comps_join(const struct comps *cs)
{
	size_t len = 0, i;
	char *s, *p;

	for (i = 0; i < cs->n; i++)
		len += 1 + strlen(cs->c[i]);
	s = malloc(len + 1);
	if (!s)
		return NULL;
	p = s;
	for (i = 0; i < cs->n; i++) {
		size_t n = strlen(cs->c[i]);

		*p++ = '/';
		memcpy(p, cs->c[i], n);
		p += n;
	}
	*p = '\0';
	return s;
}

static bool is_pid_comp(const char *c)
{
	return all_digits(c, strlen(c)) || !strcmp(c, "self") ||
	       !strcmp(c, "thread-self");
}

static int heur_proc(struct comps *cs, unsigned int *heur)
{
	int rc;

	if (cs->n < 2 || strcmp(cs->c[0], "proc") || !is_pid_comp(cs->c[1]))
		return 0;
	rc = comp_set(cs, 1, "*");
	if (rc)
		return rc;
	*heur |= VIGIL_HEUR_PROC;
	if (cs->n >= 4 && !strcmp(cs->c[2], "task") &&
	    all_digits(cs->c[3], strlen(cs->c[3])))
		return comp_set(cs, 3, "*");
	return 0;
}

static int heur_home(struct comps *cs, unsigned int *heur)
{
	if (cs->n < 2 || strcmp(cs->c[0], "home") || !cs->c[1][0])
		return 0;
	*heur |= VIGIL_HEUR_HOME;
	return comp_set(cs, 1, "*");
}

/* libfoo.so.1.2.3 (any NAME.so.DIGITS[.DIGITS...]) -> libfoo.so* */
static int heur_library(struct comps *cs, unsigned int *heur)
{
	char *b, *so, *v;
	size_t i;

	if (!cs->n)
		return 0;
	b = cs->c[cs->n - 1];
	so = strstr(b, ".so.");
	if (!so || so == b || strchr(b, '*'))
		return 0;
	v = so + 4;
	if (*v < '0' || *v > '9')
		return 0;
	for (i = 0; v[i]; i++)
		if ((v[i] < '0' || v[i] > '9') && v[i] != '.')
			return 0;
	so[3] = '*';
	so[4] = '\0';
	*heur |= VIGIL_HEUR_LIBRARY;
	return 0;
}

/*
 * One component under a temporary folder: "tmp" then 6+ word characters
 * -> "tmp*"; random-looking as a whole -> "*"; else each random-looking
 * segment between '.' and '-' -> "*" ("foo.aB3xYz" -> "foo.*").
 */
static int temp_comp(struct comps *cs, size_t i, unsigned int *heur)
{
	const char *c = cs->c[i];
	size_t len = strlen(c), j, start, out = 0;
	bool changed = false;
	char *buf;
	int rc;

	if (strchr(c, '*'))
		return 0;
	if (len >= 9 && !strncmp(c, "tmp", 3)) {
		for (j = 3; j < len && is_word(c[j]); j++)
			;
		if (j == len) {
			*heur |= VIGIL_HEUR_TEMP;
			return comp_set(cs, i, "tmp*");
		}
	}
	if (looks_random(c, len)) {
		*heur |= VIGIL_HEUR_TEMP;
		return comp_set(cs, i, "*");
	}
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	for (start = 0; start <= len;) {
		for (j = start; j < len && c[j] != '.' && c[j] != '-'; j++)
			;
		if (looks_random(c + start, j - start)) {
			buf[out++] = '*';
			changed = true;
		} else {
			memcpy(buf + out, c + start, j - start);
			out += j - start;
		}
		if (j < len)
			buf[out++] = c[j];
		start = j + 1;
	}
	buf[out] = '\0';
	rc = 0;
	if (changed) {
		*heur |= VIGIL_HEUR_TEMP;
		rc = comp_set(cs, i, buf);
	}
	free(buf);
	return rc;
}

static int heur_temp(struct comps *cs, unsigned int *heur)
{
	size_t skip, i;
	int rc;

	if (cs->n >= 2 && !strcmp(cs->c[0], "tmp"))
		skip = 1;
	else if (cs->n >= 3 && !strcmp(cs->c[0], "var") &&
		 !strcmp(cs->c[1], "tmp"))
		skip = 2;
	else if (cs->n >= 2 && !strcmp(cs->c[0], "run"))
		skip = 1;
	else if (cs->n >= 3 && !strcmp(cs->c[0], "dev") &&
		 !strcmp(cs->c[1], "shm"))
		skip = 2;
	else
		return 0;
	for (i = skip; i < cs->n; i++) {
		rc = temp_comp(cs, i, heur);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The glob of an absolute path without metacharacters, generalised:
 * *ret is NULL when no heuristic applies.
 */
static int generalise_path(const char *path, char **ret, unsigned int *heur)
{
	struct comps cs;
	unsigned int h = 0;
	int rc;

	*ret = NULL;
	rc = comps_split(path, &cs);
	if (rc == -E2BIG)
		return 0;
	if (rc)
		return rc;
	rc = heur_proc(&cs, &h);
	if (!rc)
		rc = heur_home(&cs, &h);
	if (!rc)
		rc = heur_library(&cs, &h);
	if (!rc)
		rc = heur_temp(&cs, &h);
	if (!rc && h) {
		*ret = comps_join(&cs);
		if (!*ret)
			rc = -ENOMEM;
		*heur = h;
	}
	comps_free(&cs);
	return rc;
}

/* ---- rules ---- */

static void rule_free(struct vigil_rule *r)
{
	unsigned int i;

	free(r->object);
	free(r->glob);
	free(r->why_mem);
	free(r->blast);
	for (i = 0; i < r->nexamples; i++)
		free(r->examples[i]);
	free(r->examples);
}

static bool object_is_path(enum vigil_class class)
{
	return class == VIGIL_CLASS_FILE || class == VIGIL_CLASS_MOUNT ||
	       class == VIGIL_CLASS_MODULE;
}

/* A rule from one observed object (examples: the object). */
static int rule_from_obs(const struct obs *o, bool strict, struct blast *b,
			 struct vigil_rule *r)
{
	char *gen = NULL;
	unsigned int heur = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	r->class = o->class;
	r->access = o->access;
	r->count = o->count;
	r->first = o->first;
	r->last = o->last;
	r->distinct = 1;
	r->uids = o->uids;
	r->examples = calloc(3, sizeof(*r->examples));
	if (!r->examples)
		return -ENOMEM;
	r->examples[0] = strdup(o->object);
	if (!r->examples[0])
		goto nomem;
	r->nexamples = 1;
	if (object_is_path(o->class) && o->object[0] != '/') {
		size_t n = strlen(o->object);

		r->heuristics = VIGIL_HEUR_RELATIVE;
		r->object = malloc(n + 3);
		r->glob = vigil_glob_escape_dup(o->object, n, false);
		if (!r->object || !r->glob)
			goto nomem;
		memcpy(r->object, "**", 2);
		memcpy(r->object + 2, o->object, n + 1);
		gen = malloc(strlen(r->glob) + 3);
		if (!gen)
			goto nomem;
		sprintf(gen, "**%s", r->glob);
		free(r->glob);
		r->glob = gen;
		r->generalised = true;
		return 0;
	}
	if (!strict && o->class == VIGIL_CLASS_FILE && !has_meta(o->object)) {
		rc = generalise_path(o->object, &gen, &heur);
		if (rc)
			goto fail;
	}
	if (gen && b) {
		rc = blast_judge(b, gen, 1, !(heur & VIGIL_HEUR_PROC),
				 &r->blast);
		if (rc < 0)
			goto fail;
		if (!rc) {
			free(gen);
			gen = NULL;
			heur = 0;
		}
	}
	if (gen) {
		r->object = gen;
		r->heuristics = heur;
		r->generalised = true;
		r->glob = vigil_glob_escape_dup(gen, strlen(gen), true);
	} else {
		r->object = strdup(o->object);
		r->glob = vigil_glob_escape_dup(o->object, strlen(o->object),
						false);
	}
	if (!r->object || !r->glob)
		goto nomem;
	return 0;
nomem:
	rc = -ENOMEM;
fail:
	rule_free(r);
	memset(r, 0, sizeof(*r));
	return rc;
}

static int rule_cmp(const void *a, const void *b)
{
	const struct vigil_rule *x = a, *y = b;
	int c;

	if (x->class != y->class)
		return x->class < y->class ? -1 : 1;
	c = strcmp(x->object, y->object);
	if (c)
		return c;
	return strcmp(x->glob, y->glob);
}

/* Merge src into dst (same class and glob); src is freed. */
static void rule_merge(struct vigil_rule *dst, struct vigil_rule *src)
{
	char *ex[6];
	unsigned int n = 0, i = 0, j = 0, k;

	dst->access |= src->access;
	dst->count += src->count;
	minmax(&dst->first, &dst->last, src->first, src->last);
	dst->distinct += src->distinct;
	dst->heuristics |= src->heuristics;
	dst->generalised = dst->generalised || src->generalised;
	uids_union(&dst->uids, &src->uids);
	if (!dst->blast) {
		dst->blast = src->blast;
		src->blast = NULL;
	}
	/* the smallest three of both sorted example lists */
	while (i < dst->nexamples || j < src->nexamples) {
		if (j >= src->nexamples ||
		    (i < dst->nexamples &&
		     strcmp(dst->examples[i], src->examples[j]) <= 0))
			ex[n++] = dst->examples[i++];
		else
			ex[n++] = src->examples[j++];
	}
	for (k = 3; k < n; k++)
		free(ex[k]);
	dst->nexamples = n < 3 ? n : 3;
	for (k = 0; k < dst->nexamples; k++)
		dst->examples[k] = ex[k];
	src->nexamples = 0;
	rule_free(src);
	memset(src, 0, sizeof(*src));
}

/* Sort rules and merge those of the same class and glob. */
static void rules_sort_merge(struct vigil_rule *rules, size_t *n)
{
	size_t i, out = 0;

	qsort(rules, *n, sizeof(*rules), rule_cmp);
	for (i = 0; i < *n; i++) {
		if (out && rules[out - 1].class == rules[i].class &&
		    !strcmp(rules[out - 1].glob, rules[i].glob)) {
			rule_merge(&rules[out - 1], &rules[i]);
			continue;
		}
		if (out != i)
			rules[out] = rules[i];
		out++;
	}
	*n = out;
}

/* Siblings: index sorted by (access, folder). */
static const struct vigil_rule *sib_base;

static size_t dir_len(const char *obj)
{
	const char *s = strrchr(obj, '/');

	return s ? (size_t)(s - obj) : 0;
}

/*
 * A file in a folder without a glob: the pid folders of /proc/STAR/maps
 * are never siblings (a folder made by a heuristic is not one folder).
 */
static bool sib_eligible(const struct vigil_rule *r)
{
	size_t l = dir_len(r->object);

	return r->class == VIGIL_CLASS_FILE &&
	       !(r->heuristics & VIGIL_HEUR_RELATIVE) &&
	       (r->generalised || !has_meta(r->object)) &&
	       l > 0 && r->object[l + 1] && !memchr(r->object, '*', l) &&
	       !memchr(r->object, '?', l);
}

/* Set every rule's blast note to a copy of note. */
static int set_blast(struct vigil_rule *r, const char *note)
{
	char *d = strdup(note);

	if (!d)
		return -ENOMEM;
	free(r->blast);
	r->blast = d;
	return 0;
}

/*
 * A part of a name that may be random, seen in several runs: 6 or more
 * of [A-Za-z0-9_] with a digit or both cases ("oed3caeu" from Python's
 * tempfile). heur_random asks more: that it differ between runs.
 */
static bool maybe_random(const char *s, size_t len)
{
	bool digit = false, upper = false, lower = false;
	size_t i;

	if (len < 6)
		return false;
	for (i = 0; i < len; i++) {
		if (!is_word(s[i]))
			return false;
		digit |= s[i] >= '0' && s[i] <= '9';
		upper |= s[i] >= 'A' && s[i] <= 'Z';
		lower |= s[i] >= 'a' && s[i] <= 'z';
	}
	return digit || (upper && lower);
}

/*
 * The object with each part of its last component (between '.' and '-')
 * that may be random as as many '?'; NULL when it has none (or no
 * memory: *rc).
 */
static char *random_pattern(const char *obj, int *rc)
{
	size_t l = dir_len(obj) + 1, len = strlen(obj), start, j;
	bool changed = false;
	char *p;

	*rc = 0;
	p = strdup(obj);
	if (!p) {
		*rc = -ENOMEM;
		return NULL;
	}
	for (start = l; start <= len;) {
		for (j = start; j < len && obj[j] != '.' && obj[j] != '-'; j++)
			;
		if (maybe_random(obj + start, j - start)) {
			memset(p + start, '?', j - start);
			changed = true;
		}
		start = j + 1;
	}
	if (!changed) {
		free(p);
		return NULL;
	}
	return p;
}

char *vigil_random_pattern(const char *obj, int *rc)
{
	*rc = 0;
	if (obj[0] != '/' || has_meta(obj))
		return NULL;
	return random_pattern(obj, rc);
}

/* Whether b differs from a in at least half of pat's '?' bytes. */
bool vigil_random_variant(const char *pat, const char *a, const char *b)
{
	size_t q = 0, d = 0, k;

	for (k = 0; pat[k] && a[k] && b[k]; k++) {
		if (pat[k] != '?')
			continue;
		q++;
		d += a[k] != b[k];
	}
	return q && 2 * d >= q;
}

/*
 * Random names anywhere: two or more literal file rules whose names are
 * the same but for random-looking parts ("state.Ab3dE9", "state.x9Kq2M",
 * made by mktemp in different runs) become one rule with a '?' for each
 * byte of those parts ("state.??????"), if the machine allows it.
 */
static int heur_random(struct vigil_rule *rules, size_t *n, struct blast *b)
{
	char **pat;
	size_t i, j, k;
	bool any = false;
	int rc = 0;

	pat = calloc(*n ? *n : 1, sizeof(*pat));
	if (!pat)
		return -ENOMEM;
	for (i = 0; i < *n && !rc; i++) {
		const struct vigil_rule *r = &rules[i];

		if (r->class == VIGIL_CLASS_FILE && !r->generalised &&
		    !r->heuristics && r->object[0] == '/' &&
		    !has_meta(r->object))
			pat[i] = random_pattern(r->object, &rc);
	}
	for (i = 0; i < *n && !rc; i++) {
		unsigned int members = 0;
		char *note = NULL, *glob;

		if (!pat[i])
			continue;
		/* members: the same pattern, and random parts that differ from
		 * the first one's in at least half of their bytes (names that
		 * differ between runs, not "python2" and "python3") */
		for (j = i; j < *n; j++) {
			if (!pat[j] || strcmp(pat[i], pat[j]))
				continue;
			if (j != i && !vigil_random_variant(pat[i],
							    rules[i].object,
							    rules[j].object)) {
				free(pat[j]);
				pat[j] = NULL;
				continue;
			}
			members++;
		}
		if (members < 2) {
			free(pat[i]);
			pat[i] = NULL;
			continue;
		}
		rc = 1;
		if (b)
			rc = blast_judge(b, pat[i], members, true, &note);
		if (rc < 0)
			break;
		for (j = *n; j-- > i;) {
			struct vigil_rule *r = &rules[j];

			if (!pat[j] || strcmp(pat[i], pat[j]))
				continue;
			if (note && set_blast(r, note)) {
				rc = -ENOMEM;
				break;
			}
			if (rc == 1) {
				glob = vigil_glob_escape_dup(pat[j],
							     strlen(pat[j]),
							     true);
				if (!glob) {
					rc = -ENOMEM;
					break;
				}
				free(r->glob);
				r->glob = glob;
				free(r->object);
				r->object = pat[j];
				r->heuristics |= VIGIL_HEUR_RANDOM;
				r->generalised = true;
				any = true;
			} else {
				free(pat[j]);
			}
			pat[j] = NULL;
		}
		free(note);
		if (rc >= 0)
			rc = 0;
	}
	for (k = 0; k < *n; k++)
		free(pat[k]);
	free(pat);
	if (!rc && any)
		rules_sort_merge(rules, n);
	return rc;
}

static int sib_cmp(const void *a, const void *b)
{
	const struct vigil_rule *x = &sib_base[*(const size_t *)a];
	const struct vigil_rule *y = &sib_base[*(const size_t *)b];
	size_t lx = dir_len(x->object), ly = dir_len(y->object);
	int c;

	if (x->access != y->access)
		return x->access < y->access ? -1 : 1;
	c = memcmp(x->object, y->object, lx < ly ? lx : ly);
	if (c)
		return c;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static bool same_group(const struct vigil_rule *x, const struct vigil_rule *y)
{
	size_t l = dir_len(x->object);

	return x->access == y->access && l == dir_len(y->object) &&
	       !memcmp(x->object, y->object, l);
}

static int heur_siblings(struct vigil_rule *rules, size_t *n, struct blast *b)
{
	size_t *idx, ni = 0, i, j, k;
	bool any = false;
	int rc = 0;

	idx = malloc((*n ? *n : 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (i = 0; i < *n; i++)
		if (sib_eligible(&rules[i]))
			idx[ni++] = i;
	sib_base = rules;
	qsort(idx, ni, sizeof(*idx), sib_cmp);
	for (i = 0; i < ni; i = j) {
		unsigned int names = 0, distinct = 0;
		char *note = NULL;

		/* names in the folder, not observed objects: six pids of
		 * /proc/STAR/maps are one name */
		for (j = i; j < ni && same_group(&rules[idx[i]],
						 &rules[idx[j]]); j++) {
			names++;
			distinct += rules[idx[j]].distinct;
		}
		if (names < VIGIL_SIBLINGS_MIN)
			continue;
		if (b) {
			const struct vigil_rule *r0 = &rules[idx[i]];
			size_t l = dir_len(r0->object);
			char *dir = malloc(l + 3);

			if (!dir) {
				rc = -ENOMEM;
				goto out;
			}
			memcpy(dir, r0->object, l);
			memcpy(dir + l, "/*", 3);
			rc = blast_judge(b, dir, distinct, true, &note);
			free(dir);
			if (rc < 0)
				goto out;
			for (k = i; k < j && note; k++) {
				if (set_blast(&rules[idx[k]], note)) {
					free(note);
					rc = -ENOMEM;
					goto out;
				}
			}
			free(note);
			if (!rc)
				continue;
			rc = 0;
		}
		for (k = i; k < j; k++) {
			struct vigil_rule *r = &rules[idx[k]];
			size_t l = dir_len(r->object);
			char *glob;

			memcpy(r->object + l, "/*", 3);
			glob = vigil_glob_escape_dup(r->object, l + 2, true);
			if (!glob) {
				rc = -ENOMEM;
				goto out;
			}
			free(r->glob);
			r->glob = glob;
			r->heuristics |= VIGIL_HEUR_SIBLINGS;
			r->generalised = true;
			any = true;
		}
	}
	if (any)
		rules_sort_merge(rules, n);
out:
	free(idx);
	return rc;
}

static int rule_why(struct vigil_rule *r)
{
	size_t len = 0, i;
	char *p;

	if (!r->heuristics)
		return 0;
	for (i = 0; i < ARRAY_SIZE(heur_names); i++)
		if (r->heuristics & (1u << i))
			len += strlen(heur_names[i]) + 3;
	r->why_mem = malloc(len + 1);
	if (!r->why_mem)
		return -ENOMEM;
	p = r->why_mem;
	*p = '\0';
	for (i = 0; i < ARRAY_SIZE(heur_names); i++) {
		if (!(r->heuristics & (1u << i)))
			continue;
		if (p != r->why_mem)
			p = stpcpy(p, " + ");
		p = stpcpy(p, heur_names[i]);
	}
	r->why = r->why_mem;
	return 0;
}

/* Whether the glob compiles, so that every policy line parses. */
static bool glob_ok(const char *glob)
{
	struct vigil_glob *g = NULL;
	char why[8];
	int rc;

	/* rule lines are at most VIGIL_POLICY_MAX_LINE bytes: leave room */
	if (strlen(glob) > 4000)
		return false;
	rc = vigil_glob_compile(glob, strlen(glob), &g, why, sizeof(why));
	vigil_glob_free(g);
	return rc == 0;
}

static int obs_cmp(const void *a, const void *b)
{
	const struct obs *x = a, *y = b;

	if (x->class != y->class)
		return x->class < y->class ? -1 : 1;
	return strcmp(x->object, y->object);
}

/* Build the rules of one subject from its observations (consumed). */
static int subject_build(struct vigil_subject_rules *sr, struct obs *obs,
			 size_t nobs, bool strict, struct blast *b,
			 uint64_t *skipped)
{
	struct vigil_rule *rules = NULL;
	size_t i, out = 0, n = 0, nf = 0;
	char **fobs = NULL;
	int rc = 0;

	/* one observation per (class, object) */
	qsort(obs, nobs, sizeof(*obs), obs_cmp);
	for (i = 0; i < nobs; i++) {
		if (out && obs[out - 1].class == obs[i].class &&
		    !strcmp(obs[out - 1].object, obs[i].object)) {
			struct obs *d = &obs[out - 1];

			d->access |= obs[i].access;
			d->count += obs[i].count;
			d->exec = d->exec || obs[i].exec;
			uids_union(&d->uids, &obs[i].uids);
			minmax(&d->first, &d->last, obs[i].first,
			       obs[i].last);
			free(obs[i].object);
			obs[i].object = NULL;
			continue;
		}
		if (out != i) {
			obs[out] = obs[i];
			obs[i].object = NULL;
		}
		out++;
	}
	nobs = out;
	rules = calloc(nobs ? nobs : 1, sizeof(*rules));
	fobs = calloc(nobs ? nobs : 1, sizeof(*fobs));
	if (!rules || !fobs) {
		free(rules);
		free(fobs);
		return -ENOMEM;
	}
	/* the observed files, sorted: what a glob may admit */
	for (i = 0; i < nobs; i++)
		if (obs[i].class == VIGIL_CLASS_FILE)
			fobs[nf++] = obs[i].object;
	if (b)
		blast_set_observed(b, fobs, nf);
	for (i = 0; i < nobs; i++) {
		rc = rule_from_obs(&obs[i], strict, b, &rules[n]);
		if (rc)
			goto fail;
		n++;
	}
	rules_sort_merge(rules, &n);
	if (!strict) {
		rc = heur_random(rules, &n, b);
		if (!rc)
			rc = heur_siblings(rules, &n, b);
		if (rc)
			goto fail;
	}
	/* drop what cannot be written as a policy line */
	for (i = 0, out = 0; i < n; i++) {
		if (!glob_ok(rules[i].glob)) {
			*skipped += rules[i].distinct;
			rule_free(&rules[i]);
			continue;
		}
		if (out != i)
			rules[out] = rules[i];
		out++;
	}
	n = out;
	for (i = 0; i < n; i++) {
		rc = rule_why(&rules[i]);
		if (rc)
			goto fail;
	}
	for (i = 0; i < n; i++)
		sr->flagged += vigil_rule_flagged(&rules[i]);
	sr->rules = rules;
	sr->nrules = n;
	if (b)
		blast_set_observed(b, NULL, 0);
	free(fobs);
	return 0;
fail:
	for (i = 0; i < n; i++)
		rule_free(&rules[i]);
	free(rules);
	if (b)
		blast_set_observed(b, NULL, 0);
	free(fobs);
	return rc;
}

/* ---- loading ---- */

/*
 * Distinct tuples of records (verdict learned and would-deny: accesses the
 * program made) and of the latest snapshot (all verdicts: "allowed" ones
 * were made too), merged: the kernel's count includes the sighting a
 * record reports, so a tuple seen in both counts max() of the two.
 */
static const char load_sql[] =
	"SELECT exe, op, access, object, max(n), min(f), max(l), "
	"sum(CASE WHEN src = 0 THEN n ELSE 0 END), sum(src), uid FROM ("
	" SELECT exe, op, access, object, uid, count(*) AS n, "
	"  min(time_ms) / 1000 AS f, max(time_ms) / 1000 AS l, 0 AS src "
	"  FROM records WHERE (verdict = 'learned' OR "
	"   (?1 AND verdict = 'would-deny')) "
	"  AND (?2 IS NULL OR time_ms >= ?2) AND (?3 IS NULL OR time_ms <= ?3) "
	"  AND (?4 < 0 OR mntns = ?4) "
	"  AND (?5 IS NULL OR instr(?5, ',' || uid || ',') > 0) "
	"  GROUP BY exe, op, access, object, uid"
	" UNION ALL"
	" SELECT exe, op, access, object, uid, sum(count), min(first), "
	"  max(last), 1 FROM kernel_tuples "
	"  WHERE snapshot = (SELECT max(id) FROM snapshots) "
	"  AND (?1 OR verdict <> 'would-deny') "
	"  AND (?2 IS NULL OR last * 1000 + 999 >= ?2) "
	"  AND (?3 IS NULL OR first * 1000 <= ?3) "
	"  AND (?4 < 0 OR mntns = ?4) "
	"  AND (?5 IS NULL OR instr(?5, ',' || uid || ',') > 0) "
	"  GROUP BY exe, op, access, object, uid"
	") GROUP BY exe, op, access, object, uid "
	"ORDER BY exe, op, access, object, uid";

static const char *col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static int wanted(char *const *subjects, size_t n, const char *exe,
		  bool *seen)
{
	size_t i;
	int hit = 0;

	if (!n)
		return 1;
	for (i = 0; i < n; i++) {
		if (!strcmp(subjects[i], exe)) {
			seen[i] = true;
			hit = 1;
		}
	}
	return hit;
}

/* Observation of one row; 1 when usable, 0 when it cannot be a rule. */
static int row_obs(sqlite3_stmt *st, struct obs *o)
{
	const char *op = col_text(st, 1), *acc = col_text(st, 2);
	const char *obj = col_text(st, 3);
	int iop, c;

	if (!op || !acc || !obj || !*obj)
		return 0;
	iop = vigil_op_from_name(op, strlen(op));
	if (iop < 0)
		return 0;
	o->class = vigil_op_class(iop);
	if (vigil_access_parse(o->class, acc, strlen(acc), &o->access) ||
	    !o->access)
		return 0;
	if (o->class == VIGIL_CLASS_CAP &&
	    (has_meta(obj) || vigil_cap_from_name(obj, strlen(obj)) < 0))
		return 0;
	o->exec = iop == VIGIL_OP_EXEC;
	o->count = (uint64_t)sqlite3_column_int64(st, 4);
	o->first = sqlite3_column_int64(st, 5);
	o->last = sqlite3_column_int64(st, 6);
	uids_add(&o->uids, (uint32_t)sqlite3_column_int64(st, 9));
	o->object = strdup(obj);
	c = o->object ? 1 : -ENOMEM;
	return c;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * A subject from its observations (the caller frees them). Its exec'd
 * objects go to children, filtered once every subject is known.
 */
/*
 * The uids sr ran as (see rules.h), from its observations (one uid each,
 * as loaded), and each observation marked when its uid is one of them.
 */
static int service_uids(struct vigil_subject_rules *sr, struct obs *obs,
			size_t nobs, const struct vigil_rules_opts *o)
{
	uint32_t *v;
	uint64_t best_n = 0, *n;
	size_t i, j, nv = 0, best = 0;

	v = calloc(nobs + (o ? o->nuids : 0) + 1, sizeof(*v));
	n = calloc(nobs + 1, sizeof(*n));
	if (!v || !n) {
		free(v);
		free(n);
		return -ENOMEM;
	}
	if (o && o->nuids) {
		memcpy(v, o->uids, o->nuids * sizeof(*v));
		nv = o->nuids;
	} else {
		/* accesses per uid, then the system ones or the top one */
		size_t nu = 0;

		for (i = 0; i < nobs; i++) {
			uint32_t u = obs[i].uids.v[0];

			for (j = 0; j < nu && v[j] != u; j++)
				;
			if (j == nu)
				v[nu++] = u;
			n[j] += obs[i].count;
		}
		for (i = 0; i < nu; i++)
			if (v[i] < VIGIL_FIRST_USER_UID)
				v[nv++] = v[i];
		if (!nv && nu) {
			for (i = 0; i < nu; i++) {
				if (n[i] > best_n ||
				    (n[i] == best_n && v[i] < v[best])) {
					best = i;
					best_n = n[i];
				}
			}
			v[0] = v[best];
			nv = 1;
		}
	}
	free(n);
	qsort(v, nv, sizeof(*v), u32_cmp);
	sr->service_uids = v;
	sr->nservice_uids = nv;
	for (i = 0; i < nobs; i++)
		obs[i].uids.service = obs[i].uids.n &&
			uid_in(v, nv, obs[i].uids.v[0]);
	return 0;
}

static int subject_add(struct vigil_ruleset *rs, size_t *cap,
		       const char *exe, struct obs *obs, size_t nobs,
		       const struct vigil_rules_opts *o, struct blast *b)
{
	struct vigil_subject_rules *sr;
	size_t i, n = 0;
	int rc;

	if (!nobs)
		return 0;
	rc = grow_array((void **)&rs->subjects, cap, rs->nsubjects + 1,
		  sizeof(*rs->subjects));
	if (rc)
		return rc;
	sr = &rs->subjects[rs->nsubjects];
	memset(sr, 0, sizeof(*sr));
	sr->exe = strdup(exe);
	if (!sr->exe)
		return -ENOMEM;
	rs->nsubjects++;
	for (i = 0; i < nobs; i++) {
		sr->events += obs[i].count;
		minmax(&sr->first, &sr->last, obs[i].first, obs[i].last);
		if (obs[i].exec)
			n++;
	}
	if (n) {
		sr->children = calloc(n, sizeof(*sr->children));
		if (!sr->children)
			return -ENOMEM;
		for (i = 0; i < nobs; i++) {
			if (!obs[i].exec)
				continue;
			sr->children[sr->nchildren] = strdup(obs[i].object);
			if (!sr->children[sr->nchildren])
				return -ENOMEM;
			sr->nchildren++;
		}
	}
	rc = service_uids(sr, obs, nobs, o);
	if (rc)
		return rc;
	rc = subject_build(sr, obs, nobs, o->strict, b, &rs->skipped);
	rs->flagged += sr->flagged;
	return rc;
}

static int subject_cmp_key(const void *key, const void *elem)
{
	const struct vigil_subject_rules *sr = elem;

	return strcmp(key, sr->exe);
}

/* Keep in children only the exec'd paths that are subjects. */
static void children_filter(struct vigil_ruleset *rs)
{
	size_t i, j, out;

	for (i = 0; i < rs->nsubjects; i++) {
		struct vigil_subject_rules *sr = &rs->subjects[i];

		if (!sr->nchildren)
			continue;
		qsort(sr->children, sr->nchildren, sizeof(char *), str_cmp);
		for (j = 0, out = 0; j < sr->nchildren; j++) {
			char *c = sr->children[j];

			if ((out && !strcmp(sr->children[out - 1], c)) ||
			    !bsearch(c, rs->subjects, rs->nsubjects,
				     sizeof(*rs->subjects), subject_cmp_key)) {
				free(c);
				continue;
			}
			sr->children[out++] = c;
		}
		sr->nchildren = out;
		if (!out) {
			free(sr->children);
			sr->children = NULL;
		}
	}
}

static void obs_free(struct obs *obs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(obs[i].object);
}

/* ",0,33," for the SQL filter by uid (instr). */
static int uid_filter(const uint32_t *v, size_t n, char **ret)
{
	char *p;
	size_t i;

	p = malloc(n * 11 + 2);
	if (!p)
		return -ENOMEM;
	*ret = p;
	*p++ = ',';
	for (i = 0; i < n; i++)
		p += sprintf(p, "%u,", (unsigned int)v[i]);
	return 0;
}

/*
 * Whether the row's (exe, op, access, object) is the previous row's
 * (*key, updated): 0 or -ENOMEM.
 */
static int same_key(sqlite3_stmt *st, char **key, size_t *key_len,
		    bool *again)
{
	const char *c[4];
	size_t l[4], len = 0, i;
	char *k, *p;

	for (i = 0; i < 4; i++) {
		c[i] = col_text(st, (int)i);
		l[i] = c[i] ? strlen(c[i]) : 0;
		len += l[i] + 2;
	}
	k = malloc(len + 1);
	if (!k)
		return -ENOMEM;
	for (i = 0, p = k; i < 4; i++) {
		/* NULL and "" differ: a marker byte before each */
		*p++ = c[i] ? 'v' : 'n';
		memcpy(p, c[i] ? c[i] : "", l[i]);
		p += l[i];
		*p++ = '\0';
	}
	*again = *key && *key_len == len && !memcmp(*key, k, len);
	free(*key);
	*key = k;
	*key_len = len;
	return 0;
}

int vigil_rules_load(struct vigil_store *s, char *const *subjects,
		     size_t nsubjects, bool strict, struct vigil_ruleset *ret)
{
	struct vigil_rules_opts o = { .strict = strict };

	return vigil_rules_load_opts(s, subjects, nsubjects, &o, ret, NULL, 0);
}

int vigil_rules_load_opts(struct vigil_store *s, char *const *subjects,
			  size_t nsubjects, const struct vigil_rules_opts *o,
			  struct vigil_ruleset *ret, char *err,
			  size_t err_size)
{
	struct vigil_ruleset rs = { 0 };
	struct blast *b = NULL;
	struct obs *obs = NULL;
	size_t nobs = 0, obs_cap = 0, subj_cap = 0, i;
	sqlite3 *db = vigil_store_sqlite(s);
	sqlite3_stmt *st = NULL;
	char *cur = NULL, *uidf = NULL, *key = NULL;
	bool *seen = NULL, snap_key = false;
	size_t key_len = 0;
	int rc, step;

	if (err && err_size)
		err[0] = '\0';
	seen = calloc(nsubjects ? nsubjects : 1, sizeof(*seen));
	if (!seen)
		return -ENOMEM;
	if (o->check) {
		char e[512] = "";

		rc = blast_new(o->root, o->sensitive_file, o->broad, &b, e,
			       sizeof(e));
		if (rc) {
			if (err && err_size)
				snprintf(err, err_size, "%s", e);
			goto out;
		}
	}
	if (sqlite3_prepare_v2(db, load_sql, -1, &st, NULL) != SQLITE_OK) {
		rc = -EIO;
		goto out;
	}
	sqlite3_bind_int(st, 1, !o->no_would_deny);
	if (o->since_ms)
		sqlite3_bind_int64(st, 2, o->since_ms);
	if (o->until_ms)
		sqlite3_bind_int64(st, 3, o->until_ms);
	sqlite3_bind_int64(st, 4, o->mntns);
	if (o->nuids) {
		rc = uid_filter(o->uids, o->nuids, &uidf);
		if (rc)
			goto out;
		sqlite3_bind_text(st, 5, uidf, -1, SQLITE_STATIC);
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *exe = col_text(st, 0);
		uint64_t nrec = (uint64_t)sqlite3_column_int64(st, 7);
		uint64_t nsnap = (uint64_t)sqlite3_column_int64(st, 8);
		struct obs ob = { 0 };
		bool again;

		/* rows are per uid: a tuple's other uids are no new tuple */
		rc = same_key(st, &key, &key_len, &again);
		if (rc)
			goto out;
		if (!exe || !*exe) {
			if (!nsubjects && !again)
				rs.skipped++;
			continue;
		}
		if (!wanted(subjects, nsubjects, exe, seen))
			continue;
		if (!cur || strcmp(cur, exe)) {
			if (cur) {
				rc = subject_add(&rs, &subj_cap, cur, obs,
						 nobs, o, b);
				obs_free(obs, nobs);
				nobs = 0;
				if (rc)
					goto out;
			}
			free(cur);
			cur = strdup(exe);
			if (!cur) {
				rc = -ENOMEM;
				goto out;
			}
		}
		rs.records += nrec;
		rc = row_obs(st, &ob);
		if (rc < 0)
			goto out;
		if (!rc || exe[0] != '/') {
			free(ob.object);
			rs.skipped += !again;
			continue;
		}
		if (!again) {
			rs.tuples++;
			snap_key = false;
		}
		if (nsnap && !snap_key) {
			rs.snapshot_tuples++;
			snap_key = true;
		}
		minmax(&rs.first, &rs.last, ob.first, ob.last);
		rc = grow_array((void **)&obs, &obs_cap, nobs + 1, sizeof(*obs));
		if (rc) {
			free(ob.object);
			goto out;
		}
		obs[nobs++] = ob;
	}
	if (step != SQLITE_DONE) {
		rc = -EIO;
		goto out;
	}
	if (cur) {
		rc = subject_add(&rs, &subj_cap, cur, obs, nobs, o, b);
		if (rc)
			goto out;
	}
	children_filter(&rs);
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_prepare_v2(db, "SELECT coalesce(max(id), 0) FROM snapshots",
			       -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		rc = -EIO;
		goto out;
	}
	rs.snapshot = sqlite3_column_int64(st, 0);
	rc = 0;
	for (i = 0; i < nsubjects; i++)
		if (!seen[i])
			rc = -ENOENT;
out:
	sqlite3_finalize(st);
	blast_free(b);
	obs_free(obs, nobs);
	free(obs);
	free(cur);
	free(uidf);
	free(key);
	free(seen);
	if (rc) {
		vigil_ruleset_free(&rs);
		return rc;
	}
	*ret = rs;
	return 0;
}

int vigil_rules_subject_known(struct vigil_store *s, const char *exe)
{
	static const char sql[] =
		"SELECT EXISTS (SELECT 1 FROM records WHERE exe = ?1) OR "
		"EXISTS (SELECT 1 FROM kernel_tuples WHERE exe = ?1 AND "
		"snapshot = (SELECT max(id) FROM snapshots))";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(vigil_store_sqlite(s), sql, -1, &st, NULL))
		return -EIO;
	sqlite3_bind_text(st, 1, exe, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -EIO;
	sqlite3_finalize(st);
	return rc;
}

void vigil_ruleset_free(struct vigil_ruleset *rs)
{
	size_t i, j;

	if (!rs)
		return;
	for (i = 0; i < rs->nsubjects; i++) {
		struct vigil_subject_rules *sr = &rs->subjects[i];

		for (j = 0; j < sr->nrules; j++)
			rule_free(&sr->rules[j]);
		free(sr->rules);
		for (j = 0; j < sr->nchildren; j++)
			free(sr->children[j]);
		free(sr->children);
		free(sr->service_uids);
		free(sr->exe);
	}
	free(rs->subjects);
	memset(rs, 0, sizeof(*rs));
}
