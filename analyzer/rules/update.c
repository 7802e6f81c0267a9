// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: generate --update, the observations made since a
 * candidate was generated merged into the candidate as the admin left it.
 *
 * The candidate's text is kept line for line; only lines are inserted
 * (the rules it lacks, each with its evidence, and "# vigil: left out:"
 * markers) and the header's window is moved on. Which access is new and
 * which was removed by hand is told by time: an access observed in the
 * window the candidate was made from ("# observed from A to B") that it
 * does not allow was left out by the admin, and is marked so that no
 * later update adds it back; an access first observed after B is added,
 * with the glob generate would make for it now, unless a marker names it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "policy_write.h"
#include "rules_block.h"
#include "ptext.h"
#include "record.h"
#include "timearg.h"
#include "update.h"

struct marker {
	size_t block;
	enum vigil_class class;
	uint64_t access;
	struct vigil_glob *glob;
	char *src;		/* the glob as written (escaped) */
	char *text;		/* a new marker's lines, or NULL (the file's) */
	bool sensitive;		/* a trial's would-deny of a sensitive object */
};

struct addition {
	size_t block;
	enum vigil_class class;
	uint64_t learned, wd;	/* access observed, and a trial's would-deny */
	char *src;		/* the glob (escaped) */
	const struct vigil_subject_rules *sr;	/* its evidence */
	const struct vigil_rule *r;
	char *note;		/* why it stayed literal, or NULL */
};

/* A line to insert before line `at` of the candidate. */
struct insert {
	unsigned int at;
	enum vigil_class class;
	const char *src;
	char *text;
	size_t seq;
	size_t idx;	/* a marker (< nm), else an addition (- nm) */
};

struct upd {
	const char *text;
	size_t len;
	size_t *line_off;	/* offset of line i + 1 */
	unsigned int nlines;
	struct ptext pt;
	struct vigil_policy *pol;
	struct marker *m;
	size_t nm, mcap;
	struct addition *a;
	size_t na, acap;
	/* the gen rules' globs, compiled: gglob[subject][rule] */
	struct vigil_glob ***gglob;
	const struct vigil_update_in *in;
	struct vigil_update_stats *st;
};

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	void *q;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 16;
	q = realloc(*p, c * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

static const char *line_at(const struct upd *u, unsigned int line,
			   size_t *ret_len)
{
	size_t start = u->line_off[line - 1];
	size_t end = line < u->nlines ? u->line_off[line] : u->len;

	*ret_len = end - start;
	return u->text + start;
}

static bool is_comment(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < len && s[i] == '#';
}

/* Where line `line` starts with optional blanks then prefix: the rest. */
static const char *after_prefix(const char *s, size_t len, const char *prefix,
				size_t *ret_len)
{
	size_t i = 0, n = strlen(prefix);

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (len - i < n || memcmp(s + i, prefix, n))
		return NULL;
	*ret_len = len - i - n;
	return s + i + n;
}

static int index_lines(struct upd *u)
{
	size_t cap = 0, i;

	u->nlines = 0;
	for (i = 0; i <= u->len; i++) {
		if (i == u->len && (i == 0 || u->text[i - 1] == '\n'))
			break;
		if (i == 0 || u->text[i - 1] == '\n') {
			if (grow((void **)&u->line_off, &cap, u->nlines,
				 sizeof(*u->line_off)))
				return -ENOMEM;
			u->line_off[u->nlines++] = i;
		}
	}
	return 0;
}

/* The block whose lines hold `line`, or -1. */
static long block_of_line(const struct upd *u, unsigned int line)
{
	size_t i;

	for (i = 0; i < u->pt.nblocks; i++)
		if (u->pt.blocks[i].line < line &&
		    line < u->pt.blocks[i].close_line)
			return (long)i;
	return -1;
}

static int marker_add(struct upd *u, size_t block, enum vigil_class class,
		      uint64_t access, const char *src, size_t src_len,
		      char *text)
{
	struct marker *m;
	char why[160];

	if (grow((void **)&u->m, &u->mcap, u->nm, sizeof(*u->m)))
		return -ENOMEM;
	m = &u->m[u->nm];
	memset(m, 0, sizeof(*m));
	m->block = block;
	m->class = class;
	m->access = access;
	m->text = text;
	m->src = strndup(src, src_len);
	if (!m->src)
		return -ENOMEM;
	if (vigil_glob_compile(src, src_len, &m->glob, why, sizeof(why))) {
		free(m->src);
		return -EINVAL;
	}
	u->nm++;
	return 0;
}

/* The candidate's own markers: "# vigil: left out: CLASS ACCESS GLOB". */
static int read_markers(struct upd *u)
{
	unsigned int line;

	for (line = 1; line <= u->nlines; line++) {
		size_t l, rl, i, n = 0, tl[3] = { 0 };
		const char *s = line_at(u, line, &l), *rest, *tok[3] = { 0 };
		long b;
		int class;
		uint64_t access;

		rest = after_prefix(s, l, VIGIL_UPDATE_LEFT_OUT, &rl);
		if (!rest)
			continue;
		b = block_of_line(u, line);
		if (b < 0)
			continue;
		/* three tokens (escapes kept), up to a '#' */
		for (i = 0; i < rl && n < 3;) {
			size_t start;

			while (i < rl && (rest[i] == ' ' || rest[i] == '\t'))
				i++;
			if (i == rl || rest[i] == '#' || rest[i] == '\n')
				break;
			start = i;
			while (i < rl && rest[i] != ' ' && rest[i] != '\t' &&
			       rest[i] != '\n') {
				if (rest[i] == '\\' && i + 1 < rl)
					i++;
				i++;
			}
			tok[n] = rest + start;
			tl[n++] = i - start;
		}
		if (n < 3)
			continue;	/* not ours: an admin's prose */
		class = vigil_class_from_name(tok[0], tl[0]);
		if (class < 0 || vigil_access_parse(class, tok[1], tl[1],
						    &access))
			continue;
		if (marker_add(u, (size_t)b, class, access, tok[2], tl[2],
			       NULL) == -ENOMEM)
			return -ENOMEM;
	}
	return 0;
}

/* The access bits of block b's markers that name obj of class. */
static uint64_t marked(const struct upd *u, size_t b, enum vigil_class class,
		       const char *obj)
{
	uint64_t bits = 0;
	size_t i;

	for (i = 0; i < u->nm; i++)
		if (u->m[i].block == b && u->m[i].class == class &&
		    vigil_glob_match(u->m[i].glob, obj, strlen(obj)))
			bits |= u->m[i].access;
	return bits;
}

static bool same_chain(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The gen subject of sr (same exe, same exec chain), or -1. */
static long gen_subject(const struct upd *u,
			const struct vigil_subject_rules *sr)
{
	const struct vigil_ruleset *g = u->in->gen;
	size_t i;

	for (i = 0; g && i < g->nsubjects; i++)
		if (!strcmp(g->subjects[i].exe, sr->exe) &&
		    same_chain(g->subjects[i].chain, sr->chain))
			return (long)i;
	return -1;
}

/* The gen rule of subject gs covering obj of class, or -1. */
static long gen_rule(const struct upd *u, long gs, enum vigil_class class,
		     const char *obj)
{
	const struct vigil_subject_rules *g;
	size_t j;

	if (gs < 0)
		return -1;
	g = &u->in->gen->subjects[gs];
	for (j = 0; j < g->nrules; j++)
		if (g->rules[j].class == class && u->gglob[gs][j] &&
		    vigil_glob_match(u->gglob[gs][j], obj, strlen(obj)))
			return (long)j;
	return -1;
}

static int compile_gen(struct upd *u)
{
	const struct vigil_ruleset *g = u->in->gen;
	size_t i, j;
	char why[160];

	if (!g || !g->nsubjects)
		return 0;
	u->gglob = calloc(g->nsubjects, sizeof(*u->gglob));
	if (!u->gglob)
		return -ENOMEM;
	for (i = 0; i < g->nsubjects; i++) {
		const struct vigil_subject_rules *sr = &g->subjects[i];

		u->gglob[i] = calloc(sr->nrules + 1, sizeof(**u->gglob));
		if (!u->gglob[i])
			return -ENOMEM;
		for (j = 0; j < sr->nrules; j++) {
			const char *src = sr->rules[j].glob;

			/* a glob that does not compile only loses its use */
			if (src && vigil_glob_compile(src, strlen(src),
						      &u->gglob[i][j], why,
						      sizeof(why)) == -ENOMEM)
				return -ENOMEM;
		}
	}
	return 0;
}

/*
 * Whether the glob src (a gen rule's, compiled as g) would admit what a
 * marker of block b with bits in access names: a literal marker it
 * matches, a glob marker written the same or matched by it as text (the
 * glob then covers the marker's).
 */
static const struct marker *overlaps_marker(const struct upd *u, size_t b,
					    enum vigil_class class,
					    uint64_t access,
					    const struct vigil_glob *g,
					    const char *src)
{
	size_t i, len;

	for (i = 0; i < u->nm; i++) {
		const struct marker *m = &u->m[i];
		const char *lit;

		if (m->block != b || m->class != class ||
		    !(m->access & access))
			continue;
		lit = vigil_glob_literal(m->glob, &len);
		if (lit ? vigil_glob_match(g, lit, len) :
			  (!strcmp(m->src, src) ||
			   vigil_glob_match(g, m->src, strlen(m->src))))
			return m;
	}
	return NULL;
}

static struct addition *addition_get(struct upd *u, size_t b,
				     enum vigil_class class, const char *src)
{
	struct addition *a;
	size_t i;

	for (i = 0; i < u->na; i++)
		if (u->a[i].block == b && u->a[i].class == class &&
		    !strcmp(u->a[i].src, src))
			return &u->a[i];
	if (grow((void **)&u->a, &u->acap, u->na, sizeof(*u->a)))
		return NULL;
	a = &u->a[u->na];
	memset(a, 0, sizeof(*a));
	a->block = b;
	a->class = class;
	a->src = strdup(src);
	if (!a->src)
		return NULL;
	u->na++;
	return a;
}

/* The learned access of sr's literal rule of class on obj (fresh_learned). */
static uint64_t learned_access(const struct upd *u,
			       const struct vigil_subject_rules *sr,
			       enum vigil_class class, const char *obj)
{
	const struct vigil_ruleset *l = u->in->fresh_learned;
	size_t i, j;

	for (i = 0; l && i < l->nsubjects; i++) {
		const struct vigil_subject_rules *x = &l->subjects[i];

		if (strcmp(x->exe, sr->exe) || !same_chain(x->chain, sr->chain))
			continue;
		for (j = 0; j < x->nrules; j++)
			if (x->rules[j].class == class &&
			    !strcmp(x->rules[j].examples[0], obj))
				return x->rules[j].access;
	}
	return 0;
}

static char *marker_text(enum vigil_class class, uint64_t access,
			 const char *src, const char *why)
{
	char acc[1024], *t;

	vigil_access_format(class, access, acc, sizeof(acc));
	if (asprintf(&t, "\t" VIGIL_UPDATE_LEFT_OUT "%s %s %s\t# %s\n",
		     vigil_class_name(class), acc, src, why) < 0)
		return NULL;
	return t;
}

/* Mark what block b lacks (miss) of r as left out by hand. */
static int mark_one(struct upd *u, long b, long gs,
		    const struct vigil_rule *r, uint64_t miss)
{
	const char *obj = r->examples[0], *src;
	long gr;
	size_t m;
	char *text;
	int rc;

	miss &= ~marked(u, (size_t)b, r->class, obj);
	if (!miss)
		return 0;
	gr = gen_rule(u, gs, r->class, obj);
	src = gr >= 0 ? u->in->gen->subjects[gs].rules[gr].glob :
			r->glob;
	/* one marker per glob: more access to it */
	for (m = 0; m < u->nm; m++)
		if (u->m[m].text && u->m[m].block == (size_t)b &&
		    u->m[m].class == r->class &&
		    !strcmp(u->m[m].src, src))
			break;
	if (m < u->nm) {
		u->m[m].access |= miss;
		return 0;
	}
	text = strdup("");
	if (!text)
		return -ENOMEM;
	rc = marker_add(u, (size_t)b, r->class, miss, src,
			strlen(src), text);
	if (rc) {
		free(text);
		return rc;
	}
	u->st->left_out++;
	return 0;
}

/* What the candidate lacks of the known window: left out by hand. */
static int mark_removed(struct upd *u)
{
	const struct vigil_ruleset *k = u->in->known;
	size_t i, j;
	unsigned int v;
	int rc;

	for (i = 0; k && i < k->nsubjects; i++) {
		const struct vigil_subject_rules *sr = &k->subjects[i];
		long gs = gen_subject(u, sr);
		struct subject_blocks sb;

		/* the block of each uid class it was seen under */
		if (rules_subject_blocks(u->pol, &u->pt, sr, &sb))
			return -EINVAL;
		for (j = 0; j < sr->nrules; j++) {
			const struct vigil_rule *r = &sr->rules[j];
			struct rule_blocks rb;

			rules_blocks_of(&sb, r, &rb);
			for (v = 0; v < rb.n; v++) {
				if (rb.v[v].b < 0 || !rb.v[v].miss)
					continue;
				rc = mark_one(u, rb.v[v].b, gs, r,
					      rb.v[v].miss);
				if (rc)
					return rc;
			}
		}
	}
	return 0;
}

/* Propose what block b lacks (miss) of r, observed after the window. */
static int add_one(struct upd *u, const struct vigil_subject_rules *sr,
		   long b, long gs, const struct vigil_rule *r, uint64_t miss)
{
	const char *obj = r->examples[0];
	uint64_t kept, learned, wd;
	const struct marker *mk = NULL;
	const struct vigil_subject_rules *g;
	const struct vigil_rule *grule;
	struct addition *a;
	long gr;
	int rc;

	kept = miss & marked(u, (size_t)b, r->class, obj);
	if (kept)
		u->st->kept_out++;
	miss &= ~kept;
	if (!miss)
		return 0;
	learned = learned_access(u, sr, r->class, obj);
	wd = miss & ~learned;
	if (wd && r->sensitive) {
		char *why, *text;

		if (asprintf(&why, "a trial's would-deny of a "
			     "sensitive object (it matches %s of "
			     "the sensitive list): never proposed", r->sensitive) < 0)
			return -ENOMEM;
		text = marker_text(r->class, wd, r->glob, why);
		free(why);
		if (!text)
			return -ENOMEM;
		rc = marker_add(u, (size_t)b, r->class, wd,
				r->glob, strlen(r->glob), text);
		if (rc) {
			free(text);
			return rc;
		}
		u->m[u->nm - 1].sensitive = true;
		u->st->sensitive++;
		miss &= ~wd;
		wd = 0;
		if (!miss)
			return 0;
	}
	gr = gen_rule(u, gs, r->class, obj);
	g = gr >= 0 ? &u->in->gen->subjects[gs] : NULL;
	grule = g ? &g->rules[gr] : NULL;
	if (grule && grule->generalised)
		mk = overlaps_marker(u, (size_t)b, r->class,
				     miss, u->gglob[gs][gr],
				     grule->glob);
	if (grule && !mk) {
		a = addition_get(u, (size_t)b, r->class,
				 grule->glob);
		if (!a)
			return -ENOMEM;
		a->sr = g;
		a->r = grule;
	} else {
		a = addition_get(u, (size_t)b, r->class,
				 r->glob);
		if (!a)
			return -ENOMEM;
		a->sr = sr;
		a->r = r;
		if (mk && !a->note) {
			if (asprintf(&a->note, "not generalised "
				     "to %s: it would admit what "
				     "'%s%s' names", grule->glob,
				     VIGIL_UPDATE_LEFT_OUT,
				     mk->src) < 0) {
				a->note = NULL;
				return -ENOMEM;
			}
			u->st->literal++;
		}
	}
	a->learned |= miss & ~wd;
	a->wd |= wd;
	return 0;
}

/* What was observed after the window and the candidate does not allow. */
static int add_fresh(struct upd *u)
{
	const struct vigil_ruleset *f = u->in->fresh;
	size_t i, j;
	unsigned int v;
	int rc;

	for (i = 0; f && i < f->nsubjects; i++) {
		const struct vigil_subject_rules *sr = &f->subjects[i];
		long gs = gen_subject(u, sr);
		struct subject_blocks sb;

		/* the block of each uid class it was seen under */
		if (rules_subject_blocks(u->pol, &u->pt, sr, &sb))
			return -EINVAL;
		for (j = 0; j < sr->nrules; j++) {
			const struct vigil_rule *r = &sr->rules[j];
			struct rule_blocks rb;

			rules_blocks_of(&sb, r, &rb);
			for (v = 0; v < rb.n; v++) {
				if (rb.v[v].b < 0) {
					u->st->unnamed++;
					continue;
				}
				if (!rb.v[v].miss)
					continue;
				rc = add_one(u, sr, rb.v[v].b, gs, r,
					     rb.v[v].miss);
				if (rc)
					return rc;
			}
		}
	}
	return 0;
}

static char *addition_text(const struct addition *a)
{
	struct vigil_rule r = *a->r;
	char *t = NULL;
	size_t tl = 0;
	FILE *f = open_memstream(&t, &tl);
	int rc;

	if (!f)
		return NULL;
	r.access = a->learned | a->wd;
	r.glob = a->src;
	if (a->note)
		r.blast = a->note;
	if (a->wd)
		fprintf(f, "\t# vigil: proposed by --update: %s (a trial's "
			"would-deny: the candidate lacked it); review it\n",
			a->learned ? "observed since the candidate, partly" :
				     "observed since the candidate");
	else
		fprintf(f, "\t# vigil: added by --update: observed since the "
			"candidate was made\n");
	rc = vigil_policy_write_rule(f, NULL, a->sr, &r, false);
	if (fclose(f) || rc) {
		free(t);
		return NULL;
	}
	return t;
}

/* The line before which block b's text for (class, src) goes. */
static unsigned int insert_line(const struct upd *u, size_t b,
				enum vigil_class class, const char *src)
{
	const struct pblock *blk = &u->pt.blocks[b];
	size_t k;

	for (k = 0; k < blk->nrules; k++) {
		const struct prule *pr = &u->pt.rules[blk->first_rule + k];
		size_t len;
		const char *ps = vigil_glob_source(pr->glob, &len);
		unsigned int at;
		int c = strncmp(ps, src, len);

		if (!c && strlen(src) > len)
			c = -1;
		if (pr->class < class || (pr->class == class && c <= 0))
			continue;
		/* before the rule's own comment lines */
		at = pr->line;
		while (at - 1 > blk->line) {
			size_t l;
			const char *s = line_at(u, at - 1, &l);

			if (!is_comment(s, l))
				break;
			at--;
		}
		return at;
	}
	return blk->close_line;
}

static int insert_cmp(const void *x, const void *y)
{
	const struct insert *a = x, *b = y;
	int c;

	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	if (a->class != b->class)
		return a->class < b->class ? -1 : 1;
	c = strcmp(a->src, b->src);
	if (c)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* An inserted change as vigil_update_change, to in->change. */
static int tell_change(const struct upd *u, const struct insert *x)
{
	struct vigil_update_change c = {
		.line = x->at, .class = x->class, .glob = x->src,
		.text = x->text,
	};
	size_t b;

	if (x->idx < u->nm) {
		const struct marker *m = &u->m[x->idx];

		b = m->block;
		c.kind = m->sensitive ? "sensitive" : "left_out";
		c.access = m->access;
	} else {
		const struct addition *a = &u->a[x->idx - u->nm];

		b = a->block;
		c.kind = a->wd ? "proposed" : "added";
		c.access = a->learned | a->wd;
		c.sr = a->sr;
		c.r = a->r;
	}
	c.subject = u->pt.blocks[b].src;
	c.via = u->pt.blocks[b].via_src;
	return u->in->change(u->in->ctx, &c);
}

int vigil_update_window(const char *text, size_t len, int64_t *from,
			int64_t *to)
{
	static const char key[] = "# observed from ";
	size_t pos = 0;

	while (pos < len) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - s) : len - pos;
		char a[40], b[40];
		long long ma, mb;

		pos += l + 1;
		if (l >= 8 && !memcmp(s, "subject ", 8))
			break;
		if (l <= sizeof(key) - 1 || memcmp(s, key, sizeof(key) - 1))
			continue;
		if (sscanf(s + sizeof(key) - 1, "%39s to %39s", a, b) != 2 ||
		    report_parse_time(a, &ma) || report_parse_time(b, &mb))
			continue;
		*from = ma / 1000;
		*to = mb / 1000;
		return 0;
	}
	return -ENOENT;
}

/* The header's window and the update's line. */
static void put_header(FILE *f, int64_t from, int64_t to,
		       const struct vigil_update_stats *st)
{
	char t1[32], t2[32];

	fprintf(f, "# observed from %s to %s\n",
		vigil_time_iso(from, t1, sizeof(t1)),
		vigil_time_iso(to, t2, sizeof(t2)));
	fprintf(f, VIGIL_UPDATE_HEADER " to %s: %zu rule%s added, %zu "
		"proposed from a trial's would-deny, %zu left out by hand "
		"(marked '%s...')\n", t2, st->added,
		st->added == 1 ? "" : "s", st->proposed, st->left_out,
		VIGIL_UPDATE_LEFT_OUT);
}

static void upd_free(struct upd *u)
{
	size_t i;

	for (i = 0; i < u->nm; i++) {
		vigil_glob_free(u->m[i].glob);
		free(u->m[i].src);
		free(u->m[i].text);
	}
	for (i = 0; i < u->na; i++) {
		free(u->a[i].src);
		free(u->a[i].note);
	}
	for (i = 0; u->gglob && i < u->in->gen->nsubjects; i++) {
		size_t j;

		for (j = 0; u->gglob[i] && j < u->in->gen->subjects[i].nrules;
		     j++)
			vigil_glob_free(u->gglob[i][j]);
		free(u->gglob[i]);
	}
	free(u->gglob);
	free(u->m);
	free(u->a);
	free(u->line_off);
	ptext_free(&u->pt);
	vigil_policy_free(u->pol);
}

int vigil_update_text(const char *text, size_t len,
		      const struct vigil_update_in *in, char **ret,
		      size_t *ret_len, struct vigil_update_stats *st,
		      char *err, size_t err_size)
{
	struct vigil_policy_error perr = { 0 };
	struct upd u = { .text = text, .len = len, .in = in, .st = st };
	struct insert *ins = NULL;
	size_t nins = 0, icap = 0, i, k;
	unsigned int line = 0, obs_line = 0, upd_line = 0, first_block;
	int64_t from = 0, to = 0;
	char *out = NULL;
	size_t out_len = 0;
	FILE *f = NULL;
	int rc;

	memset(st, 0, sizeof(*st));
	if (err_size)
		err[0] = '\0';
	rc = vigil_policy_parse(text, len, &u.pol, &perr);
	if (rc) {
		snprintf(err, err_size, "line %u: %s", perr.line,
			 perr.msg[0] ? perr.msg : strerror(-rc));
		rc = -EINVAL;
		goto out;
	}
	rc = ptext_read(text, len, &u.pt, &line);
	if (rc) {
		if (rc == -EINVAL)
			snprintf(err, err_size, "line %u: cannot list this "
				 "rule (a bug)", line);
		goto out;
	}
	rc = index_lines(&u);
	if (!rc)
		rc = compile_gen(&u);
	if (!rc)
		rc = read_markers(&u);
	if (!rc)
		rc = mark_removed(&u);
	if (!rc)
		rc = add_fresh(&u);
	if (rc) {
		if (rc == -EINVAL && !err[0])
			snprintf(err, err_size, "the parser and the rule "
				 "listing disagree (a bug)");
		goto out;
	}
	/* the lines to insert: new markers, then the additions */
	for (i = 0; i < u.nm + u.na; i++) {
		struct insert *x;
		size_t b;

		if (i < u.nm && !u.m[i].text)
			continue;	/* the candidate's own */
		rc = grow((void **)&ins, &icap, nins, sizeof(*ins));
		if (rc)
			goto out;
		x = &ins[nins];
		x->seq = nins;
		x->idx = i;
		if (i < u.nm) {
			struct marker *m = &u.m[i];

			b = m->block;
			x->class = m->class;
			x->src = m->src;
			if (!m->text[0]) {	/* removed by hand */
				free(m->text);
				m->text = marker_text(m->class, m->access,
						      m->src,
						      "observed while the "
						      "candidate was made, not "
						      "in its rules: left out "
						      "by hand; --update does "
						      "not add it back");
			}
			x->text = m->text ? strdup(m->text) : NULL;
		} else {
			struct addition *a = &u.a[i - u.nm];

			b = a->block;
			x->class = a->class;
			x->src = a->src;
			x->text = addition_text(a);
			if (a->wd)
				st->proposed++;
			else
				st->added++;
		}
		if (!x->text) {
			rc = -ENOMEM;
			goto out;
		}
		x->at = insert_line(&u, b, x->class, x->src);
		nins++;
	}
	if (nins)
		qsort(ins, nins, sizeof(*ins), insert_cmp);
	for (i = 0; in->change && i < nins && !rc; i++)
		rc = tell_change(&u, &ins[i]);
	if (rc)
		goto out;
	/* the header: its window and the update's line */
	first_block = u.pt.nblocks ? u.pt.blocks[0].line : u.nlines + 1;
	for (line = 1; line < first_block && line <= u.nlines; line++) {
		size_t l, rl;
		const char *s = line_at(&u, line, &l);

		if (!obs_line && after_prefix(s, l, "# observed from ", &rl) &&
		    s[0] == '#')
			obs_line = line;
		if (!upd_line && s[0] == '#' &&
		    after_prefix(s, l, VIGIL_UPDATE_HEADER, &rl))
			upd_line = line;
	}
	if (vigil_update_window(text, len, &from, &to) || !obs_line) {
		obs_line = 0;
		from = in->known && in->known->first ? in->known->first :
		       in->fresh ? in->fresh->first : 0;
	}
	if (in->last > to)
		to = in->last;
	f = open_memstream(&out, &out_len);
	if (!f) {
		rc = -ENOMEM;
		goto out;
	}
	k = 0;
	if (!obs_line)
		put_header(f, from, to, st);
	for (line = 1; line <= u.nlines; line++) {
		size_t l;
		const char *s = line_at(&u, line, &l);

		for (; k < nins && ins[k].at == line; k++)
			fputs(ins[k].text, f);
		if (line == upd_line)
			continue;	/* written anew after obs_line */
		if (line == obs_line) {
			put_header(f, from, to, st);
			continue;
		}
		fwrite(s, 1, l, f);
		if (line == u.nlines && (!l || s[l - 1] != '\n'))
			fputc('\n', f);
	}
	for (; k < nins; k++)	/* nothing: every block has its '}' */
		fputs(ins[k].text, f);
	if (fclose(f)) {
		f = NULL;
		rc = -ENOMEM;
		goto out;
	}
	f = NULL;
	*ret = out;
	*ret_len = out_len;
	out = NULL;
	rc = 0;
out:
	for (i = 0; i < nins; i++)
		free(ins[i].text);
	free(ins);
	if (f)
		fclose(f);
	free(out);
	upd_free(&u);
	return rc;
}
