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
#include <sqlite3.h>

#include "vigil.h"
#include "rules.h"
#include "blast.h"
#include "rules_int.h"

/* ---- loading ---- */

static bool uid_in(const uint32_t *v, size_t n, uint32_t uid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == uid)
			return true;
	return false;
}


/*
 * Distinct tuples of records (verdict learned and would-deny: accesses the
 * program made) and of the latest snapshot (all verdicts: "allowed" ones
 * were made too), merged: the kernel's count includes the sighting a
 * record reports, so a tuple seen in both counts max() of the two.
 */
static const char load_sql[] =
	"SELECT exe, op, access, object, max(n), min(f), max(l), "
	"sum(CASE WHEN src = 0 THEN n ELSE 0 END), sum(src), uid FROM ("
	" SELECT exe, op, access, object, uid, count(*) AS n, "
	"  min(time_ms) / 1000 AS f, max(time_ms) / 1000 AS l, 0 AS src "
	"  FROM records WHERE (verdict = 'learned' OR "
	"   (?1 AND verdict = 'would-deny')) "
	"  AND (?2 IS NULL OR time_ms >= ?2) AND (?3 IS NULL OR time_ms <= ?3) "
	"  AND (?4 < 0 OR mntns = ?4) "
	"  AND (?5 IS NULL OR instr(?5, ',' || uid || ',') > 0) "
	"  GROUP BY exe, op, access, object, uid"
	" UNION ALL"
	" SELECT exe, op, access, object, uid, sum(count), min(first), "
	"  max(last), 1 FROM kernel_tuples "
	"  WHERE snapshot = (SELECT max(id) FROM snapshots) "
	"  AND (?1 OR verdict <> 'would-deny') "
	"  AND (?2 IS NULL OR last * 1000 + 999 >= ?2) "
	"  AND (?3 IS NULL OR first * 1000 <= ?3) "
	"  AND (?4 < 0 OR mntns = ?4) "
	"  AND (?5 IS NULL OR instr(?5, ',' || uid || ',') > 0) "
	"  GROUP BY exe, op, access, object, uid"
	") GROUP BY exe, op, access, object, uid "
	"ORDER BY exe, op, access, object, uid";

static const char *col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
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
static int row_obs(sqlite3_stmt *st, struct obs *o)
{
	const char *op = col_text(st, 1), *acc = col_text(st, 2);
	const char *obj = col_text(st, 3);
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
	o->count = (uint64_t)sqlite3_column_int64(st, 4);
	o->first = sqlite3_column_int64(st, 5);
	o->last = sqlite3_column_int64(st, 6);
	rules_uids_add(&o->uids, (uint32_t)sqlite3_column_int64(st, 9));
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
			if (v[i] < VIGIL_FIRST_USER_UID)
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
	for (i = 0; i < nobs; i++)
		obs[i].uids.service = obs[i].uids.n &&
			uid_in(v, nv, obs[i].uids.v[0]);
	return 0;
}

static int subject_add(struct vigil_ruleset *rs, size_t *cap,
		       const char *exe, struct obs *obs, size_t nobs,
		       const struct vigil_rules_opts *o, struct blast *b)
{
	struct vigil_subject_rules *sr;
	size_t i, n = 0;
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
	rc = rules_subject_build(sr, obs, nobs, o->strict, b, &rs->skipped);
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

	for (i = 0; i < n; i++)
		free(obs[i].object);
}

/* ",0,33," for the SQL filter by uid (instr). */
static int uid_filter(const uint32_t *v, size_t n, char **ret)
{
	char *p;
	size_t i;

	p = malloc(n * 11 + 2);
	if (!p)
		return -ENOMEM;
	*ret = p;
	*p++ = ',';
	for (i = 0; i < n; i++)
		p += sprintf(p, "%u,", (unsigned int)v[i]);
	return 0;
}

/*
 * Whether the row's (exe, op, access, object) is the previous row's
 * (*key, updated): 0 or -ENOMEM.
 */
static int same_key(sqlite3_stmt *st, char **key, size_t *key_len,
		    bool *again)
{
	const char *c[4];
	size_t l[4], len = 0, i;
	char *k, *p;

	for (i = 0; i < 4; i++) {
		c[i] = col_text(st, (int)i);
		l[i] = c[i] ? strlen(c[i]) : 0;
		len += l[i] + 2;
	}
	k = malloc(len + 1);
	if (!k)
		return -ENOMEM;
	for (i = 0, p = k; i < 4; i++) {
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

int vigil_rules_load_opts(struct vigil_store *s, char *const *subjects,
			  size_t nsubjects, const struct vigil_rules_opts *o,
			  struct vigil_ruleset *ret, char *err,
			  size_t err_size)
{
	struct vigil_ruleset rs = { 0 };
	struct blast *b = NULL;
	struct obs *obs = NULL;
	size_t nobs = 0, obs_cap = 0, subj_cap = 0, i;
	sqlite3 *db = vigil_store_sqlite(s);
	sqlite3_stmt *st = NULL;
	char *cur = NULL, *uidf = NULL, *key = NULL;
	bool *seen = NULL, snap_key = false;
	size_t key_len = 0;
	int rc, step;

	if (err && err_size)
		err[0] = '\0';
	seen = calloc(nsubjects ? nsubjects : 1, sizeof(*seen));
	if (!seen)
		return -ENOMEM;
	if (o->check) {
		char e[512] = "";

		rc = blast_new(o->root, o->sensitive_file, o->broad, &b, e,
			       sizeof(e));
		if (rc) {
			if (err && err_size)
				snprintf(err, err_size, "%s", e);
			goto out;
		}
	}
	if (sqlite3_prepare_v2(db, load_sql, -1, &st, NULL) != SQLITE_OK) {
		rc = -EIO;
		goto out;
	}
	sqlite3_bind_int(st, 1, !o->no_would_deny);
	if (o->since_ms)
		sqlite3_bind_int64(st, 2, o->since_ms);
	if (o->until_ms)
		sqlite3_bind_int64(st, 3, o->until_ms);
	sqlite3_bind_int64(st, 4, o->mntns);
	if (o->nuids) {
		rc = uid_filter(o->uids, o->nuids, &uidf);
		if (rc)
			goto out;
		sqlite3_bind_text(st, 5, uidf, -1, SQLITE_STATIC);
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *exe = col_text(st, 0);
		uint64_t nrec = (uint64_t)sqlite3_column_int64(st, 7);
		uint64_t nsnap = (uint64_t)sqlite3_column_int64(st, 8);
		struct obs ob = { 0 };
		bool again;

		/* rows are per uid: a tuple's other uids are no new tuple */
		rc = same_key(st, &key, &key_len, &again);
		if (rc)
			goto out;
		if (!exe || !*exe) {
			if (!nsubjects && !again)
				rs.skipped++;
			continue;
		}
		if (!wanted(subjects, nsubjects, exe, seen))
			continue;
		if (!cur || strcmp(cur, exe)) {
			if (cur) {
				rc = subject_add(&rs, &subj_cap, cur, obs,
						 nobs, o, b);
				obs_free(obs, nobs);
				nobs = 0;
				if (rc)
					goto out;
			}
			free(cur);
			cur = strdup(exe);
			if (!cur) {
				rc = -ENOMEM;
				goto out;
			}
		}
		rs.records += nrec;
		rc = row_obs(st, &ob);
		if (rc < 0)
			goto out;
		if (!rc || exe[0] != '/') {
			free(ob.object);
			rs.skipped += !again;
			continue;
		}
		if (!again) {
			rs.tuples++;
			snap_key = false;
		}
		if (nsnap && !snap_key) {
			rs.snapshot_tuples++;
			snap_key = true;
		}
		rules_minmax(&rs.first, &rs.last, ob.first, ob.last);
		rc = grow_array((void **)&obs, &obs_cap, nobs + 1, sizeof(*obs));
		if (rc) {
			free(ob.object);
			goto out;
		}
		obs[nobs++] = ob;
	}
	if (step != SQLITE_DONE) {
		rc = -EIO;
		goto out;
	}
	if (cur) {
		rc = subject_add(&rs, &subj_cap, cur, obs, nobs, o, b);
		if (rc)
			goto out;
	}
	children_filter(&rs);
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_prepare_v2(db, "SELECT coalesce(max(id), 0) FROM snapshots",
			       -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		rc = -EIO;
		goto out;
	}
	rs.snapshot = sqlite3_column_int64(st, 0);
	rc = 0;
	for (i = 0; i < nsubjects; i++)
		if (!seen[i])
			rc = -ENOENT;
out:
	sqlite3_finalize(st);
	blast_free(b);
	obs_free(obs, nobs);
	free(obs);
	free(cur);
	free(uidf);
	free(key);
	free(seen);
	if (rc) {
		vigil_ruleset_free(&rs);
		return rc;
	}
	*ret = rs;
	return 0;
}

int vigil_rules_subject_known(struct vigil_store *s, const char *exe)
{
	static const char sql[] =
		"SELECT EXISTS (SELECT 1 FROM records WHERE exe = ?1) OR "
		"EXISTS (SELECT 1 FROM kernel_tuples WHERE exe = ?1 AND "
		"snapshot = (SELECT max(id) FROM snapshots))";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(vigil_store_sqlite(s), sql, -1, &st, NULL))
		return -EIO;
	sqlite3_bind_text(st, 1, exe, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -EIO;
	sqlite3_finalize(st);
	return rc;
}

