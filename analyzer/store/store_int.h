/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: what the store's files share (store.c: opening,
 * migrations, the ingest's writes; store_report.c, store_rules.c,
 * store_trial.c: the read queries of the verbs). Nothing else includes it.
 */
#ifndef VIGIL_ANALYZER_STORE_INT_H
#define VIGIL_ANALYZER_STORE_INT_H

#include <stdbool.h>

#include <sqlite3.h>

/* The statements prepared once at open (store.c). */
enum {
	ST_RECORD,
	ST_FOREIGN,
	ST_SOURCE_GET,
	ST_SOURCE_PUT,
	ST_SNAP_NEW,
	ST_TUPLE,
	ST_COUNT,
};

struct vigil_store {
	sqlite3 *db;
	sqlite3_stmt *st[ST_COUNT];
	int version;
	/* the error that made the caller roll back, kept past the ROLLBACK
	 * (which fails on its own when SQLite already undid the
	 * transaction, as it does when the disk is full) */
	char failure[256];
	/* read-only, and its -wal file did not exist when it was opened:
	 * vigil_store_close() leaves none behind (malloc'd path) */
	char *tidy_path;
};

/* Column c of the current row as text, NULL for SQL NULL. */
static inline const char *store_col_text(sqlite3_stmt *st, int c)
{
	return (const char *)sqlite3_column_text(st, c);
}

/*
 * Run sql, its ?1..?nbind bound to binds, for one row of ncol integers:
 * 1 and cols filled, 0 when it gave no row, -EIO when it cannot be run.
 */
int store_one_row(struct vigil_store *s, const char *sql,
		  const long long *binds, int nbind, long long *cols,
		  int ncol);

/*
 * Make the temp views records and foreign_records again over the hosts
 * and the span selected (store_nodes.c), records with generate --update's
 * temp.vigil_aa_wd when aa_wd. 0 or -EIO.
 */
int store_records_views(struct vigil_store *s, bool aa_wd);

/* Name the local host once (store_nodes.c), when opened to write. */
int store_local_node_init(struct vigil_store *s);

#endif /* VIGIL_ANALYZER_STORE_INT_H */
