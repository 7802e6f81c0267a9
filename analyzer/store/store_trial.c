// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the store's queries for vigil trial: AppArmor's ALLOWED
 * records (complain mode's would-be denials), SELinux's AVC denials
 * (permissive domains') and vigil's would-deny records since the trial
 * started. Library-like: reports errors, never logs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"
#include "store.h"
#include "record.h"
#include "aa_access.h"

/* The text of kind's foreign records since since_ms matching like. */
static int foreign_text(struct vigil_store *s, const char *kind,
			const char *like, int64_t since_ms,
			int (*fn)(void *ctx, const char *text), void *ctx)
{
	static const char sql[] =
		"SELECT text FROM foreign_records WHERE kind = ?1 "
		"AND time_ms >= ?2 AND text LIKE ?3 "
		"ORDER BY time_ms, serial";
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, since_ms);
	sqlite3_bind_text(st, 3, like, -1, SQLITE_STATIC);
	while (!rc && sqlite3_step(st) == SQLITE_ROW)
		rc = fn(ctx, store_col_text(st, 0));
	sqlite3_finalize(st);
	return rc;
}

int vigil_store_apparmor_allowed(struct vigil_store *s, int64_t since_ms,
				 int (*fn)(void *ctx, const char *text),
				 void *ctx)
{
	return foreign_text(s, "apparmor", "%apparmor=\"ALLOWED\"%", since_ms,
			    fn, ctx);
}

int vigil_store_selinux_denied(struct vigil_store *s, int64_t since_ms,
			       int (*fn)(void *ctx, const char *text),
			       void *ctx)
{
	return foreign_text(s, "selinux", "%avc:  denied %", since_ms, fn,
			    ctx);
}

int vigil_store_would_deny(struct vigil_store *s, int64_t since_ms,
			   const char *exe,
			   int (*fn)(void *ctx,
				     const struct vigil_store_denial *d),
			   void *ctx)
{
	static const char sql[] =
		"SELECT exe, op, access, coalesce(object, '?'), count(*) "
		"FROM records WHERE verdict = 'would-deny' AND time_ms >= ?1 "
		"AND exe = ?2 GROUP BY exe, op, access, object "
		"ORDER BY exe, op, object";
	struct vigil_store_denial d;
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, since_ms);
	sqlite3_bind_text(st, 2, exe, -1, SQLITE_STATIC);
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		d.exe = store_col_text(st, 0);
		d.op = store_col_text(st, 1);
		d.access = store_col_text(st, 2);
		d.object = store_col_text(st, 3);
		d.count = sqlite3_column_int64(st, 4);
		rc = fn(ctx, &d);
	}
	sqlite3_finalize(st);
	return rc;
}

/* The stored programs and the names vigil's AppArmor export gives them. */
struct aa_exes {
	char **exe, **prof;
	size_t n;
};

static void aa_exes_free(struct aa_exes *x)
{
	size_t i;

	for (i = 0; i < x->n; i++) {
		free(x->exe[i]);
		free(x->prof[i]);
	}
	free(x->exe);
	free(x->prof);
}

static int aa_exes_load(struct vigil_store *s, struct aa_exes *x)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db, "SELECT DISTINCT exe FROM records "
			       "WHERE exe IS NOT NULL", -1, &st,
			       NULL) != SQLITE_OK)
		return -EIO;
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		const char *e = store_col_text(st, 0);
		char **a = realloc(x->exe, (x->n + 1) * sizeof(*a)), **b;

		if (a)
			x->exe = a;
		b = realloc(x->prof, (x->n + 1) * sizeof(*b));
		if (b)
			x->prof = b;
		if (!a || !b) {
			rc = -ENOMEM;
			break;
		}
		x->exe[x->n] = strdup(e);
		x->prof[x->n] = aa_profile_name(e);
		if (!x->exe[x->n] || !x->prof[x->n]) {
			free(x->exe[x->n]);
			free(x->prof[x->n]);
			rc = -ENOMEM;
			break;
		}
		x->n++;
	}
	sqlite3_finalize(st);
	return rc;
}

/* The stored program whose profile label is: vigil's export name for it
 * (aa_profile_name) or its path. */
static const char *aa_exe_of(void *ctx, const char *label)
{
	const struct aa_exes *x = ctx;
	size_t i;

	for (i = 0; i < x->n; i++)
		if (!strcmp(x->prof[i], label) || !strcmp(x->exe[i], label))
			return x->exe[i];
	return NULL;
}

static int run_sql(struct vigil_store *s, const char *sql)
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ?
	       0 : -EIO;
}

int vigil_store_apparmor_wd_begin(struct vigil_store *s, int64_t since_ms,
				  struct vigil_store_aa_wd *c)
{
	static const char ins_sql[] =
		"INSERT INTO temp.vigil_aa_wd (id, node, time_ms, serial, "
		"seq, verdict, op, access, uid, exe, path, target, object, "
		"pid, comm, extra, mntns, via, uclass, mntnsid, netns) VALUES "
		"(?1, ?2, ?3, ?4, 0, 'would-deny', ?5, ?6, ?7, ?8, ?9, ?10, "
		"?11, ?12, ?13, '', 0, NULL, NULL, 0, 0)";
	struct aa_exes x = { 0 };
	sqlite3_stmt *q = NULL, *ins = NULL;
	int rc;

	memset(c, 0, sizeof(*c));
	rc = run_sql(s, "DROP TABLE IF EXISTS temp.vigil_aa_wd;"
		     "CREATE TEMP TABLE vigil_aa_wd AS "
		     "SELECT * FROM main.records WHERE 0");
	if (!rc)
		rc = aa_exes_load(s, &x);
	if (rc)
		goto out;
	if (sqlite3_prepare_v2(s->db, "SELECT node, time_ms, serial, text "
			       "FROM foreign_records WHERE kind = 'apparmor' "
			       "AND time_ms >= ?1 AND text LIKE "
			       "'%apparmor=\"ALLOWED\"%' ORDER BY time_ms, "
			       "serial", -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, ins_sql, -1, &ins, NULL) != SQLITE_OK) {
		rc = -EIO;
		goto out;
	}
	sqlite3_bind_int64(q, 1, since_ms);
	while (!rc && sqlite3_step(q) == SQLITE_ROW) {
		const char *text = store_col_text(q, 3), *why;
		char *pid, *comm, *uid;
		struct aa_access a;
		struct aa_fields f;

		aa_fields_parse(&f, text);
		rc = aa_access_of(&f, aa_exe_of, &x, &a, &why);
		aa_fields_free(&f);
		if (rc == 1 || rc == 2) {
			if (rc == 1)
				c->optional++;
			else
				c->skipped++;
			rc = 0;
			continue;
		}
		if (rc)
			break;
		pid = audit_field(text, "pid");
		comm = audit_field(text, "comm");
		uid = audit_field(text, "fsuid");
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, -(int64_t)(c->merged + 1));
		sqlite3_bind_text(ins, 2, store_col_text(q, 0), -1,
				  SQLITE_TRANSIENT);
		sqlite3_bind_int64(ins, 3, sqlite3_column_int64(q, 1));
		sqlite3_bind_int64(ins, 4, sqlite3_column_int64(q, 2));
		sqlite3_bind_text(ins, 5, a.op, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 6, a.access, -1, SQLITE_STATIC);
		sqlite3_bind_int64(ins, 7, uid ? strtoll(uid, NULL, 10) : 0);
		sqlite3_bind_text(ins, 8, a.exe, -1, SQLITE_STATIC);
		/* a file's path, else the target (as ingest stores them) */
		if (a.path) {
			sqlite3_bind_text(ins, 9, a.object, -1, SQLITE_STATIC);
			sqlite3_bind_null(ins, 10);
		} else {
			sqlite3_bind_null(ins, 9);
			sqlite3_bind_text(ins, 10, a.object, -1,
					  SQLITE_STATIC);
		}
		sqlite3_bind_text(ins, 11, a.object, -1, SQLITE_STATIC);
		sqlite3_bind_int64(ins, 12, pid ? strtoll(pid, NULL, 10) : 0);
		if (comm)
			sqlite3_bind_text(ins, 13, comm, -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(ins, 13);
		if (sqlite3_step(ins) != SQLITE_DONE)
			rc = -EIO;
		else
			c->merged++;
		free(pid);
		free(comm);
		free(uid);
		free(a.object);
	}
	if (!rc)
		rc = store_records_views(s, true);
out:
	sqlite3_finalize(q);
	sqlite3_finalize(ins);
	aa_exes_free(&x);
	return rc;
}

int vigil_store_apparmor_wd_end(struct vigil_store *s)
{
	int rc = run_sql(s, "DROP VIEW IF EXISTS temp.records;"
			 "DROP TABLE IF EXISTS temp.vigil_aa_wd");

	return rc ? rc : store_records_views(s, false);
}

int vigil_store_apparmor_wd_rows(struct vigil_store *s,
				 int (*fn)(void *ctx, const char *exe,
					   const char *op, const char *object),
				 void *ctx)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db, "SELECT exe, op, object FROM "
			       "temp.vigil_aa_wd ORDER BY id DESC", -1, &st,
			       NULL) != SQLITE_OK)
		return -EIO;
	while (!rc && sqlite3_step(st) == SQLITE_ROW)
		rc = fn(ctx, store_col_text(st, 0), store_col_text(st, 1),
			store_col_text(st, 2));
	sqlite3_finalize(st);
	return rc;
}
