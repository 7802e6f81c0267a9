// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: export to SELinux, a policy module (.te) per subject
 * for checkmodule. Paths become types through the installed policy's
 * file contexts (libselinux selabel): no type is invented but the
 * subject's own domain, which the module declares.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dirent.h>
#include <limits.h>

#include <selinux/context.h>
#include <selinux/label.h>
#include <selinux/selinux.h>
#include <sepol/sepol.h>

#include "vigil.h"
#include "util.h"
#include "driver.h"
#include "object.h"
#include "rules_text.h"
#include "blast.h"
#include "match.h"

#define SE_DEFAULT_FC "/etc/selinux/default/contexts/files/file_contexts"

/* A portcon of the policy: PROTO LOW-HIGH is TYPE. */
struct se_port {
	int proto, low, high;
	char *type;
};

/* One allow rule: domain TYPE:CLASS { perms }. */
struct se_allow {
	char *type;		/* "self" or a type of the policy */
	char *class;
	char **perms;
	size_t nperms;
};

struct se {
	struct selabel_handle *h;
	const char *fc;		/* the file contexts read, or NULL */
	bool permissive;	/* each domain declared permissive */
	/* the binary policy's port and node types (read: false when no
	 * policy file was found beside the file contexts) */
	bool policy_read;
	struct se_port *ports;
	size_t nports;
	char **nodes;
	size_t nnodes;
	char *id, *mod, *domain, *fname;	/* the subject's */
	char *exec_type, *exe;		/* its program's own file type */
	struct se_allow *v;
	size_t n;
	struct export_notes *general, *left;
	/* the symbolic links of the folders where systems keep aliases
	 * (/, /etc, /var, /usr): a program may reach a path through one */
	struct se_alias *aliases;
	size_t naliases;
	bool labels;		/* SELinux runs here: files' own labels */
	/* the files it writes under /var, /run, /tmp, /srv: their
	 * private types (declared), .fc entries, type transitions */
	char **own_types;
	size_t nown_types;
	struct se_own *own;
	size_t nown;
	/* the folder trees it writes (DIR/STAR-STAR, DIR/STAR): private
	 * types too */
	struct se_tree *trees;
	size_t ntrees;
	/* the rule being written may give its file a private type: the
	 * subject's own rule, and no other domain runs its code */
	bool own_ok;
	const struct export_ctx *c;
};

/* A symbolic link and the path it resolves to on this machine. */
struct se_alias {
	char *link, *target;
};

/*
 * A file the program writes, given a private type of its module: its
 * path (the .fc labels it), the type, and when the program creates it,
 * the type of its folder for the named type_transition.
 */
struct se_own {
	char *path, *type, *parent, *name;
};

/*
 * A folder tree the program writes (a rule DIR/STAR-STAR or DIR/STAR),
 * given a private type of its module: the .fc labels the folder and what
 * is in it (TOP(/.*)? or TOP(/[^/]*)?), a named dir type_transition in
 * the type(s) of its parent gives the type to the folder when the program
 * makes it, and what is made inside inherits the folder's type.
 */
struct se_tree {
	char *top;		/* the folder, without a trailing '/' */
	char *type;
	char *name;		/* its last component */
	bool deep;		/* STAR-STAR: everything beneath */
	char *parent[2];	/* the parent's types (file contexts', label) */
};

/* Is p the folder a or beneath it? */
static bool path_within(const char *p, const char *a)
{
	size_t n = strlen(a);

	if (!strcmp(a, "/"))
		return true;
	return !strncmp(p, a, n) && (p[n] == '\0' || p[n] == '/');
}

/*
 * The tree of the subject that path lies in (its folder, or beneath it:
 * for a STAR tree one level only, as its .fc entry labels), or NULL. A
 * trailing '/' (a glob's folder) is ignored.
 */
static const struct se_tree *se_tree_at(const struct se *s, const char *path)
{
	size_t i, n = strlen(path), tn;

	while (n > 1 && path[n - 1] == '/')
		n--;
	for (i = 0; i < s->ntrees; i++) {
		const struct se_tree *t = &s->trees[i];

		tn = strlen(t->top);
		if (n < tn || strncmp(path, t->top, tn) ||
		    (n > tn && path[tn] != '/'))
			continue;
		if (n == tn || t->deep ||
		    !memchr(path + tn + 1, '/', n - tn - 1))
			return t;
	}
	return NULL;
}

/*
 * The tree a rule's path lies in: for a glob (path its folder), the tree
 * that holds the files beneath that folder (a STAR tree only its own
 * folder's entries).
 */
static const struct se_tree *se_tree_of(const struct se *s, const char *path,
					bool glob)
{
	const struct se_tree *t = se_tree_at(s, path);
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	return t && glob && !t->deep && n != strlen(t->top) ? NULL : t;
}

static int strv_add_once(char ***v, size_t *n, const char *s)
{
	char **nv;
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return 0;
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strdup(s);
	if (!nv[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* allow domain type:class { perms... } (perms space-separated). */
static int se_allow(struct se *s, const char *type, const char *class,
		    const char *perms)
{
	struct se_allow *a = NULL;
	char *copy, *tok, *save;
	size_t i;
	int rc = 0;

	for (i = 0; i < s->n; i++) {
		if (!strcmp(s->v[i].type, type) &&
		    !strcmp(s->v[i].class, class)) {
			a = &s->v[i];
			break;
		}
	}
	if (!a) {
		a = realloc(s->v, (s->n + 1) * sizeof(*a));
		if (!a)
			return -ENOMEM;
		s->v = a;
		a = &s->v[s->n];
		memset(a, 0, sizeof(*a));
		a->type = strdup(type);
		a->class = strdup(class);
		s->n++;
		if (!a->type || !a->class)
			return -ENOMEM;
	}
	copy = strdup(perms);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, " ", &save); tok && !rc;
	     tok = strtok_r(NULL, " ", &save))
		rc = strv_add_once(&a->perms, &a->nperms, tok);
	free(copy);
	return rc;
}

/* The type the file contexts give path (or, for none, its nearest
 * folder that has one). New string, or NULL with *rc set. */
static char *se_type(struct se *s, const char *path, mode_t mode, int *rc)
{
	char *p = strdup(path), *con = NULL, *type = NULL, *c1, *c2;
	size_t len;

	*rc = 0;
	if (!p) {
		*rc = -ENOMEM;
		return NULL;
	}
	for (;;) {
		if (!selabel_lookup(s->h, &con, p, mode) && con &&
		    strcmp(con, "<<none>>"))
			break;
		freecon(con);
		con = NULL;
		len = strlen(p);
		if (len <= 1)
			break;
		while (len > 1 && p[len - 1] != '/')
			len--;
		if (len > 1)
			len--;
		p[len] = '\0';
		mode = S_IFDIR;
	}
	free(p);
	if (!con)
		return NULL;
	c1 = strchr(con, ':');
	c1 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (c1) {
		c2 = strchr(c1 + 1, ':');
		type = c2 ? strndup(c1 + 1, c2 - c1 - 1) : strdup(c1 + 1);
		if (!type)
			*rc = -ENOMEM;
	}
	freecon(con);
	return type;
}

/*
 * The type of the label path carries on this machine, when SELinux runs
 * here and the policy loaded knows that context; else NULL (no label,
 * or one the kernel would not accept: the file contexts' type is used).
 */
static char *se_label_type(const struct se *s, const char *path)
{
	char *con = NULL, *type = NULL;
	context_t ctx;

	if (!s->labels || lgetfilecon_raw(path, &con) < 0)
		return NULL;
	if (!security_check_context_raw(con)) {
		ctx = context_new(con);
		if (ctx) {
			const char *t = context_type_get(ctx);

			type = t ? strdup(t) : NULL;
			context_free(ctx);
		}
	}
	freecon(con);
	return type;
}

/*
 * The symbolic links in the folders that hold a system's aliases (/var/run
 * for /run, /etc/localtime for a zone file, /lib64 for /usr/lib64): when
 * a program's path lies at or beneath a link's target, it may have been
 * reached through the link, and SELinux checks reading it (lnk_file read)
 * and searching its folder. The links of this machine: the policy gets
 * no more than reading them.
 */
static int se_aliases_scan(struct se *s)
{
	static const char *const dirs[] = { "/", "/etc", "/var", "/usr" };
	char link[PATH_MAX], *target;
	struct dirent *e;
	struct stat st;
	struct se_alias *v;
	size_t i;
	DIR *d;
	int rc = 0;

	for (i = 0; i < ARRAY_SIZE(dirs) && !rc; i++) {
		d = opendir(dirs[i]);
		if (!d)
			continue;
		while (!rc && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(link, sizeof(link), "%s%s%s", dirs[i],
				 strcmp(dirs[i], "/") ? "/" : "", e->d_name);
			if (lstat(link, &st) || !S_ISLNK(st.st_mode))
				continue;
			target = realpath(link, NULL);
			if (!target)
				continue;	/* dangling */
			v = realloc(s->aliases,
				    (s->naliases + 1) * sizeof(*v));
			if (!v) {
				free(target);
				rc = -ENOMEM;
				break;
			}
			s->aliases = v;
			v[s->naliases].target = target;
			v[s->naliases].link = strdup(link);
			if (!v[s->naliases++].link)
				rc = -ENOMEM;
		}
		closedir(d);
	}
	return rc;
}

static int se_ancestors(struct se *s, const char *path);

/* lnk_file read of each alias whose target holds path (see above). */
static int se_alias_links(struct se *s, const char *path)
{
	size_t i, n;
	char *t;
	int rc = 0;

	for (i = 0; i < s->naliases && !rc; i++) {
		n = strlen(s->aliases[i].target);
		if (strncmp(path, s->aliases[i].target, n) ||
		    (path[n] && path[n] != '/' && n > 1))
			continue;
		t = se_label_type(s, s->aliases[i].link);
		if (!t)
			t = se_type(s, s->aliases[i].link, S_IFLNK, &rc);
		if (t)
			rc = se_allow(s, t, "lnk_file", "getattr read");
		free(t);
		if (!rc)
			rc = se_ancestors(s, s->aliases[i].link);
	}
	return rc;
}

/*
 * The walk to a path as the program named it (a unix socket's address is
 * recorded as passed, not resolved): each symbolic link on the way is
 * read (lnk_file) and the folders of what it resolves to searched.
 */
static int se_walk(struct se *s, const char *path)
{
	char *p = strdup(path), *slash, *t, *real, *q;
	struct stat st;
	int rc = 0;

	if (!p)
		return -ENOMEM;
	for (slash = strchr(p + 1, '/'); !rc; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		if (!lstat(p, &st) && S_ISLNK(st.st_mode)) {
			t = se_label_type(s, p);
			if (!t)
				t = se_type(s, p, S_IFLNK, &rc);
			if (t)
				rc = se_allow(s, t, "lnk_file", "getattr read");
			free(t);
			real = rc ? NULL : realpath(p, NULL);
			if (real && asprintf(&q, "%s/.", real) >= 0) {
				rc = se_ancestors(s, q);
				free(q);
			} else if (real) {
				rc = -ENOMEM;
			}
			free(real);
		}
		if (!slash)
			break;
		*slash = '/';
	}
	free(p);
	return rc;
}

/* search on every folder above path. */
static int se_ancestors(struct se *s, const char *path)
{
	char *p = strdup(path), *slash, *t;
	int rc = 0;

	if (!p)
		return -ENOMEM;
	while (!rc && (slash = strrchr(p, '/'))) {
		if (slash == p)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (se_tree_at(s, p)) {
			/* a folder of a tree: its private type */
			rc = se_allow(s, se_tree_at(s, p)->type, "dir",
				      "search getattr");
			if (slash == p)
				break;
			continue;
		}
		t = se_type(s, p, S_IFDIR, &rc);
		if (t)
			rc = se_allow(s, t, "dir", "search getattr");
		free(t);
		t = rc ? NULL : se_label_type(s, p);
		if (t)
			rc = se_allow(s, t, "dir", "search getattr");
		free(t);
		if (slash == p)
			break;
	}
	free(p);
	return rc;
}

/* The file permissions for access bits (space-separated, may be ""). */
static void se_file_perms(uint64_t acc, char *perms)
{
	perms[0] = '\0';
#define P(x) strcat(perms, x " ")
	if (acc & ~(uint64_t)(VIGIL_FILE_C | VIGIL_FILE_D | VIGIL_FILE_L))
		P("getattr");
	if (acc & VIGIL_FILE_R)
		P("read open");
	if (acc & (VIGIL_FILE_W | VIGIL_FILE_T))
		P("write open append");
	if (acc & VIGIL_FILE_A)
		P("append open");
	if (acc & VIGIL_FILE_X)
		P("execute execute_no_trans read open map");
	if (acc & VIGIL_FILE_M)
		P("map execute read open");
	if (acc & VIGIL_FILE_S)
		P("setattr");
	if (acc & VIGIL_FILE_K)
		P("lock");
	if (acc & VIGIL_FILE_I)
		P("ioctl");
	if (acc & VIGIL_FILE_C)
		P("create");
	if (acc & VIGIL_FILE_D)
		P("unlink");
	if (acc & VIGIL_FILE_L)
		P("link");
#undef P
	if (perms[0])
		perms[strlen(perms) - 1] = '\0';
}

/* The object class of what path names, from its type on this machine. */
static const char *se_file_class(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
		return "dir";
	case S_IFCHR:
		return "chr_file";
	case S_IFBLK:
		return "blk_file";
	case S_IFSOCK:
		return "sock_file";
	case S_IFIFO:
		return "fifo_file";
	case S_IFLNK:
		return "lnk_file";
	default:
		return "file";
	}
}

/* Drop from perms (space-separated) what only class file has. */
static void se_perms_for_class(char *perms, const char *class)
{
	char out[256] = "", *tok, *save;

	if (!strcmp(class, "file"))
		return;
	for (tok = strtok_r(perms, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "execute_no_trans"))
			continue;
		if (out[0])
			strcat(out, " ");
		strcat(out, tok);
	}
	strcpy(perms, out);
}

/*
 * The kind of a private type for a file path (base its name, "" for a
 * tree's folder given as "TOP/"): log (a .log name, beneath /var/log or a
 * folder log or logs), run (a .pid name, beneath /run or a folder run),
 * tmp (beneath /tmp or /var/tmp), else var.
 */
static const char *se_kind(const char *path, const char *base)
{
	size_t blen = strlen(base);

	if ((blen > 4 && !strcmp(base + blen - 4, ".log")) ||
	    !strncmp(path, "/var/log/", 9) || strstr(path, "/log/") ||
	    strstr(path, "/logs/"))
		return "log";
	if ((blen > 4 && !strcmp(base + blen - 4, ".pid")) ||
	    !strncmp(path, "/run/", 5) || strstr(path, "/run/"))
		return "run";
	if (!strncmp(path, "/tmp/", 5) || !strncmp(path, "/var/tmp/", 9))
		return "tmp";
	return "var";
}

/*
 * Whether a file rule of another subject of the export may name path
 * (its glob matches it), or, tree true, path or anything beneath it (the
 * glob meets path/STAR-STAR): one .fc entry labels a path for one module
 * only, so such a path keeps the policy's type. 1, 0 or -ENOMEM.
 */
static int se_other_names(const struct se *s, const char *path, bool tree)
{
	size_t i, j, k, off, n = strlen(path);
	u16 *a = NULL;
	int rc = 0;

	if (!s->c)
		return 0;
	if (tree) {
		a = malloc((n + 2) * sizeof(*a));
		if (!a)
			return -ENOMEM;
		for (k = 0; k < n; k++)
			a[k] = (unsigned char)path[k];
		a[n] = '/';
		a[n + 1] = VIGIL_GLOB_DSTAR;
	}
	for (i = 0; i < s->c->rs->nsubjects && !rc; i++) {
		const struct vigil_subject_rules *o = &s->c->rs->subjects[i];

		if (i == s->c->self)
			continue;
		for (j = 0; j < o->nrules && !rc; j++) {
			const struct vigil_rule *r = &o->rules[j];
			struct vigil_glob_alts *al = NULL;
			struct vigil_glob *g = NULL;
			char why[160], *src;

			if (r->class != VIGIL_CLASS_FILE || !r->object)
				continue;
			src = r->glob ? strdup(r->glob) :
			      vigil_glob_escape_dup(r->object,
						    strlen(r->object),
						    r->generalised);
			if (!src) {
				rc = -ENOMEM;
				break;
			}
			if (!vigil_glob_compile(src, strlen(src), &g, why,
						sizeof(why)))
				rc = vigil_glob_match(g, path, n);
			vigil_glob_free(g);
			if (!rc && tree && !vigil_glob_expand(src, strlen(src),
							      &al, why,
							      sizeof(why))) {
				for (k = 0, off = 0; k < al->nalts && !rc;
				     off += al->lens[k++])
					rc = blast_tokens_meet(a, n + 2,
							       al->toks + off,
							       al->lens[k],
							       false);
				vigil_glob_alts_free(al);
			}
			/* one the kernel refuses names nothing; but the
			 * same text does */
			if (!rc && !strcmp(r->object, path))
				rc = 1;
			free(src);
		}
	}
	free(a);
	return rc;
}

/*
 * The private type of a file the program writes (access: w, a, t or c),
 * named by a literal path under the folders of variable data (/var,
 * /run, /tmp, /srv) that is a regular file here or does not exist, its
 * name plain enough for a type_transition ("access.log"): its module's
 * vigil_ID_KIND_t, KIND log (a .log name, or beneath /var/log or a
 * folder log or logs), run (a .pid name, beneath /run or a folder run),
 * tmp (beneath /tmp or /var/tmp) or var. NULL: not such a file.
 */
static char *se_own_type(const struct se *s, const char *path,
			 uint64_t acc, bool exists, mode_t mode)
{
	static const char *const roots[] = { "/var/", "/run/", "/tmp/",
					     "/srv/" };
	const char *base = strrchr(path, '/'), *p;
	size_t i, blen;
	char *t;

	if (!s->own_ok ||
	    !(acc & (VIGIL_FILE_W | VIGIL_FILE_A | VIGIL_FILE_T |
		     VIGIL_FILE_C)) ||
	    (exists && !S_ISREG(mode)) || !base)
		return NULL;
	/* a file another subject names too (or a glob of its covers)
	 * keeps its folder's type: one .fc entry would label it for one
	 * module only */
	if (se_other_names(s, path, false))
		return NULL;
	base++;
	blen = strlen(base);
	if (!blen || !strcmp(base, ".") || !strcmp(base, "..") ||
	    base[0] == '-' || blen > 200)
		return NULL;
	for (p = base; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
		      *p == '-' || *p == '+'))
			return NULL;
	for (i = 0; i < ARRAY_SIZE(roots); i++)
		if (!strncmp(path, roots[i], strlen(roots[i])))
			break;
	if (i == ARRAY_SIZE(roots) || strstr(path, "/../") ||
	    strstr(path, "/./") || strstr(path, "//"))
		return NULL;
	if (asprintf(&t, "vigil_%s_%s_t", s->id, se_kind(path, base)) < 0)
		return NULL;
	return t;
}

/* Record path's private type: declared once, one .fc entry, and its
 * named type_transition in the folder's type parent (NULL: none). */
static int se_own_add(struct se *s, const char *path, const char *type,
		      const char *parent)
{
	struct se_own *o;
	const char *name = strrchr(path, '/') + 1;
	size_t i;
	int rc = strv_add_once(&s->own_types, &s->nown_types, type);

	if (rc)
		return rc;
	for (i = 0; i < s->nown; i++) {
		o = &s->own[i];
		/* one entry a path; one transition a folder type and name
		 * (checkmodule refuses two) */
		if (!strcmp(o->path, path) && (!parent || (o->parent &&
		    !strcmp(o->parent, parent))))
			return 0;
		if (parent && o->parent && !strcmp(o->parent, parent) &&
		    !strcmp(o->name, name))
			parent = NULL;
	}
	o = realloc(s->own, (s->nown + 1) * sizeof(*o));
	if (!o)
		return -ENOMEM;
	s->own = o;
	o = &s->own[s->nown++];
	o->path = strdup(path);
	o->type = strdup(type);
	o->name = strdup(name);
	o->parent = parent ? strdup(parent) : NULL;
	if (!o->path || !o->type || !o->name || (parent && !o->parent))
		return -ENOMEM;
	return 0;
}

/* Was type declared by this module (the domain's own types)? */
static bool se_own_declared(const struct se *s, const char *type)
{
	size_t i;

	for (i = 0; i < s->nown_types; i++)
		if (!strcmp(s->own_types[i], type))
			return true;
	return false;
}

/*
 * Rules for access to path in the tree tr (its folder, or beneath it):
 * everything there has the tree's type, the folder's own too. glob: path
 * is the folder of a glob, what is beneath it gets the file permissions.
 */
static int se_tree_path(struct se *s, const struct se_tree *tr,
			const char *path, uint64_t acc, bool glob)
{
	struct stat st;
	bool exists = !lstat(path, &st), top;
	size_t n = strlen(path), i;
	char perms[256], dperms[160] = "getattr search ";
	const char *class;
	int rc = 0;

	while (n > 1 && path[n - 1] == '/')
		n--;
	top = n == strlen(tr->top);
	se_file_perms(acc, perms);
	if (glob || top || (exists && S_ISDIR(st.st_mode))) {
		if (acc & VIGIL_FILE_R)
			strcat(dperms, "open read ");
		if (glob && (acc & (VIGIL_FILE_W | VIGIL_FILE_A |
				    VIGIL_FILE_C | VIGIL_FILE_L)))
			strcat(dperms, "write add_name ");
		if (glob && (acc & VIGIL_FILE_D))
			strcat(dperms, "write remove_name ");
		/* a glob's: the folders it makes or removes there; a
		 * folder's: itself */
		if (acc & VIGIL_FILE_C)
			strcat(dperms, "create ");
		if (acc & VIGIL_FILE_D)
			strcat(dperms, "rmdir ");
		if (acc & VIGIL_FILE_S)
			strcat(dperms, "setattr ");
		dperms[strlen(dperms) - 1] = '\0';
		rc = se_allow(s, tr->type, "dir", dperms);
		if (!rc && glob && perms[0])
			rc = se_allow(s, tr->type, "file", perms);
	} else {
		class = exists ? se_file_class(st.st_mode) : "file";
		se_perms_for_class(perms, class);
		if (perms[0])
			rc = se_allow(s, tr->type, class, perms);
		/* gone by now: it may have been a folder (mkdir, rmdir) */
		if (!rc && !exists && (acc & VIGIL_FILE_C))
			rc = se_allow(s, tr->type, "dir", "create getattr");
		if (!rc && !exists && (acc & VIGIL_FILE_D))
			rc = se_allow(s, tr->type, "dir", "rmdir getattr");
	}
	if (!rc && !glob &&
	    (acc & (VIGIL_FILE_C | VIGIL_FILE_D | VIGIL_FILE_L))) {
		const char *dp = acc & VIGIL_FILE_D ?
				 "search write add_name remove_name" :
				 "search write add_name";

		/* its folder: the tree's, or for the tree's own folder
		 * its parent's types (the dir type_transition's) */
		if (!top)
			rc = se_allow(s, tr->type, "dir", dp);
		for (i = 0; top && !rc && i < ARRAY_SIZE(tr->parent); i++)
			if (tr->parent[i])
				rc = se_allow(s, tr->parent[i], "dir", dp);
	}
	if (!rc)
		rc = se_ancestors(s, path);
	if (!rc)
		rc = se_alias_links(s, path);
	return rc;
}

/*
 * The folder trees the subject writes that get a private type: a rule
 * of its own DIR/STAR-STAR or DIR/STAR (nothing else after the folder)
 * with w, a, t or c, DIR under /run, /tmp or /srv (a folder in them at
 * least) or /var (two levels at least: /var/lib/NAME), a folder here or
 * absent, its name plain enough for a type_transition, DIR holding
 * nothing a sensitive pattern names, and no other subject of the export
 * naming a path in it (nor running this subject's code: its rules are
 * written into that domain too). A tree inside another is the outer
 * one's, which then labels everything beneath it (DIR(/.*)?).
 */
static int se_trees_find(struct export_ctx *c, struct se *s)
{
	static const char *const roots[] = { "/run/", "/tmp/", "/srv/",
					     "/var/" };
	const struct vigil_ruleset *rs = c->rs;
	size_t i, j, k, n;
	int rc = 0;

	s->c = c;
	for (i = 0; c->reach && i < rs->nsubjects; i++)
		if (i != c->self && c->reach[i * rs->nsubjects + c->self])
			return 0;
	for (i = 0; i < c->sr->nrules && !rc; i++) {
		const struct vigil_rule *r = &c->sr->rules[i];
		struct glob_toks g = { 0 };
		struct se_tree *tr;
		const char *sens = NULL, *base, *p;
		char *top = NULL, *tslash = NULL, *pt, *plt;
		struct stat st;
		bool deep;

		if (r->class != VIGIL_CLASS_FILE ||
		    !(r->access & (VIGIL_FILE_W | VIGIL_FILE_A |
				   VIGIL_FILE_T | VIGIL_FILE_C)) ||
		    glob_toks_of_rule(r, &g))
			continue;
		n = g.n;
		if (n < 4 || (g.t[n - 1].kind != GT_STAR2 &&
			      g.t[n - 1].kind != GT_STAR) ||
		    g.t[n - 2].kind != GT_LIT || g.t[n - 2].c != '/') {
			glob_toks_free(&g);
			continue;
		}
		deep = g.t[n - 1].kind == GT_STAR2;
		for (j = 0; j < n - 2 && g.t[j].kind == GT_LIT; j++)
			;
		if (j == n - 2) {
			g.n = n - 2;
			top = glob_toks_text(&g);
			g.n = n;
			if (!top)
				rc = -ENOMEM;
		}
		glob_toks_free(&g);
		if (!top)
			continue;
		base = strrchr(top, '/') + 1;
		for (k = 0; k < ARRAY_SIZE(roots); k++)
			if (!strncmp(top, roots[k], 5))
				break;
		/* its depth: /tmp/x is 2 */
		for (j = 0, p = top; *p; p++)
			j += *p == '/';
		if (k == ARRAY_SIZE(roots) || j < (k == 3 ? 3u : 2u) ||
		    strstr(top, "/../") || strstr(top, "/./") ||
		    strstr(top, "//") || !strcmp(base, ".") ||
		    !strcmp(base, "..") || base[0] == '-' ||
		    strlen(base) > 200 ||
		    (!lstat(top, &st) && !S_ISDIR(st.st_mode)))
			goto skip;
		for (p = base; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') ||
			      (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9') || *p == '.' ||
			      *p == '_' || *p == '-' || *p == '+'))
				goto skip;
		/* never a folder of secrets; never one another module
		 * labels a path in */
		rc = vigil_sensitive_beneath(top, &sens);
		if (!rc && !sens)
			rc = se_other_names(s, top, true);
		if (rc || sens) {
			rc = rc < 0 ? rc : 0;
			goto skip;
		}
		/* inside a tree found: that one's, which then labels all
		 * beneath it unless the two are the same STAR; holding trees
		 * found: they go, the same way */
		for (j = 0; j < s->ntrees; j++)
			if (path_within(top, s->trees[j].top))
				break;
		if (j < s->ntrees) {
			s->trees[j].deep |= deep ||
					    strcmp(top, s->trees[j].top);
			goto skip;
		}
		for (j = 0; j < s->ntrees;) {
			if (!path_within(s->trees[j].top, top)) {
				j++;
				continue;
			}
			deep = true;
			free(s->trees[j].top);
			free(s->trees[j].type);
			free(s->trees[j].name);
			free(s->trees[j].parent[0]);
			free(s->trees[j].parent[1]);
			s->trees[j] = s->trees[--s->ntrees];
		}
		tr = realloc(s->trees, (s->ntrees + 1) * sizeof(*tr));
		if (!tr) {
			rc = -ENOMEM;
			goto skip;
		}
		s->trees = tr;
		tr = &s->trees[s->ntrees++];
		memset(tr, 0, sizeof(*tr));
		tr->top = top;
		top = NULL;
		tr->deep = deep;
		tr->name = strdup(base);
		if (!tr->name || asprintf(&tslash, "%s/", tr->top) < 0 ||
		    asprintf(&tr->type, "vigil_%s_%s_t", s->id,
			     se_kind(tslash, "")) < 0) {
			tr->type = NULL;
			rc = -ENOMEM;
			goto skip;
		}
		rc = strv_add_once(&s->own_types, &s->nown_types, tr->type);
		/* the dir type_transition's folder types: the file
		 * contexts' and its label here (one a folder type and
		 * name: checkmodule refuses two) */
		tslash[base - 1 - tr->top] = '\0';
		if (!tslash[0])
			strcpy(tslash, "/");
		pt = rc ? NULL : se_type(s, tslash, S_IFDIR, &rc);
		plt = rc ? NULL : se_label_type(s, tslash);
		if (plt && pt && !strcmp(plt, pt)) {
			free(plt);
			plt = NULL;
		}
		tr->parent[0] = pt;
		tr->parent[1] = plt;
		for (k = 0; k < 2; k++) {
			for (j = 0; tr->parent[k] && j + 1 < s->ntrees; j++)
				if (!strcmp(s->trees[j].name, tr->name) &&
				    ((s->trees[j].parent[0] &&
				      !strcmp(s->trees[j].parent[0],
					      tr->parent[k])) ||
				     (s->trees[j].parent[1] &&
				      !strcmp(s->trees[j].parent[1],
					      tr->parent[k])))) {
					free(tr->parent[k]);
					tr->parent[k] = NULL;
				}
			if (!rc && tr->parent[k])
				rc = se_allow(s, tr->parent[k], "dir",
					      "getattr search");
		}
skip:
		free(top);
		free(tslash);
	}
	return rc;
}

/*
 * Rules for access to path. glob: path is the folder of a glob, so
 * what is beneath it (same type, as new files inherit it) gets the file
 * permissions too. Return 0, 1 (no file context), -errno.
 */
static int se_path(struct se *s, const char *path, uint64_t acc, bool glob,
		   bool literal)
{
	struct stat st;
	bool exists = !stat(path, &st);
	bool dir = exists && S_ISDIR(st.st_mode);
	mode_t mode = exists ? st.st_mode & S_IFMT : S_IFREG;
	const char *class = se_file_class(mode);
	char perms[256], dperms[128] = "";
	char *t, *lt = NULL, *pt = NULL, *parent = NULL, *own = NULL;
	char *plt = NULL;
	const struct se_tree *tr = se_tree_of(s, path, glob);
	size_t i;
	int rc;

	/* in a tree it writes: the tree's private type */
	if (tr)
		return se_tree_path(s, tr, path, acc, glob);
	t = se_type(s, path, mode, &rc);
	if (!t)
		return rc ? rc : 1;
	se_file_perms(acc, perms);
	se_perms_for_class(perms, class);
	/* a glob above a tree it writes: the tree's files have its type */
	for (i = 0; glob && i < s->ntrees; i++) {
		if (!path_within(s->trees[i].top, path) &&
		    strncmp(s->trees[i].top, path, strlen(path)))
			continue;
		rc = se_allow(s, s->trees[i].type, "dir",
			      acc & VIGIL_FILE_R ? "getattr open read search" :
						   "getattr search");
		if (!rc && perms[0])
			rc = se_allow(s, s->trees[i].type, "file", perms);
		if (rc)
			goto out;
	}
	/* a file it writes: its own type, not the folder's (every file
	 * of that type) */
	own = literal && !glob ? se_own_type(s, path, acc, exists, mode) :
				 NULL;
	if (own) {
		rc = se_allow(s, own, "file", perms);
		lt = NULL;
		/* gone by now: it may have been a folder (mkdir, rmdir) */
		if (!rc && !exists && (acc & VIGIL_FILE_C))
			rc = se_allow(s, t, "dir", "create getattr");
		if (!rc && !exists && (acc & VIGIL_FILE_D))
			rc = se_allow(s, t, "dir", "rmdir getattr");
		goto parent;
	}
	/* the label the file has here, when it is not the file contexts'
	 * (made by another domain: user_tmp_t where they say tmp_t): the
	 * program opens it with that label on the next run */
	lt = exists ? se_label_type(s, path) : NULL;
	if (lt && !strcmp(lt, t)) {
		free(lt);
		lt = NULL;
	}
	if (lt && !dir && perms[0])
		rc = se_allow(s, lt, class, perms);
	if (lt && dir && !rc && (acc & VIGIL_FILE_R))
		rc = se_allow(s, lt, "dir", "getattr open read search");
	if (lt && dir && glob && !rc && perms[0])
		rc = se_allow(s, lt, "file", perms);
	if (rc)
		goto out;
	if (dir) {
		if (acc & VIGIL_FILE_R)
			strcat(dperms, "getattr open read search ");
		if (glob && (acc & (VIGIL_FILE_W | VIGIL_FILE_A |
				    VIGIL_FILE_C | VIGIL_FILE_L)))
			strcat(dperms, "getattr search write add_name ");
		if (glob && (acc & VIGIL_FILE_D))
			strcat(dperms, "getattr search write remove_name ");
		if (!glob && (acc & VIGIL_FILE_C))
			strcat(dperms, "create ");
		if (!glob && (acc & VIGIL_FILE_D))
			strcat(dperms, "rmdir ");
		if (acc & VIGIL_FILE_S)
			strcat(dperms, "setattr ");
		if (dperms[0]) {
			dperms[strlen(dperms) - 1] = '\0';
			rc = se_allow(s, t, "dir", dperms);
		}
		if (!rc && glob && perms[0])
			rc = se_allow(s, t, "file", perms);
	} else if (perms[0]) {
		rc = se_allow(s, t, class, perms);
	}
	/* A path gone by now that was created or deleted may be a folder
	 * (mkdir, rmdir). */
	if (!rc && !exists && (acc & VIGIL_FILE_C))
		rc = se_allow(s, t, "dir", "create getattr");
	if (!rc && !exists && (acc & VIGIL_FILE_D))
		rc = se_allow(s, t, "dir", "rmdir getattr");
parent:
	if (!rc && !glob &&
	    (acc & (VIGIL_FILE_C | VIGIL_FILE_D | VIGIL_FILE_L))) {
		const char *sl = strrchr(path, '/');
		const char *dp = acc & VIGIL_FILE_D ?
				 "search write add_name remove_name" :
				 "search write add_name";

		parent = strndup(path, sl && sl != path ? (size_t)(sl - path) :
							  1);
		if (!parent) {
			rc = -ENOMEM;
			goto out;
		}
		pt = se_type(s, parent, S_IFDIR, &rc);
		if (pt)
			rc = se_allow(s, pt, "dir", dp);
		/* the folder's own label here, when not the file
		 * contexts' type: a file created there gets the private
		 * type by a transition from that type too */
		plt = own && !rc ? se_label_type(s, parent) : NULL;
		if (plt && pt && !strcmp(plt, pt)) {
			free(plt);
			plt = NULL;
		}
		if (plt)
			rc = se_allow(s, plt, "dir", dp);
	}
	if (own && !rc)
		rc = se_own_add(s, path, own, (acc & VIGIL_FILE_C) ? pt : NULL);
	if (own && !rc && plt && (acc & VIGIL_FILE_C))
		rc = se_own_add(s, path, own, plt);
	if (!rc)
		rc = se_ancestors(s, path);
	if (!rc)
		rc = se_alias_links(s, path);
out:
	free(lt);
	free(parent);
	free(pt);
	free(plt);
	free(own);
	free(t);
	return rc;
}

static int se_file(struct se *s, const struct vigil_rule *r)
{
	char *path = NULL;
	unsigned int i;
	bool lit;
	int rc;

	rc = export_rule_path(r, s->left,
			      "not an absolute path: no file context (left out)",
			      &path, &lit);
	if (rc)
		return rc > 0 ? 0 : rc;
	rc = se_path(s, path, r->access, !lit, lit);
	/* A glob: the types of what was observed, and of its folder. */
	for (i = 0; !lit && rc >= 0 && i < r->nexamples; i++)
		if (r->examples[i] && r->examples[i][0] == '/')
			rc = se_path(s, r->examples[i], r->access, false,
				     false);
	if (rc == 1)
		rc = note_rule(s->left, r, "no file context for it in the "
			       "installed policy (left out)");
	else if (!rc && !lit && !se_tree_of(s, path, true))
		rc = note_rule(s->left, r, "glob: the types of its observed "
			       "files and its folder (others it covers may "
			       "have other types)");
	free(path);
	return rc;
}

static int se_port_add(const sepol_port_t *p, void *arg)
{
	struct se *s = arg;
	struct se_port *v = realloc(s->ports, (s->nports + 1) * sizeof(*v));

	if (!v)
		return -1;
	s->ports = v;
	v += s->nports;
	v->proto = sepol_port_get_proto(p);
	v->low = sepol_port_get_low(p);
	v->high = sepol_port_get_high(p);
	v->type = strdup(sepol_context_get_type(sepol_port_get_con(p)));
	if (!v->type)
		return -1;
	s->nports++;
	return 0;
}

static int se_node_add(const sepol_node_t *n, void *arg)
{
	struct se *s = arg;

	return strv_add_once(&s->nodes, &s->nnodes,
			     sepol_context_get_type(sepol_node_get_con(n))) ?
	       -1 : 0;
}

/*
 * The port and node types of the binary policy beside the file contexts
 * (ROOT/policy/policy.N for ROOT/contexts/files/file_contexts, the
 * highest N), else the installed one's. No policy file: 0, nothing read.
 */
static int se_policy_read(struct se *s)
{
	const char *cut = s->fc ? strstr(s->fc, "/contexts/files/") : NULL;
	sepol_policy_file_t *pf = NULL;
	sepol_policydb_t *db = NULL;
	sepol_handle_t *h = NULL;
	char *path = NULL;
	FILE *fp = NULL;
	int v, rc = 0;

	for (v = 40; v >= 15 && !fp; v--) {
		free(path);
		path = NULL;
		if ((cut ? asprintf(&path, "%.*s/policy/policy.%d",
				    (int)(cut - s->fc), s->fc, v) :
			   asprintf(&path, "%s.%d",
				    selinux_binary_policy_path(), v)) < 0)
			return -ENOMEM;
		fp = fopen(path, "re");
	}
	free(path);
	if (!fp)
		return 0;
	h = sepol_handle_create();
	if (!h || sepol_policy_file_create(&pf) ||
	    sepol_policydb_create(&db)) {
		rc = -ENOMEM;
		goto out;
	}
	sepol_msg_set_callback(h, NULL, NULL);
	sepol_policy_file_set_fp(pf, fp);
	sepol_policy_file_set_handle(pf, h);
	if (sepol_policydb_read(db, pf))
		goto out;	/* not a policy this libsepol reads */
	if (sepol_port_iterate(h, db, se_port_add, s) < 0 ||
	    sepol_node_iterate(h, db, se_node_add, s) < 0 ||
	    strv_add_once(&s->nodes, &s->nnodes, "node_t")) {
		rc = -ENOMEM;
		goto out;
	}
	if (s->nnodes > 1)
		qsort(s->nodes, s->nnodes, sizeof(char *), str_cmp);
	s->policy_read = true;
out:
	if (db)
		sepol_policydb_free(db);
	if (pf)
		sepol_policy_file_free(pf);
	if (h)
		sepol_handle_destroy(h);
	fclose(fp);
	return rc;
}

/* The type of port (proto SEPOL_PROTO_*): the narrowest portcon holding
 * it, else the policy's default (its initial SID "port": port_t). */
static const char *se_port_type(const struct se *s, int proto, int port)
{
	const struct se_port *best = NULL;
	size_t i;

	for (i = 0; i < s->nports; i++) {
		const struct se_port *p = &s->ports[i];

		if (p->proto == proto && p->low <= port && port <= p->high &&
		    (!best || p->high - p->low < best->high - best->low))
			best = p;
	}
	return best ? best->type : "port_t";
}

static const char *se_sock_class(const char *family, const char *type)
{
	bool stream = !strcmp(type, "stream") || !strcmp(type, "seqpacket");

	if (!strcmp(family, "unix"))
		return stream ? "unix_stream_socket" : "unix_dgram_socket";
	if (!strcmp(family, "inet") || !strcmp(family, "inet6")) {
		if (!strcmp(type, "stream"))
			return "tcp_socket";
		if (!strcmp(type, "dgram"))
			return "udp_socket";
		return "rawip_socket";
	}
	if (!strcmp(family, "netlink"))
		return "netlink_socket";
	if (!strcmp(family, "packet"))
		return "packet_socket";
	return NULL;
}

static char *se_ident(const char *exe);

/*
 * The domain of the peer a unix socket connect reaches: the subject of
 * this export that binds that address (same family and type), whose
 * domain its own module declares ("self" for this subject). NULL with
 * *rc 0: no subject here binds it.
 */
static char *se_peer_domain(const struct se *s,
			    const struct vigil_ruleset *rs,
			    const struct net_obj *to, int *rc)
{
	size_t i, j;
	char *id, *dom = NULL;

	*rc = 0;
	for (i = 0; rs && i < rs->nsubjects; i++) {
		const struct vigil_subject_rules *sr = &rs->subjects[i];

		for (j = 0; j < sr->nrules; j++) {
			const struct vigil_rule *r = &sr->rules[j];
			struct net_obj no;
			bool same;

			if (r->class != VIGIL_CLASS_NET ||
			    !(r->access & VIGIL_NET_BIND) ||
			    net_obj_parse(r, &no))
				continue;
			same = no.family && no.type && no.addr &&
			       !strcmp(no.family, to->family) &&
			       !strcmp(no.type, to->type) &&
			       !strcmp(no.addr, to->addr);
			net_obj_free(&no);
			if (!same)
				continue;
			id = se_ident(sr->exe);
			if (!id || asprintf(&dom, "vigil_%s_t", id) < 0) {
				free(id);
				*rc = -ENOMEM;
				return NULL;
			}
			free(id);
			if (!strcmp(dom, s->domain)) {
				free(dom);
				dom = strdup("self");
				if (!dom)
					*rc = -ENOMEM;
			}
			return dom;
		}
	}
	return NULL;
}

static int se_net(struct se *s, const struct vigil_ruleset *rs,
		  const struct vigil_rule *r)
{
	const char *cls;
	struct net_obj no;
	char perms[128] = "create read write getattr setattr getopt setopt "
			  "shutdown";
	int rc;

	rc = net_obj_parse(r, &no);
	if (rc == -EINVAL)
		return note_rule(s->left, r, "not a FAMILY:TYPE object");
	if (rc)
		return rc;
	cls = se_sock_class(no.family, no.type);
	if (!cls) {
		rc = note_rule(s->left, r, "socket family without an SELinux "
			       "class here (left out)");
		goto out;
	}
	if (r->access & VIGIL_NET_BIND)
		strcat(perms, " bind");
	if (r->access & VIGIL_NET_CONNECT)
		strcat(perms, " connect");
	if ((r->access & VIGIL_NET_LISTEN) && strstr(cls, "stream"))
		strcat(perms, " listen");
	if ((r->access & VIGIL_NET_LISTEN) && !strcmp(cls, "tcp_socket"))
		strcat(perms, " listen");
	if ((r->access & VIGIL_NET_ACCEPT) && (strstr(cls, "stream") ||
					       !strcmp(cls, "tcp_socket")))
		strcat(perms, " accept");
	rc = se_allow(s, "self", cls, perms);
	if (rc)
		goto out;
	if ((!strcmp(cls, "tcp_socket") || !strcmp(cls, "udp_socket")) &&
	    (r->access & (VIGIL_NET_BIND | VIGIL_NET_CONNECT))) {
		int proto = !strcmp(cls, "tcp_socket") ? SEPOL_PROTO_TCP :
							 SEPOL_PROTO_UDP;
		bool bind = r->access & VIGIL_NET_BIND;
		size_t i;

		/* vigil records the port, not the address: every node
		 * type may be the bound address's */
		for (i = 0; bind && !rc && i < s->nnodes; i++)
			rc = se_allow(s, s->nodes[i], cls, "node_bind");
		if (!rc && bind && !s->policy_read)
			rc = se_allow(s, "node_t", cls, "node_bind");
		if (rc)
			goto out;
		if (no.port > 0 && s->policy_read) {
			const char *pt = se_port_type(s, proto, no.port);

			if (bind)
				rc = se_allow(s, pt, cls, "name_bind");
			if (!rc && (r->access & VIGIL_NET_CONNECT) &&
			    proto == SEPOL_PROTO_TCP)
				rc = se_allow(s, pt, cls, "name_connect");
		} else if (no.port > 0) {
			rc = note_rule(s->left, r, "no binary policy beside "
				       "the file contexts: the port's type "
				       "(name_bind, name_connect) not "
				       "written");
		}
	} else if (!strcmp(no.family, "unix") && no.addr &&
		   no.addr[0] == '/') {
		int trc;
		char *t = se_type(s, no.addr, S_IFSOCK, &trc);

		if (!t && trc) {
			rc = trc;
			goto out;
		}
		if (t && (r->access & VIGIL_NET_BIND))
			rc = se_allow(s, t, "sock_file", "create setattr "
				      "getattr unlink");
		if (t && !rc && (r->access & VIGIL_NET_CONNECT))
			rc = se_allow(s, t, "sock_file", "write getattr");
		free(t);
		if (!rc)
			rc = se_ancestors(s, no.addr);
		if (!rc)
			rc = se_walk(s, no.addr);
		if (!rc && (r->access & VIGIL_NET_CONNECT)) {
			/* the peer's domain, when a subject here binds
			 * the address: connectto (stream), sendto (dgram) */
			char *peer = se_peer_domain(s, rs, &no, &rc);

			if (peer)
				rc = se_allow(s, peer, cls,
					      strcmp(cls, "unix_dgram_socket") ?
					      "connectto" : "sendto");
			else if (!rc)
				rc = note_rule(s->left, r, "connectto needs "
					       "the domain of the peer (no "
					       "subject here binds it): not "
					       "written");
			free(peer);
		}
	}
out:
	net_obj_free(&no);
	return rc;
}

static char *se_ident(const char *exe)
{
	char *n = export_subject_name(exe), *p;

	if (!n)
		return NULL;
	for (p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			*p = '_';
	return n;
}

char *export_selinux_module(const char *exe)
{
	char *id = se_ident(exe), *mod;

	if (!id || asprintf(&mod, "vigil_%s", id) < 0)
		mod = NULL;
	free(id);
	return mod;
}

static int se_rule(struct export_ctx *c, const struct vigil_rule *r)
{
	const struct vigil_ruleset *rs = c->rs;
	struct se *s = c->priv;
	bool caps[VIGIL_CAP_COUNT];
	int i, rc;

	switch (r->class) {
	case VIGIL_CLASS_FILE:
		/* private types for the subject's own rules only, when no
		 * other subject's domain runs its code (a parent, a via
		 * block's): the rules of the children it runs are written
		 * into this domain too */
		s->c = c;
		s->own_ok = r >= c->sr->rules &&
			    r < c->sr->rules + c->sr->nrules;
		for (i = 0; s->own_ok && c->reach &&
			    (size_t)i < rs->nsubjects; i++)
			if ((size_t)i != c->self &&
			    c->reach[(size_t)i * rs->nsubjects + c->self])
				s->own_ok = false;
		return se_file(s, r);
	case VIGIL_CLASS_NET:
		return se_net(s, rs, r);
	case VIGIL_CLASS_CAP:
		rc = export_caps(r, caps);
		if (rc == -EINVAL)
			return note_rule(s->left, r, "bad capability glob");
		for (i = 0; i < VIGIL_CAP_COUNT && !rc; i++)
			if (caps[i])
				rc = se_allow(s, "self", i < 32 ? "capability" :
					      "capability2", vigil_cap_name(i));
		return rc;
	case VIGIL_CLASS_SIGNAL: {
		const struct vigil_subject_rules *t =
			export_find_subject(rs, r->object);
		char *id, *dom, perms[64] = "";

		if (!t)
			return note_rule(s->left, r, "the target's domain is "
					 "unknown (not a subject here): not "
					 "written");
		if (r->access & (1ULL << 8))
			strcat(perms, "sigkill ");
		if (r->access & (1ULL << 18))
			strcat(perms, "sigstop ");
		if (r->access & (1ULL << 16))
			strcat(perms, "sigchld ");
		if (r->access & ~((1ULL << 8) | (1ULL << 18) | (1ULL << 16)))
			strcat(perms, "signal ");
		perms[strlen(perms) - 1] = '\0';
		id = se_ident(t->exe);
		if (!id || asprintf(&dom, "vigil_%s_t", id) < 0) {
			free(id);
			return -ENOMEM;
		}
		free(id);
		rc = strcmp(dom, s->domain) ?
			se_allow(s, dom, "process", perms) :
			se_allow(s, "self", "process", perms);
		free(dom);
		return rc;
	}
	case VIGIL_CLASS_PTRACE:
		return note_rule(s->left, r, "ptrace: the target's domain is "
				 "not known to vigil: not written");
	case VIGIL_CLASS_MOUNT:
		return note_rule(s->left, r, "mount: the file system's type "
				 "is not recorded: not written");
	case VIGIL_CLASS_MODULE: {
		char *t = se_type(s, r->object, S_IFREG, &rc);

		if (!t)
			return rc ? rc : note_rule(s->left, r, "no file "
						   "context (left out)");
		rc = se_allow(s, t, "system", "module_load");
		if (!rc)
			rc = se_allow(s, "self", "capability", "sys_module");
		free(t);
		return rc;
	}
	case VIGIL_CLASS_COUNT:	/* not a class: the driver notes it */
		break;
	}
	return -EINVAL;
}

static int allow_cmp(const void *a, const void *b)
{
	const struct se_allow *x = a, *y = b;
	int c = strcmp(x->type, y->type);

	return c ? c : strcmp(x->class, y->class);
}

static void se_reset(struct se *s)
{
	size_t i, j;

	for (i = 0; i < s->n; i++) {
		for (j = 0; j < s->v[i].nperms; j++)
			free(s->v[i].perms[j]);
		free(s->v[i].perms);
		free(s->v[i].type);
		free(s->v[i].class);
	}
	free(s->v);
	s->v = NULL;
	s->n = 0;
	for (i = 0; i < s->nown_types; i++)
		free(s->own_types[i]);
	free(s->own_types);
	s->own_types = NULL;
	s->nown_types = 0;
	for (i = 0; i < s->nown; i++) {
		free(s->own[i].path);
		free(s->own[i].type);
		free(s->own[i].parent);
		free(s->own[i].name);
	}
	free(s->own);
	s->own = NULL;
	s->nown = 0;
	for (i = 0; i < s->ntrees; i++) {
		free(s->trees[i].top);
		free(s->trees[i].type);
		free(s->trees[i].name);
		free(s->trees[i].parent[0]);
		free(s->trees[i].parent[1]);
	}
	free(s->trees);
	s->trees = NULL;
	s->ntrees = 0;
	free(s->id);
	free(s->mod);
	free(s->domain);
	free(s->fname);
	free(s->exec_type);
	free(s->exe);
	s->id = s->mod = s->domain = s->fname = NULL;
	s->exec_type = s->exe = NULL;
}

/*
 * The domain transitions into the subject's domain when its program
 * (labelled exec_type by the module's .fc) is run from an admin's shell
 * (unconfined_t, role unconfined_r) or by systemd (init_t). Each in an
 * optional block: a policy without that domain skips it.
 */
static void se_transitions(const struct se *s, FILE *f)
{
	static const char *const from[][2] = {
		{ "unconfined_t", "unconfined_r" },
		{ "init_t", NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(from); i++) {
		fprintf(f, "\noptional {\n\trequire {\n\t\ttype %s;\n",
			from[i][0]);
		if (from[i][1])
			fprintf(f, "\t\trole %s;\n", from[i][1]);
		fprintf(f, "\t\tclass process { sigchld transition };\n"
			"\t\tclass file { execute getattr map open read };\n"
			"\t\tclass fd use;\n"
			"\t\tclass fifo_file { append getattr ioctl read write };\n"
			"\t}\n");
		if (from[i][1])
			fprintf(f, "\trole %s types %s;\n", from[i][1],
				s->domain);
		fprintf(f, "\tallow %s %s:file { execute getattr map open read };\n"
			"\tallow %s %s:process transition;\n"
			"\ttype_transition %s %s:process %s;\n",
			from[i][0], s->exec_type, from[i][0], s->domain,
			from[i][0], s->exec_type, s->domain);
		/* what it inherits from its caller: the files it was
		 * given, the pipes; its exit signal */
		fprintf(f, "\tallow %s %s:fd use;\n"
			"\tallow %s %s:fifo_file { append getattr ioctl read write };\n"
			"\tallow %s %s:process sigchld;\n}\n",
			s->domain, from[i][0], s->domain, from[i][0], s->domain,
			from[i][0]);
	}
}

/* The module text: require block, the domain, the allow rules. */
static int se_module(struct se *s, FILE *f, const char *mod)
{
	char **types = NULL, **classes = NULL;
	size_t nt = 0, nc = 0, i, j, k;
	int rc = 0;

	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), allow_cmp);
	for (i = 0; i < s->n && !rc; i++) {
		qsort(s->v[i].perms, s->v[i].nperms, sizeof(char *), str_cmp);
		if (strcmp(s->v[i].type, "self") &&
		    strcmp(s->v[i].type, s->domain) &&
		    strcmp(s->v[i].type, s->exec_type) &&
		    !se_own_declared(s, s->v[i].type))
			rc = strv_add_once(&types, &nt, s->v[i].type);
		if (!rc)
			rc = strv_add_once(&classes, &nc, s->v[i].class);
	}
	if (rc)
		goto out;
	if (nt)
		qsort(types, nt, sizeof(char *), str_cmp);
	if (nc)
		qsort(classes, nc, sizeof(char *), str_cmp);
	fprintf(f, "module %s 1.0;\n\nrequire {\n\trole system_r;\n"
		"\tattribute domain;\n\tattribute file_type;\n"
		"\tattribute exec_type;\n", mod);
	for (i = 0; i < nt; i++)
		fprintf(f, "\ttype %s;\n", types[i]);
	for (i = 0; i < nc; i++) {
		char **perms = NULL;
		size_t np = 0;

		for (j = 0; j < s->n && !rc; j++) {
			if (strcmp(s->v[j].class, classes[i]))
				continue;
			for (k = 0; k < s->v[j].nperms && !rc; k++)
				rc = strv_add_once(&perms, &np,
						   s->v[j].perms[k]);
		}
		if (np)
			qsort(perms, np, sizeof(char *), str_cmp);
		fprintf(f, "\tclass %s {", classes[i]);
		for (j = 0; j < np; j++) {
			fprintf(f, " %s", perms[j]);
			free(perms[j]);
		}
		fputs(" };\n", f);
		free(perms);
	}
	fprintf(f, "}\n\ntype %s, domain;\ntype %s, file_type, exec_type;\n"
		"role system_r types %s;\n", s->domain, s->exec_type,
		s->domain);
	if (s->permissive)
		fprintf(f, "# vigil trial: denials logged, not enforced\n"
			"permissive %s;\n", s->domain);
	if (s->nown_types)
		qsort(s->own_types, s->nown_types, sizeof(char *), str_cmp);
	for (i = 0; i < s->nown_types; i++)
		fprintf(f, "type %s, file_type;\n", s->own_types[i]);
	fputc('\n', f);
	for (i = 0; i < s->n; i++) {
		fprintf(f, "allow %s %s:%s {", s->domain, s->v[i].type,
			s->v[i].class);
		for (j = 0; j < s->v[i].nperms; j++)
			fprintf(f, " %s", s->v[i].perms[j]);
		fputs(" };\n", f);
	}
	/* the files it creates get their private type, as restorecon
	 * gives it to those already there */
	for (i = 0; i < s->nown; i++)
		if (s->own[i].parent)
			fprintf(f, "type_transition %s %s:file %s \"%s\";\n",
				s->domain, s->own[i].parent, s->own[i].type,
				s->own[i].name);
	/* a tree's folder made in its parent gets the tree's type, and
	 * what is made in it inherits that */
	for (i = 0; i < s->ntrees; i++)
		for (j = 0; j < ARRAY_SIZE(s->trees[i].parent); j++)
			if (s->trees[i].parent[j])
				fprintf(f, "type_transition %s %s:dir %s "
					"\"%s\";\n", s->domain,
					s->trees[i].parent[j],
					s->trees[i].type, s->trees[i].name);
	se_transitions(s, f);
out:
	for (i = 0; i < nt; i++)
		free(types[i]);
	for (i = 0; i < nc; i++)
		free(classes[i]);
	free(types);
	free(classes);
	return rc;
}

static const char *const se_general[] = {
	"paths are mapped to types with the installed policy's file "
	"contexts (selabel_lookup); a path without one gets its folder's "
	"type (what a new file inherits); no type is invented but the "
	"subject's domain and its own files' types, declared here",
	"a file it writes (w, a, t, c) named by a literal path under /var, "
	"/run, /tmp or /srv gets a private type of the module instead of "
	"its folder's (vigil_NAME_log_t for logs, _run_t, _tmp_t, _var_t): "
	"the .fc labels it (restorecon), a type_transition with its name "
	"gives it to the file when the program creates it; the folder's "
	"type keeps search write add_name (remove_name)",
	"a folder tree it writes (a rule DIR/** or DIR/* with w, a, "
	"t or c; DIR under /run, /tmp, /srv or two levels under /var, "
	"holding no sensitive path) gets such a private type too: the .fc "
	"labels DIR and what is in it (DIR(/.*)? or DIR(/[^/]*)?, restorecon "
	"-R), a type_transition with DIR's name gives it to the folder when "
	"the program makes it, and what it makes inside inherits it; every "
	"rule on a path in the tree is written on that type, none on the "
	"policy's type of the folder",
	"a file or tree another subject of the export names too (its rules, "
	"globs included, may name a path there), or one of a subject whose "
	"code another domain runs (a child, a via block), keeps the policy's "
	"type: one .fc entry labels a path for one module only",
	"file letters: r->read open getattr, w and t->write append open, "
	"a->append open, x->execute execute_no_trans read open map, "
	"m->map execute read open, c->create (and add_name on the "
	"folder), d->unlink or rmdir (and remove_name), s->setattr, "
	"l->link, k->lock, i->ioctl; every folder above a path gets search",
	"when SELinux runs where vigil exports, a file's own label is used "
	"too where it is not the file contexts' type (a file another domain "
	"made: user_tmp_t where they say tmp_t), as the program meets it on "
	"its next run",
	"a path at or beneath the target of a symbolic link in /, /etc, "
	"/var or /usr (/var/run, /etc/localtime, /lib64) may be reached "
	"through the link: the link gets lnk_file { getattr read } and its "
	"folders search (vigil records the path a link resolves to, not "
	"the link)",
	"sockets: create read write getattr setattr getopt setopt shutdown "
	"plus the operations seen (bind connect listen accept); a unix "
	"socket another subject here binds: connectto (sendto for "
	"datagrams) on that subject's domain; a TCP or "
	"UDP port bound or connected to: name_bind or name_connect on the "
	"port's type in the binary policy beside the file contexts "
	"(portcon, as semanage port -l lists them), node_bind on every "
	"node type (vigil records the port, not the address)",
	"the program's own type (its .fc: restorecon labels it) is the "
	"domain's entry point, entered from an admin's shell (unconfined_t) "
	"and from systemd (init_t), each in an optional block; the domain "
	"may use what such a caller gives it (fd use, pipes, its exit "
	"signal)",
	"what every program does with its own process is not recorded by "
	"vigil and is written for every domain: process { fork getattr "
	"getpgid getsched setpgid sigchld sigkill signal signull sigstop }, "
	"its own pipes; anything else a permissive trial shows (vigil "
	"trial --to selinux, audit2allow)",
};

/* The file contexts: the installed policy's, or those named. */
static int se_begin(struct export_ctx *c)
{
	struct selinux_opt sopt = { SELABEL_OPT_PATH, NULL };
	struct se *s = c->priv;
	int rc;

	sopt.value = c->o && c->o->selinux_fcontexts ?
		     c->o->selinux_fcontexts :
		     !access(SE_DEFAULT_FC, R_OK) ? SE_DEFAULT_FC : NULL;
	s->fc = sopt.value;
	s->permissive = c->o && c->o->selinux_permissive;
	s->h = selabel_open(SELABEL_CTX_FILE, sopt.value ? &sopt : NULL,
			    sopt.value ? 1 : 0);
	if (!s->h)
		return errno ? -errno : -ENOENT;
	s->general = &c->general;
	s->left = &c->left;
	s->labels = is_selinux_enabled() > 0;
	rc = se_aliases_scan(s);
	return rc ? rc : se_policy_read(s);
}

/* The subject's names, and its executable as its entry point. */
static int se_subject_begin(struct export_ctx *c)
{
	struct se *s = c->priv;
	char *t;
	int rc;

	se_reset(s);
	s->id = se_ident(c->sr->exe);
	if (!s->id || asprintf(&s->mod, "vigil_%s", s->id) < 0 ||
	    asprintf(&s->domain, "vigil_%s_t", s->id) < 0 ||
	    asprintf(&s->fname, "vigil_%s.te", s->id) < 0)
		return -ENOMEM;
	if (asprintf(&s->exec_type, "vigil_%s_exec_t", s->id) < 0)
		return -ENOMEM;
	s->exe = strdup(c->sr->exe);
	if (!s->exe)
		return -ENOMEM;
	/* its own file type (the .fc labels the program with it), and the
	 * type the policy gives it today (until restorecon) */
	rc = se_allow(s, s->exec_type, "file", "entrypoint execute getattr "
		      "map open read");
	/* what every program does with its own process, which vigil does
	 * not record: fork, signals and pipes to itself */
	if (!rc)
		rc = se_allow(s, "self", "process", "fork getattr getpgid "
			      "getsched setpgid sigchld sigkill signal "
			      "signull sigstop");
	if (!rc)
		rc = se_allow(s, "self", "fifo_file", "append getattr ioctl "
			      "open read write");
	t = rc ? NULL : se_type(s, c->sr->exe, S_IFREG, &rc);
	if (t)
		rc = se_allow(s, t, "file", "entrypoint execute getattr map "
			      "open read");
	free(t);
	/* the folder trees it writes, before its rules (a path in one
	 * gets the tree's type) */
	return rc ? rc : se_trees_find(c, s);
}

/*
 * The module's file context: its program labelled with its exec type.
 * The path is a regular expression there: every byte but letters,
 * digits, '/', '_' and '-' is escaped ("\\." or "\\xHH"), so no name
 * can add a line or a pattern of its own.
 */
static void se_fc_path(FILE *f, const char *path)
{
	const unsigned char *p;

	for (p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '/' || *p == '_' ||
		    *p == '-')
			fputc(*p, f);
		else if (*p == '.')
			fputs("\\.", f);
		else
			fprintf(f, "\\x%02x", *p);
	}
}

static char *se_fc(const struct se *s)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "# file context of vigil subject %s's program: restorecon "
		"labels it, and running it enters %s\n", s->id, s->domain);
	se_fc_path(f, s->exe);
	fprintf(f, "\t--\tsystem_u:object_r:%s:s0\n", s->exec_type);
	if (s->nown)
		fprintf(f, "# the files it writes, each with a private type of "
			"this module: restorecon labels them, and those it "
			"creates get it by a type_transition\n");
	for (i = 0; i < s->nown; i++) {
		if (i && !strcmp(s->own[i].path, s->own[i - 1].path))
			continue;
		se_fc_path(f, s->own[i].path);
		fprintf(f, "\t--\tsystem_u:object_r:%s:s0\n", s->own[i].type);
	}
	if (s->ntrees)
		fprintf(f, "# the folder trees it writes, each with a private "
			"type of this module: restorecon -R labels them, the "
			"folder made by the program gets it by a "
			"type_transition, and what it makes inside inherits "
			"it\n");
	for (i = 0; i < s->ntrees; i++) {
		se_fc_path(f, s->trees[i].top);
		fprintf(f, "%s\tsystem_u:object_r:%s:s0\n",
			s->trees[i].deep ? "(/.*)?" : "(/[^/]*)?",
			s->trees[i].type);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Run argv in dir; 0 when it exits 0. Its output goes to stderr. */
static int se_run(const char *dir, char *const argv[])
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -errno;
	if (!pid) {
		if (chdir(dir) || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 :
	       WIFEXITED(st) && WEXITSTATUS(st) == 127 ? -ENOENT : -EIO;
}

/* The compiled module beside the .te, as audit2allow -M makes it
 * (checkpolicy, semodule-utils); 1 when those are not installed. */
static int se_package(struct export_ctx *c, struct se *s)
{
	const char *dir = c->dir && *c->dir ? c->dir : ".";
	char *mod = NULL, *pp = NULL, *fc = NULL, *path = NULL, **v;
	int rc = -ENOMEM;

	if (asprintf(&mod, "%s.mod", s->mod) < 0 ||
	    asprintf(&pp, "%s.pp", s->mod) < 0 ||
	    asprintf(&fc, "%s.fc", s->mod) < 0)
		goto out;
	rc = se_run(dir, (char *[]){ "checkmodule", "-M", "-m", "-o", mod,
				     s->fname, NULL });
	if (!rc)
		rc = se_run(dir, (char *[]){ "semodule_package", "-o", pp,
					     "-m", mod, "-f", fc, NULL });
	if (rc == -ENOENT) {
		rc = 1;
		goto out;
	}
	if (rc) {
		p_err("%s/%s: checkmodule or semodule_package failed", dir,
		      s->fname);
		goto out;
	}
	if (asprintf(&path, "%s/%s", dir, mod) < 0) {
		rc = -ENOMEM;
		goto out;
	}
	unlink(path);
	free(path);
	path = NULL;
	v = realloc(c->out->paths, (c->out->n + 1) * sizeof(*v));
	if (!v || asprintf(&path, "%s/%s", dir, pp) < 0) {
		if (v)
			c->out->paths = v;
		rc = -ENOMEM;
		goto out;
	}
	c->out->paths = v;
	c->out->paths[c->out->n++] = path;
	path = NULL;
	rc = 0;
out:
	free(path);
	free(mod);
	free(pp);
	free(fc);
	return rc;
}

static int se_subject_end(struct export_ctx *c)
{
	struct se *s = c->priv;
	const char *body;
	char *lead, *fc, *fcname;
	size_t len;
	int rc;

	rc = se_module(s, c->f, s->mod);
	if (!rc)
		rc = export_body(c, &body, &len);
	if (rc)
		return rc;
	if (asprintf(&lead, "# file contexts: %s\n# build: checkmodule -M -m "
		     "-o %s.mod %s && semodule_package -o %s.pp -m %s.mod "
		     "-f %s.fc\n# (vigil export did it when both are "
		     "installed); install: semodule -i %s.pp, then restorecon "
		     "the program and the files %s.fc names (a path another module labels keeps that "
		     "module's type: then semanage fcontext -a -t %s with "
		     "the path of %s.fc)\n\n",
		     s->fc ? s->fc : "(the policy's default)", s->mod,
		     s->fname, s->mod, s->mod, s->mod, s->mod, s->mod,
		     s->exec_type, s->mod) < 0)
		return -ENOMEM;
	rc = export_emit(c, &(struct export_file){
		.name = s->fname, .lead = lead, .text = body, .len = len,
	});
	free(lead);
	if (rc)
		return rc;
	fc = se_fc(s);
	if (!fc || asprintf(&fcname, "%s.fc", s->mod) < 0) {
		free(fc);
		return -ENOMEM;
	}
	rc = export_emit(c, &(struct export_file){
		.name = fcname, .text = fc, .len = strlen(fc), .raw = true,
	});
	free(fcname);
	free(fc);
	if (!rc)
		rc = se_package(c, s);
	return rc < 0 ? rc : 0;
}

static void se_release(struct export_ctx *c)
{
	struct se *s = c->priv;

	se_reset(s);
	if (s->h)
		selabel_close(s->h);
	while (s->nports)
		free(s->ports[--s->nports].type);
	free(s->ports);
	while (s->nnodes)
		free(s->nodes[--s->nnodes]);
	free(s->nodes);
	while (s->naliases) {
		s->naliases--;
		free(s->aliases[s->naliases].link);
		free(s->aliases[s->naliases].target);
	}
	free(s->aliases);
}

const struct export_target export_selinux = {
	.name = "selinux",
	.title = "SELinux policy module",
	.inherit = true,
	.general = se_general,
	.ngeneral = ARRAY_SIZE(se_general),
	.via_note = "a block 'via' this subject is folded into this domain: the "
		    "child runs here (execute_no_trans, no type transition) and "
		    "gets no domain of its own, so the program run elsewhere is "
		    "not confined by this export",
	.children_note = "children run in this domain (execute_no_trans): "
			 "the rules of those that are subjects here are "
			 "included",
	.priv_size = sizeof(struct se),
	.begin = se_begin,
	.subject_begin = se_subject_begin,
	.rule = se_rule,
	.subject_end = se_subject_end,
	.release = se_release,
};
