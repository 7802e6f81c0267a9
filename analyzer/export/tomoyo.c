// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: export to TOMOYO (2.x), one domain per subject in
 * domain_policy.conf, made a domain of its own from any parent by
 * initialize_domain lines in exception_policy.conf.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vigil.h"
#include "driver.h"
#include "object.h"

#define TM_ANY_V4 "0.0.0.0-255.255.255.255"
#define TM_ANY_V6 "::-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"

struct tmy {
	struct export_notes lines;	/* the current domain's, once each */
	struct export_notes *general, *left;
	FILE *ef;		/* exception_policy.conf's lines */
	char *exc;
	size_t elen;
	/* the domains of the subject being written: one, or for a block
	 * "via" another, one per exec path from the program it runs under */
	struct export_notes domains;
};

/* TOMOYO's word form: printable ASCII as is but '\' as "\\", the other
 * bytes as \ooo. */
static void tm_byte(FILE *f, unsigned char c)
{
	if (c == '\\')
		fputs("\\\\", f);
	else if (c <= 0x20 || c >= 0x7f)
		fprintf(f, "\\%03o", c);
	else
		fputc(c, f);
}

static char *tm_word(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (; *s; s++)
		tm_byte(f, (unsigned char)*s);
	if (fclose(f))
		return NULL;
	return buf;
}

/* ---- globs: braces expanded, then written in TOMOYO's wildcards ---- */

/*
 * The rule's brace-free alternatives, expanded by the kernel's own code
 * (match.c); one, a copy of @g, when the rule has no source pattern.
 */
static int rule_alts(const struct vigil_rule *r, const struct glob_toks *g,
		     struct glob_alts *a)
{
	if (r->glob)
		return glob_alts_expand(r->glob, strlen(r->glob), a);
	a->v = calloc(1, sizeof(*a->v));
	if (!a->v)
		return -ENOMEM;
	a->v[0].t = malloc((g->n + 1) * sizeof(*g->t));
	if (!a->v[0].t) {
		free(a->v);
		a->v = NULL;
		return -ENOMEM;
	}
	memcpy(a->v[0].t, g->t, g->n * sizeof(*g->t));
	a->v[0].n = g->n;
	a->n = 1;
	return 0;
}

static bool is_slash(const struct glob_toks *g, size_t i)
{
	return i < g->n && g->t[i].kind == GT_LIT && g->t[i].c == '/';
}

/*
 * Write a brace-free glob as TOMOYO patterns (one or two) into pats:
 * a star is "\*", '?' is "\?", a whole double star followed by '/' is
 * "\{\*\}" (one or more folders), a final one is "\*" and "\{\*\}/\*";
 * a double star inside a name widens to its folder (*wider set).
 */
static int tm_patterns(const struct glob_toks *g, char *pats[2], bool *wider)
{
	char *buf = NULL;
	size_t len = 0, i, k;
	FILE *f;

	pats[0] = pats[1] = NULL;
	for (i = 0; i < g->n; i++) {
		if (g->t[i].kind != GT_STAR2)
			continue;
		if (is_slash(g, i - 1) && (i + 1 == g->n || is_slash(g, i + 1)))
			continue;
		/* a "**" inside a name: everything below its folder */
		for (k = i; k > 0 && !is_slash(g, k - 1); k--)
			;
		*wider = true;
		f = open_memstream(&buf, &len);
		if (!f)
			return -ENOMEM;
		for (i = 0; i < k; i++) {
			enum gtok_kind kd = g->t[i].kind;

			if (kd == GT_LIT)
				tm_byte(f, g->t[i].c);
			else if (kd == GT_STAR)
				fputs("\\*", f);
			else if (kd == GT_QMARK)
				fputs("\\?", f);
			else
				fputs("\\{\\*\\}", f);
		}
		if (fclose(f))
			return -ENOMEM;
		if (asprintf(&pats[0], "%s\\*", buf) < 0 ||
		    asprintf(&pats[1], "%s\\{\\*\\}/\\*", buf) < 0) {
			free(buf);
			return -ENOMEM;
		}
		free(buf);
		return 0;
	}
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	for (i = 0; i < g->n; i++) {
		switch (g->t[i].kind) {
		case GT_LIT:
			tm_byte(f, g->t[i].c);
			break;
		case GT_STAR:
			fputs("\\*", f);
			break;
		case GT_QMARK:
			fputs("\\?", f);
			break;
		case GT_STAR2:
			fputs(i + 1 == g->n ? "\\*" : "\\{\\*\\}", f);
			break;
		case GT_LBRACE:
		case GT_COMMA:
		case GT_RBRACE:
			/* braces were expanded into alternatives before */
			break;
		}
	}
	if (fclose(f))
		return -ENOMEM;
	pats[0] = buf;
	if (g->n && g->t[g->n - 1].kind == GT_STAR2) {
		size_t l = strlen(buf);

		/* "/a/\*" and "/a/\{\*\}/\*" */
		if (asprintf(&pats[1], "%.*s\\{\\*\\}/\\*", (int)(l - 2),
			     buf) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The folder of a pattern, with "/\*" after it ("/tmp/x" -> "/tmp/\*"). */
static char *tm_folder_any(const char *pat)
{
	const char *s = strrchr(pat, '/');
	char *r;

	if (!s || asprintf(&r, "%.*s/\\*", (int)(s - pat), pat) < 0)
		return NULL;
	return r;
}

/* The rules for one name as TOMOYO writes it; dir: a folder. */
static int tm_name_rules(struct tmy *t, const char *p, uint64_t acc, bool dir)
{
	char *fold = NULL;
	int rc = 0;

#define L(...)                                      \
	do {                                        \
		if (!rc)                            \
			rc = note_add(&t->lines, __VA_ARGS__); \
	} while (0)
	/* m: an interpreter an exec loads is checked as read in the new
	 * domain (vigil records its mapping) */
	if (acc & (VIGIL_FILE_R | VIGIL_FILE_M))
		L("file read %s%s", p, dir ? "/" : "");
	if (acc & VIGIL_FILE_W) {
		L("file write %s", p);
		L("file append %s", p);
	}
	if (acc & VIGIL_FILE_A)
		L("file append %s", p);
	if (acc & VIGIL_FILE_X)
		L("file execute %s", p);
	if (acc & VIGIL_FILE_T)
		L("file truncate %s", p);
	if (acc & VIGIL_FILE_I)
		L("file ioctl %s 0-0xFFFFFFFF", p);
	if (acc & VIGIL_FILE_S) {
		L("file chmod %s%s 0-07777", p, dir ? "/" : "");
		L("file chown %s%s 0-4294967295", p, dir ? "/" : "");
		L("file chgrp %s%s 0-4294967295", p, dir ? "/" : "");
	}
	if (acc & VIGIL_FILE_C) {
		L("file create %s 0-07777", p);
		L("file mkdir %s 0-07777", p);
		L("file mksock %s 0-07777", p);
		L("file mkfifo %s 0-07777", p);
		L("file symlink %s", p);
	}
	if (acc & (VIGIL_FILE_D | VIGIL_FILE_L)) {
		fold = tm_folder_any(p);
		if (!fold)
			return -ENOMEM;
	}
	if (acc & VIGIL_FILE_D) {
		L("file unlink %s", p);
		L("file rmdir %s/", p);
		L("file rename %s %s", p, fold);
	}
	if (acc & VIGIL_FILE_L)
		L("file link %s %s", fold, p);
#undef L
	free(fold);
	return rc;
}

/*
 * TOMOYO names what is on procfs "proc:/..." (it has no rename, so its
 * local name), the caller's own process "self": /proc/N/x or /proc/\*\/x
 * is "proc:/self/x" for the process itself and "proc:/\$/x" for
 * another. Other paths are absolute, as vigil records them.
 */
static int tm_path_rules(struct tmy *t, const char *p, uint64_t acc,
			 bool literal, bool dir)
{
	const char *rest, *slash;
	struct stat st;
	bool pid = true;
	char *a = NULL, *b = NULL;
	int rc;

	if (literal) {
		/* p is the word form; stat needs the path: only plain
		 * paths are checked, others count as files */
		if (!strchr(p, '\\') && !stat(p, &st) && S_ISDIR(st.st_mode))
			dir = true;
	}
	if (strcmp(p, "/proc") && strncmp(p, "/proc/", 6))
		return tm_name_rules(t, p, acc, dir);
	rest = p + 5;
	if (!*rest)
		rest = "/";
	slash = strchr(rest + 1, '/');
	if (!slash) {
		pid = false;
	} else if (strncmp(rest + 1, "\\*", slash - rest - 1) ||
		   slash - rest - 1 != 2) {
		const char *c;

		for (c = rest + 1; c < slash; c++)
			if (*c < '0' || *c > '9')
				pid = false;
		if (!strncmp(rest + 1, "self/", 5) ||
		    !strncmp(rest + 1, "thread-self/", 12))
			pid = false;
	}
	if (!pid) {
		if (asprintf(&a, "proc:%s", rest) < 0)
			return -ENOMEM;
		rc = tm_name_rules(t, a, acc, dir);
		free(a);
		return rc;
	}
	if (asprintf(&a, "proc:/self%s", slash) < 0)
		return -ENOMEM;
	if (asprintf(&b, "proc:/\\$%s", slash) < 0) {
		free(a);
		return -ENOMEM;
	}
	rc = tm_name_rules(t, a, acc, dir);
	if (!rc)
		rc = tm_name_rules(t, b, acc, dir);
	free(a);
	free(b);
	return rc;
}

/* A glob ending in a wildcard name matches folders too: "P/", read
 * and chmod (the folder forms of the others are written already). */
static int tm_glob_dirs(struct tmy *t, const char *p, uint64_t acc)
{
	size_t n = strlen(p);

	if (n < 2 || p[n - 2] != '\\' || (p[n - 1] != '*' && p[n - 1] != '?'))
		return 0;
	return tm_path_rules(t, p, acc & (VIGIL_FILE_R | VIGIL_FILE_S), false,
			     true);
}

static int tm_file(struct tmy *t, const struct vigil_rule *r)
{
	struct glob_toks g = { 0 };
	struct glob_alts a = { 0 };
	bool wider = false;
	size_t i;
	int rc;

	rc = glob_toks_of_rule(r, &g);
	if (rc == -EINVAL || (!rc && (!g.n || g.t[0].kind != GT_LIT ||
				      g.t[0].c != '/'))) {
		glob_toks_free(&g);
		return note_rule(t->left, r, "not an absolute path: TOMOYO "
				 "rules name paths (left out)");
	}
	if (rc)
		return rc;
	rc = rule_alts(r, &g, &a);
	if (rc == -EINVAL) {
		glob_toks_free(&g);
		return note_rule(t->left, r, "a pattern vigil's kernel "
				 "refuses (left out)");
	}
	for (i = 0; i < a.n && !rc; i++) {
		char *p[2];
		bool lit = glob_toks_literal(&a.v[i]);

		rc = tm_patterns(&a.v[i], p, &wider);
		if (!rc)
			rc = tm_path_rules(t, p[0], r->access, lit, false);
		if (!rc && p[1])
			rc = tm_path_rules(t, p[1], r->access, false, false);
		/* the folders a glob matches: read and chmod of "P/" */
		if (!rc && !lit && (r->access & (VIGIL_FILE_R | VIGIL_FILE_S)))
			rc = tm_glob_dirs(t, p[0], r->access);
		if (!rc && !lit && p[1] &&
		    (r->access & (VIGIL_FILE_R | VIGIL_FILE_S)))
			rc = tm_glob_dirs(t, p[1], r->access);
		free(p[0]);
		free(p[1]);
	}
	if (!rc && wider)
		rc = note_rule(t->left, r, "'**' inside a name: everything "
			       "below its folder (broader)");
	if (!rc && (r->access & (VIGIL_FILE_D | VIGIL_FILE_L)))
		rc = note_rule(t->left, r, "rename and link need both names; "
			       "vigil records one: allowed to and from any "
			       "name in the same folder");
	if (!rc && (r->access & VIGIL_FILE_C))
		rc = note_rule(t->left, r, "create: the kind of file is not "
			       "recorded: create, mkdir, mksock, mkfifo and "
			       "symlink allowed");
	glob_alts_free(&a);
	glob_toks_free(&g);
	return rc;
}

static int tm_net(struct tmy *t, const struct vigil_rule *r)
{
	struct net_obj no;
	char port[16] = "0-65535";
	const char *addr;
	char *w = NULL;
	uint64_t acc = r->access;
	bool dgram;
	int rc = 0;

	rc = net_obj_parse(r, &no);
	if (rc == -EINVAL)
		return note_rule(t->left, r, "not a FAMILY:TYPE object");
	if (rc)
		return rc;
	dgram = !strcmp(no.type, "dgram");
	if (strcmp(no.type, "stream") && !dgram &&
	    strcmp(no.type, "seqpacket")) {
		rc = note_rule(t->left, r, "TOMOYO controls stream, dgram "
			       "and seqpacket sockets only (allowed)");
		goto out;
	}
	if (!strcmp(no.family, "inet") || !strcmp(no.family, "inet6")) {
		if (!strcmp(no.type, "seqpacket")) {
			rc = note_rule(t->left, r, "inet seqpacket (SCTP) is "
				       "not controlled by TOMOYO (allowed)");
			goto out;
		}
		addr = strcmp(no.family, "inet") ? TM_ANY_V6 : TM_ANY_V4;
		if (no.port >= 0)
			snprintf(port, sizeof(port), "%d", no.port);
		if (acc & VIGIL_NET_BIND)
			rc = note_add(&t->lines, "network inet %s bind %s %s", no.type,
				     addr, port);
		if (!rc && (acc & VIGIL_NET_LISTEN) && !dgram)
			rc = note_add(&t->lines, "network inet stream listen %s %s",
				     addr, port);
		if (!rc && (acc & VIGIL_NET_CONNECT))
			rc = note_add(&t->lines, "network inet %s %s %s %s", no.type,
				     dgram ? "send" : "connect", addr, port);
		if (!rc && (acc & VIGIL_NET_ACCEPT) && !dgram)
			rc = note_add(&t->lines, "network inet stream accept %s "
				     "0-65535", addr);
		if (!rc && (acc & (VIGIL_NET_BIND | VIGIL_NET_LISTEN |
				   VIGIL_NET_CONNECT)) && no.port < 0)
			rc = note_rule(t->left, r, "no port recorded: any "
				       "port (broader)");
		if (!rc)
			rc = note_add(t->general, "inet rules allow any "
				      "address (vigil records ports only); "
				      "accept any peer port");
		goto out;
	}
	if (strcmp(no.family, "unix")) {
		rc = note_rule(t->left, r, "TOMOYO controls inet and unix "
			       "sockets only (allowed)");
		goto out;
	}
	if (!no.addr || no.addr[0] != '/') {
		rc = note_rule(t->left, r, "unnamed or abstract unix "
			       "address: not written (denied in "
			       "enforcing mode if used for bind/connect)");
		goto out;
	}
	w = tm_word(no.addr);
	if (!w) {
		rc = -ENOMEM;
		goto out;
	}
	if (acc & VIGIL_NET_BIND)
		rc = note_add(&t->lines, "network unix %s bind %s", no.type, w);
	if (!rc && (acc & VIGIL_NET_LISTEN) && !dgram)
		rc = note_add(&t->lines, "network unix %s listen %s", no.type, w);
	if (!rc && (acc & VIGIL_NET_CONNECT))
		rc = note_add(&t->lines, "network unix %s %s %s", no.type,
			     dgram ? "send" : "connect", w);
	if (!rc && (acc & VIGIL_NET_ACCEPT) && !dgram)
		rc = note_add(&t->lines, "network unix %s accept %s", no.type, w);
	if (!rc && (acc & VIGIL_NET_BIND))
		rc = note_add(&t->lines, "file mksock %s 0-07777", w);
out:
	free(w);
	net_obj_free(&no);
	return rc;
}

static int tm_mount(struct tmy *t, const struct vigil_rule *r)
{
	char *w;
	int rc = 0;

	if (r->object[0] != '/' || r->generalised)
		return note_rule(t->left, r, "mount point is not a plain "
				 "path (left out)");
	w = tm_word(r->object);
	if (!w)
		return -ENOMEM;
	if (r->access & VIGIL_MOUNT_MOUNT) {
		rc = note_add(&t->lines, "file mount \\* %s%s \\* 0-0xFFFFFFFF", w,
			     strcmp(w, "/") ? "/" : "");
		if (!rc)
			rc = note_add(&t->lines, "file mount /\\{\\*\\}/\\* %s%s \\* "
				     "0-0xFFFFFFFF", w,
				     strcmp(w, "/") ? "/" : "");
		if (!rc)
			rc = note_rule(t->left, r, "mount: any device, file "
				       "system type and flags at the mount "
				       "point (vigil records only the point)");
	}
	if (!rc && (r->access & VIGIL_MOUNT_UMOUNT))
		rc = note_add(&t->lines, "file unmount %s%s", w,
			     strcmp(w, "/") ? "/" : "");
	free(w);
	return rc;
}

static int tm_rule(struct export_ctx *c, const struct vigil_rule *r)
{
	struct tmy *t = c->priv;

	switch (r->class) {
	case VIGIL_CLASS_FILE:
		return tm_file(t, r);
	case VIGIL_CLASS_NET:
		return tm_net(t, r);
	case VIGIL_CLASS_MOUNT:
		return tm_mount(t, r);
	case VIGIL_CLASS_CAP:
		return note_rule(t->left, r, "TOMOYO 2.x has no capability "
				 "rules (allowed)");
	case VIGIL_CLASS_SIGNAL:
	case VIGIL_CLASS_PTRACE:
		return note_rule(t->left, r, "TOMOYO 2.x has no signal or "
				 "ptrace rules (allowed)");
	case VIGIL_CLASS_MODULE:
		return note_rule(t->left, r, "TOMOYO 2.x has no module rules "
				 "(allowed)");
	case VIGIL_CLASS_COUNT:	/* not a class: the driver notes it */
		break;
	}
	return -EINVAL;
}

static const char *const tm_general[] = {
	"each subject is a domain of its own, '<kernel> EXE', whatever runs "
	"it: exception_policy.conf says 'initialize_domain EXE from any'",
	"use_profile 3 is enforcing in TOMOYO's default profiles: use 2 to "
	"trial it (permissive) or 1 to keep learning",
	"file letters: r->read, w->write and append, a->append, x->execute, "
	"t->truncate, i->ioctl (any command), s->chmod, chown, chgrp, "
	"m->read (TOMOYO checks an exec's interpreter, whose mapping vigil "
	"records, as read; mmap itself is not controlled); k (lock) is not "
	"controlled by TOMOYO (allowed)",
	"a glob whose last name is a wildcard also names the folders it "
	"matches ('P/': TOMOYO tells folders by their trailing '/', vigil's "
	"globs match both)",
	"/proc/N/x and /proc/*/x are TOMOYO's proc:/self/x (the process "
	"itself) and proc:/\\$/x (another), other /proc paths proc:/x",
	"globs: * ->\\*, ? ->\\?, {a,b} written once per alternative, "
	"/a/**/b ->/a/\\{\\*\\}/b, /a/** ->/a/\\* and /a/\\{\\*\\}/\\*",
	"a child a subject runs that is not a subject of this export gets "
	"the domain '<kernel> EXE CHILD', which has no rules here",
	"every domain gets 'misc env \\*': TOMOYO checks each environment "
	"variable an exec into the domain passes, and vigil does not record "
	"them (without it the program cannot even start in an enforcing "
	"domain); and 'file getattr' on every path, pipe, socket and "
	"anonymous inode, the patterns of TOMOYO's own ANY_PATHNAME (stat "
	"and fstat: TOMOYO checks them, vigil does not record them, and "
	"AppArmor and Landlock do not control them; broader)",
};

static int tm_begin(struct export_ctx *c)
{
	struct tmy *t = c->priv;

	t->general = &c->general;
	t->left = &c->left;
	t->ef = open_memstream(&t->exc, &t->elen);
	return t->ef ? 0 : -ENOMEM;
}

/* The plain block a via block runs under, at the top of its parents. */
static size_t tm_root(const struct vigil_ruleset *rs, size_t i)
{
	size_t steps;

	for (steps = 0; rs->subjects[i].via && steps <= rs->nsubjects;
	     steps++)
		i = rs->subjects[i].parent;
	return i;
}

/* Whether block a runs block b: an exec rule of a names b's exe. */
static bool tm_runs(const struct vigil_ruleset *rs, size_t a, size_t b)
{
	const struct vigil_subject_rules *sa = &rs->subjects[a];
	size_t k;

	for (k = 0; k < sa->nchildren; k++)
		if (!strcmp(sa->children[k], rs->subjects[b].exe))
			return export_runs(rs, a, b);
	return false;
}

#define TM_PATH_MAX 8

/*
 * The exec paths from path[0] (a plain block) to the via block x
 * through via blocks of the same root, each a domain name added to
 * t->domains ("<kernel> ROOT ... X"), at most TM_PATH_MAX deep.
 */
static int tm_paths(struct tmy *t, const struct vigil_ruleset *rs,
		    size_t *path, size_t depth, size_t x, size_t root)
{
	size_t j, k;
	int rc = 0;

	for (j = 0; j < rs->nsubjects && !rc; j++) {
		bool seen = false;

		if (!rs->subjects[j].via || tm_root(rs, j) != root ||
		    !tm_runs(rs, path[depth - 1], j))
			continue;
		for (k = 0; k < depth; k++)
			seen |= path[k] == j;
		if (seen)
			continue;
		path[depth] = j;
		if (j == x) {
			char *buf = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&buf, &len);

			if (!f)
				return -ENOMEM;
			fputs("<kernel>", f);
			for (k = 0; k <= depth; k++) {
				char *w = tm_word(rs->subjects[path[k]].exe);

				if (!w) {
					fclose(f);
					free(buf);
					return -ENOMEM;
				}
				fprintf(f, " %s", w);
				free(w);
			}
			if (fclose(f)) {
				free(buf);
				return -ENOMEM;
			}
			rc = note_add(&t->domains, "%s", buf);
			free(buf);
		} else if (depth + 1 < TM_PATH_MAX) {
			rc = tm_paths(t, rs, path, depth + 1, x, root);
		}
	}
	return rc;
}

/* Whether rs has a plain block of exe. */
static bool tm_plain(const struct vigil_ruleset *rs, const char *exe)
{
	size_t i;

	for (i = 0; i < rs->nsubjects; i++)
		if (!rs->subjects[i].via && !strcmp(rs->subjects[i].exe, exe))
			return true;
	return false;
}

/*
 * The domain of the subject, made one from any parent; a block "via"
 * another: the domains TOMOYO's transitions give it under that one
 * ("<kernel> SERVICE [INTERMEDIATE...] CHILD"), no initialize_domain
 * (run elsewhere it is not in them), and no_initialize_domain when a
 * plain block of the same exe would take it out of them.
 */
static int tm_subject_begin(struct export_ctx *c)
{
	const struct vigil_ruleset *rs = c->rs;
	struct tmy *t = c->priv;
	size_t path[TM_PATH_MAX], root, i;
	char *w = tm_word(c->sr->exe);
	int rc;

	if (!w)
		return -ENOMEM;
	notes_free(&t->domains);
	if (!c->sr->via) {
		rc = note_add(&t->domains, "<kernel> %s", w);
		if (!rc)
			fprintf(t->ef, "initialize_domain %s from any\n", w);
		free(w);
		return rc;
	}
	root = tm_root(rs, c->self);
	path[0] = root;
	rc = tm_paths(t, rs, path, 1, c->self, root);
	if (!rc && !t->domains.n) {
		char *r = tm_word(rs->subjects[root].exe);

		rc = r ? note_add(&t->domains, "<kernel> %s %s", r, w) :
			 -ENOMEM;
		if (!rc)
			rc = note_add(t->general, "a block 'via' a subject "
				      "whose blocks have no exec rule for it "
				      "is written as that subject's direct "
				      "child");
		free(r);
	}
	for (i = 0; i < t->domains.n && !rc; i++) {
		const char *d = t->domains.v[i];

		if (tm_plain(rs, c->sr->exe))
			fprintf(t->ef, "no_initialize_domain %s from %.*s\n",
				w, (int)(strrchr(d, ' ') - d), d);
	}
	if (!rc)
		rc = note_add(t->general, "a block 'via' another is the "
			      "domain TOMOYO's transitions give it under "
			      "that one ('<kernel> SERVICE [...] CHILD', one "
			      "per exec path the candidate's exec rules "
			      "show), with no initialize_domain: the program "
			      "run elsewhere is not in it");
	free(w);
	return rc;
}

static int tm_subject_end(struct export_ctx *c)
{
	struct tmy *t = c->priv;
	size_t i, d;

	for (d = 0; d < t->domains.n; d++) {
		/* TOMOYO checks each environment variable an exec into
		 * the domain passes (misc env): vigil records none */
		fprintf(c->f, "%s\nuse_profile 3\nuse_group 0\n\n"
			"misc env \\*\n"
			"file getattr /\n"
			"file getattr /\\*\n"
			"file getattr /\\{\\*\\}/\n"
			"file getattr /\\{\\*\\}/\\*\n"
			"file getattr \\*:/\n"
			"file getattr \\*:/\\*\n"
			"file getattr \\*:/\\{\\*\\}/\n"
			"file getattr \\*:/\\{\\*\\}/\\*\n"
			"file getattr \\*:[\\$]\n"
			"file getattr anon_inode:\\*\n", t->domains.v[d]);
		for (i = 0; i < t->lines.n; i++)
			fprintf(c->f, "%s\n", t->lines.v[i]);
		fputc('\n', c->f);
	}
	notes_free(&t->lines);
	notes_free(&t->domains);
	return 0;
}

/* domain_policy.conf, then exception_policy.conf. */
static int tm_end(struct export_ctx *c)
{
	struct tmy *t = c->priv;
	const char *body;
	size_t len;
	int rc;

	rc = export_body(c, &body, &len);
	if (rc)
		return rc;
	rc = fclose(t->ef) ? -ENOMEM : 0;
	t->ef = NULL;
	if (!rc)
		rc = export_emit(c, &(struct export_file){
			.name = "tomoyo-domain_policy.conf",
			.lead = "# with tomoyo-exception_policy.conf; check "
				"with: tomoyo-checkpolicy d < FILE\n\n",
			.text = body, .len = len,
		});
	if (rc)
		return rc;
	notes_free(t->general);
	notes_free(t->left);
	rc = note_add(t->left, "see tomoyo-domain_policy.conf for what "
		      "TOMOYO cannot express");
	if (rc)
		return rc;
	return export_emit(c, &(struct export_file){
		.name = "tomoyo-exception_policy.conf",
		.title = "TOMOYO exception policy",
		.lead = "# every subject a domain of its own (see "
			"tomoyo-domain_policy.conf)\n\n",
		.text = t->exc, .len = t->elen,
	});
}

static void tm_release(struct export_ctx *c)
{
	struct tmy *t = c->priv;

	notes_free(&t->lines);
	notes_free(&t->domains);
	if (t->ef)
		fclose(t->ef);
	free(t->exc);
}

const struct export_target export_tomoyo = {
	.name = "tomoyo",
	.title = "TOMOYO domain policy",
	.per_system = true,
	.general = tm_general,
	.ngeneral = ARRAY_SIZE(tm_general),
	.priv_size = sizeof(struct tmy),
	.begin = tm_begin,
	.subject_begin = tm_subject_begin,
	.rule = tm_rule,
	.subject_end = tm_subject_end,
	.end = tm_end,
	.release = tm_release,
};
