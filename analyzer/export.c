// SPDX-License-Identifier: GPL-2.0-only
/* vigil analyzer: "vigil export", and what the exporters share. */
#include <errno.h>
#include <sys/stat.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/landlock.h>

#include "vigil.h"
#include "util.h"
#include "store.h"
#include "export.h"
#include "policy.h"
#include "candidate.h"

/* ---- globs as tokens ---- */

void glob_toks_free(struct glob_toks *g)
{
	if (!g)
		return;
	free(g->t);
	g->t = NULL;
	g->n = 0;
}

/* A lexed item of the shared matcher as an exporter's token. */
static struct gtok gtok_of_item(u16 item)
{
	static const enum gtok_kind meta[] = {
		[VIGIL_GLOB_STAR - VIGIL_GLOB_STAR] = GT_STAR,
		[VIGIL_GLOB_DSTAR - VIGIL_GLOB_STAR] = GT_STAR2,
		[VIGIL_GLOB_ANY - VIGIL_GLOB_STAR] = GT_QMARK,
		[VIGIL_GLOB_LBRACE - VIGIL_GLOB_STAR] = GT_LBRACE,
		[VIGIL_GLOB_RBRACE - VIGIL_GLOB_STAR] = GT_RBRACE,
		[VIGIL_GLOB_COMMA - VIGIL_GLOB_STAR] = GT_COMMA,
	};
	struct gtok t = { .kind = GT_LIT, .c = (unsigned char)item };

	if (item >= VIGIL_GLOB_STAR) {
		t.kind = meta[item - VIGIL_GLOB_STAR];
		t.c = 0;
	}
	return t;
}

static int glob_toks_of_items(const u16 *items, size_t n,
			      struct glob_toks *ret)
{
	struct gtok *t;
	size_t i;

	t = calloc(n + 1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		t[i] = gtok_of_item(items[i]);
	ret->t = t;
	ret->n = n;
	return 0;
}

/*
 * The one lexer of the policy language is the kernel's (match.c): a
 * pattern the kernel would refuse is refused here too.
 */
int glob_toks_parse(const char *src, size_t len, struct glob_toks *ret)
{
	char why[160];
	unsigned int n;
	u16 *items;
	int rc;

	items = calloc(len + 1, sizeof(*items));
	if (!items)
		return -ENOMEM;
	rc = vigil_glob_lex(src, len, items, &n, why, sizeof(why));
	if (!rc)
		rc = glob_toks_of_items(items, n, ret);
	free(items);
	return rc;
}

int glob_alts_expand(const char *src, size_t len, struct glob_alts *ret)
{
	struct vigil_glob_alts *a;
	char why[160];
	size_t off = 0;
	unsigned int k;
	int rc;

	ret->n = 0;
	ret->v = NULL;
	rc = vigil_glob_expand(src, len, &a, why, sizeof(why));
	if (rc)
		return rc;
	ret->v = calloc(a->nalts, sizeof(*ret->v));
	if (!ret->v) {
		vigil_glob_alts_free(a);
		return -ENOMEM;
	}
	for (k = 0; k < a->nalts && !rc; k++) {
		rc = glob_toks_of_items(a->toks + off, a->lens[k], &ret->v[k]);
		if (!rc)
			ret->n++;
		off += a->lens[k];
	}
	vigil_glob_alts_free(a);
	if (rc)
		glob_alts_free(ret);
	return rc;
}

void glob_alts_free(struct glob_alts *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		glob_toks_free(&a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

int glob_toks_of_rule(const struct vigil_rule *r, struct glob_toks *ret)
{
	const char *o = r->object;
	struct gtok *t;
	size_t i, n = 0, len;

	if (r->glob)
		return glob_toks_parse(r->glob, strlen(r->glob), ret);
	len = strlen(o);
	t = calloc(len + 1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < len; i++) {
		if (r->generalised && o[i] == '*') {
			if (o[i + 1] == '*') {
				t[n++].kind = GT_STAR2;
				i++;
			} else {
				t[n++].kind = GT_STAR;
			}
			continue;
		}
		t[n].kind = GT_LIT;
		t[n++].c = (unsigned char)o[i];
	}
	ret->t = t;
	ret->n = n;
	return 0;
}

bool glob_toks_literal(const struct glob_toks *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (g->t[i].kind != GT_LIT)
			return false;
	return true;
}

char *glob_toks_text(const struct glob_toks *g)
{
	char *s;
	size_t i;

	if (!glob_toks_literal(g))
		return NULL;
	s = malloc(g->n + 1);
	if (!s)
		return NULL;
	for (i = 0; i < g->n; i++)
		s[i] = (char)g->t[i].c;
	s[g->n] = '\0';
	return s;
}

char *glob_toks_literal_dir(const struct glob_toks *g)
{
	size_t i, n = 0, slash = 0;
	char *s;

	for (i = 0; i < g->n && g->t[i].kind == GT_LIT; i++) {
		n++;
		if (g->t[i].c == '/')
			slash = n;
	}
	if (n < g->n)
		n = slash;
	s = malloc(n + 1);
	if (!s)
		return NULL;
	for (i = 0; i < n; i++)
		s[i] = (char)g->t[i].c;
	s[n] = '\0';
	return s;
}

/* ---- notes ---- */

int note_add(struct export_notes *n, const char *fmt, ...)
{
	char **v, *s;
	va_list ap;
	size_t i;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -ENOMEM;
	/* One line each: the header is a comment. */
	for (i = 0; s[i]; i++)
		if (s[i] == '\n' || s[i] == '\r')
			s[i] = ' ';
	for (i = 0; i < n->n; i++) {
		if (!strcmp(n->v[i], s)) {
			free(s);
			return 0;
		}
	}
	v = realloc(n->v, (n->n + 1) * sizeof(*v));
	if (!v) {
		free(s);
		return -ENOMEM;
	}
	n->v = v;
	n->v[n->n++] = s;
	return 0;
}

int note_rule(struct export_notes *n, const struct vigil_rule *r,
	      const char *why)
{
	char acc[512];
	char *obj = r->glob ? NULL :
		vigil_glob_escape_dup(r->object, strlen(r->object),
				      r->generalised);
	int rc;

	if (!r->glob && !obj)
		return -ENOMEM;
	vigil_access_format(r->class, r->access, acc, sizeof(acc));
	rc = note_add(n, "%s %s %s: %s", vigil_class_name(r->class), acc,
		      r->glob ? r->glob : obj, why);
	free(obj);
	return rc;
}

int export_rule_path(const struct vigil_rule *r, struct export_notes *left,
		     const char *why, char **ret_path, bool *ret_lit)
{
	struct glob_toks g = { 0 };
	int rc;

	*ret_path = NULL;
	rc = glob_toks_of_rule(r, &g);
	if (rc == -EINVAL || (!rc && (!g.n || g.t[0].kind != GT_LIT ||
				      g.t[0].c != '/'))) {
		glob_toks_free(&g);
		rc = note_rule(left, r, why);
		return rc ? rc : 1;
	}
	if (rc)
		return rc;
	*ret_lit = glob_toks_literal(&g);
	*ret_path = *ret_lit ? glob_toks_text(&g) : glob_toks_literal_dir(&g);
	glob_toks_free(&g);
	return *ret_path ? 0 : -ENOMEM;
}

void notes_free(struct export_notes *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
	n->v = NULL;
	n->n = 0;
}

/* ---- header, names, files ---- */

static void put_exe(FILE *f, const char *exe)
{
	char *e = vigil_glob_escape_dup(exe, strlen(exe), false);

	fputs(e ? e : "?", f);
	free(e);
}

void export_header(FILE *f, const char *cmt, const char *target,
		   const struct vigil_ruleset *rs,
		   const struct vigil_subject_rules *sr,
		   const struct export_opts *o,
		   const struct export_notes *general,
		   const struct export_notes *left_out)
{
	char t1[32], t2[32];
	size_t i;

	fprintf(f, "%s %s for vigil subject%s ", cmt, target,
		sr || rs->nsubjects == 1 ? "" : "s");
	if (sr) {
		put_exe(f, sr->exe);
	} else {
		for (i = 0; i < rs->nsubjects; i++) {
			fputs(i ? ", " : "", f);
			put_exe(f, rs->subjects[i].exe);
		}
		if (!rs->nsubjects)
			fputs("(none)", f);
	}
	if (o && o->candidate) {
		char *c = vigil_glob_escape_dup(o->candidate,
						strlen(o->candidate), false);

		fprintf(f, "\n%s translated by vigil %s (vigil export) from "
			"the candidate policy %s", cmt, VIGIL_VERSION,
			c ? c : "?");
		free(c);
		if (o->db)
			fprintf(f, "; evidence from %s", o->db);
		else
			fputs("; no database: no evidence", f);
		fputc('\n', f);
	} else {
		fprintf(f, "\n%s generated by vigil %s (vigil export) from "
			"what was observed%s%s; review before enforcing\n",
			cmt, VIGIL_VERSION, o && o->db ? " in " : "",
			o && o->db ? o->db : "");
	}
	fprintf(f, "%s observed from %s to %s, %llu record%s", cmt,
		vigil_time_iso(rs->first, t1, sizeof(t1)),
		vigil_time_iso(rs->last, t2, sizeof(t2)),
		(unsigned long long)rs->records, rs->records == 1 ? "" : "s");
	if (sr)
		fprintf(f, "; this subject: %llu access%s, %zu rule%s, "
			"%s to %s", (unsigned long long)sr->events,
			sr->events == 1 ? "" : "es", sr->nrules,
			sr->nrules == 1 ? "" : "s",
			vigil_time_iso(sr->first, t1, sizeof(t1)),
			vigil_time_iso(sr->last, t2, sizeof(t2)));
	fprintf(f, "\n%s rules: %s\n", cmt,
		o && o->candidate ? "the candidate's, as written" :
		o && o->strict ? "strict (one literal rule per object)" :
				 "generalised by vigil's heuristics");
	for (i = 0; i < rs->nsubjects; i++) {
		const struct vigil_subject_rules *s = &rs->subjects[i];
		size_t j, k = 0;

		if ((sr && s != sr) || !s->flagged)
			continue;
		fprintf(f, "%s FLAG: %zu rule%s of ", cmt, s->flagged,
			s->flagged == 1 ? "" : "s");
		put_exe(f, s->exe);
		fputs(" seen only under uids it never ran as (", f);
		for (j = 0; j < s->nservice_uids; j++)
			fprintf(f, "%s%u", j ? ", " : "",
				(unsigned int)s->service_uids[j]);
		fputs("), review them:", f);
		for (j = 0; j < s->nrules; j++) {
			const struct vigil_rule *r = &s->rules[j];

			if (!vigil_rule_flagged(r))
				continue;
			if (k++ == 5) {
				fputs(" ...", f);
				break;
			}
			fprintf(f, " %s %s (uid%s", vigil_class_name(r->class),
				r->glob, r->uids.n > 1 ? "s" : "");
			for (unsigned int u = 0; u < r->uids.n; u++)
				fprintf(f, " %u", (unsigned int)r->uids.v[u]);
			fputc(')', f);
		}
		fputc('\n', f);
	}
	if (rs->skipped)
		fprintf(f, "%s %llu observed tuple%s could not be made into "
			"vigil rules at all\n", cmt,
			(unsigned long long)rs->skipped,
			rs->skipped == 1 ? "" : "s");
	if (general && general->n) {
		fprintf(f, "%s\n%s how vigil's rules map to %s:\n", cmt, cmt,
			target);
		for (i = 0; i < general->n; i++)
			fprintf(f, "%s   - %s\n", cmt, general->v[i]);
	}
	fprintf(f, "%s\n", cmt);
	if (left_out && left_out->n) {
		fprintf(f, "%s NOT expressed in %s (%zu, left out or "
			"weakened):\n", cmt, target, left_out->n);
		for (i = 0; i < left_out->n; i++)
			fprintf(f, "%s   - %s\n", cmt, left_out->v[i]);
	} else {
		fprintf(f, "%s every rule is expressed in %s\n", cmt, target);
	}
	fprintf(f, "%s\n", cmt);
}

char *export_subject_name(const char *exe)
{
	char *s, *p;

	while (*exe == '/')
		exe++;
	s = strdup(*exe ? exe : "root");
	if (!s)
		return NULL;
	for (p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '/')
			*p = '.';
		else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || strchr("._+-", c)))
			*p = '_';
	}
	if (s[0] == '.')
		s[0] = '_';
	return s;
}

void export_files_free(struct export_files *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++)
		free(f->paths[i]);
	free(f->paths);
	f->paths = NULL;
	f->n = 0;
}

int export_write(const char *dir, const char *name, const char *text,
		 size_t len, struct export_files *out)
{
	char *path, **v;
	size_t dl;
	int rc;

	if (!dir || !*dir)
		dir = ".";
	/* "out/" and "out//" name the files out/NAME, "/" names /NAME */
	for (dl = strlen(dir); dl > 1 && dir[dl - 1] == '/'; dl--)
		;
	if (asprintf(&path, "%.*s%s%s", (int)dl, dir,
		     dir[dl - 1] == '/' ? "" : "/", name) < 0)
		return -ENOMEM;
	v = realloc(out->paths, (out->n + 1) * sizeof(*v));
	if (!v) {
		free(path);
		return -ENOMEM;
	}
	out->paths = v;
	rc = write_file_atomic(path, text, len);
	if (rc) {
		free(path);
		return rc;
	}
	out->paths[out->n++] = path;
	return 0;
}

const struct vigil_subject_rules *
export_find_subject(const struct vigil_ruleset *rs, const char *exe)
{
	size_t i;

	for (i = 0; i < rs->nsubjects; i++)
		if (!strcmp(rs->subjects[i].exe, exe))
			return &rs->subjects[i];
	return NULL;
}

int export_reach(const struct vigil_ruleset *rs, bool **ret)
{
	size_t n = rs->nsubjects, i, j, k;
	bool changed, *r;

	r = calloc(n * n + 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		r[i * n + i] = true;
		for (k = 0; k < rs->subjects[i].nchildren; k++) {
			const char *exe = rs->subjects[i].children[k];
			const struct vigil_subject_rules *c =
				export_find_subject(rs, exe);

			if (c)
				r[i * n + (size_t)(c - rs->subjects)] = true;
		}
	}
	do {
		changed = false;
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++) {
				if (!r[i * n + j] || i == j)
					continue;
				for (k = 0; k < n; k++) {
					if (r[j * n + k] && !r[i * n + k]) {
						r[i * n + k] = true;
						changed = true;
					}
				}
			}
	} while (changed);
	*ret = r;
	return 0;
}

int export_caps(const struct vigil_rule *r, bool caps[VIGIL_CAP_COUNT])
{
	struct vigil_glob *g = NULL;
	char why[128], *src;
	int cap, rc;

	memset(caps, 0, VIGIL_CAP_COUNT * sizeof(caps[0]));
	cap = vigil_cap_from_name(r->object, strlen(r->object));
	if (cap >= 0 && cap < VIGIL_CAP_COUNT) {
		caps[cap] = true;
		return 0;
	}
	src = r->glob ? strdup(r->glob) :
		vigil_glob_escape_dup(r->object, strlen(r->object), true);
	if (!src)
		return -ENOMEM;
	rc = vigil_glob_compile(src, strlen(src), &g, why, sizeof(why));
	free(src);
	if (rc)
		return rc;
	for (cap = 0; cap < VIGIL_CAP_COUNT; cap++) {
		const char *n = vigil_cap_name(cap);

		if (n && vigil_glob_match(g, n, strlen(n)))
			caps[cap] = true;
	}
	vigil_glob_free(g);
	return 0;
}

void net_obj_free(struct net_obj *n)
{
	if (!n)
		return;
	free(n->family);
	free(n->type);
	free(n->addr);
	memset(n, 0, sizeof(*n));
}

int net_obj_parse(const struct vigil_rule *r, struct net_obj *ret)
{
	const char *o = r->object, *c1, *c2;
	struct net_obj n = { .port = -1 };

	c1 = strchr(o, ':');
	if (!c1 || c1 == o)
		return -EINVAL;
	c2 = strchr(c1 + 1, ':');
	n.family = strndup(o, c1 - o);
	n.type = c2 ? strndup(c1 + 1, c2 - c1 - 1) : strdup(c1 + 1);
	n.addr = c2 ? strdup(c2 + 1) : NULL;
	if (!n.family || !n.type || (c2 && !n.addr)) {
		net_obj_free(&n);
		return -ENOMEM;
	}
	if (!n.type[0]) {
		net_obj_free(&n);
		return -EINVAL;
	}
	if (n.addr && n.addr[0] && strcmp(n.family, "unix")) {
		uint64_t p;

		if (!parse_u64(n.addr, 65535, &p))
			n.port = (int)p;
	}
	*ret = n;
	return 0;
}

int landlock_abi_version(void)
{
	long v = syscall(SYS_landlock_create_ruleset, NULL, 0,
			 LANDLOCK_CREATE_RULESET_VERSION);

	return v < 0 ? 0 : (int)v;
}

/* ---- the verb ---- */

static const struct {
	const char *name;
	int (*fn)(const struct vigil_ruleset *rs, const char *dir,
		  const struct export_opts *o, struct export_files *out);
} targets[] = {
	{ "apparmor", export_apparmor },
	{ "selinux", export_selinux },
	{ "landlock", export_landlock },
	{ "tomoyo", export_tomoyo },
	{ "systemd", export_systemd },
};

int export_load_candidate(const char *file, char *const *subjects,
			  size_t nsubjects, struct export_opts *eo,
			  struct vigil_ruleset *rs)
{
	struct vigil_policy_error perr = { 0 };
	struct vigil_ruleset obs = { 0 };
	struct vigil_policy *pol = NULL;
	struct vigil_store *store = NULL;
	char *text = NULL, err[256] = "";
	const char *db = vigil_db_path();
	size_t len;
	int rc;

	rc = read_file(file, VIGIL_POLICY_MAX_BYTES, &text, &len);
	if (rc) {
		p_err("%s: %s", file,
		      rc == -EFBIG ? "policy larger than 1 MiB (the kernel's "
				     "limit)" : strerror(-rc));
		return -EINVAL;
	}
	rc = vigil_policy_parse(text, len, &pol, &perr);
	free(text);
	if (rc) {
		p_err("%s:%u: %s", file, perr.line,
		      perr.msg[0] ? perr.msg : strerror(-rc));
		return -EINVAL;
	}
	/* Evidence only: a database named must exist, the default may not. */
	eo->db = NULL;
	if (vigil_db_opt || !access(db, F_OK)) {
		rc = open_store_existing(db, &store);
		if (!rc) {
			rc = vigil_rules_load(store, NULL, 0, true, &obs);
			if (rc)
				p_err("%s: %s", db, rc == -EIO ?
				      vigil_store_errmsg(store) :
				      strerror(-rc));
		}
		if (rc)
			goto out;
		eo->db = db;
	}
	rc = vigil_ruleset_from_policy(pol, eo->db ? &obs : NULL, subjects,
				       nsubjects, rs, err, sizeof(err));
	if (rc == -ENOMEM)
		p_err("out of memory");
	else if (rc)
		p_err("%s: %s", file, err);
out:
	vigil_ruleset_free(&obs);
	vigil_store_close(store);
	vigil_policy_free(pol);
	return rc;
}

/* The shortcut: the rules generate would write, from the database. */
static int load_observed(char *const *subjects, size_t nsubjects,
			 const uint32_t *uids, size_t nuids,
			 struct export_opts *eo, struct vigil_ruleset *rs)
{
	struct vigil_store *store = NULL;
	int rc;

	eo->db = vigil_db_path();
	if (open_store_existing(eo->db, &store))
		return -EINVAL;
	rc = verb_subjects_known(store, eo->db, subjects, nsubjects);
	if (rc)
		goto out;
	{
		/* what vigil generate makes by default */
		struct vigil_rules_opts ro = {
			.strict = eo->strict, .no_would_deny = true,
			.check = true, .uids = uids, .nuids = nuids,
		};
		char err[512] = "";

		if (!access(VIGIL_SENSITIVE_CONF, F_OK))
			ro.sensitive_file = VIGIL_SENSITIVE_CONF;
		rc = vigil_rules_load_opts(store, subjects, nsubjects, &ro, rs,
					   err, sizeof(err));
		if (rc && err[0])
			p_err("%s", err);
		else if (rc)
			p_err("%s: %s", eo->db, rc == -EIO ?
			      vigil_store_errmsg(store) : strerror(-rc));
	}
out:
	vigil_store_close(store);
	return rc;
}

int do_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "to", required_argument, NULL, 't' },
		{ "subject", required_argument, NULL, 's' },
		{ "strict", no_argument, NULL, 'S' },
		{ "output", required_argument, NULL, 'o' },
		{ "abi", required_argument, NULL, 'A' },
		{ "uid", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char usage[] =
		"export --to apparmor|selinux|landlock|tomoyo|systemd\n"
		"       [--db PATH] [--subject EXE]... [-o DIR] [--abi N]\n"
		"       CANDIDATE\n"
		"  Translate the candidate policy file CANDIDATE (the one\n"
		"  vigil load puts in observe mode, hand edits included) into\n"
		"  policy files of another security module in DIR (default:\n"
		"  the current folder) and print their paths. The database,\n"
		"  when there, only adds evidence comments. --subject: only\n"
		"  these blocks. Each file says at its top what the target\n"
		"  cannot express. --abi: the Landlock ABI to write for\n"
		"  (default: the running kernel's). See docs/export.md.\n"
		"export --to TARGET [--db PATH] [--subject EXE]... [--strict]\n"
		"       [-o DIR] [--abi N] [--uid UID[,UID...]]\n"
		"  Shortcut without CANDIDATE: generate from the database (as\n"
		"  vigil generate would, --uid too) and translate that,\n"
		"  unreviewed.";
	struct export_opts eo = { 0 };
	struct export_files files = { 0 };
	struct vigil_ruleset rs = { 0 };
	const char *dir = ".", *to = NULL;
	struct verb_opts vo;
	size_t i;
	int c, rc, t = -1, ret = EXIT_USAGE;
	uint64_t abi;

	if (verb_opts_init(&vo, usage, argc))
		return EXIT_USAGE;
	optind = 1;
	while ((c = verb_getopt(argc, argv, "+o:h", opts, &vo)) > 0) {
		switch (c) {
		case 't':
			to = optarg;
			break;
		case 'S':
			eo.strict = true;
			break;
		case 'o':
			dir = optarg;
			break;
		case 'A':
			if (parse_u64(optarg, 64, &abi) || !abi) {
				p_err("--abi: expected a number 1..64, got "
				      "'%s'", optarg);
				goto out;
			}
			eo.landlock_abi = (unsigned int)abi;
			break;
		}
	}
	if (c < 0) {
		ret = c == VERB_GETOPT_HELP ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (optind + 1 < argc || !to) {
		if (!to)
			p_err("--to TARGET is required");
		verb_usage_error(&vo);
		goto out;
	}
	if (optind < argc) {
		eo.candidate = argv[optind];
		if (eo.strict || vo.nuids) {
			p_err("%s applies to the shortcut only "
			      "(a candidate's rules are exported as written)",
			      eo.strict ? "--strict" : "--uid");
			goto out;
		}
	}
	for (i = 0; i < ARRAY_SIZE(targets); i++)
		if (!strcmp(to, targets[i].name))
			t = (int)i;
	if (t < 0) {
		p_err("unknown target '%s' (apparmor, selinux, landlock, "
		      "tomoyo or systemd)", to);
		goto out;
	}
	rc = eo.candidate ?
		export_load_candidate(eo.candidate, vo.subjects, vo.nsubjects,
				      &eo, &rs) :
		load_observed(vo.subjects, vo.nsubjects, vo.uids, vo.nuids,
			      &eo, &rs);
	if (rc)
		goto out;
	if (!rs.nsubjects) {
		p_err("%s: nothing to export", eo.candidate ?
		      "the candidate names no subject" :
		      vo.nsubjects ? "nothing observed for these subjects" :
				  "nothing observed");
		ret = EXIT_FINDING;
		goto out;
	}
	/* Like mkdir -p, for DIR itself (its parent must exist). */
	if (mkdir(dir, 0755) && errno != EEXIST) {
		p_err("-o %s: %s", dir, strerror(errno));
		goto out;
	}
	rc = targets[t].fn(&rs, dir, &eo, &files);
	for (i = 0; i < files.n; i++)
		printf("%s\n", files.paths[i]);
	if (rc) {
		p_err("export to %s in %s: %s", to, dir, strerror(-rc));
		goto out;
	}
	ret = fflush(stdout) ? EXIT_USAGE : EXIT_OK;
out:
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	verb_opts_free(&vo);
	return ret;
}
