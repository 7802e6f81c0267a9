// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the rule model. Observed tuples (loaded from the
 * database by rules_load.c) become rules per subject, generalised by
 * explained heuristics unless strict; glob escaping. Library-like:
 * reports errors, never logs.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "escape.h"
#include "vigil.h"
#include "rules.h"
#include "match.h"
#include "blast.h"
#include "rules_int.h"


void rules_minmax(int64_t *first, int64_t *last, int64_t f, int64_t l)
{
	if (!*first || f < *first)
		*first = f;
	if (l > *last)
		*last = l;
}

void rules_hosts_or(uint64_t *dst, const uint64_t *src, uint32_t words)
{
	uint32_t i;

	if (!dst || !src)
		return;
	for (i = 0; i < words; i++)
		dst[i] |= src[i];
}

uint32_t rules_hosts_count(const uint64_t *v, uint32_t words)
{
	uint32_t i, n = 0;

	for (i = 0; v && i < words; i++)
		n += (uint32_t)__builtin_popcountll(v[i]);
	return n;
}

/* ---- uids ---- */

/* Add uid to u (sorted, once); past VIGIL_UIDS_MAX only u->more is set. */
void rules_uids_add(struct vigil_uids *u, uint32_t uid)
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
		rules_uids_add(dst, src->v[i]);
	dst->more = dst->more || src->more;
	dst->service = dst->service || src->service;
	dst->user_class = dst->user_class || src->user_class;
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
		size_t n = esc_printable(s + i, len - i);

		/* what a terminal would act on, or not UTF-8: \xHH */
		if (!n) {
			PUT('\\');
			PUT('x');
			PUT(hex[c >> 4]);
			PUT(hex[c & 15]);
			continue;
		}
		if (n > 1) {
			for (; n > 1; n--, i++)
				PUT(s[i]);
			PUT(s[i]);
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
	"varying number",
	"pid in name",
	"content-addressed store",
	"numbers it made",
	"beneath a folder that varies",
	"pty number",
};

bool rules_has_meta(const char *s)
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

/*
 * /dev/pts/N: the kernel gives a pseudo-terminal the lowest free number
 * at each open of /dev/ptmx, so the next run's pty (a login daemon's, a
 * terminal's) has another one -> /dev/pts/STAR.
 */
static int heur_pty(struct comps *cs, unsigned int *heur)
{
	if (cs->n != 3 || strcmp(cs->c[0], "dev") || strcmp(cs->c[1], "pts") ||
	    !all_digits(cs->c[2], strlen(cs->c[2])))
		return 0;
	*heur |= VIGIL_HEUR_PTY;
	return comp_set(cs, 2, "*");
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
static int temp_comp(struct comps *cs, size_t i, unsigned int *heur,
		     bool star_ok)
{
	const char *c = cs->c[i];
	size_t len = strlen(c), j, start, out = 0;
	bool changed = false;
	char *buf;
	int rc;

	/* star_ok: a glob a heuristic made ('*' stays, as a literal part) */
	if (!star_ok && strchr(c, '*'))
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

/*
 * An O_TMPFILE file: the kernel names it "#INO" in the folder it was
 * made in, a new number each time -> "#*", whatever the folder.
 */
static int heur_tmpfile(struct comps *cs, unsigned int *heur)
{
	const char *c;
	size_t i;

	if (!cs->n)
		return 0;
	c = cs->c[cs->n - 1];
	if (c[0] != '#' || !c[1])
		return 0;
	for (i = 1; c[i]; i++)
		if (c[i] < '0' || c[i] > '9')
			return 0;
	*heur |= VIGIL_HEUR_TEMP;
	return comp_set(cs, cs->n - 1, "#*");
}

static int heur_temp(struct comps *cs, unsigned int *heur, bool star_ok)
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
		rc = temp_comp(cs, i, heur, star_ok);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The glob of an absolute path without metacharacters, generalised:
 * *ret is NULL when no heuristic applies.
 */
/* generalise_path()'s flags: the temporary-name heuristic not now; on a
 * glob of the names-that-vary heuristic (its '*' kept). */
#define GEN_NO_TEMP 1u
#define GEN_STAR_OK 2u

static int generalise_path(const char *path, char **ret, unsigned int *heur,
			   unsigned int flags)
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
		rc = heur_pty(&cs, &h);
	if (!rc)
		rc = heur_home(&cs, &h);
	if (!rc)
		rc = heur_library(&cs, &h);
	if (!rc)
		rc = heur_tmpfile(&cs, &h);
	if (!rc && !(flags & GEN_NO_TEMP))
		rc = heur_temp(&cs, &h, flags & GEN_STAR_OK);
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
	free(r->sensitive);
	free(r->hosts);
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
/* Whether the last component of glob keeps a number of 3+ digits. */
static bool keeps_number(const char *glob)
{
	const char *c = strrchr(glob, '/');
	size_t run = 0;

	for (c = c ? c + 1 : glob; *c; c++) {
		run = *c >= '0' && *c <= '9' ? run + 1 : 0;
		if (run >= 3)
			return true;
	}
	return false;
}

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
	r->pid = o->pid;
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
	if (!strict && o->class == VIGIL_CLASS_FILE && !rules_has_meta(o->object)) {
		rc = generalise_path(o->object, &gen, &heur, 0);
		if (rc)
			goto fail;
		/*
		 * A number the temporary-name heuristic keeps literal
		 * (.tmp-16583-pack-*.pack): the names-that-vary heuristic
		 * sees the names first, with their evidence.
		 */
		if (gen && (heur & VIGIL_HEUR_TEMP) && keeps_number(gen)) {
			free(gen);
			gen = NULL;
			heur = 0;
			r->temp_later = true;
			rc = generalise_path(o->object, &gen, &heur,
					     GEN_NO_TEMP);
			if (rc)
				goto fail;
		}
	}
	if (gen && b) {
		rc = blast_judge(b, gen, 1,
				 !(heur & (VIGIL_HEUR_PROC | VIGIL_HEUR_PTY)),
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
		const char *sens = NULL;

		if (o->class == VIGIL_CLASS_FILE)
			sens = blast_sensitive(b, o->object);
		r->object = strdup(o->object);
		r->glob = vigil_glob_escape_dup(o->object, strlen(o->object),
						false);
		if (sens) {
			r->sensitive = strdup(sens);
			if (!r->sensitive)
				goto nomem;
		}
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
	rules_minmax(&dst->first, &dst->last, src->first, src->last);
	dst->distinct += src->distinct;
	dst->heuristics |= src->heuristics;
	dst->temp_later = dst->temp_later || src->temp_later;
	if (dst->pid != src->pid)
		dst->pid = 0;
	dst->generalised = dst->generalised || src->generalised;
	uids_union(&dst->uids, &src->uids);
	rules_hosts_or(dst->hosts, src->hosts, dst->host_words);
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

#define VARY_SHAPE_MAX 64
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
	       (r->generalised || !rules_has_meta(r->object)) &&
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
	if (obj[0] != '/' || rules_has_meta(obj))
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
 * Names that vary between runs (rules_vary.c): literal file rules of one
 * folder and one shape whose names differ only in parts made anew by
 * each run or process become one rule, a '*' over each such part
 * (".state.*.tmp"); one name whose number is its task's pid too. Each
 * glob is judged by the machine (sensitive list, blast radius).
 */
struct vary_ix {
	size_t i;		/* the rule */
	size_t dlen;		/* its folder's length */
	char shape[VARY_SHAPE_MAX];	/* its name's non-word bytes */
};

static const struct vigil_rule *vary_base;

static void vary_shape(const char *name, char *shape)
{
	size_t n = 0;

	for (; *name && n + 2 < VARY_SHAPE_MAX; name++) {
		if (is_word(*name)) {
			if (n && shape[n - 1] == 'w')
				continue;
			shape[n++] = 'w';
		} else {
			shape[n++] = *name;
		}
	}
	shape[n] = '\0';
}

static int vary_cmp(const void *a, const void *b)
{
	const struct vary_ix *x = a, *y = b;
	const char *ox = vary_base[x->i].object, *oy = vary_base[y->i].object;
	int c;

	if (x->dlen != y->dlen)
		return x->dlen < y->dlen ? -1 : 1;
	c = memcmp(ox, oy, x->dlen);
	if (!c)
		c = strcmp(x->shape, y->shape);
	if (!c)
		c = strcmp(ox, oy);
	return c;
}

static bool vary_same(const struct vary_ix *x, const struct vary_ix *y)
{
	return x->dlen == y->dlen &&
	       !memcmp(vary_base[x->i].object, vary_base[y->i].object,
		       x->dlen) && !strcmp(x->shape, y->shape);
}

/* Make the rules of ix[m[0..nm)] one glob, if the machine allows it. */
static int vary_apply(struct vigil_rule *rules, const struct vary_ix *ix,
		      const size_t *m, size_t nm, char *glob,
		      unsigned int kind, struct blast *b, bool *any)
{
	char *note = NULL;
	size_t k;
	int rc = 1;

	if (b)
		rc = blast_judge(b, glob, (unsigned int)nm, true, &note);
	if (rc < 0)
		goto out;
	for (k = 0; k < nm; k++) {
		struct vigil_rule *r = &rules[ix[m[k]].i];
		char *g, *o;

		if (note && set_blast(r, note)) {
			rc = -ENOMEM;
			goto out;
		}
		if (rc != 1)
			continue;
		g = vigil_glob_escape_dup(glob, strlen(glob), true);
		o = strdup(glob);
		if (!g || !o) {
			free(g);
			free(o);
			rc = -ENOMEM;
			goto out;
		}
		free(r->glob);
		r->glob = g;
		free(r->object);
		r->object = o;
		free(r->sensitive);
		r->sensitive = NULL;
		r->heuristics |= kind;
		r->generalised = true;
		*any = true;
	}
	rc = 0;
out:
	free(note);
	return rc;
}

/*
 * Content-addressed stores (issue 24 §2): objects kept in fan-out
 * folders named by two hex digits, under names that are hashes
 * (DIR/4d/<38 hex>) or temporary names made in them (DIR/ed/tmp_obj_X),
 * become DIR/??/STAR, and the fan-out folders themselves (made and
 * removed by the program) DIR/??, when the machine allows it.
 */
static bool hex2(const char *s, size_t len)
{
	size_t i;

	if (len != 2)
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

static bool hashed(const char *s)
{
	size_t n = 0;

	for (; *s; s++, n++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return n >= 30;
}

/* A temporary name in a store's folder: tmp_..._RANDOM. */
static bool store_temp(const char *s)
{
	const char *u = strrchr(s, '_');

	return !strncmp(s, "tmp_", 4) && u && looks_random(u + 1,
							   strlen(u + 1));
}

/*
 * The store DIR of a rule (its length), and whether it is an object
 * (DIR/HH/NAME) or a fan-out folder (DIR/HH); 0 when neither.
 */
static size_t store_dir(const struct vigil_rule *r, bool *object)
{
	const char *o = r->object, *last, *prev;
	size_t l;

	if (r->class != VIGIL_CLASS_FILE || r->generalised ||
	    r->heuristics || o[0] != '/' || rules_has_meta(o))
		return 0;
	l = dir_len(o);
	last = o + l + 1;
	if (hex2(last, strlen(last)) && l > 0) {
		*object = false;
		return l;
	}
	if (!l || !(hashed(last) || store_temp(last)))
		return 0;
	for (prev = o + l; prev > o && prev[-1] != '/'; prev--)
		;
	if (prev == o || !hex2(prev, (size_t)(o + l - prev)))
		return 0;
	*object = true;
	return (size_t)(prev - 1 - o);
}

static int heur_store(struct vigil_rule *rules, size_t *n, struct blast *b)
{
	size_t i, j, dl, dl2;
	bool any = false, obj, obj2;
	int rc = 0;

	for (i = 0; i < *n && !rc; i++) {
		unsigned int nobj = 0, ndir = 0, pass;
		char *globs[2] = { NULL, NULL };
		bool ok[2] = { false, false };

		dl = store_dir(&rules[i], &obj);
		if (!dl || !obj || !hashed(rules[i].object +
					   dir_len(rules[i].object) + 1))
			continue;
		/* a store with one hashed object at least: its members */
		for (j = 0; j < *n; j++) {
			dl2 = store_dir(&rules[j], &obj2);
			if (dl2 != dl || memcmp(rules[j].object,
						rules[i].object, dl))
				continue;
			if (obj2)
				nobj++;
			else
				ndir++;
		}
		for (pass = 0; pass < 2 && !rc; pass++) {
			char *note = NULL;

			if (!(pass ? ndir : nobj))
				continue;
			globs[pass] = malloc(dl + 6);
			if (!globs[pass]) {
				rc = -ENOMEM;
				break;
			}
			memcpy(globs[pass], rules[i].object, dl);
			strcpy(globs[pass] + dl, pass ? "/?" "?" : "/?" "?/*");
			rc = b ? blast_judge(b, globs[pass],
					     pass ? ndir : nobj, true, &note) : 1;
			if (rc < 0)
				break;
			ok[pass] = rc == 1;
			rc = 0;
			for (j = 0; j < *n && note && !rc; j++) {
				dl2 = store_dir(&rules[j], &obj2);
				if (dl2 == dl && obj2 == !pass &&
				    !memcmp(rules[j].object, rules[i].object,
					    dl))
					rc = set_blast(&rules[j], note);
			}
			free(note);
		}
		for (j = 0; j < *n && !rc; j++) {
			struct vigil_rule *r = &rules[j];
			char *g, *o;

			dl2 = store_dir(r, &obj2);
			if (dl2 != dl || memcmp(r->object, rules[i].object, dl) ||
			    !ok[!obj2])
				continue;
			o = strdup(globs[!obj2]);
			g = o ? vigil_glob_escape_dup(o, strlen(o), true) : NULL;
			if (!g) {
				free(o);
				rc = -ENOMEM;
				break;
			}
			free(r->object);
			r->object = o;
			free(r->glob);
			r->glob = g;
			r->heuristics |= VIGIL_HEUR_STORE;
			r->generalised = true;
			any = true;
		}
		free(globs[0]);
		free(globs[1]);
	}
	if (!rc && any)
		rules_sort_merge(rules, n);
	return rc;
}

bool rules_vary_off;

/*
 * What a name may vary by (rules_vary.c's judge), from its last component
 * and its record alone: a part of a name can vary only as a whole run of
 * digits (the pid's, VARY_DIGITS_MIN or more of them, or in a name the
 * program made) or as a word of 6 or more bytes (random). Two names of
 * one group must share one of these, and for VARY_NUMBER their time
 * spans must not overlap; for a random word, one of the two must look
 * random (a group of them needs more than half to: two names that do not
 * look random could only join one as its minority, which is not tried).
 */
enum {
	VARY_CAN_PID = 1,	/* a run of digits is the pid */
	VARY_CAN_NUMBER = 2,	/* a run of VARY_DIGITS_MIN or more digits */
	VARY_CAN_MADE = 4,	/* made by it, a run of digits */
	VARY_CAN_RANDOM = 8,	/* a word of 6 or more bytes */
	VARY_LOOKS = 16,	/* ... that looks random (judge's random_run) */
};

static unsigned int vary_can(const struct vigil_rule *r, size_t dlen)
{
	const char *s = r->object + dlen + 1, *e;
	unsigned int can = 0;
	char pid[16];
	int pl = r->pid ? snprintf(pid, sizeof(pid), "%u",
				   (unsigned int)r->pid) : 0;

	while (*s) {
		if (!is_word(*s)) {
			s++;
			continue;
		}
		bool dig = false, up = false, low = false;
		const char *w;
		size_t hex = 0;

		for (e = s; is_word(*e); e++) {
			dig |= *e >= '0' && *e <= '9';
			up |= *e >= 'A' && *e <= 'Z';
			low |= *e >= 'a' && *e <= 'z';
		}
		if (e - s >= 6)
			can |= VARY_CAN_RANDOM;
		/* a random run: a digit or both cases, or 8 hex digits */
		if (e - s >= 6 && (dig || (up && low)))
			can |= VARY_LOOKS;
		for (w = s; w < e; w++) {
			hex = isxdigit((unsigned char)*w) ? hex + 1 : 0;
			if (hex >= 8)
				can |= VARY_LOOKS;
		}
		for (; s < e; s++) {
			const char *d = s;

			if (*s < '0' || *s > '9')
				continue;
			while (d < e && *d >= '0' && *d <= '9')
				d++;
			if (d - s >= VARY_DIGITS_MIN)
				can |= VARY_CAN_NUMBER;
			if (r->access & VIGIL_FILE_C)
				can |= VARY_CAN_MADE;
			if (pl && d - s == pl && !memcmp(s, pid, (size_t)pl))
				can |= VARY_CAN_PID;
			s = d - 1;
		}
	}
	return can;
}

/* Index arrays of a folder and shape sorted by first and by last seen. */
static const struct vigil_rule *vary_rules;
static const struct vary_ix *vary_ixs;

static int by_first(const void *a, const void *b)
{
	int64_t x = vary_rules[vary_ixs[*(const size_t *)a].i].first,
		y = vary_rules[vary_ixs[*(const size_t *)b].i].first;

	return (x > y) - (x < y);
}

static int by_last(const void *a, const void *b)
{
	int64_t x = vary_rules[vary_ixs[*(const size_t *)a].i].last,
		y = vary_rules[vary_ixs[*(const size_t *)b].i].last;

	return (x > y) - (x < y);
}

static int idx_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* rules_vary_glob over ix[m[0..nm)]: *glob (NULL: none). */
static int vary_try(const struct vigil_rule *rules, const struct vary_ix *ix,
		    const size_t *m, size_t nm, struct vary_name *vn,
		    char **glob, unsigned int *kind)
{
	size_t q;

	for (q = 0; q < nm; q++) {
		const struct vigil_rule *r = &rules[ix[m[q]].i];

		vn[q] = (struct vary_name){ r->object, r->first, r->last,
					    r->pid, r->access };
	}
	return rules_vary_glob(vn, nm, glob, kind);
}

/*
 * Names that vary between runs, a folder and shape at a time. From each
 * name not yet in a group (in name order) a group grows by the names
 * after it that keep a glob possible, in name order: the same groups as
 * trying each of them in turn, but only the names that can share a kind
 * of variation with the first are tried (vary_can: the pid's, numbers
 * used apart, numbers it made, random words), and a run of them at once
 * (twice as many after each success, back to one after a failure), so
 * that a folder of 2,000 names costs O(n log n) calls, not n^2/2.
 */
static int heur_vary(struct vigil_rule *rules, size_t *n, struct blast *b)
{
	struct vary_ix *ix;
	struct vary_name *vn = NULL;
	size_t *m = NULL, *cand = NULL, *byf = NULL, *byl = NULL;
	size_t ni = 0, i, j, k, g, nm, nc, nd, lo, hi, pos, step, q;
	unsigned char *can = NULL, *mark = NULL;
	bool *done = NULL, any = false;
	unsigned int kind;
	char *glob;
	int rc = 0;

	if (rules_vary_off)
		return 0;
	ix = calloc(*n ? *n : 1, sizeof(*ix));
	vn = calloc(*n ? *n : 1, sizeof(*vn));
	m = calloc(*n ? *n : 1, sizeof(*m));
	cand = calloc(*n ? *n : 1, sizeof(*cand));
	byf = calloc(*n ? *n : 1, sizeof(*byf));
	byl = calloc(*n ? *n : 1, sizeof(*byl));
	can = calloc(*n ? *n : 1, sizeof(*can));
	mark = calloc(*n ? *n : 1, sizeof(*mark));
	done = calloc(*n ? *n : 1, sizeof(*done));
	if (!ix || !vn || !m || !cand || !byf || !byl || !can || !mark ||
	    !done) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < *n; i++) {
		const struct vigil_rule *r = &rules[i];

		if (r->class != VIGIL_CLASS_FILE || r->generalised ||
		    r->heuristics || r->object[0] != '/' ||
		    rules_has_meta(r->object))
			continue;
		ix[ni].i = i;
		ix[ni].dlen = dir_len(r->object);
		vary_shape(r->object + ix[ni].dlen + 1, ix[ni].shape);
		ni++;
	}
	vary_base = rules;
	qsort(ix, ni, sizeof(*ix), vary_cmp);
	for (g = 0; g < ni; g++)
		can[g] = (unsigned char)vary_can(&rules[ix[g].i], ix[g].dlen);
	vary_rules = rules;
	vary_ixs = ix;
	for (i = 0; i < ni && !rc; i = j) {
		for (j = i + 1; j < ni && vary_same(&ix[i], &ix[j]); j++)
			;
		/* the names of VARY_CAN_NUMBER by first and by last seen */
		for (nd = 0, k = i; k < j; k++)
			if (can[k] & VARY_CAN_NUMBER)
				byf[nd] = byl[nd] = k, nd++;
		qsort(byf, nd, sizeof(*byf), by_first);
		qsort(byl, nd, sizeof(*byl), by_last);
		for (g = i; g < j && !rc; g++) {
			const struct vigil_rule *rg = &rules[ix[g].i];

			if (done[g])
				continue;
			/* the candidates: after g, not done, a kind shared
			 * (random: one of the two must look it) */
			nc = 0;
			for (k = g + 1; k < j; k++)
				if (!done[k] &&
				    ((can[g] & can[k] &
				      (VARY_CAN_PID | VARY_CAN_MADE)) ||
				     ((can[g] & can[k] & VARY_CAN_RANDOM) &&
				      ((can[g] | can[k]) & VARY_LOOKS))))
					cand[nc++] = k, mark[k] = 1;
			if (can[g] & VARY_CAN_NUMBER) {
				/* used apart from g: ended before it began,
				 * or began after it ended */
				for (lo = 0, hi = nd; lo < hi;) {
					q = (lo + hi) / 2;
					if (rules[ix[byl[q]].i].last <= rg->first)
						lo = q + 1;
					else
						hi = q;
				}
				for (q = 0; q < lo; q++)
					if (byl[q] > g && !done[byl[q]] &&
					    !mark[byl[q]])
						cand[nc++] = byl[q],
						mark[byl[q]] = 1;
				for (lo = 0, hi = nd; lo < hi;) {
					q = (lo + hi) / 2;
					if (rules[ix[byf[q]].i].first < rg->last)
						lo = q + 1;
					else
						hi = q;
				}
				for (q = lo; q < nd; q++)
					if (byf[q] > g && !done[byf[q]] &&
					    !mark[byf[q]])
						cand[nc++] = byf[q],
						mark[byf[q]] = 1;
			}
			for (q = 0; q < nc; q++)
				mark[cand[q]] = 0;
			qsort(cand, nc, sizeof(*cand), idx_cmp);
			/* grow: a run of candidates at once, in order */
			nm = 0;
			m[nm++] = g;
			for (pos = 0, step = 1; pos < nc && !rc;) {
				size_t run = step < nc - pos ? step : nc - pos;

				memcpy(m + nm, cand + pos, run * sizeof(*m));
				rc = vary_try(rules, ix, m, nm + run, vn,
					      &glob, &kind);
				if (rc)
					break;
				if (glob) {
					nm += run;
					pos += run;
					step *= 2;
				} else if (run == 1) {
					pos++;
					step = 1;
				} else {
					step = run / 2;
				}
				free(glob);
			}
			if (rc)
				break;
			rc = vary_try(rules, ix, m, nm, vn, &glob, &kind);
			if (rc || !glob)
				continue;
			for (k = 0; k < nm; k++)
				done[m[k]] = true;
			rc = vary_apply(rules, ix, m, nm, glob, kind, b, &any);
			free(glob);
		}
	}
	if (!rc && any)
		rules_sort_merge(rules, n);
out:
	free(ix);
	free(vn);
	free(m);
	free(cand);
	free(byf);
	free(byl);
	free(can);
	free(mark);
	free(done);
	return rc;
}

/*
 * The temporary-name heuristic on the names left to heur_vary first
 * (rule.temp_later): on a literal name as before, on the glob heur_vary
 * made its random-looking parts too (one run's .tmp-*-pack-aB3xYz.pack:
 * the pid from the record, the random part by its look).
 */
static int heur_temp_later(struct vigil_rule *rules, size_t *n,
			   struct blast *b)
{
	bool any = false;
	size_t i;
	int rc = 0;

	for (i = 0; i < *n && !rc; i++) {
		struct vigil_rule *r = &rules[i];
		unsigned int heur = 0;
		char *gen = NULL, *note = NULL, *g;

		if (!r->temp_later || r->class != VIGIL_CLASS_FILE ||
		    (r->heuristics & VIGIL_HEUR_TEMP))
			continue;
		rc = generalise_path(r->object, &gen, &heur,
				     r->generalised ? GEN_STAR_OK : 0);
		if (rc || !gen || !(heur & VIGIL_HEUR_TEMP) ||
		    !strcmp(gen, r->object)) {
			free(gen);
			continue;
		}
		rc = b ? blast_judge(b, gen, r->distinct, true, &note) : 1;
		if (rc < 0) {
			free(gen);
			break;
		}
		if (note && set_blast(r, note)) {
			rc = -ENOMEM;
		} else if (rc == 1) {
			g = vigil_glob_escape_dup(gen, strlen(gen), true);
			if (!g) {
				rc = -ENOMEM;
			} else {
				free(r->glob);
				r->glob = g;
				free(r->object);
				r->object = gen;
				gen = NULL;
				free(r->sensitive);
				r->sensitive = NULL;
				r->heuristics |= heur;
				r->generalised = true;
				any = true;
				rc = 0;
			}
		} else {
			rc = 0;
		}
		free(gen);
		free(note);
	}
	if (!rc && any)
		rules_sort_merge(rules, n);
	return rc;
}

/*
 * What is beneath a folder whose name varies between runs (issue 24 §2:
 * a push's quarantine objects/tmp_objdir-incoming-XXXXXX/, with its own
 * fan-out folders and temp names): when the names-that-vary heuristics
 * made one glob of such folders (DIR/tmp_objdir-incoming-STAR, from two
 * or more names, or a pid-numbered one), each rule beneath one of the
 * folders it covers takes that glob in its path, when the machine allows
 * it; the rules that become one are merged. Only a glob whose '*' are its
 * only operators, in its last component, over a literal folder; never
 * the globs of other heuristics (siblings, stores, /proc, home folders).
 */
#define BENEATH_HEUR (VIGIL_HEUR_RANDOM | VIGIL_HEUR_NUMBER | \
		      VIGIL_HEUR_PID | VIGIL_HEUR_MADE)

static bool beneath_folder_glob(const struct vigil_rule *r)
{
	const char *last;

	if (r->class != VIGIL_CLASS_FILE || !r->generalised ||
	    !(r->heuristics & BENEATH_HEUR) ||
	    (r->heuristics & ~(BENEATH_HEUR | VIGIL_HEUR_TEMP)) ||
	    r->object[0] != '/' ||
	    (r->distinct < 2 && !(r->heuristics & VIGIL_HEUR_PID)))
		return false;
	last = strrchr(r->object, '/') + 1;
	/* '*' only, in the last component */
	return !memchr(r->object, '*', (size_t)(last - r->object)) &&
	       strchr(last, '*') && !strpbrk(r->object, "?[]{}\\");
}

/* Whether name (len bytes, no '/') matches pat, whose operator is '*'. */
static bool star_match(const char *pat, const char *name, size_t len)
{
	const char *star = strchr(pat, '*');
	size_t pre, i;

	if (!star)
		return strlen(pat) == len && !memcmp(pat, name, len);
	pre = (size_t)(star - pat);
	if (len < pre || memcmp(pat, name, pre))
		return false;
	for (i = pre; i <= len; i++)
		if (star_match(star + 1, name + i, len - i))
			return true;
	return false;
}

static int heur_beneath(struct vigil_rule *rules, size_t *n, struct blast *b)
{
	bool any = false;
	size_t f, i;
	int rc = 0;

	for (f = 0; f < *n && !rc; f++) {
		const char *fo = rules[f].object, *last;
		size_t plen;

		if (!beneath_folder_glob(&rules[f]))
			continue;
		last = strrchr(fo, '/') + 1;
		plen = (size_t)(last - fo);	/* "DIR/" */
		for (i = 0; i < *n && !rc; i++) {
			struct vigil_rule *r = &rules[i];
			const char *c, *slash;
			char *gen, *note = NULL, *g;

			if (i == f || r->class != VIGIL_CLASS_FILE ||
			    (r->heuristics & VIGIL_HEUR_RELATIVE) ||
			    strncmp(r->object, fo, plen))
				continue;
			c = r->object + plen;
			slash = strchr(c, '/');
			if (!slash || !slash[1] ||
			    !star_match(last, c, (size_t)(slash - c)) ||
			    (!r->generalised && rules_has_meta(slash)))
				continue;
			/* already the folder's glob */
			if ((size_t)(slash - c) == strlen(last) &&
			    !memcmp(c, last, strlen(last)))
				continue;
			if (asprintf(&gen, "%s%s", fo, slash) < 0) {
				rc = -ENOMEM;
				break;
			}
			rc = b ? blast_judge(b, gen, r->distinct, true, &note)
			       : 1;
			if (rc < 0) {
				free(gen);
				break;
			}
			if (note && set_blast(r, note)) {
				rc = -ENOMEM;
			} else if (rc == 1) {
				g = vigil_glob_escape_dup(gen, strlen(gen),
							  true);
				if (!g) {
					rc = -ENOMEM;
				} else {
					free(r->glob);
					r->glob = g;
					free(r->object);
					r->object = gen;
					gen = NULL;
					free(r->sensitive);
					r->sensitive = NULL;
					r->heuristics |= VIGIL_HEUR_BENEATH;
					r->generalised = true;
					any = true;
					rc = 0;
				}
			} else {
				rc = 0;
			}
			free(gen);
			free(note);
		}
	}
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
int rules_subject_build(struct vigil_subject_rules *sr, struct obs *obs,
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
			if (d->pid != obs[i].pid)
				d->pid = 0;
			uids_union(&d->uids, &obs[i].uids);
			rules_hosts_or(d->hosts, obs[i].hosts, d->host_words);
			rules_minmax(&d->first, &d->last, obs[i].first,
			       obs[i].last);
			free(obs[i].object);
			obs[i].object = NULL;
			free(obs[i].hosts);
			obs[i].hosts = NULL;
			continue;
		}
		if (out != i) {
			obs[out] = obs[i];
			obs[i].object = NULL;
			obs[i].hosts = NULL;
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
		rules[n].hosts = obs[i].hosts;
		rules[n].host_words = obs[i].host_words;
		obs[i].hosts = NULL;
		n++;
	}
	rules_sort_merge(rules, &n);
	if (!strict) {
		rc = heur_store(rules, &n, b);
		if (!rc)
			rc = heur_vary(rules, &n, b);
		if (!rc)
			rc = heur_temp_later(rules, &n, b);
		if (!rc)
			rc = heur_beneath(rules, &n, b);
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
	for (i = 0; i < n; i++) {
		sr->flagged += vigil_rule_flagged(&rules[i]);
		rules[i].nhosts = rules_hosts_count(rules[i].hosts,
						    rules[i].host_words);
	}
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
		for (j = 0; j < sr->nleft_out; j++)
			rule_free(&sr->left_out[j]);
		free(sr->left_out);
		for (j = 0; j < sr->nchildren; j++)
			free(sr->children[j]);
		free(sr->children);
		free(sr->service_uids);
		free(sr->exe);
		free(sr->via);
		free(sr->chain);
	}
	free(rs->subjects);
	memset(rs, 0, sizeof(*rs));
}
