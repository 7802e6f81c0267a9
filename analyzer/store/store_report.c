// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the store's queries for vigil report: the window's
 * records in one scan, the largest record id, the latest snapshot and its
 * unmatched tuples, the seq counts of the whole table. Library-like:
 * reports errors (vigil_store_errmsg), never logs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"
#include "store.h"

int vigil_store_records_max_id(struct vigil_store *s, long long *ret)
{
	return store_one_row(s, "SELECT coalesce(max(id), 0) FROM records",
			     NULL, 0, ret, 1);
}

/* The scan's SQL: the window, and the subjects as ?3, ?4... */
static char *window_sql(const struct vigil_store_window *w)
{
	static const char head[] =
		"SELECT exe, verdict, op, access, object, time_ms, seq, node "
		"FROM records WHERE 1 AND time_ms BETWEEN ?1 AND ?2";
	size_t i, len = sizeof(head) + 16 + 2 * w->nsubjects;
	char *sql = malloc(len);

	if (!sql)
		return NULL;
	strcpy(sql, head);
	if (w->nsubjects) {
		strcat(sql, " AND exe IN (");
		for (i = 0; i < w->nsubjects; i++)
			strcat(sql, i ? ",?" : "?");
		strcat(sql, ")");
	}
	return sql;
}

int vigil_store_window_records(struct vigil_store *s,
			       const struct vigil_store_window *w,
			       int (*fn)(void *ctx,
					 const struct vigil_store_row *row),
			       void *ctx)
{
	struct vigil_store_row row;
	sqlite3_stmt *st;
	char *sql = window_sql(w);
	size_t k;
	int rc, i = 1;

	if (!sql)
		return -ENOMEM;
	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, i++, w->since_ms);
	sqlite3_bind_int64(st, i++, w->until_ms);
	for (k = 0; k < w->nsubjects; k++)
		sqlite3_bind_text(st, i++, w->subjects[k], -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row.exe = store_col_text(st, 0);
		row.verdict = store_col_text(st, 1);
		row.op = store_col_text(st, 2);
		row.access = store_col_text(st, 3);
		row.object = store_col_text(st, 4);
		row.time_ms = sqlite3_column_int64(st, 5);
		row.seq = sqlite3_column_int64(st, 6);
		row.node = store_col_text(st, 7);
		rc = fn(ctx, &row);
		if (rc) {
			sqlite3_finalize(st);
			return rc;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

int vigil_store_latest_snapshot(struct vigil_store *s,
				struct vigil_store_snapshot *ret)
{
	long long v[4];
	int rc = store_one_row(s, "SELECT tuples, missing, "
			       "(SELECT coalesce(max(seq), 0) FROM records), "
			       "coalesce(audit_lost, -1) "
			       "FROM snapshots ORDER BY id DESC LIMIT 1",
			       NULL, 0, v, 4);

	if (rc == 1)
		*ret = (struct vigil_store_snapshot){
			.tuples = v[0], .missing = v[1], .max_seq = v[2],
			.audit_lost = v[3],
		};
	return rc;
}

int vigil_store_snapshot_unmatched_after(struct vigil_store *s,
					 long long seq, long long *ret)
{
	return store_one_row(s, "SELECT coalesce(sum(t.seq > ?1), 0) "
			     "FROM kernel_tuples t WHERE t.snapshot = "
			     "(SELECT max(id) FROM snapshots) AND "
			     "t.verdict != 'allowed' AND NOT EXISTS "
			     "(SELECT 1 FROM records r WHERE "
			     "r.verdict = t.verdict AND r.op = t.op AND "
			     "r.access = t.access AND r.uid = t.uid AND "
			     "r.exe IS t.exe AND r.object IS t.object)",
			     &seq, 1, ret, 1);
}

int vigil_store_seq_counts(struct vigil_store *s,
			   struct vigil_store_seq_counts *ret)
{
	long long v[4];
	int rc = store_one_row(s, "SELECT count(*), count(DISTINCT seq), "
			       "coalesce(max(seq), 0), count(DISTINCT node) "
			       "FROM records", NULL, 0, v, 4);

	if (rc == 1)
		*ret = (struct vigil_store_seq_counts){
			.records = v[0], .seqs = v[1], .max_seq = v[2],
			.nodes = v[3],
		};
	return rc;
}

int vigil_store_apparmor_window(struct vigil_store *s, int64_t since_ms,
				int64_t until_ms,
				int (*fn)(void *ctx, const char *text),
				void *ctx)
{
	static const char sql[] =
		"SELECT text FROM foreign_records WHERE kind = 'apparmor' "
		"AND time_ms >= ?1 AND time_ms <= ?2 "
		"AND (text LIKE '%apparmor=\"ALLOWED\"%' "
		" OR text LIKE '%apparmor=\"DENIED\"%') "
		"ORDER BY time_ms, serial";
	sqlite3_stmt *st;
	int rc = 0, step;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, since_ms);
	sqlite3_bind_int64(st, 2, until_ms);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = fn(ctx, store_col_text(st, 0));
	if (!rc && step != SQLITE_DONE)
		rc = -EIO;
	sqlite3_finalize(st);
	return rc;
}

/* The uids seen, ascending, each once (vigil subjects). */
struct uidset {
	long long v[64];
	size_t n;
	bool more;
};

static void uidset_add(struct uidset *u, long long uid)
{
	size_t i, j;

	for (i = 0; i < u->n && u->v[i] < uid; i++)
		;
	if (i < u->n && u->v[i] == uid)
		return;
	if (u->n == sizeof(u->v) / sizeof(u->v[0])) {
		u->more = true;
		return;
	}
	for (j = u->n++; j > i; j--)
		u->v[j] = u->v[j - 1];
	u->v[i] = uid;
}

static int runs_flush(struct uidset *u, const char *exe, long long runs,
		      int (*fn)(void *ctx,
				const struct vigil_store_subject_runs *r),
		      void *ctx)
{
	struct vigil_store_subject_runs r = { .exe = exe, .runs = runs };
	char buf[64 * 21 + 8];
	size_t i, w = 0;

	buf[0] = '\0';
	for (i = 0; i < u->n; i++)
		w += snprintf(buf + w, sizeof(buf) - w, "%s%lld", i ? "," : "",
			      u->v[i]);
	if (u->more)
		snprintf(buf + w, sizeof(buf) - w, ",...");
	r.uids = buf;
	u->n = 0;
	u->more = false;
	return fn(ctx, &r);
}

int vigil_store_subject_runs(struct vigil_store *s,
			     int (*fn)(void *ctx,
				       const struct vigil_store_subject_runs *r),
			     void *ctx)
{
	/* one scan: the distinct (exe, node, pid, uid), in that order */
	static const char sql[] =
		"SELECT DISTINCT exe, node, pid, uid FROM records "
		"WHERE exe IS NOT NULL ORDER BY exe, node, pid, uid";
	struct uidset u = { .n = 0 };
	char *exe = NULL, *node = NULL;
	long long runs = 0, pid = -1;
	sqlite3_stmt *st;
	int rc = 0, step = SQLITE_DONE;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *e = store_col_text(st, 0), *n = store_col_text(st, 1);
		long long p = sqlite3_column_int64(st, 2);

		if (!exe || strcmp(exe, e)) {
			if (exe)
				rc = runs_flush(&u, exe, runs, fn, ctx);
			free(exe);
			exe = strdup(e);
			runs = 0;
			free(node);
			node = NULL;
		}
		if (!rc && (!node || strcmp(node, n) || p != pid)) {
			free(node);
			node = strdup(n);
			pid = p;
			runs++;
		}
		if (!rc && (!exe || !node))
			rc = -ENOMEM;
		if (!rc)
			uidset_add(&u, sqlite3_column_int64(st, 3));
	}
	if (!rc && step != SQLITE_DONE)
		rc = -EIO;
	if (!rc && exe)
		rc = runs_flush(&u, exe, runs, fn, ctx);
	sqlite3_finalize(st);
	free(exe);
	free(node);
	return rc;
}
