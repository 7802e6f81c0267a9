// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: a glob a heuristic made, judged on this machine. It is
 * refused when it admits a sensitive object that was not observed (the
 * built-in list below plus a file of globs), or when, without --broad, the
 * existing objects it admits beyond those observed (its blast radius) are
 * more than max(VIGIL_BLAST_MIN, VIGIL_BLAST_FACTOR x observed).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"
#include "rules_text.h"
#include "blast.h"
#include "match.h"

/*
 * Kept in docs/generate.md. Secrets, credentials, the kernel's memory,
 * what boots the machine, and vigil's and audit's own records. A glob
 * generate makes is judged on these patterns, whatever exists here:
 * an absolute pattern (a place) refuses every glob that overlaps it; a
 * name pattern ("**" then a name) refuses every glob whose own literal
 * text spells such a name (its wildcards stand for the varying part of
 * the names observed and never spell one), and any glob that admits an
 * existing file of that name.
 */
const char *const vigil_sensitive_builtin[] = {
	"/etc/shadow*", "/etc/gshadow*", "/etc/sudoers", "/etc/sudoers.d/**",
	"/etc/security/opasswd", "/etc/krb5.keytab",
	"/etc/ssh/ssh_host_*_key", "/etc/ssl/private", "/etc/ssl/private/**",
	"/etc/NetworkManager/system-connections/**", "/etc/apparmor.d/**",
	"/etc/vigil/**", "/root", "/root/**", "/home/*/.ssh", "/home/*/.ssh/**",
	"/home/*/.gnupg", "/home/*/.gnupg/**", "/home/*/.aws/**",
	"/home/*/.netrc", "/home/*/.pgpass", "/home/*/.git-credentials",
	"**/id_rsa*", "**/id_dsa*", "**/id_ecdsa*", "**/id_ed25519*",
	"**/*.key", "**/*key*.pem", "**/*.p12", "**/*.pfx",
	"/proc/*/mem", "/proc/*/environ", "/proc/*/task/*/mem",
	"/proc/*/task/*/environ", "/proc/kcore", "/dev/mem", "/dev/kmem",
	"/dev/port", "/boot", "/boot/**", "/var/lib/vigil/**",
	"/var/log/audit", "/var/log/audit/**", "/sys/kernel/security/**",
	NULL,
};

struct sens {
	struct vigil_glob *glob;
	struct vigil_glob_alts *alts;	/* its brace-free alternatives */
	char *src;		/* as written */
	bool name;		/* "**" then a name: judged on names */
};

struct cached {
	char *object;
	unsigned long long beyond;	/* existing, not observed */
	bool capped;			/* the walk stopped early */
	char *ex[3];		/* escaped, for the notes */
	char *raw[3];		/* the same, as they are */
	unsigned int nex;
	char *sensitive;		/* a sensitive object it admits */
};

struct blast {
	char *root;		/* "" for "/" */
	struct sens *sens;
	size_t nsens;
	bool broad;
	char *const *obs;
	size_t nobs;
	struct cached *cache;
	size_t ncache, cap_cache;
};

/* ---- the sensitive list ---- */

static int sens_add(struct blast *b, const char *src, char *why,
		    size_t why_size)
{
	struct sens *s;
	int rc;

	s = realloc(b->sens, (b->nsens + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	b->sens = s;
	s = &b->sens[b->nsens];
	memset(s, 0, sizeof(*s));
	rc = vigil_glob_compile(src, strlen(src), &s->glob, why, why_size);
	if (rc)
		return rc;
	s->src = strdup(src);
	if (!s->src) {
		vigil_glob_free(s->glob);
		return -ENOMEM;
	}
	rc = vigil_glob_expand(src, strlen(src), &s->alts, why, why_size);
	if (rc) {
		vigil_glob_free(s->glob);
		free(s->src);
		return rc;
	}
	s->name = !strncmp(src, "**", 2);
	b->nsens++;
	return 0;
}

static int sens_file(struct blast *b, const char *path, char *err,
		     size_t err_size)
{
	char why[200], *line = NULL, *p, *e;
	unsigned int n = 0;
	size_t cap = 0;
	FILE *f;
	int rc = 0;

	if (!strcmp(path, "-")) {
		/* standard input, read once: a verb may judge twice */
		static char *in;
		static size_t in_len;

		if (!in) {
			rc = read_file("-", 1 << 20, &in, &in_len);
			if (rc) {
				snprintf(err, err_size, "--sensitive -: %s",
					 strerror(-rc));
				return rc;
			}
		}
		if (!in_len)
			return 0;
		f = fmemopen(in, in_len, "r");
	} else {
		f = fopen(path, "re");
	}
	if (!f) {
		rc = -errno;
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return rc;
	}
	while (getline(&line, &cap, f) >= 0) {
		n++;
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		e = p + strlen(p);
		while (e > p && (e[-1] == '\n' || e[-1] == '\r' ||
				 e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		if (!*p || *p == '#')
			continue;
		rc = sens_add(b, p, why, sizeof(why));
		if (rc == -EINVAL)
			snprintf(err, err_size, "%s:%u: %s", path, n, why);
		else if (rc == 0 && *p != '/' && strncmp(p, "**", 2)) {
			snprintf(err, err_size, "%s:%u: not an absolute path "
				 "or '**' glob: '%s'", path, n, p);
			rc = -EINVAL;
		}
		if (rc)
			break;
	}
	free(line);
	fclose(f);
	return rc;
}

int blast_new(const char *root, const char *sensitive_file, bool broad,
	      struct blast **ret, char *err, size_t err_size)
{
	struct blast *b;
	struct stat st;
	char why[200];
	size_t i, len;
	int rc = -ENOMEM;

	if (!root)
		root = "";
	/* a root that is not there would judge nothing: never silently */
	if (*root && stat(root, &st)) {
		rc = -errno;
		snprintf(err, err_size, "--root %s: %s", root, strerror(errno));
		return rc;
	}
	if (*root && !S_ISDIR(st.st_mode)) {
		snprintf(err, err_size, "--root %s: not a folder", root);
		return -ENOTDIR;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->broad = broad;
	len = strlen(root);
	while (len && root[len - 1] == '/')
		len--;
	b->root = strndup(root, len);
	if (!b->root)
		goto fail;
	for (i = 0; vigil_sensitive_builtin[i]; i++) {
		rc = sens_add(b, vigil_sensitive_builtin[i], why, sizeof(why));
		if (rc)
			goto fail;
	}
	if (sensitive_file) {
		rc = sens_file(b, sensitive_file, err, err_size);
		if (rc)
			goto fail;
	}
	*ret = b;
	return 0;
fail:
	blast_free(b);
	return rc;
}

static void cached_free(struct cached *c)
{
	unsigned int i;

	free(c->object);
	for (i = 0; i < c->nex; i++) {
		free(c->ex[i]);
		free(c->raw[i]);
	}
	free(c->sensitive);
}

void blast_set_observed(struct blast *b, char *const *sorted, size_t n)
{
	size_t i;

	b->obs = sorted;
	b->nobs = n;
	for (i = 0; i < b->ncache; i++)
		cached_free(&b->cache[i]);
	b->ncache = 0;
}

void blast_free(struct blast *b)
{
	size_t i;

	if (!b)
		return;
	blast_set_observed(b, NULL, 0);
	free(b->cache);
	for (i = 0; i < b->nsens; i++) {
		vigil_glob_free(b->sens[i].glob);
		vigil_glob_alts_free(b->sens[i].alts);
		free(b->sens[i].src);
	}
	free(b->sens);
	free(b->root);
	free(b);
}

/* ---- the walk ---- */

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool observed(const struct blast *b, const char *path)
{
	return b->nobs && bsearch(&path, b->obs, b->nobs, sizeof(char *),
				  str_cmp);
}

static const char *sensitive(const struct blast *b, const char *path)
{
	size_t i;

	for (i = 0; i < b->nsens; i++)
		if (vigil_glob_match(b->sens[i].glob, path, strlen(path)))
			return b->sens[i].src;
	return NULL;
}

/* A component pattern: '*' any run, '?' one byte (neither crosses '/'). */
static bool comp_match(const char *p, size_t plen, const char *s)
{
	size_t pi = 0, star = (size_t)-1, mark = 0;
	size_t si = 0, slen = strlen(s);

	while (si < slen) {
		if (pi < plen && (p[pi] == '?' || p[pi] == s[si])) {
			pi++;
			si++;
		} else if (pi < plen && p[pi] == '*') {
			star = pi++;
			mark = si;
		} else if (star != (size_t)-1) {
			pi = star + 1;
			si = ++mark;
		} else {
			return false;
		}
	}
	while (pi < plen && p[pi] == '*')
		pi++;
	return pi == plen;
}

struct walk {
	struct blast *b;
	struct cached *c;
	unsigned long long entries;
	char path[4096];
};

static int found(struct walk *w, const char *path)
{
	struct cached *c = w->c;

	if (observed(w->b, path))
		return 0;
	c->beyond++;
	/* escaped: the notes go into comment lines */
	if (!c->sensitive && sensitive(w->b, path)) {
		c->sensitive = vigil_glob_escape_dup(path, strlen(path), false);
		if (!c->sensitive)
			return -ENOMEM;
	}
	/* the first three in byte order, whatever readdir's order */
	if (c->nex < 3 || strcmp(path, c->raw[c->nex - 1]) < 0) {
		unsigned int i = c->nex < 3 ? c->nex++ : 2;
		char *raw = strdup(path);
		char *esc = vigil_glob_escape_dup(path, strlen(path), false);

		if (!raw || !esc) {
			free(raw);
			free(esc);
			return -ENOMEM;
		}
		if (i == 2 && c->raw[2]) {
			free(c->raw[2]);
			free(c->ex[2]);
		}
		while (i && strcmp(raw, c->raw[i - 1]) < 0) {
			c->raw[i] = c->raw[i - 1];
			c->ex[i] = c->ex[i - 1];
			i--;
		}
		c->raw[i] = raw;
		c->ex[i] = esc;
	}
	return 0;
}

/* Walk the rest of the pattern, pat, below w->path[0..len). */
static int walk(struct walk *w, size_t len, const char *pat)
{
	const char *slash, *comp;
	char full[4096 + 256];
	struct dirent *de;
	struct stat st;
	size_t clen;
	DIR *d;
	int rc = 0;

	if (!*pat) {
		w->path[len] = '\0';
		snprintf(full, sizeof(full), "%s%s", w->b->root, w->path);
		if (!lstat(full, &st))
			return found(w, w->path);
		return 0;
	}
	/* pat starts with '/' */
	comp = pat + 1;
	slash = strchr(comp, '/');
	clen = slash ? (size_t)(slash - comp) : strlen(comp);
	if (len + 1 + clen + 1 >= sizeof(w->path))
		return 0;
	if (!memchr(comp, '*', clen) && !memchr(comp, '?', clen)) {
		w->path[len] = '/';
		memcpy(w->path + len + 1, comp, clen);
		return walk(w, len + 1 + clen, comp + clen);
	}
	w->path[len] = '\0';
	snprintf(full, sizeof(full), "%s%s", w->b->root,
		 len ? w->path : "/");
	d = opendir(full);
	if (!d)
		return 0;
	while (!rc && (de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (++w->entries > VIGIL_BLAST_WALK_MAX) {
			w->c->capped = true;
			break;
		}
		if (!comp_match(comp, clen, de->d_name) ||
		    len + 1 + n + 1 >= sizeof(w->path))
			continue;
		w->path[len] = '/';
		memcpy(w->path + len + 1, de->d_name, n);
		rc = walk(w, len + 1 + n, comp + clen);
	}
	closedir(d);
	return rc;
}

static struct cached *lookup(struct blast *b, const char *object, int *rc)
{
	struct walk *w;
	struct cached *c;
	size_t i;

	*rc = 0;
	for (i = 0; i < b->ncache; i++)
		if (!strcmp(b->cache[i].object, object))
			return &b->cache[i];
	*rc = grow_array((void **)&b->cache, &b->cap_cache, b->ncache + 1,
			 sizeof(*b->cache));
	if (*rc)
		return NULL;
	c = &b->cache[b->ncache];
	memset(c, 0, sizeof(*c));
	c->object = strdup(object);
	w = calloc(1, sizeof(*w));
	if (!c->object || !w) {
		free(c->object);
		free(w);
		*rc = -ENOMEM;
		return NULL;
	}
	b->ncache++;
	w->b = b;
	w->c = c;
	if (object[0] == '/')
		*rc = walk(w, 0, object);
	free(w);
	return *rc ? NULL : c;
}

/* ---- overlap of a glob with a sensitive pattern ---- */

/*
 * What one token can consume: a byte, any byte but '/', any byte, or
 * (OPAQUE) only bytes no pattern spells: a generated glob's wildcard when
 * judged against a name pattern.
 */
enum { CS_BYTE, CS_NOSLASH, CS_ANY, CS_OPAQUE };

static int tok_set(u16 t, bool opaque, unsigned char *byte)
{
	if (t < 256) {
		*byte = (unsigned char)t;
		return CS_BYTE;
	}
	if (opaque)
		return CS_OPAQUE;
	return t == VIGIL_GLOB_DSTAR ? CS_ANY : CS_NOSLASH;
}

static bool sets_meet(int x, unsigned char bx, int y, unsigned char by)
{
	if (x == CS_BYTE && y == CS_BYTE)
		return bx == by;
	if (x == CS_BYTE || y == CS_BYTE) {
		int o = x == CS_BYTE ? y : x;
		unsigned char c = x == CS_BYTE ? bx : by;

		return o == CS_ANY || (o == CS_NOSLASH && c != '/');
	}
	return true;	/* two wildcards share a byte that is not '/' */
}

static bool is_star(u16 t)
{
	return t == VIGIL_GLOB_STAR || t == VIGIL_GLOB_DSTAR;
}

/*
 * Whether some text matches both a[0..na) and b[0..nb) (brace-free
 * token strings), a's wildcards OPAQUE when opaque: a search over the
 * pairs of positions. 1, 0 or -ENOMEM.
 */
int blast_tokens_meet(const u16 *a, size_t na, const u16 *b, size_t nb,
		      bool opaque)
{
	size_t w = nb + 1, cells = (na + 1) * w, top = 0, i, j;
	unsigned char *seen = calloc(cells, 1);
	size_t *stack = malloc(cells * sizeof(*stack));	/* each cell once */
	int rc = 0;

	if (!seen || !stack) {
		free(seen);
		free(stack);
		return -ENOMEM;
	}
#define PUSH(x, y) do {							\
		if (!seen[(x) * w + (y)]) {				\
			seen[(x) * w + (y)] = 1;			\
			stack[top++] = (x) * w + (y);			\
		}							\
	} while (0)
	PUSH(0, 0);
	while (top && !rc) {
		size_t c = stack[--top];

		i = c / w;
		j = c % w;
		if (i == na && j == nb) {
			rc = 1;
			break;
		}
		if (i < na && is_star(a[i]))
			PUSH(i + 1, j);
		if (j < nb && is_star(b[j]))
			PUSH(i, j + 1);
		if (i < na && j < nb) {
			unsigned char ba = 0, bb = 0;
			int x = tok_set(a[i], opaque, &ba);
			int y = tok_set(b[j], false, &bb);

			if (sets_meet(x, ba, y, bb))
				PUSH(is_star(a[i]) ? i : i + 1,
				     is_star(b[j]) ? j : j + 1);
		}
	}
#undef PUSH
	free(seen);
	free(stack);
	return rc;
}

/*
 * The sensitive pattern a generated glob (object: '*' and '?' its only
 * operators) overlaps, judged on the patterns: *ret the pattern or NULL.
 */
static int sensitive_overlap(const struct blast *b, const char *object,
			     const char **ret)
{
	size_t n = strlen(object), i, k, off;
	u16 *a = malloc((n ? n : 1) * sizeof(*a));
	int rc = 0;

	*ret = NULL;
	if (!a)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		a[i] = object[i] == '*' ? VIGIL_GLOB_STAR :
		       object[i] == '?' ? VIGIL_GLOB_ANY :
		       (unsigned char)object[i];
	for (i = 0; i < b->nsens && !*ret && rc >= 0; i++) {
		const struct vigil_glob_alts *al = b->sens[i].alts;

		for (k = 0, off = 0; k < al->nalts; off += al->lens[k++]) {
			rc = blast_tokens_meet(a, n, al->toks + off,
					       al->lens[k], b->sens[i].name);
			if (rc < 0)
				break;
			if (rc) {
				*ret = b->sens[i].src;
				break;
			}
		}
	}
	free(a);
	return rc < 0 ? rc : 0;
}

int vigil_sensitive_beneath(const char *dir, const char **ret)
{
	size_t n = strlen(dir), i, k, off;
	u16 *a = malloc((n + 3) * sizeof(*a));
	struct vigil_glob_alts *al = NULL;
	char why[64];
	int rc = 0;

	*ret = NULL;
	if (!a)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		a[i] = (unsigned char)dir[i];
	if (!n || dir[n - 1] != '/')
		a[n++] = '/';
	a[n++] = VIGIL_GLOB_DSTAR;
	for (i = 0; vigil_sensitive_builtin[i] && !*ret && rc >= 0; i++) {
		const char *src = vigil_sensitive_builtin[i];

		rc = vigil_glob_expand(src, strlen(src), &al, why, sizeof(why));
		if (rc)
			break;
		for (k = 0, off = 0; k < al->nalts; off += al->lens[k++]) {
			rc = blast_tokens_meet(a, n, al->toks + off,
					       al->lens[k], src[0] != '/');
			if (rc < 0)
				break;
			if (rc) {
				*ret = src;
				break;
			}
		}
		vigil_glob_alts_free(al);
		al = NULL;
	}
	free(a);
	return rc < 0 ? rc : 0;
}

const char *blast_sensitive(const struct blast *b, const char *path)
{
	return b ? sensitive(b, path) : NULL;
}

static char *put_examples(const struct cached *c)
{
	char *s = NULL;

	switch (c->nex) {
	case 0:
		return strdup("");
	case 1:
		if (asprintf(&s, ", e.g. %s", c->ex[0]) < 0)
			s = NULL;
		return s;
	case 2:
		if (asprintf(&s, ", e.g. %s, %s", c->ex[0], c->ex[1]) < 0)
			s = NULL;
		return s;
	default:
		if (asprintf(&s, ", e.g. %s, %s, %s", c->ex[0], c->ex[1],
			     c->ex[2]) < 0)
			s = NULL;
		return s;
	}
}

int blast_judge(struct blast *b, const char *object, unsigned int nobs,
		bool bounded, char **ret_note)
{
	unsigned long long bound = (unsigned long long)nobs *
				   VIGIL_BLAST_FACTOR;
	const char *pat;
	struct cached *c;
	char *ex, *e;
	int rc;

	*ret_note = NULL;
	if (bound < VIGIL_BLAST_MIN)
		bound = VIGIL_BLAST_MIN;
	rc = sensitive_overlap(b, object, &pat);
	if (rc)
		return rc;
	if (pat) {
		/* judged on the patterns: what exists here does not matter */
		e = vigil_glob_escape_dup(object, strlen(object), true);
		if (!e)
			return -ENOMEM;
		rc = asprintf(ret_note, "not generalised to %s: it would "
			      "admit what the sensitive pattern %s names, "
			      "whatever exists", e, pat) < 0 ? -ENOMEM : 0;
		free(e);
		if (rc < 0)
			*ret_note = NULL;
		return rc;
	}
	c = lookup(b, object, &rc);
	if (!c)
		return rc;
	e = vigil_glob_escape_dup(object, strlen(object), true);
	ex = put_examples(c);
	if (!e || !ex) {
		rc = -ENOMEM;
	} else if (c->sensitive) {
		rc = asprintf(ret_note, "not generalised to %s: it would "
			      "admit %s (sensitive, not observed)", e,
			      c->sensitive) < 0 ? -ENOMEM : 0;
	} else if (bounded && !b->broad && c->beyond > bound) {
		rc = asprintf(ret_note, "not generalised to %s: it would "
			      "admit %s%llu more existing objects%s, over the "
			      "bound of %llu (--broad allows it)", e,
			      c->capped ? "at least " : "", c->beyond, ex,
			      bound) < 0 ? -ENOMEM : 1;
		rc = rc < 0 ? rc : 0;
	} else {
		rc = asprintf(ret_note, "blast radius %s%llu more existing%s%s",
			      c->capped ? "at least " : "", c->beyond, ex,
			      bounded ? "" : " (per-pid /proc: not bounded)")
			< 0 ? -ENOMEM : 1;
	}
	if (rc < 0)
		*ret_note = NULL;
	free(e);
	free(ex);
	return rc;
}
