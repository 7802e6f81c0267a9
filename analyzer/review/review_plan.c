// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: review's plan: what the candidate lacks (the observed
 * accesses it does not allow, less its left-out lines), grouped into
 * questions (one per glob generate's heuristics make, per folder, per
 * non-file object), each with the glob offered and its risk, riskiest
 * first. review.c is the verb; docs/review.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules_block.h"
#include "blast.h"
#include "escape.h"
#include "policy.h"
#include "ptext.h"
#include "record.h"
#include "review_int.h"
#include "rules.h"
#include "store.h"
#include "util.h"
#include "vigil.h"

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

void review_left_out_free(struct review *rv)
{
	for (size_t i = 0; i < rv->nlo; i++) {
		vigil_glob_free(rv->lo[i].subject);
		vigil_glob_free(rv->lo[i].glob);
	}
	free(rv->lo);
}

/* Read the left-out lines of the candidate. 0, or -EINVAL (named). */
int review_left_out_read(struct review *rv)
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

/*
 * What the bound lacks of access (bits of r's class) on obj, for every
 * uid class r was seen under.
 */
static uint64_t bound_missing(const struct review *rv,
			      const struct vigil_subject_rules *sr,
			      const struct vigil_rule *r, uint64_t access,
			      const char *obj)
{
	struct subject_blocks sb;
	struct rule_blocks rb;
	uint64_t out = 0;

	if (rules_subject_blocks(rv->bound, NULL, sr, &sb))
		return access;
	rules_blocks_of(&sb, r, &rb);
	for (unsigned int v = 0; v < rb.n; v++)
		out |= ptext_missing(rb.v[v].ps, r->class, access, obj);
	return out;
}

static int add_item(struct item **v, size_t *n, size_t *cap,
		    const struct vigil_subject_rules *sr,
		    const struct vigil_rule *r, uint64_t miss, long block)
{
	if (grow_array((void **)v, cap, *n + 1, sizeof(**v)))
		return -ENOMEM;
	(*v)[*n].sr = sr;
	(*v)[*n].r = r;
	(*v)[*n].miss = miss;
	(*v)[*n].block = block;
	(*n)++;
	return 0;
}

/* The items: each observed object the candidate lacks access on. */
static int collect(struct review *rv)
{
	for (size_t i = 0; i < rv->strict.nsubjects; i++) {
		const struct vigil_subject_rules *sr = &rv->strict.subjects[i];
		struct subject_blocks sb;

		/* the block of each uid class it was seen under */
		if (rules_subject_blocks(rv->pol, &rv->pt, sr, &sb))
			return -EINVAL;
		for (size_t j = 0; j < sr->nrules; j++) {
			const struct vigil_rule *r = &sr->rules[j];
			const char *obj = r->examples[0];
			uint64_t miss, kept, out;
			struct rule_blocks rb;

			rules_blocks_of(&sb, r, &rb);
			for (unsigned int v = 0; v < rb.n; v++) {
				miss = rb.v[v].miss;
				if (!miss)
					continue;
				kept = not_left_out(rv, sr->exe, r->class, miss,
						    obj);
				if (!kept) {
					rv->left_earlier++;
					continue;
				}
				if (rv->bound) {
					out = bound_missing(rv, sr, r, kept,
							    obj);
					if (out && add_item(&rv->findings,
							    &rv->nfindings,
							    &rv->findings_cap,
							    sr, r, out,
							    rb.v[v].b))
						return -ENOMEM;
					kept &= ~out;
					if (!kept)
						continue;
				}
				if (add_item(&rv->items, &rv->nitems,
					     &rv->items_cap, sr, r, kept,
					     rb.v[v].b))
					return -ENOMEM;
			}
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
		long block = it->block;
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

		if (bound_missing(rv, it->sr, it->r, q->miss, obj)) {
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

int review_plan(struct review *rv)
{
	if (collect(rv) || group(rv))
		return -ENOMEM;
	for (size_t i = 0; i < rv->nq; i++) {
		if (offer_glob(rv, &rv->q[i]))
			return -ENOMEM;
		rank(rv, &rv->q[i]);
	}
	sort_rv = rv;
	if (rv->nq)
		qsort(rv->q, rv->nq, sizeof(*rv->q), cmp_question);
	return 0;
}

char *review_aa_key(const char *exe, enum vigil_class class,
		    const char *object, size_t *len)
{
	char *k;
	int n = asprintf(&k, "%s%c%d%c%s", exe, 0x1f, (int)class, 0x1f,
			 object);

	if (n < 0)
		return NULL;
	*len = (size_t)n;
	return k;
}

bool review_aa_showed(const struct review *rv, const struct item *it)
{
	size_t len;
	char *k = review_aa_key(it->sr->exe, it->r->class, it->r->object,
				&len);
	bool yes = k && strtab_find(&rv->aa, k, len) >= 0;

	free(k);
	return yes;
}
