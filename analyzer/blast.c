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
#include "rules.h"
#include "blast.h"
#include "match.h"

/* Kept in docs/generate.md. Secrets, credentials, the kernel's memory,
 * what boots the machine, and vigil's and audit's own records. */
const char *const vigil_sensitive_builtin[] = {
	"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
	"/etc/sudoers", "/etc/sudoers.d/**", "/etc/security/opasswd",
	"/etc/krb5.keytab", "/etc/ssh/ssh_host_*_key", "/etc/ssl/private/**",
	"/etc/NetworkManager/system-connections/**", "/etc/apparmor.d/**",
	"/root", "/root/**", "/home/*/.ssh/**", "/home/*/.gnupg/**",
	"**/id_rsa", "**/id_dsa", "**/id_ecdsa", "**/id_ed25519", "**/*.key",
	"/proc/*/mem", "/proc/*/environ", "/proc/kcore", "/dev/mem",
	"/dev/kmem", "/dev/port", "/boot", "/boot/**", "/var/lib/vigil/**",
	"/var/log/audit/**", "/sys/kernel/security/**",
	NULL,
};

struct sens {
	struct vigil_glob *glob;
	char *src;		/* as written */
	bool literal;
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
	size_t len;
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
	s->literal = vigil_glob_literal(s->glob, &len) != NULL;
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

	f = fopen(path, "re");
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
	struct blast *b = calloc(1, sizeof(*b));
	char why[200];
	size_t i, len;
	int rc = -ENOMEM;

	if (!b)
		return -ENOMEM;
	b->broad = broad;
	if (!root)
		root = "";
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

/* A literal sensitive path the glob admits, not observed, or NULL. */
static const char *sensitive_literal(struct blast *b, const char *object)
{
	struct vigil_glob *g = NULL;
	const char *hit = NULL, *lit;
	char *src, why[8];
	size_t i, len;

	src = vigil_glob_escape_dup(object, strlen(object), true);
	if (!src || vigil_glob_compile(src, strlen(src), &g, why,
				       sizeof(why))) {
		free(src);
		return NULL;
	}
	free(src);
	for (i = 0; !hit && i < b->nsens; i++) {
		if (!b->sens[i].literal)
			continue;
		lit = vigil_glob_literal(b->sens[i].glob, &len);
		if (vigil_glob_match(g, lit, len) && !observed(b, lit))
			hit = b->sens[i].src;
	}
	vigil_glob_free(g);
	return hit;
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
	const char *lit;
	struct cached *c;
	char *ex, *e;
	int rc;

	*ret_note = NULL;
	if (bound < VIGIL_BLAST_MIN)
		bound = VIGIL_BLAST_MIN;
	c = lookup(b, object, &rc);
	if (!c)
		return rc;
	lit = sensitive_literal(b, object);
	e = vigil_glob_escape_dup(object, strlen(object), true);
	ex = put_examples(c);
	if (!e || !ex) {
		rc = -ENOMEM;
	} else if (c->sensitive || lit) {
		rc = asprintf(ret_note, "not generalised to %s: it would "
			      "admit %s (sensitive, not observed)", e,
			      c->sensitive ? c->sensitive : lit) < 0 ?
			-ENOMEM : 0;
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
