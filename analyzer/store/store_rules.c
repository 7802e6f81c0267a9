// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the store's queries for the rule model (rules_load.c)
 * and vigil generate: the observations (distinct tuples of records and of
 * the latest kernel snapshot), the latest snapshot's id, whether a subject
 * was observed, the executables a subject ran. Library-like: reports
 * errors, never logs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"
#include "store.h"
#include "rules.h"

/*
 * Distinct tuples of records (verdict learned and would-deny: accesses the
 * program made) and of the latest snapshot (all verdicts: "allowed" ones
 * were made too), merged: the kernel's count includes the sighting a
 * record reports, so a tuple seen in both counts max() of the two.
 */
/*
 * ?6: one of the via elements is ?6. Elements start with '/' and hold no
 * "//" (docs/record-format.md), so in "/" VIA "//" each is "/" E "//".
 * ?7: no via.
 */
#define VIA_FILTER \
	"  AND (?6 IS NULL OR instr('/' || coalesce(via, '') || '//', " \
	"   '/' || ?6 || '//') > 0) " \
	"  AND (NOT ?7 OR via IS NULL) "
/*
 * A kernel tuple's uid is of the class "user" (vigil_uid_is_user()): the
 * first user's uid of a tuple that stands for every user's (the learned
 * table has no class column; its uid tells).
 */
#define USER_UID \
	"(uid >= 1000 AND (uid < 60000 OR uid > 65535))"
/*
 * ?9: a row per node too (nd; the kernel's tuples are the local host's,
 * node ''). ?10: the uid filter ?5 names a user's uid, so the records of
 * the class "user" (whichever user's uid made them first) match it.
 */
static const char obs_sql[] =
	"SELECT exe, op, access, object, max(n), min(f), max(l), "
	"sum(CASE WHEN src = 0 THEN n ELSE 0 END), sum(src), uid, v, "
	"CASE WHEN min(p0) = max(p1) THEN min(p0) END, nd, max(uc) FROM ("
	" SELECT exe, CASE WHEN ?8 THEN via END AS v, op, access, object, "
	"  uid, CASE WHEN ?9 THEN node END AS nd, count(*) AS n, "
	"  min(time_ms) / 1000 AS f, max(time_ms) / 1000 AS l, 0 AS src, "
	"  min(pid) AS p0, max(pid) AS p1, max(uclass IS 'user') AS uc "
	"  FROM records WHERE (verdict = 'learned' OR "
	"   (?1 AND verdict = 'would-deny')) "
	"  AND (?2 IS NULL OR time_ms >= ?2) AND (?3 IS NULL OR time_ms <= ?3) "
	"  AND (?4 < 0 OR mntns = ?4) AND (NOT ?11 OR mntnsid = ?12) "
	"  AND (?13 OR netns = 0) "
	"  AND (?5 IS NULL OR instr(?5, ',' || uid || ',') > 0 OR "
	"   (?10 AND uclass IS 'user')) "
	VIA_FILTER
	"  GROUP BY exe, v, op, access, object, uid, nd"
	" UNION ALL"
	" SELECT exe, CASE WHEN ?8 THEN via END AS v, op, access, object, "
	"  uid, CASE WHEN ?9 THEN '' END, sum(count), min(first), max(last), "
	"  1, NULL, NULL, max(" USER_UID ") "
	"  FROM kernel_tuples "
	"  WHERE snapshot = (SELECT max(id) FROM snapshots) "
	"  AND (?1 OR verdict <> 'would-deny') "
	"  AND (?2 IS NULL OR last * 1000 + 999 >= ?2) "
	"  AND (?3 IS NULL OR first * 1000 <= ?3) "
	"  AND (?4 < 0 OR mntns = ?4) AND (NOT ?11 OR mntnsid = ?12) "
	"  AND (?13 OR netns = 0) "
	"  AND (?5 IS NULL OR instr(?5, ',' || uid || ',') > 0 OR "
	"   (?10 AND " USER_UID ")) "
	VIA_FILTER
	"  GROUP BY exe, v, op, access, object, uid"
	") GROUP BY exe, v, op, access, object, uid, nd "
	"ORDER BY exe, v, op, access, object, uid, nd";

/*
 * The unique ids (mntnsid) of the namespaces that had the number @mntns in
 * the records and the latest snapshot, ascending: more than one when the
 * kernel gave the number of a dead namespace to a new one.
 */
int vigil_store_mntns_ids(struct vigil_store *s, uint32_t mntns,
			  uint64_t **ret, size_t *nret)
{
	static const char sql[] =
		"SELECT mntnsid FROM records WHERE mntns = ?1 UNION "
		"SELECT mntnsid FROM kernel_tuples WHERE mntns = ?1 AND "
		"snapshot = (SELECT max(id) FROM snapshots) ORDER BY 1";
	uint64_t *v = NULL, *p;
	size_t n = 0;
	sqlite3_stmt *st;
	int rc = 0, step;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, mntns);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		p = realloc(v, (n + 1) * sizeof(*v));
		if (!p) {
			rc = -ENOMEM;
			break;
		}
		v = p;
		v[n++] = (uint64_t)sqlite3_column_int64(st, 0);
	}
	if (!rc && step != SQLITE_DONE)
		rc = -EIO;
	sqlite3_finalize(st);
	if (rc) {
		free(v);
		return rc;
	}
	*ret = v;
	*nret = n;
	return 0;
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

int vigil_store_observations(struct vigil_store *s,
			     const struct vigil_store_obs_filter *f,
			     int (*fn)(void *ctx,
				       const struct vigil_store_obs *row),
			     void *ctx)
{
	struct vigil_store_obs row;
	sqlite3_stmt *st = NULL;
	char *uidf = NULL;
	int rc, step;

	if (sqlite3_prepare_v2(s->db, obs_sql, -1, &st, NULL) != SQLITE_OK) {
		rc = -EIO;
		goto out;
	}
	sqlite3_bind_int(st, 1, f->would_deny);
	if (f->since_ms)
		sqlite3_bind_int64(st, 2, f->since_ms);
	if (f->until_ms)
		sqlite3_bind_int64(st, 3, f->until_ms);
	sqlite3_bind_int64(st, 4, f->mntns);
	sqlite3_bind_int(st, 11, f->mntnsid_set);
	sqlite3_bind_int64(st, 12, (int64_t)f->mntnsid);
	sqlite3_bind_int(st, 13, f->netns_all);
	if (f->nuids) {
		rc = uid_filter(f->uids, f->nuids, &uidf);
		if (rc)
			goto out;
		sqlite3_bind_text(st, 5, uidf, -1, SQLITE_STATIC);
		for (size_t i = 0; i < f->nuids; i++)
			if (vigil_uid_is_user(f->uids[i]))
				sqlite3_bind_int(st, 10, 1);
	}
	if (f->via_has)
		sqlite3_bind_text(st, 6, f->via_has, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 7, f->via_none);
	sqlite3_bind_int(st, 8, f->by_via);
	sqlite3_bind_int(st, 9, f->by_node);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		row.exe = store_col_text(st, 0);
		row.op = store_col_text(st, 1);
		row.access = store_col_text(st, 2);
		row.object = store_col_text(st, 3);
		row.count = (uint64_t)sqlite3_column_int64(st, 4);
		row.first = sqlite3_column_int64(st, 5);
		row.last = sqlite3_column_int64(st, 6);
		row.records = (uint64_t)sqlite3_column_int64(st, 7);
		row.snapshot = (uint64_t)sqlite3_column_int64(st, 8);
		row.uid = (uint32_t)sqlite3_column_int64(st, 9);
		row.via = store_col_text(st, 10);
		row.pid = (uint32_t)sqlite3_column_int64(st, 11);
		row.node = store_col_text(st, 12);
		row.user_class = sqlite3_column_int(st, 13) > 0;
		rc = fn(ctx, &row);
		if (rc)
			goto out;
	}
	rc = step == SQLITE_DONE ? 0 : -EIO;
out:
	sqlite3_finalize(st);
	free(uidf);
	return rc;
}

int vigil_store_latest_snapshot_id(struct vigil_store *s, int64_t *ret)
{
	long long id;

	if (store_one_row(s, "SELECT coalesce(max(id), 0) FROM snapshots",
			  NULL, 0, &id, 1) != 1)
		return -EIO;
	*ret = id;
	return 0;
}

int vigil_store_subject_known(struct vigil_store *s, const char *exe)
{
	static const char sql[] =
		"SELECT EXISTS (SELECT 1 FROM records WHERE exe = ?1) OR "
		"EXISTS (SELECT 1 FROM kernel_tuples WHERE exe = ?1 AND "
		"snapshot = (SELECT max(id) FROM snapshots))";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return -EIO;
	sqlite3_bind_text(st, 1, exe, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -EIO;
	sqlite3_finalize(st);
	return rc;
}

int vigil_store_subjects_named(struct vigil_store *s, const char *base,
			       char ***ret, size_t *ret_n)
{
	static const char sql[] =
		"SELECT exe FROM records WHERE exe GLOB ?1 UNION "
		"SELECT exe FROM kernel_tuples WHERE exe GLOB ?1 AND "
		"snapshot = (SELECT max(id) FROM snapshots) ORDER BY 1";
	size_t n = 0, l = strlen(base), i;
	char **v = NULL, *pat, *p;
	sqlite3_stmt *st;
	int rc = 0;

	*ret = NULL;
	*ret_n = 0;
	/* "*" then base with GLOB's operators in brackets */
	pat = malloc(3 * l + 3);
	if (!pat)
		return -ENOMEM;
	p = pat;
	*p++ = '*';
	*p++ = '/';
	for (i = 0; i < l; i++) {
		if (strchr("*?[", base[i])) {
			*p++ = '[';
			*p++ = base[i];
			*p++ = ']';
		} else {
			*p++ = base[i];
		}
	}
	*p = '\0';
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL)) {
		free(pat);
		return -EIO;
	}
	sqlite3_bind_text(st, 1, pat, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *exe = (const char *)sqlite3_column_text(st, 0);
		char **nv = realloc(v, (n + 1) * sizeof(*v));

		if (!nv || !(nv[n] = strdup(exe ? exe : ""))) {
			v = nv ? nv : v;
			rc = -ENOMEM;
			break;
		}
		v = nv;
		n++;
	}
	rc = rc == SQLITE_DONE ? 0 : rc == -ENOMEM ? rc : -EIO;
	sqlite3_finalize(st);
	free(pat);
	if (rc) {
		for (i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return rc;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

/* Prepared once, bound per subject: see vigil_store_exec_children. */
struct vigil_store_children {
	sqlite3_stmt *st;
};

int vigil_store_children_open(struct vigil_store *s,
			      struct vigil_store_children **ret)
{
	static const char sql[] =
		"SELECT DISTINCT object FROM records WHERE exe = ?1 AND "
		"op = 'exec' AND verdict = 'learned' AND object IS NOT NULL "
		"AND via IS NULL "
		"AND object IN (SELECT exe FROM records WHERE exe IS NOT NULL) "
		"ORDER BY object";
	struct vigil_store_children *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	if (sqlite3_prepare_v2(s->db, sql, -1, &c->st, NULL) != SQLITE_OK) {
		sqlite3_finalize(c->st);
		free(c);
		return -EIO;
	}
	*ret = c;
	return 0;
}

int vigil_store_children_each(struct vigil_store_children *c, const char *exe,
			      int (*fn)(void *ctx, const char *child),
			      void *ctx)
{
	int rc = 0;

	sqlite3_reset(c->st);
	sqlite3_bind_text(c->st, 1, exe, -1, SQLITE_TRANSIENT);
	while (!rc && sqlite3_step(c->st) == SQLITE_ROW)
		rc = fn(ctx, store_col_text(c->st, 0));
	return rc;
}

void vigil_store_children_close(struct vigil_store_children *c)
{
	if (!c)
		return;
	sqlite3_finalize(c->st);
	free(c);
}
