// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the hosts of the records (node=, schema 006, issue 28):
 * the local host's name, the node values stored, and the selection of
 * hosts a verb reads. The selection is a TEMP view named records (and
 * foreign_records; when the local host is left out, kernel_tuples and
 * snapshots too) that
 * shadows the table for this connection only: every read query of the
 * store sees the selected hosts' records without repeating the filter,
 * and SQLite flattens the view, so the records' index still serves.
 * Library-like: reports errors, never logs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "store_int.h"
#include "store.h"

/* This machine's name, as auditd's name_format=hostname writes it. */
static void host_name(char *buf, size_t size)
{
	struct utsname u;

	if (uname(&u) || !u.nodename[0])
		snprintf(buf, size, "localhost");
	else
		snprintf(buf, size, "%s", u.nodename);
}

int store_local_node_init(struct vigil_store *s)
{
	static const char sql[] =
		"INSERT OR IGNORE INTO local_node (id, name) VALUES (1, ?)";
	char name[256];
	sqlite3_stmt *st;
	int rc;

	host_name(name, sizeof(name));
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

int vigil_store_local_node(struct vigil_store *s, char **ret)
{
	static const char sql[] = "SELECT name FROM main.local_node";
	char name[256] = "";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		snprintf(name, sizeof(name), "%s",
			 store_col_text(st, 0) ? store_col_text(st, 0) : "");
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return -EIO;
	/* never named (a database only read since): this machine */
	if (!name[0])
		host_name(name, sizeof(name));
	*ret = strdup(name);
	return *ret ? 0 : -ENOMEM;
}

int vigil_store_nodes(struct vigil_store *s,
		      int (*fn)(void *ctx, const char *node), void *ctx)
{
	/* the local host has data when a snapshot exists, records or not */
	static const char sql[] =
		"SELECT name FROM main.nodes UNION "
		"SELECT '' WHERE EXISTS (SELECT 1 FROM main.snapshots) "
		"ORDER BY 1";
	sqlite3_stmt *st;
	int rc = 0, step = SQLITE_DONE;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *n = store_col_text(st, 0);

		rc = fn(ctx, n ? n : "");
	}
	if (!rc && step != SQLITE_DONE)
		rc = -EIO;
	sqlite3_finalize(st);
	return rc;
}

static int exec_sql(struct vigil_store *s, const char *sql)
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 :
									 -EIO;
}

int vigil_store_select_nodes(struct vigil_store *s, char *const *nodes,
			     size_t n, bool local)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;

	rc = exec_sql(s, "DROP VIEW IF EXISTS temp.records;"
		      "DROP VIEW IF EXISTS temp.foreign_records;"
		      "DROP VIEW IF EXISTS temp.kernel_tuples;"
		      "DROP VIEW IF EXISTS temp.snapshots;"
		      "DROP TABLE IF EXISTS temp.vigil_nodes_sel;"
		      "CREATE TEMP TABLE vigil_nodes_sel "
		      "(name TEXT PRIMARY KEY) WITHOUT ROWID");
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(s->db, "INSERT OR IGNORE INTO "
			       "temp.vigil_nodes_sel (name) VALUES (?)", -1,
			       &st, NULL) != SQLITE_OK)
		return -EIO;
	for (i = 0; i < n && !rc; i++) {
		sqlite3_bind_text(st, 1, nodes[i], -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = -EIO;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (rc)
		return rc;
	rc = exec_sql(s, "CREATE TEMP VIEW records AS SELECT * FROM "
		      "main.records WHERE node IN "
		      "(SELECT name FROM temp.vigil_nodes_sel);"
		      "CREATE TEMP VIEW foreign_records AS SELECT * FROM "
		      "main.foreign_records WHERE node IN "
		      "(SELECT name FROM temp.vigil_nodes_sel)");
	if (!rc && !local)
		rc = exec_sql(s, "CREATE TEMP VIEW kernel_tuples AS SELECT * "
			      "FROM main.kernel_tuples WHERE 0;"
			      "CREATE TEMP VIEW snapshots AS SELECT * "
			      "FROM main.snapshots WHERE 0");
	return rc;
}
