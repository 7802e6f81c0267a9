// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: "vigil review CANDIDATE", what aa-logprof is to
 * AppArmor users: the accesses observed (learned, and the would-be
 * denials of vigil's trials) that the candidate does not allow, asked
 * about in groups (one question per proposed glob or folder), the
 * riskiest first; each answer allows them as seen, allows the glob, or
 * leaves them out (remembered in the candidate as a comment, so no later
 * review asks again). The candidate is rewritten atomically with every
 * hand edit kept: the additions go before each block's closing "}", new
 * blocks at the end. --bound FILE: the most a program may get; what lies
 * beyond it is a finding, never a question. docs/review.md.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blast.h"
#include "candidate.h"
#include "escape.h"
#include "policy.h"
#include "ptext.h"
#include "record.h"
#include "review.h"
#include "rules.h"
#include "store.h"
#include "util.h"
#include "vigil.h"

#define LEFT_OUT "# vigil review: left out "

/* One observed object the candidate lacks some access on. */
struct item {
	const struct vigil_subject_rules *sr;	/* strict: one per chain */
	const struct vigil_rule *r;		/* one observed object */
	uint64_t miss;				/* what to ask about */
};

/* One question: the items of one subject, class and glob or folder. */
struct question {
	const char *exe;
	long block;		/* the candidate's block, -1: none */
	enum vigil_class class;
	uint64_t miss;		/* the union of the items' */
	const void *key;	/* a generate glob (rule), or an item */
	const struct vigil_rule *gen;	/* generate's glob covering them */
	char *folder;		/* the folder key (malloc'd) */
	size_t *items, nitems, cap;
	char *glob;		/* the glob offered, policy form, or NULL */
	char *glob_note;	/* why and its blast radius, or why none */
	struct review_risk risk;
	char answer;		/* 'a' 'g' 'l', or 's' (not decided) */
};

/* A "# vigil review: left out SUBJECT CLASS ACCESS GLOB" line. */
struct left_out {
	struct vigil_glob *subject, *glob;
	enum vigil_class class;
	uint64_t access;
};

struct review {
	const char *file;
	char *text;
	size_t len;
	struct vigil_policy *pol, *bound;
	struct ptext pt;
	struct left_out *lo;
	size_t nlo, lo_cap;
	struct vigil_ruleset strict, gen;
	struct blast *blast;
	struct item *items;
	size_t nitems, items_cap;
	struct item *findings;
	size_t nfindings, findings_cap;
	struct question *q;
	size_t nq, q_cap;
	size_t left_earlier;	/* items a left-out line already covers */
};

/* ---- risk ---- */

/* Capabilities that widen what a compromised program could do. */
static const char *const risky_caps[] = {
	"sys_admin", "sys_module", "sys_rawio", "sys_ptrace", "sys_boot",
	"sys_chroot", "sys_time", "dac_override", "dac_read_search",
	"setuid", "setgid", "setpcap", "setfcap", "fowner", "chown",
	"fsetid", "net_admin", "net_raw", "bpf", "perfmon", "mac_admin",
	"mac_override", "audit_control", "linux_immutable", "mknod",
	"syslog", "checkpoint_restore", NULL,
};

/* Where other programs and the system keep their files. */
static const char *const system_dirs[] = {
	"/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/boot/", "/etc/",
	"/var/lib/dpkg/", NULL,
};

/* What a program reads routinely: libraries, locale, its own /proc. */
static const char *const routine_dirs[] = {
	"/usr/lib/", "/lib/", "/lib64/", "/usr/lib64/", "/usr/share/",
	"/etc/ld.so.", "/proc/self/", "/dev/null", "/dev/zero",
	"/dev/urandom", "/dev/random", "/dev/tty", "/etc/localtime",
	"/etc/nsswitch.conf", "/etc/locale.", "/sys/devices/system/cpu/",
	NULL,
};

static bool has_prefix(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strncmp(s, *list, strlen(*list)))
			return true;
	return false;
}

/* Whether path names a folder or file after the program (its own). */
static bool own_path(const char *exe, const char *path)
{
	const char *base = strrchr(exe, '/'), *p;
	size_t n;

	base = base ? base + 1 : exe;
	n = strlen(base);
	if (!n)
		return false;
	for (p = strchr(path, '/'); p; p = strchr(p + 1, '/'))
		if (!strncmp(p + 1, base, n) &&
		    strchr("/.-_", p[1 + n] ? p[1 + n] : '/'))
			return true;
	return false;
}

#define FILE_WRITES (VIGIL_FILE_W | VIGIL_FILE_A | VIGIL_FILE_C | \
		     VIGIL_FILE_D | VIGIL_FILE_T | VIGIL_FILE_S | VIGIL_FILE_L)
#define FILE_EXECS (VIGIL_FILE_X | VIGIL_FILE_M)

void review_risk_of(const char *exe, enum vigil_class class, uint64_t access,
		    const char *object, const char *glob,
		    const char *sensitive, struct review_risk *ret)
{
	const char *dstar;

	ret->level = REVIEW_RISK_MEDIUM;
	ret->why = "";
	switch (class) {
	case VIGIL_CLASS_CAP:
		for (size_t i = 0; risky_caps[i]; i++)
			if (!strcmp(object, risky_caps[i])) {
				ret->level = REVIEW_RISK_HIGH;
				ret->why = "a capability that widens what a "
					   "compromised program can do";
				return;
			}
		ret->why = "a capability";
		return;
	case VIGIL_CLASS_MODULE:
		ret->level = REVIEW_RISK_HIGH;
		ret->why = "loads kernel code";
		return;
	case VIGIL_CLASS_MOUNT:
		ret->level = REVIEW_RISK_HIGH;
		ret->why = "changes the mount table";
		return;
	case VIGIL_CLASS_PTRACE:
		ret->level = REVIEW_RISK_HIGH;
		ret->why = strcmp(object, exe) ? "traces another program" :
						 "traces itself";
		return;
	case VIGIL_CLASS_SIGNAL:
		ret->why = strcmp(object, exe) ? "signals another program" :
						 "signals itself";
		return;
	case VIGIL_CLASS_NET:
		if (!strncmp(object, "packet:", 7) || strstr(object, ":raw")) {
			ret->level = REVIEW_RISK_HIGH;
			ret->why = "raw network access";
		} else {
			ret->why = "network";
		}
		return;
	default:
		break;
	}
	/* files */
	if (sensitive) {
		ret->level = REVIEW_RISK_HIGH;
		ret->why = "a sensitive object";
		return;
	}
	if ((access & FILE_WRITES) && (access & FILE_EXECS)) {
		ret->level = REVIEW_RISK_HIGH;
		ret->why = "write and exec on one path";
		return;
	}
	dstar = glob ? strstr(glob, "**") : NULL;
	if (dstar && glob[0] == '/') {
		size_t depth = 0;

		for (const char *p = glob; p < dstar; p++)
			depth += *p == '/';
		if (depth <= 2) {
			ret->level = REVIEW_RISK_HIGH;
			ret->why = "a recursive glob near /";
			return;
		}
	}
	if ((access & FILE_WRITES) && has_prefix(object, system_dirs) &&
	    !own_path(exe, object)) {
		ret->level = REVIEW_RISK_HIGH;
		ret->why = "changes another program's or the system's files";
		return;
	}
	if ((access & VIGIL_FILE_X) && strcmp(object, exe)) {
		ret->why = "runs another program";
		return;
	}
	if (!(access & ~(uint64_t)(VIGIL_FILE_R | VIGIL_FILE_M |
				   VIGIL_FILE_K | VIGIL_FILE_I))) {
		if (has_prefix(object, routine_dirs)) {
			ret->level = REVIEW_RISK_ROUTINE;
			ret->why = "libraries and system data";
			return;
		}
		if (own_path(exe, object)) {
			ret->level = REVIEW_RISK_ROUTINE;
			ret->why = "its own files";
			return;
		}
		ret->why = "reads";
		return;
	}
	ret->why = own_path(exe, object) ? "changes its own files" :
					   "changes files";
}

const char *review_risk_name(int level)
{
	return level == REVIEW_RISK_HIGH ? "high" :
	       level == REVIEW_RISK_MEDIUM ? "medium" : "routine";
}

/* ---- the candidate's left-out lines ---- */

static void left_out_free(struct review *rv)
{
	for (size_t i = 0; i < rv->nlo; i++) {
		vigil_glob_free(rv->lo[i].subject);
		vigil_glob_free(rv->lo[i].glob);
	}
	free(rv->lo);
}

/* Read the left-out lines of the candidate. 0, or -EINVAL (named). */
static int left_out_read(struct review *rv)
{
	size_t pos = 0, plen = strlen(LEFT_OUT);
	unsigned int line = 0;
	char why[160];

	while (pos < rv->len) {
		const char *s = rv->text + pos, *nl;
		size_t l, n;
		struct ptext_token t[PTEXT_MAX_TOKENS];
		struct left_out *lo;
		int class;

		nl = memchr(s, '\n', rv->len - pos);
		l = nl ? (size_t)(nl - s) : rv->len - pos;
		pos += l + (nl ? 1 : 0);
		line++;
		while (l && (*s == ' ' || *s == '\t')) {
			s++;
			l--;
		}
		if (l < plen || memcmp(s, LEFT_OUT, plen))
			continue;
		n = ptext_tokenize(s + plen, l - plen, t);
		if (n != 4)
			goto bad;
		if (grow_array((void **)&rv->lo, &rv->lo_cap, rv->nlo + 1,
			       sizeof(*rv->lo)))
			return -ENOMEM;
		lo = &rv->lo[rv->nlo];
		memset(lo, 0, sizeof(*lo));
		class = vigil_class_from_name(t[1].s, t[1].len);
		if (class < 0)
			goto bad;
		lo->class = class;
		if (vigil_access_parse(lo->class, t[2].s, t[2].len,
				       &lo->access))
			goto bad;
		if (vigil_glob_compile(t[0].s, t[0].len, &lo->subject, why,
				       sizeof(why)))
			goto bad;
		rv->nlo++;
		if (vigil_glob_compile(t[3].s, t[3].len, &lo->glob, why,
				       sizeof(why)))
			goto bad;
	}
	return 0;
bad:
	p_err("%s:%u: a left-out line is 'LEFT_OUT SUBJECT CLASS ACCESS GLOB'"
	      " (as review writes it)", shown(rv->file), line);
	return -EINVAL;
}

/* The access bits of miss no left-out line covers for exe and obj. */
static uint64_t not_left_out(const struct review *rv, const char *exe,
			     enum vigil_class class, uint64_t miss,
			     const char *obj)
{
	for (size_t i = 0; i < rv->nlo && miss; i++) {
		const struct left_out *lo = &rv->lo[i];

		if (lo->class == class &&
		    vigil_glob_match(lo->subject, exe, strlen(exe)) &&
		    vigil_glob_match(lo->glob, obj, strlen(obj)))
			miss &= ~lo->access;
	}
	return miss;
}

/* ---- what the candidate lacks ---- */

static const struct vigil_policy_subject *
find_subject(const struct vigil_policy *pol,
	     const struct vigil_subject_rules *sr)
{
	struct vigil_policy_name chain[VIGIL_VIA_MAX_ELEMENTS];
	unsigned int n = vigil_via_chain(sr->chain, chain,
					 VIGIL_VIA_MAX_ELEMENTS);

	return vigil_policy_find_subject(pol, sr->exe, strlen(sr->exe), chain,
					 n);
}

static long find_block(const struct review *rv,
		       const struct vigil_subject_rules *sr)
{
	struct vigil_policy_name chain[VIGIL_VIA_MAX_ELEMENTS];
	unsigned int n = vigil_via_chain(sr->chain, chain,
					 VIGIL_VIA_MAX_ELEMENTS);

	return ptext_find_block(&rv->pt, sr->exe, chain, n);
}

static int add_item(struct item **v, size_t *n, size_t *cap,
		    const struct vigil_subject_rules *sr,
		    const struct vigil_rule *r, uint64_t miss)
{
	if (grow_array((void **)v, cap, *n + 1, sizeof(**v)))
		return -ENOMEM;
	(*v)[*n].sr = sr;
	(*v)[*n].r = r;
	(*v)[*n].miss = miss;
	(*n)++;
	return 0;
}

/* The items: each observed object the candidate lacks access on. */
static int collect(struct review *rv)
{
	for (size_t i = 0; i < rv->strict.nsubjects; i++) {
		const struct vigil_subject_rules *sr = &rv->strict.subjects[i];
		const struct vigil_policy_subject *ps, *bs = NULL;

		ps = find_subject(rv->pol, sr);
		if (rv->bound)
			bs = find_subject(rv->bound, sr);
		for (size_t j = 0; j < sr->nrules; j++) {
			const struct vigil_rule *r = &sr->rules[j];
			const char *obj = r->examples[0];
			uint64_t miss, kept, out;

			miss = ptext_missing(ps, r->class, r->access, obj);
			if (!miss)
				continue;
			kept = not_left_out(rv, sr->exe, r->class, miss, obj);
			if (!kept) {
				rv->left_earlier++;
				continue;
			}
			if (rv->bound) {
				out = ptext_missing(bs, r->class, kept, obj);
				if (out && add_item(&rv->findings,
						    &rv->nfindings,
						    &rv->findings_cap, sr, r,
						    out))
					return -ENOMEM;
				kept &= ~out;
				if (!kept)
					continue;
			}
			if (add_item(&rv->items, &rv->nitems, &rv->items_cap,
				     sr, r, kept))
				return -ENOMEM;
		}
	}
	return 0;
}

/* The generalised rule of generate's heuristics that covers item it. */
static const struct vigil_rule *gen_rule(const struct review *rv,
					 const struct item *it)
{
	const char *obj = it->r->examples[0];

	for (size_t i = 0; i < rv->gen.nsubjects; i++) {
		const struct vigil_subject_rules *g = &rv->gen.subjects[i];

		if (strcmp(g->exe, it->sr->exe) || g->via)
			continue;
		for (size_t j = 0; j < g->nrules; j++) {
			const struct vigil_rule *r = &g->rules[j];
			struct vigil_glob *gl;
			char why[160];
			bool m;

			if (r->class != it->r->class || !r->generalised ||
			    (r->heuristics & VIGIL_HEUR_RELATIVE))
				continue;
			if (vigil_glob_compile(r->glob, strlen(r->glob), &gl,
					       why, sizeof(why)))
				continue;
			m = vigil_glob_match(gl, obj, strlen(obj));
			vigil_glob_free(gl);
			if (m)
				return r;
		}
	}
	return NULL;
}

/* The folder of a path object that can be globbed as DIR/STAR, or NULL. */
static char *folder_of(const struct item *it)
{
	const char *obj = it->r->examples[0], *slash;

	if (it->r->class != VIGIL_CLASS_FILE || obj[0] != '/')
		return NULL;
	slash = strrchr(obj, '/');
	if (slash == obj || !slash[1])
		return NULL;
	return strndup(obj, slash - obj);
}

static int q_add_item(struct question *q, size_t idx, uint64_t miss)
{
	if (grow_array((void **)&q->items, &q->cap, q->nitems + 1,
		       sizeof(*q->items)))
		return -ENOMEM;
	q->items[q->nitems++] = idx;
	q->miss |= miss;
	return 0;
}

/* Group the items into questions. */
static int group(struct review *rv)
{
	for (size_t i = 0; i < rv->nitems; i++) {
		const struct item *it = &rv->items[i];
		const struct vigil_rule *g = gen_rule(rv, it);
		long block = find_block(rv, it->sr);
		char *folder = g ? NULL : folder_of(it);
		const void *key = g ? (const void *)g : (const void *)it;
		struct question *q = NULL;

		for (size_t k = 0; k < rv->nq; k++) {
			struct question *c = &rv->q[k];

			if (c->block != block || c->class != it->r->class ||
			    strcmp(c->exe, it->sr->exe))
				continue;
			if (folder ? c->folder && !strcmp(c->folder, folder) :
				     c->key == key) {
				q = c;
				break;
			}
		}
		if (!q) {
			if (grow_array((void **)&rv->q, &rv->q_cap, rv->nq + 1,
				       sizeof(*rv->q))) {
				free(folder);
				return -ENOMEM;
			}
			q = &rv->q[rv->nq++];
			memset(q, 0, sizeof(*q));
			q->exe = it->sr->exe;
			q->block = block;
			q->class = it->r->class;
			q->key = folder ? NULL : key;
			q->gen = g;
			q->folder = folder;
			q->answer = 's';
			folder = NULL;
		}
		free(folder);
		if (q_add_item(q, i, it->miss))
			return -ENOMEM;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The glob a question offers: generate's (its heuristic and blast
 * radius), or DIR/STAR for two or more objects of one folder when the
 * blast judge admits it; within the bound. 0 or -ENOMEM.
 */
static int offer_glob(struct review *rv, struct question *q)
{
	const struct vigil_rule *g = q->gen;
	char *obj = NULL, *note = NULL, **seen = NULL;
	size_t nseen = 0, cap = 0;
	int rc = 0;

	if (g) {
		obj = strdup(g->object);
		q->glob = strdup(g->glob);
		if (asprintf(&note, "%s%s%s", g->why ? g->why : "a glob",
			     g->blast ? "; " : "",
			     g->blast ? g->blast : "") < 0)
			note = NULL;
		if (!obj || !q->glob || !note) {
			rc = -ENOMEM;
			goto out;
		}
	} else if (q->folder && q->nitems >= 2) {
		const char *bad;
		char *esc;

		/* the folder's bytes must all be literal in "DIR/STAR" */
		bad = strpbrk(q->folder, "*?{}[]\\");
		if (bad || !esc_is_utf8(q->folder, strlen(q->folder)) ||
		    esc_text_len(q->folder) != strlen(q->folder)) {
			q->glob_note = strdup("no glob: the folder's name "
					      "holds glob or control bytes");
			return q->glob_note ? 0 : -ENOMEM;
		}
		if (asprintf(&obj, "%s/*", q->folder) < 0) {
			obj = NULL;
			rc = -ENOMEM;
			goto out;
		}
		/* the subject's observed files, for the blast judge */
		for (size_t i = 0; i < rv->strict.nsubjects; i++) {
			const struct vigil_subject_rules *sr =
				&rv->strict.subjects[i];

			if (strcmp(sr->exe, q->exe))
				continue;
			for (size_t j = 0; j < sr->nrules; j++) {
				if (sr->rules[j].class != VIGIL_CLASS_FILE)
					continue;
				if (grow_array((void **)&seen, &cap, nseen + 1,
					       sizeof(*seen))) {
					rc = -ENOMEM;
					goto out;
				}
				seen[nseen++] = sr->rules[j].examples[0];
			}
		}
		if (nseen)
			qsort(seen, nseen, sizeof(*seen), cmp_str);
		blast_set_observed(rv->blast, seen, nseen);
		rc = blast_judge(rv->blast, obj, q->nitems, true, &note);
		blast_set_observed(rv->blast, NULL, 0);
		if (rc < 0)
			goto out;
		if (!rc) {
			if (asprintf(&q->glob_note, "no glob: %s", note) < 0)
				q->glob_note = NULL;
			rc = q->glob_note ? 0 : -ENOMEM;
			goto out;
		}
		rc = 0;
		esc = vigil_glob_escape_dup(q->folder, strlen(q->folder),
					    false);
		if (!esc || asprintf(&q->glob, "%s/*", esc) < 0) {
			q->glob = NULL;
			free(esc);
			rc = -ENOMEM;
			goto out;
		}
		free(esc);
		free(obj);
		obj = NULL;
		if (asprintf(&obj, "%s/*", q->folder) < 0) {
			obj = NULL;
			rc = -ENOMEM;
			goto out;
		}
		{
			char *n2;

			if (asprintf(&n2, "%zu objects of one folder; %s",
				     q->nitems, note) < 0) {
				rc = -ENOMEM;
				goto out;
			}
			free(note);
			note = n2;
		}
	} else {
		goto out;
	}
	/* within the bound: its rules must match the glob's own text */
	if (rv->bound) {
		const struct item *it = &rv->items[q->items[0]];
		const struct vigil_policy_subject *bs =
			find_subject(rv->bound, it->sr);

		if (ptext_missing(bs, q->class, q->miss, obj)) {
			free(q->glob);
			q->glob = NULL;
			free(note);
			note = strdup("no glob: it would reach beyond the "
				      "bound");
			if (!note)
				rc = -ENOMEM;
		}
	}
	q->glob_note = note;
	note = NULL;
out:
	free(seen);
	free(note);
	free(obj);
	return rc;
}

/* The question's risk: its riskiest item's, or its glob's. */
static void rank(struct review *rv, struct question *q)
{
	q->risk.level = -1;
	for (size_t i = 0; i < q->nitems; i++) {
		const struct item *it = &rv->items[q->items[i]];
		const char *obj = it->r->examples[0];
		struct review_risk r;

		review_risk_of(q->exe, q->class, it->miss, obj, q->glob,
			       q->class == VIGIL_CLASS_FILE ?
			       blast_sensitive(rv->blast, obj) : NULL, &r);
		if (r.level > q->risk.level)
			q->risk = r;
	}
}

static const char *first_object(const struct review *rv,
				const struct question *q)
{
	return rv->items[q->items[0]].r->examples[0];
}

static const struct review *sort_rv;

/* Riskiest first, then by subject, class and object. */
static int cmp_question(const void *a, const void *b)
{
	const struct question *x = a, *y = b;
	int c;

	if (x->risk.level != y->risk.level)
		return y->risk.level - x->risk.level;
	c = strcmp(x->exe, y->exe);
	if (c)
		return c;
	if (x->class != y->class)
		return (int)x->class - (int)y->class;
	return strcmp(first_object(sort_rv, x), first_object(sort_rv, y));
}

/* ---- asking ---- */

static void put_rule(FILE *f, enum vigil_class class, uint64_t access,
		     const char *glob)
{
	char acc[256];

	vigil_access_format(class, access, acc, sizeof(acc));
	fprintf(f, "%s %s ", vigil_class_name(class), acc);
	esc_text(f, glob);
}

/* Count, times and uids of the question's items. */
static void put_seen(FILE *f, const struct review *rv,
		     const struct question *q)
{
	uint64_t count = 0;
	int64_t first = INT64_MAX, last = INT64_MIN;
	struct vigil_uids u = { 0 };
	char t1[32], t2[32];

	for (size_t i = 0; i < q->nitems; i++) {
		const struct vigil_rule *r = rv->items[q->items[i]].r;

		count += r->count;
		first = r->first < first ? r->first : first;
		last = r->last > last ? r->last : last;
		for (unsigned int k = 0; k < r->uids.n; k++) {
			unsigned int m;

			for (m = 0; m < u.n && u.v[m] != r->uids.v[k]; m++)
				;
			if (m == u.n && u.n < VIGIL_UIDS_MAX)
				u.v[u.n++] = r->uids.v[k];
			else if (m == u.n)
				u.more = true;
		}
		u.more |= r->uids.more;
	}
	fprintf(f, "%zu object%s, count %llu, first %s, last %s", q->nitems,
		q->nitems == 1 ? "" : "s", (unsigned long long)count,
		vigil_time_iso(first, t1, sizeof(t1)),
		vigil_time_iso(last, t2, sizeof(t2)));
	for (unsigned int k = 0; k < u.n; k++)
		fprintf(f, "%s%u", k ? "," : u.n > 1 || u.more ? ", uids " :
			", uid ", (unsigned int)u.v[k]);
	fputs(u.more ? ",..." : "", f);
}

#define SHOW_AS_SEEN 5

static void put_question(FILE *f, const struct review *rv,
			 const struct question *q, size_t i, size_t n)
{
	fprintf(f, "\n[%zu/%zu] Severity: %s (%s)\n", i + 1, n,
		review_risk_name(q->risk.level), q->risk.why);
	fputs("  Subject: ", f);
	esc_text(f, q->exe);
	if (q->block < 0)
		fputs("  (no block yet: one is added)", f);
	fputs("\n  Seen:    ", f);
	put_seen(f, rv, q);
	fputs("\n   1 - as seen:", f);
	for (size_t k = 0; k < q->nitems && k < SHOW_AS_SEEN; k++) {
		const struct item *it = &rv->items[q->items[k]];

		fputs(q->nitems > 1 ? "\n         " : " ", f);
		put_rule(f, q->class, it->miss, it->r->glob);
	}
	if (q->nitems > SHOW_AS_SEEN)
		fprintf(f, "\n         (%zu more: e shows them)",
			q->nitems - SHOW_AS_SEEN);
	if (q->glob) {
		fputs("\n   2 - glob:    ", f);
		put_rule(f, q->class, q->miss, q->glob);
		fputs("\n         ", f);
		esc_text(f, q->glob_note);
	} else if (q->glob_note) {
		fputs("\n       (", f);
		esc_text(f, q->glob_note);
		fputc(')', f);
	}
	fputc('\n', f);
}

static char default_answer(const struct question *q)
{
	return q->risk.level == REVIEW_RISK_HIGH ? 's' : 'a';
}

static void put_prompt(FILE *f, const struct question *q)
{
	char d = default_answer(q);

	fprintf(f, "  (A)llow as seen%s / (L)eave out / (E)vidence / (S)kip /"
		" (F)inish / (Q)uit [%c]: ", q->glob ? " / (G)lob" : "",
		d - 'a' + 'A');
}

static void put_evidence(FILE *f, const struct review *rv,
			 const struct question *q)
{
	char t1[32], t2[32];

	for (size_t k = 0; k < q->nitems; k++) {
		const struct item *it = &rv->items[q->items[k]];
		const struct vigil_rule *r = it->r;

		fputs("    ", f);
		put_rule(f, q->class, it->miss, r->glob);
		fprintf(f, ": count %llu, first %s, last %s",
			(unsigned long long)r->count,
			vigil_time_iso(r->first, t1, sizeof(t1)),
			vigil_time_iso(r->last, t2, sizeof(t2)));
		for (unsigned int u = 0; u < r->uids.n; u++)
			fprintf(f, "%s%u", u ? "," : ", uid ",
				(unsigned int)r->uids.v[u]);
		if (r->pid)
			fprintf(f, ", pid %u", (unsigned int)r->pid);
		if (it->sr->chain) {
			fputs(", run via ", f);
			esc_text(f, it->sr->chain);
		}
		if (vigil_rule_flagged(r))
			fputs("; FLAG: never a uid this subject ran as", f);
		fputc('\n', f);
	}
}

/* Where answers come from. */
struct answers {
	FILE *in;
	const char *name;	/* the file, or NULL: the terminal */
	unsigned int line;
	char *buf;
	size_t cap;
};

/*
 * The next answer to q: a letter of "aglesfq" (d is l, as aa-logprof's
 * deny), or 0 at the end of the answers; -1 after naming a bad answer
 * from a file (a terminal is asked again).
 */
static int next_answer(struct answers *a, const struct question *q)
{
	for (;;) {
		ssize_t n;
		char c;

		fflush(stdout);
		n = getline(&a->buf, &a->cap, a->in);
		if (n < 0)
			return 0;
		a->line++;
		while (n && (a->buf[n - 1] == '\n' || a->buf[n - 1] == '\r' ||
			     a->buf[n - 1] == ' ' || a->buf[n - 1] == '\t'))
			a->buf[--n] = '\0';
		if (a->name && a->buf[0] == '#')
			continue;
		if (a->name)
			printf("%s\n", a->buf[0] ? a->buf : "(default)");
		c = a->buf[0] ? a->buf[0] : default_answer(q);
		if (c >= 'A' && c <= 'Z')
			c = c - 'A' + 'a';
		if (c == 'd')
			c = 'l';
		if (c && (strchr("alesfq", c) || (c == 'g' && q->glob)))
			return c;
		if (a->name) {
			char *b = esc_text_dup(a->buf);

			p_err("%s:%u: '%s' is no answer to this question "
			      "(a%s, l or d, e, s, f, q)", shown(a->name),
			      a->line, b ? b : "?", q->glob ? ", g" : "");
			free(b);
			return -1;
		}
		printf("  '%s'? ", shown(a->buf));
		put_prompt(stdout, q);
	}
}

/* ---- writing ---- */

/* The additions for each block, and the new blocks. */
struct edits {
	char **block;		/* per block: text before its "}" */
	size_t *block_len;
	FILE **bf;
	FILE *tail;		/* new blocks and left-out lines at the end */
	char *tail_text;
	size_t tail_len;
	char **new_exe;		/* subjects given a new block (in tail) */
	size_t nnew;
};

static void put_evidence_comment(FILE *f, const struct review *rv,
				 const struct question *q, const char *what)
{
	fprintf(f, "\t# vigil review: %s (%s risk: %s); ", what,
		review_risk_name(q->risk.level), q->risk.why);
	put_seen(f, rv, q);
	fputc('\n', f);
}

static void put_policy_rule(FILE *f, enum vigil_class class, uint64_t access,
			    const char *glob)
{
	char acc[256];

	vigil_access_format(class, access, acc, sizeof(acc));
	fprintf(f, "\t%s %s %s\n", vigil_class_name(class), acc, glob);
}

/* The decisions as text: into each block, or new blocks at the end. */
static int make_edits(struct review *rv, struct edits *e)
{
	e->block = calloc(rv->pt.nblocks + 1, sizeof(*e->block));
	e->block_len = calloc(rv->pt.nblocks + 1, sizeof(*e->block_len));
	e->bf = calloc(rv->pt.nblocks + 1, sizeof(*e->bf));
	e->new_exe = calloc(rv->nq + 1, sizeof(*e->new_exe));
	if (!e->block || !e->block_len || !e->bf || !e->new_exe)
		return -ENOMEM;
	e->tail = open_memstream(&e->tail_text, &e->tail_len);
	if (!e->tail)
		return -ENOMEM;
	/* new blocks: one per subject, its questions in order */
	for (size_t i = 0; i < rv->nq; i++) {
		const struct question *q = &rv->q[i];
		size_t k;
		char *esc;

		if (q->block >= 0 || (q->answer != 'a' && q->answer != 'g'))
			continue;
		for (k = 0; k < e->nnew && strcmp(e->new_exe[k], q->exe); k++)
			;
		if (k < e->nnew)
			continue;
		e->new_exe[e->nnew++] = (char *)q->exe;
		esc = vigil_glob_escape_dup(q->exe, strlen(q->exe), false);
		if (!esc)
			return -ENOMEM;
		fprintf(e->tail, "\n# vigil review: a new block\nsubject %s {\n",
			esc);
		free(esc);
		for (size_t j = i; j < rv->nq; j++) {
			const struct question *p = &rv->q[j];

			if (p->block >= 0 || strcmp(p->exe, q->exe) ||
			    (p->answer != 'a' && p->answer != 'g'))
				continue;
			if (p->answer == 'g') {
				put_evidence_comment(e->tail, rv, p, "a glob");
				put_policy_rule(e->tail, p->class, p->miss,
						p->glob);
				continue;
			}
			put_evidence_comment(e->tail, rv, p, "as seen");
			for (k = 0; k < p->nitems; k++) {
				const struct item *it =
					&rv->items[p->items[k]];

				put_policy_rule(e->tail, p->class, it->miss,
						it->r->glob);
			}
		}
		fputs("}\n", e->tail);
	}
	for (size_t i = 0; i < rv->nq; i++) {
		const struct question *q = &rv->q[i];
		FILE *f;
		char *esc;

		if (q->answer == 's' || (q->block < 0 && q->answer != 'l'))
			continue;
		if (q->block < 0) {
			f = e->tail;
		} else {
			if (!e->bf[q->block]) {
				e->bf[q->block] = open_memstream(
					&e->block[q->block],
					&e->block_len[q->block]);
				if (!e->bf[q->block])
					return -ENOMEM;
			}
			f = e->bf[q->block];
		}
		if (q->answer == 'g') {
			put_evidence_comment(f, rv, q, "a glob");
			put_policy_rule(f, q->class, q->miss, q->glob);
			continue;
		}
		if (q->answer == 'a') {
			put_evidence_comment(f, rv, q, "as seen");
			for (size_t k = 0; k < q->nitems; k++) {
				const struct item *it =
					&rv->items[q->items[k]];

				put_policy_rule(f, q->class, it->miss,
						it->r->glob);
			}
			continue;
		}
		/* left out: the glob if one was offered, else each object */
		esc = vigil_glob_escape_dup(q->exe, strlen(q->exe), false);
		if (!esc)
			return -ENOMEM;
		if (q->glob) {
			char acc[256];

			vigil_access_format(q->class, q->miss, acc,
					    sizeof(acc));
			fprintf(f, "%s%s%s %s %s %s\n", f == e->tail ? "" :
				"\t", LEFT_OUT, esc, vigil_class_name(q->class),
				acc, q->glob);
		} else {
			for (size_t k = 0; k < q->nitems; k++) {
				const struct item *it =
					&rv->items[q->items[k]];
				char acc[256];

				vigil_access_format(q->class, it->miss, acc,
						    sizeof(acc));
				fprintf(f, "%s%s%s %s %s %s\n",
					f == e->tail ? "" : "\t", LEFT_OUT, esc,
					vigil_class_name(q->class), acc,
					it->r->glob);
			}
		}
		free(esc);
	}
	for (size_t b = 0; b < rv->pt.nblocks; b++)
		if (e->bf[b] && fclose(e->bf[b]))
			return -ENOMEM;
	free(e->bf);
	e->bf = NULL;
	if (fclose(e->tail))
		return -ENOMEM;
	e->tail = NULL;
	return 0;
}

static void edits_free(struct edits *e, size_t nblocks)
{
	if (e->bf)
		for (size_t b = 0; b < nblocks; b++)
			if (e->bf[b])
				fclose(e->bf[b]);
	free(e->bf);
	if (e->tail)
		fclose(e->tail);
	if (e->block)
		for (size_t b = 0; b < nblocks; b++)
			free(e->block[b]);
	free(e->block);
	free(e->block_len);
	free(e->tail_text);
	free(e->new_exe);
}

/* The candidate's text with the edits: every line of it kept. */
static int apply_edits(const struct review *rv, const struct edits *e,
		       char **ret, size_t *ret_len)
{
	FILE *f = open_memstream(ret, ret_len);
	size_t pos = 0;
	unsigned int line = 0;

	if (!f)
		return -ENOMEM;
	while (pos < rv->len) {
		const char *s = rv->text + pos;
		const char *nl = memchr(s, '\n', rv->len - pos);
		size_t l = nl ? (size_t)(nl - s) + 1 : rv->len - pos;

		line++;
		for (size_t b = 0; b < rv->pt.nblocks; b++)
			if (rv->pt.blocks[b].close_line == line &&
			    e->block[b])
				fwrite(e->block[b], 1, e->block_len[b], f);
		fwrite(s, 1, l, f);
		pos += l;
	}
	if (e->tail_len) {
		if (rv->len && rv->text[rv->len - 1] != '\n')
			fputc('\n', f);
		fwrite(e->tail_text, 1, e->tail_len, f);
	}
	return fclose(f) ? -ENOMEM : 0;
}

/*
 * Write text over the candidate: refused when the file changed since it
 * was read (a hand edit made meanwhile is never lost); checked by the
 * parser first; temporary file and rename with the terminal's signals
 * held, so an interrupt leaves the old file or the new one, whole.
 */
static int write_candidate(const struct review *rv, const char *text,
			   size_t len)
{
	struct vigil_policy_error perr = { 0 };
	struct vigil_policy *pol = NULL;
	sigset_t hold, old;
	char *now = NULL;
	size_t nlen;
	int rc;

	if (len > VIGIL_POLICY_MAX_BYTES) {
		p_err("%s: the reviewed policy would be larger than 1 MiB (the "
		      "kernel's limit): nothing written", shown(rv->file));
		return -EFBIG;
	}
	rc = vigil_policy_parse(text, len, &pol, &perr);
	vigil_policy_free(pol);
	if (rc) {
		p_err("%s: the reviewed text fails the parser at line %u (%s):"
		      " nothing written (a bug)", shown(rv->file), perr.line,
		      perr.msg);
		return -EINVAL;
	}
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigaddset(&hold, SIGTSTP);
	sigprocmask(SIG_BLOCK, &hold, &old);
	rc = read_file(rv->file, VIGIL_POLICY_MAX_BYTES, &now, &nlen);
	if (rc) {
		p_err("%s: %s: nothing written", shown(rv->file),
		      strerror(-rc));
	} else if (nlen != rv->len || memcmp(now, rv->text, nlen)) {
		p_err("%s changed while it was reviewed: nothing written "
		      "(run review again)", shown(rv->file));
		rc = -EAGAIN;
	} else {
		rc = write_file_atomic(rv->file, text, len);
		if (rc)
			p_err("%s: %s: nothing written", shown(rv->file),
			      strerror(-rc));
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(now);
	return rc;
}

/* ---- the verb ---- */

static void put_findings(FILE *f, const struct review *rv)
{
	char t1[32];

	if (!rv->nfindings)
		return;
	fprintf(f, "\nBeyond the bound (findings, not questions: the program "
		"did this, the bound allows no program of its kind to):\n");
	for (size_t i = 0; i < rv->nfindings; i++) {
		const struct item *it = &rv->findings[i];

		fputs("  ", f);
		esc_text(f, it->sr->exe);
		fputs(": ", f);
		put_rule(f, it->r->class, it->miss, it->r->glob);
		fprintf(f, "\t# count %llu, last %s\n",
			(unsigned long long)it->r->count,
			vigil_time_iso(it->r->last, t1, sizeof(t1)));
	}
}

static void review_free(struct review *rv)
{
	for (size_t i = 0; i < rv->nq; i++) {
		free(rv->q[i].items);
		free(rv->q[i].folder);
		free(rv->q[i].glob);
		free(rv->q[i].glob_note);
	}
	free(rv->q);
	free(rv->items);
	free(rv->findings);
	blast_free(rv->blast);
	vigil_ruleset_free(&rv->strict);
	vigil_ruleset_free(&rv->gen);
	left_out_free(rv);
	ptext_free(&rv->pt);
	vigil_policy_free(rv->pol);
	vigil_policy_free(rv->bound);
	free(rv->text);
}

int do_review(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "subject", required_argument, NULL, 's' },
		{ "uid", required_argument, NULL, 'u' },
		{ "answers", required_argument, NULL, 'a' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "bound", required_argument, NULL, 'b' },
		{ "sensitive", required_argument, NULL, 'E' },
		{ "root", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char usage[] =
		"review [--db PATH] [--subject EXE]... [--uid UID[,UID...]]\n"
		"       [--answers FILE|-] [-n|--dry-run] [--bound FILE]\n"
		"       [--sensitive FILE] [--root DIR] CANDIDATE\n"
		"  Ask about what CANDIDATE lacks (accesses observed since,\n"
		"  would-be denials of its trial), one question per proposed\n"
		"  glob or folder, the riskiest first: allow as seen, allow\n"
		"  the glob (with its blast radius), leave out (remembered in\n"
		"  CANDIDATE), evidence, skip. Then CANDIDATE is rewritten\n"
		"  atomically, every hand edit kept. --answers: one answer a\n"
		"  line (a g l e s f q; empty: the default) instead of the\n"
		"  terminal. --dry-run: print the questions, write nothing.\n"
		"  --bound FILE: a candidate of the most a program may get:\n"
		"  nothing beyond it is asked, it is listed as a finding.\n"
		"  Exit 1 when something stays unanswered or beyond the\n"
		"  bound. See docs/review.md.";
	struct review rv = { 0 };
	struct vigil_store *store = NULL;
	struct verb_opts vo;
	struct edits ed = { 0 };
	struct answers ans = { 0 };
	struct vigil_rules_opts so = { .strict = true, .by_via = true };
	struct vigil_rules_opts go = { .check = true };
	const char *db, *answers = NULL, *bound = NULL;
	char err[512] = "", *btext = NULL, *out = NULL;
	size_t blen, outlen = 0, na = 0, ng = 0, nl = 0, nrules = 0, i;
	unsigned int line = 0;
	bool dry = false, quit = false;
	int c, rc, ret = EXIT_USAGE;

	if (verb_opts_init(&vo, usage, argc))
		return EXIT_USAGE;
	optind = 1;
	while ((c = verb_getopt(argc, argv, "+nh", opts, &vo)) > 0) {
		switch (c) {
		case 'a':
			answers = optarg;
			break;
		case 'n':
			dry = true;
			break;
		case 'b':
			bound = optarg;
			break;
		case 'E':
			go.sensitive_file = optarg;
			break;
		case 'R':
			go.root = optarg;
			break;
		}
	}
	if (c < 0) {
		ret = c == VERB_GETOPT_HELP ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (optind + 1 != argc) {
		verb_usage_error(&vo);
		goto out;
	}
	rv.file = argv[optind];
	if (!strcmp(rv.file, "-")) {
		p_err("CANDIDATE: a file (review rewrites it), not -");
		goto out;
	}
	if (!dry && !answers && !isatty(STDIN_FILENO)) {
		p_err("standard input is not a terminal: give --answers "
		      "FILE|- or --dry-run");
		goto out;
	}
	if (candidate_read(rv.file, &rv.text, &rv.len, &rv.pol))
		goto out;
	rc = ptext_read(rv.text, rv.len, &rv.pt, &line);
	if (rc) {
		p_err("%s:%u: %s", shown(rv.file), line,
		      rc == -ENOMEM ? "out of memory" :
				      "cannot list this rule (a bug)");
		goto out;
	}
	if (left_out_read(&rv))
		goto out;
	if (bound && candidate_read(bound, &btext, &blen, &rv.bound))
		goto out;
	if (!go.sensitive_file && !access(VIGIL_SENSITIVE_CONF, F_OK))
		go.sensitive_file = VIGIL_SENSITIVE_CONF;
	rc = blast_new(go.root, go.sensitive_file, false, &rv.blast, err,
		       sizeof(err));
	if (rc) {
		p_err("%s", err[0] ? err : strerror(-rc));
		goto out;
	}
	db = vigil_db_path();
	if (open_store_existing(db, &store) ||
	    verb_subjects_known(store, db, vo.subjects, vo.nsubjects))
		goto out;
	so.uids = go.uids = vo.uids;
	so.nuids = go.nuids = vo.nuids;
	rc = vigil_rules_load_opts(store, vo.subjects, vo.nsubjects, &so,
				   &rv.strict, err, sizeof(err));
	if (!rc)
		rc = vigil_rules_load_opts(store, vo.subjects, vo.nsubjects,
					   &go, &rv.gen, err, sizeof(err));
	if (rc) {
		if (err[0])
			p_err("%s", err);
		else
			p_err("%s: %s", shown(db), rc == -EIO ?
			      vigil_store_errmsg(store) : strerror(-rc));
		if (rc == -ENODATA)	/* no matches, as ausearch */
			ret = EXIT_FINDING;
		goto out;
	}
	if (collect(&rv) || group(&rv))
		goto nomem;
	for (i = 0; i < rv.nq; i++) {
		if (offer_glob(&rv, &rv.q[i]))
			goto nomem;
		rank(&rv, &rv.q[i]);
	}
	sort_rv = &rv;
	if (rv.nq)
		qsort(rv.q, rv.nq, sizeof(*rv.q), cmp_question);

	printf("%s: %zu question%s about %zu access%s it lacks", shown(rv.file),
	       rv.nq, rv.nq == 1 ? "" : "s", rv.nitems,
	       rv.nitems == 1 ? "" : "es");
	if (rv.left_earlier)
		printf(", %zu left out earlier", rv.left_earlier);
	if (rv.bound)
		printf(", %zu beyond the bound", rv.nfindings);
	putchar('\n');
	if (dry || !rv.nq) {
		for (i = 0; i < rv.nq; i++)
			put_question(stdout, &rv, &rv.q[i], i, rv.nq);
		put_findings(stdout, &rv);
		if (fflush(stdout)) {
			p_err("stdout: %s", strerror(errno));
			goto out;
		}
		ret = rv.nq || rv.nfindings ? EXIT_FINDING : EXIT_OK;
		goto out;
	}

	if (answers && strcmp(answers, "-")) {
		ans.in = fopen(answers, "re");
		if (!ans.in) {
			p_err("--answers %s: %s", shown(answers),
			      strerror(errno));
			goto out;
		}
		ans.name = answers;
	} else {
		ans.in = stdin;
		ans.name = answers ? "(stdin)" : NULL;
	}
	for (i = 0; i < rv.nq && !quit; i++) {
		struct question *q = &rv.q[i];

		put_question(stdout, &rv, q, i, rv.nq);
		for (;;) {
			put_prompt(stdout, q);
			if (!ans.name)
				fflush(stdout);
			c = next_answer(&ans, q);
			if (c < 0)
				goto out;
			if (!c) {
				if (ans.name) {
					p_err("%s: the answers end before "
					      "question %zu of %zu: nothing "
					      "written", shown(ans.name), i + 1,
					      rv.nq);
					goto out;
				}
				putchar('\n');
				c = 'q';
			}
			if (c == 'e') {
				put_evidence(stdout, &rv, q);
				continue;
			}
			break;
		}
		if (c == 'q') {
			printf("quit: nothing written\n");
			ret = EXIT_FINDING;
			goto out;
		}
		if (c == 'f') {
			quit = true;
			break;
		}
		q->answer = (char)c;
		na += c == 'a';
		ng += c == 'g';
		nl += c == 'l';
		nrules += c == 'g' ? 1 : c == 'a' ? q->nitems : 0;
	}
	put_findings(stdout, &rv);
	if (na + ng + nl) {
		if (make_edits(&rv, &ed) ||
		    apply_edits(&rv, &ed, &out, &outlen))
			goto nomem;
		if (write_candidate(&rv, out, outlen))
			goto out;
	}
	printf("%zu allowed as seen, %zu as a glob (%zu rule%s added), %zu "
	       "left out, %zu skipped: %s%s\n", na, ng, nrules,
	       nrules == 1 ? "" : "s", nl, rv.nq - na - ng - nl,
	       na + ng + nl ? "written to " : "nothing written",
	       na + ng + nl ? shown(rv.file) : "");
	if (fflush(stdout)) {
		p_err("stdout: %s", strerror(errno));
		goto out;
	}
	ret = rv.nq - na - ng - nl || rv.nfindings ? EXIT_FINDING : EXIT_OK;
	goto out;
nomem:
	p_err("out of memory");
out:
	if (ans.in && ans.in != stdin)
		fclose(ans.in);
	free(ans.buf);
	edits_free(&ed, rv.pt.nblocks);
	free(out);
	free(btext);
	review_free(&rv);
	vigil_store_close(store);
	verb_opts_free(&vo);
	return ret;
}
