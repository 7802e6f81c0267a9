// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the store's queries for vigil trial: AppArmor's ALLOWED
 * records (complain mode's would-be denials), SELinux's AVC denials
 * (permissive domains') and vigil's would-deny records since the trial
 * started. Library-like: reports errors, never logs.
 */
#include <errno.h>

#include "store_int.h"
#include "store.h"

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
