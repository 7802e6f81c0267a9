// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the rule model's observations, loaded from the database:
 * the distinct tuples of records and of the latest kernel snapshot, per
 * subject and uid, filtered by time, mount namespace and uid, and the
 * uids each subject ran as. Library-like: reports errors, never logs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "store.h"
#include "rules.h"
#include "blast.h"
#include "rules_int.h"
#include "nodes.h"

/* ---- loading ---- */

static bool uid_in(const uint32_t *v, size_t n, uint32_t uid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == uid)
			return true;
	return false;
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
static int row_obs(const struct vigil_store_obs *row, struct obs *o)
{
	const char *op = row->op, *acc = row->access;
	const char *obj = row->object;
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
	    (rules_has_meta(obj) || vigil_cap_from_name(obj, strlen(obj)) < 0))
		return 0;
	o->exec = iop == VIGIL_OP_EXEC;
	o->count = row->count;
	o->first = row->first;
	o->last = row->last;
	rules_uids_add(&o->uids, row->uid);
	o->uids.user_class = row->user_class;
	if (row->user_class)
		o->uids.classes |= vigil_uid_class_bit(VIGIL_FIRST_USER_UID);
	o->pid = row->pid;
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
			if (!vigil_uid_is_user(v[i]))
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
	/* a record of the class user stands for every user's uid */
	for (i = 0; i < nv && !vigil_uid_is_user(v[i]); i++)
		;
	for (j = 0; j < nobs; j++)
		obs[j].uids.service = obs[j].uids.n &&
			(uid_in(v, nv, obs[j].uids.v[0]) ||
			 (obs[j].uids.user_class && i < nv));
	return 0;
}

/*
 * --min-hosts: move the rules seen on fewer hosts than the subject's
 * threshold to left_out (generate lists them in comments).
 */
static int min_hosts_filter(struct vigil_subject_rules *sr,
			    const struct vigil_rules_opts *o)
{
	uint64_t need = o->min_hosts;
	size_t i, out = 0, nl = 0;

	if (o->min_hosts_pct)
		need = ((uint64_t)o->min_hosts * sr->nhosts + 99) / 100;
	if (need < 1)
		need = 1;
	sr->min_hosts = (uint32_t)need;
	for (i = 0; i < sr->nrules; i++)
		nl += sr->rules[i].nhosts < need;
	if (!nl)
		return 0;
	sr->left_out = calloc(nl, sizeof(*sr->left_out));
	if (!sr->left_out)
		return -ENOMEM;
	for (i = 0; i < sr->nrules; i++) {
		if (sr->rules[i].nhosts < need) {
			sr->left_out[sr->nleft_out++] = sr->rules[i];
			sr->flagged -= vigil_rule_flagged(&sr->rules[i]);
			continue;
		}
		sr->rules[out++] = sr->rules[i];
	}
	sr->nrules = out;
	return 0;
}

static int subject_add(struct vigil_ruleset *rs, size_t *cap,
		       const char *exe, const char *chain, struct obs *obs,
		       size_t nobs, const struct vigil_rules_opts *o,
		       struct blast *b)
{
	struct vigil_subject_rules *sr;
	size_t i, n = 0;
	uint64_t *seen = NULL;
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
	if (o->via) {
		sr->via = strdup(o->via);
		if (!sr->via)
			return -ENOMEM;
	}
	sr->unscoped = o->via_none;
	if (chain) {
		sr->chain = strdup(chain);
		if (!sr->chain)
			return -ENOMEM;
	}
	for (i = 0; i < nobs; i++) {
		sr->events += obs[i].count;
		rules_minmax(&sr->first, &sr->last, obs[i].first, obs[i].last);
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
	if (obs[0].hosts) {
		/* the hosts it was observed on */
		seen = calloc(obs[0].host_words, sizeof(*seen));
		if (!seen)
			return -ENOMEM;
		for (i = 0; i < nobs; i++)
			rules_hosts_or(seen, obs[i].hosts, obs[i].host_words);
		sr->nhosts = rules_hosts_count(seen, obs[0].host_words);
		free(seen);
	}
	rc = rules_subject_build(sr, obs, nobs, o->strict, b, &rs->skipped);
	if (!rc && o->min_hosts && sr->nhosts)
		rc = min_hosts_filter(sr, o);
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

	for (i = 0; i < n; i++) {
		free(obs[i].object);
		free(obs[i].hosts);
	}
}

/*
 * Whether the row's (exe, op, access, object, via) is the previous row's
 * (*key, updated): 0 or -ENOMEM.
 */
static int same_key(const struct vigil_store_obs *row, char **key,
		    size_t *key_len, bool *again)
{
	const char *c[5] = { row->exe, row->op, row->access, row->object,
			     row->via };
	size_t l[5], len = 0, i;
	char *k, *p;

	for (i = 0; i < 5; i++) {
		l[i] = c[i] ? strlen(c[i]) : 0;
		len += l[i] + 2;
	}
	k = malloc(len + 1);
	if (!k)
		return -ENOMEM;
	for (i = 0, p = k; i < 5; i++) {
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

/* What vigil_rules_load_opts builds while the store walks the rows. */
struct load {
	struct vigil_ruleset rs;
	const struct vigil_rules_opts *o;
	struct blast *b;
	char *const *subjects;
	size_t nsubjects;
	bool *seen;
	char *cur;		/* the subject whose rows these are */
	char *cur_via;		/* and their via (by_via), or NULL */
	struct obs *obs;
	size_t nobs, obs_cap, subj_cap;
	char *key;		/* the previous row's (see same_key) */
	size_t key_len;
	bool snap_key;		/* the key was counted as a snapshot's */
	/* per host: the last observation is this key's, under prev_uid
	 * (a row of another host of it is merged into it) */
	bool merge_ok;
	uint32_t prev_uid, host_words;
};

/* Per host: the bit of row's host in *o (made when NULL). */
static int obs_host(struct load *l, const struct vigil_store_obs *row,
		    struct obs *o)
{
	long h = vigil_nodes_host(l->o->nodes, row->node ? row->node : "");

	if (!o->hosts) {
		o->hosts = calloc(l->host_words, sizeof(*o->hosts));
		if (!o->hosts)
			return -ENOMEM;
		o->host_words = l->host_words;
	}
	if (h >= 0)
		o->hosts[h / 64] |= 1ULL << (h % 64);
	return 0;
}

static int load_row(void *ctx, const struct vigil_store_obs *row)
{
	struct load *l = ctx;
	const char *exe = row->exe;
	struct obs ob = { 0 };
	bool again;
	int rc;

	/* rows are per uid: a tuple's other uids are no new tuple */
	rc = same_key(row, &l->key, &l->key_len, &again);
	if (rc)
		return rc;
	if (!again)
		l->merge_ok = false;
	if (!exe || !*exe) {
		if (!l->nsubjects && !again)
			l->rs.skipped++;
		return 0;
	}
	if (!wanted(l->subjects, l->nsubjects, exe, l->seen))
		return 0;
	/* under VIA: VIA's own accesses are its own block's */
	if (l->o->via && !strcmp(exe, l->o->via))
		return 0;
	if (!l->cur || strcmp(l->cur, exe) ||
	    !!l->cur_via != !!row->via ||
	    (row->via && strcmp(l->cur_via, row->via))) {
		if (l->cur) {
			rc = subject_add(&l->rs, &l->subj_cap, l->cur,
					 l->cur_via, l->obs, l->nobs, l->o,
					 l->b);
			obs_free(l->obs, l->nobs);
			l->nobs = 0;
			if (rc)
				return rc;
		}
		free(l->cur);
		free(l->cur_via);
		l->cur_via = NULL;
		l->cur = strdup(exe);
		if (!l->cur)
			return -ENOMEM;
		if (row->via) {
			l->cur_via = strdup(row->via);
			if (!l->cur_via)
				return -ENOMEM;
		}
	}
	l->rs.records += row->records;
	if (l->o->nodes && l->merge_ok && row->uid == l->prev_uid) {
		/* another host's row of the last observation */
		struct obs *d = &l->obs[l->nobs - 1];

		d->count += row->count;
		rules_minmax(&d->first, &d->last, row->first, row->last);
		if (d->pid != row->pid)
			d->pid = 0;
		if (row->snapshot && !l->snap_key) {
			l->rs.snapshot_tuples++;
			l->snap_key = true;
		}
		rules_minmax(&l->rs.first, &l->rs.last, row->first, row->last);
		return obs_host(l, row, d);
	}
	l->merge_ok = false;
	rc = row_obs(row, &ob);
	if (rc < 0)
		return rc;
	if (!rc || exe[0] != '/') {
		free(ob.object);
		l->rs.skipped += !again;
		return 0;
	}
	if (l->o->nodes) {
		rc = obs_host(l, row, &ob);
		if (rc) {
			free(ob.object);
			return rc;
		}
	}
	if (!again) {
		l->rs.tuples++;
		l->snap_key = false;
	}
	if (row->snapshot && !l->snap_key) {
		l->rs.snapshot_tuples++;
		l->snap_key = true;
	}
	rules_minmax(&l->rs.first, &l->rs.last, ob.first, ob.last);
	rc = grow_array((void **)&l->obs, &l->obs_cap, l->nobs + 1,
			sizeof(*l->obs));
	if (rc) {
		free(ob.object);
		free(ob.hosts);
		return rc;
	}
	l->obs[l->nobs++] = ob;
	l->merge_ok = true;
	l->prev_uid = row->uid;
	return 0;
}

/*
 * --mntns N without an id: N must have named one namespace, not a dead
 * one's and the next one's that got its number (-EINVAL, the ids in @err).
 */
static int mntns_one(struct vigil_store *s, uint32_t mntns, char *err,
		     size_t err_size)
{
	uint64_t *ids;
	size_t n, i, w;
	int rc;

	rc = vigil_store_mntns_ids(s, mntns, &ids, &n);
	if (rc || n < 2) {
		if (!rc)
			free(ids);
		return rc;
	}
	if (err && err_size) {
		w = (size_t)snprintf(err, err_size, "--mntns %u: the number of "
				     "%zu mount namespaces (reused after one "
				     "died); name one as", (unsigned int)mntns,
				     n);
		for (i = 0; i < n && w < err_size; i++)
			w += (size_t)snprintf(err + w, err_size - w, "%s %u:%llu",
					      i ? "," : "", (unsigned int)mntns,
					      (unsigned long long)ids[i]);
	}
	free(ids);
	return -EINVAL;
}

static int load_opts(struct vigil_store *s, char *const *subjects,
		     size_t nsubjects, const struct vigil_rules_opts *o,
		     struct vigil_ruleset *ret, char *err, size_t err_size,
		     bool filter_children)
{
	const struct vigil_store_obs_filter f = {
		.would_deny = !o->no_would_deny,
		.since_ms = o->since_ms, .until_ms = o->until_ms,
		.mntns = o->mntns, .mntnsid_set = o->mntnsid_set,
		.mntnsid = o->mntnsid, .netns_all = o->netns_all, .uids = o->uids, .nuids = o->nuids,
		.via_has = o->via, .via_none = o->via_none,
		.by_via = o->by_via, .by_node = o->nodes != NULL,
	};
	struct load l = {
		.o = o, .subjects = subjects, .nsubjects = nsubjects,
	};
	size_t i;
	int rc;

	if (err && err_size)
		err[0] = '\0';
	for (i = 0; i < o->nuids; i++)
		l.rs.uclasses |= vigil_uid_class_bit(o->uids[i]);
	if (o->nodes) {
		l.host_words = (uint32_t)(o->nodes->n / 64 + 1);
		l.rs.nodes = o->nodes;
		l.rs.nhosts = o->nodes->nselected;
	}
	if (o->mntns > 0 && !o->mntnsid_set) {
		rc = mntns_one(s, (uint32_t)o->mntns, err, err_size);
		if (rc)
			return rc;
	}
	l.seen = calloc(nsubjects ? nsubjects : 1, sizeof(*l.seen));
	if (!l.seen)
		return -ENOMEM;
	if (o->check) {
		char e[512] = "";

		rc = blast_new(o->root, o->sensitive_file, o->broad, &l.b, e,
			       sizeof(e));
		if (rc) {
			if (err && err_size)
				snprintf(err, err_size, "%s", e);
			goto out;
		}
	}
	rc = vigil_store_observations(s, &f, load_row, &l);
	if (rc)
		goto out;
	if (l.cur) {
		rc = subject_add(&l.rs, &l.subj_cap, l.cur, l.cur_via, l.obs,
				 l.nobs, o, l.b);
		if (rc)
			goto out;
	}
	if (filter_children)
		children_filter(&l.rs);
	rc = vigil_store_latest_snapshot_id(s, &l.rs.snapshot);
	if (rc)
		goto out;
	for (i = 0; i < nsubjects && !o->missing_ok; i++)
		if (!l.seen[i]) {
			int known = vigil_store_subject_known(s, subjects[i]);

			if (known < 0) {
				rc = known;
				goto out;
			}
			/* never observed: -ENOENT (the verbs check that
			 * first); observed, but the filters leave it
			 * nothing: ausearch's "no matches" */
			if (err && err_size && !rc)
				snprintf(err, err_size, known ? "--subject %s: "
					 "no matches: none of its observations "
					 "passes the filters (time window, "
					 "--uid, --mntns, via)" : "--subject %s:"
					 " never observed", shown(subjects[i]));
			if (!rc)
				rc = known ? -ENODATA : -ENOENT;
		}
out:
	blast_free(l.b);
	obs_free(l.obs, l.nobs);
	free(l.obs);
	free(l.cur);
	free(l.cur_via);
	free(l.key);
	free(l.seen);
	if (rc) {
		vigil_ruleset_free(&l.rs);
		return rc;
	}
	*ret = l.rs;
	return 0;
}

int vigil_rules_load_opts(struct vigil_store *s, char *const *subjects,
			  size_t nsubjects, const struct vigil_rules_opts *o,
			  struct vigil_ruleset *ret, char *err,
			  size_t err_size)
{
	return load_opts(s, subjects, nsubjects, o, ret, err, err_size, true);
}

/* ---- generate --children: children scoped by via= ---- */

/* By exe, then the via blocks (by via) before the plain one. */
static int subject_order(const void *a, const void *b)
{
	const struct vigil_subject_rules *x = a, *y = b;
	int c = strcmp(x->exe, y->exe);

	if (c)
		return c;
	if (!x->via || !y->via)
		return !x->via - !y->via;
	return strcmp(x->via, y->via);
}

/* Move the subjects of src to dst and add up the totals; src emptied. */
static int ruleset_merge(struct vigil_ruleset *dst, struct vigil_ruleset *src)
{
	struct vigil_subject_rules *v;

	if (src->nsubjects) {
		v = realloc(dst->subjects, (dst->nsubjects + src->nsubjects) *
				sizeof(*v));
		if (!v)
			return -ENOMEM;
		memcpy(v + dst->nsubjects, src->subjects,
		       src->nsubjects * sizeof(*v));
		dst->subjects = v;
		dst->nsubjects += src->nsubjects;
	}
	free(src->subjects);
	src->subjects = NULL;
	src->nsubjects = 0;
	if (src->tuples)
		rules_minmax(&dst->first, &dst->last, src->first, src->last);
	dst->records += src->records;
	dst->snapshot_tuples += src->snapshot_tuples;
	dst->tuples += src->tuples;
	dst->skipped += src->skipped;
	dst->flagged += src->flagged;
	dst->uclasses |= src->uclasses;
	vigil_ruleset_free(src);
	return 0;
}

/* A list of names, each once. */
struct names {
	char **v;
	size_t n, cap;
};

static bool names_has(const struct names *n, const char *s)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		if (!strcmp(n->v[i], s))
			return true;
	return false;
}

static int names_add(void *ctx, const char *s)
{
	struct names *n = ctx;
	int rc;

	if (names_has(n, s))
		return 0;
	rc = grow_array((void **)&n->v, &n->cap, n->n + 1, sizeof(*n->v));
	if (rc)
		return rc;
	n->v[n->n] = strdup(s);
	if (!n->v[n->n])
		return -ENOMEM;
	n->n++;
	return 0;
}

static void names_free(struct names *n)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
}

int vigil_rules_load_children(struct vigil_store *s, char *const *subjects,
			      size_t nsubjects,
			      const struct vigil_rules_opts *o,
			      struct vigil_ruleset *ret, size_t *ret_scoped,
			      size_t *ret_unscoped, char *err,
			      size_t err_size)
{
	struct vigil_ruleset rs = { 0 }, part = { 0 };
	struct names scoped = { 0 }, all = { 0 }, legacy = { 0 };
	struct vigil_store_children *q = NULL;
	struct vigil_rules_opts po;
	size_t i, j;
	int rc;

	*ret_scoped = *ret_unscoped = 0;
	rc = load_opts(s, subjects, nsubjects, o, &rs, err, err_size, false);
	if (rc)
		return rc;
	/* what ran under each named subject, by via= */
	for (i = 0; i < nsubjects; i++) {
		po = *o;
		po.via = subjects[i];
		po.by_via = false;
		rc = load_opts(s, NULL, 0, &po, &part, err, err_size, false);
		if (rc)
			goto out;
		for (j = 0; j < part.nsubjects && !rc; j++)
			rc = names_add(&scoped, part.subjects[j].exe);
		*ret_scoped += part.nsubjects;
		if (!rc)
			rc = ruleset_merge(&rs, &part);
		if (rc)
			goto out;
	}
	/* children by exec records, transitively, whose records have no
	 * via= (a kernel before exec-chain scoping): today's blocks */
	for (i = 0; i < nsubjects; i++) {
		rc = names_add(&all, subjects[i]);
		if (rc)
			goto out;
	}
	rc = vigil_store_children_open(s, &q);
	if (rc)
		goto out;
	for (i = 0; i < all.n && !rc; i++)
		rc = vigil_store_children_each(q, all.v[i], names_add, &all);
	vigil_store_children_close(q);
	if (rc)
		goto out;
	for (i = nsubjects; i < all.n; i++) {
		bool named = false;

		for (j = 0; j < nsubjects; j++)
			named |= !strcmp(subjects[j], all.v[i]);
		if (named || names_has(&scoped, all.v[i]))
			continue;
		rc = names_add(&legacy, all.v[i]);
		if (rc)
			goto out;
	}
	if (legacy.n) {
		po = *o;
		po.via_none = true;
		po.missing_ok = true;
		rc = load_opts(s, legacy.v, legacy.n, &po, &part, err,
			       err_size, false);
		if (rc)
			goto out;
		*ret_unscoped = part.nsubjects;
		rc = ruleset_merge(&rs, &part);
		if (rc)
			goto out;
	}
	qsort(rs.subjects, rs.nsubjects, sizeof(*rs.subjects), subject_order);
	children_filter(&rs);
out:
	vigil_ruleset_free(&part);
	names_free(&scoped);
	names_free(&all);
	names_free(&legacy);
	if (rc) {
		vigil_ruleset_free(&rs);
		return rc;
	}
	*ret = rs;
	return 0;
}
