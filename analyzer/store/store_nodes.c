// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the hosts of the records (node=, schema 006, issue 28):
 * the local host's name, the node values stored, and the selection of
 * hosts a verb reads, and the span of an incremental run (--checkpoint).
 * The selection is a TEMP view named records (and foreign_records; when
 * the local host is left out, kernel_tuples and snapshots too) that
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

/* Whether this connection has the temp table name (a selection made). */
static bool temp_has(struct vigil_store *s, const char *name)
{
	sqlite3_stmt *st;
	bool yes;

	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM sqlite_temp_master "
			       "WHERE type = 'table' AND name = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

/*
 * The temp views records and foreign_records over what this connection
 * selected: the hosts (temp.vigil_nodes_sel), the span of an incremental
 * run (temp.vigil_span), and for records a union (aa_wd: generate
 * --update's temp.vigil_aa_wd); none when nothing is selected.
 */
int store_records_views(struct vigil_store *s, bool aa_wd)
{
	static const char nodes_where[] =
		" AND r.node IN (SELECT name FROM temp.vigil_nodes_sel)";
	static const char span_where[] =
		" AND EXISTS (SELECT 1 FROM temp.vigil_span c WHERE "
		"c.node = r.node AND (r.time_ms, r.serial) > "
		"(c.from_ms, c.from_serial) AND (r.time_ms, r.serial) <= "
		"(c.to_ms, c.to_serial))";
	bool nodes = temp_has(s, "vigil_nodes_sel");
	bool span = temp_has(s, "vigil_span");
	char sql[1024];
	int rc;

	rc = exec_sql(s, "DROP VIEW IF EXISTS temp.records;"
		      "DROP VIEW IF EXISTS temp.foreign_records");
	if (rc || (!nodes && !span && !aa_wd))
		return rc;
	snprintf(sql, sizeof(sql),
		 "CREATE TEMP VIEW records AS SELECT r.* FROM main.records r "
		 "WHERE 1%s%s%s", nodes ? nodes_where : "",
		 span ? span_where : "",
		 aa_wd ? " UNION ALL SELECT * FROM temp.vigil_aa_wd" : "");
	rc = exec_sql(s, sql);
	if (rc || (!nodes && !span))
		return rc;
	snprintf(sql, sizeof(sql),
		 "CREATE TEMP VIEW foreign_records AS SELECT r.* FROM "
		 "main.foreign_records r WHERE 1%s%s",
		 nodes ? nodes_where : "", span ? span_where : "");
	return exec_sql(s, sql);
}

int vigil_store_select_nodes(struct vigil_store *s, char *const *nodes,
			     size_t n, bool local)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;

	rc = exec_sql(s, "DROP VIEW IF EXISTS temp.kernel_tuples;"
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
	if (!rc)
		rc = store_records_views(s, false);
	if (!rc && !local)
		rc = exec_sql(s, "CREATE TEMP VIEW kernel_tuples AS SELECT * "
			      "FROM main.kernel_tuples WHERE 0;"
			      "CREATE TEMP VIEW snapshots AS SELECT * "
			      "FROM main.snapshots WHERE 0");
	return rc;
}

int vigil_store_cuts(struct vigil_store *s, int64_t until_ms,
		     int (*fn)(void *ctx, const char *node, int64_t time_ms,
			       int64_t serial),
		     void *ctx)
{
	/*
	 * vigil's records and the foreign ones (one serial per host): each
	 * node's newest time, then its greatest serial at that time, both
	 * through the (node, time_ms, serial) index of each table
	 */
	static const char sql[] =
		"WITH t AS (SELECT node, max(ms) AS ms FROM ("
		"SELECT node, max(time_ms) AS ms FROM records "
		"WHERE time_ms <= ?1 GROUP BY node UNION ALL "
		"SELECT node, max(time_ms) FROM foreign_records "
		"WHERE time_ms <= ?1 GROUP BY node) GROUP BY node) "
		"SELECT node, ms, max("
		"coalesce((SELECT max(serial) FROM records r WHERE "
		"r.node = t.node AND r.time_ms = t.ms), -1), "
		"coalesce((SELECT max(serial) FROM foreign_records f WHERE "
		"f.node = t.node AND f.time_ms = t.ms), -1)) "
		"FROM t ORDER BY node";
	sqlite3_stmt *st;
	int rc = 0, step = SQLITE_DONE;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, until_ms);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *n = store_col_text(st, 0);

		rc = fn(ctx, n ? n : "", sqlite3_column_int64(st, 1),
			sqlite3_column_int64(st, 2));
	}
	if (!rc && step != SQLITE_DONE)
		rc = -EIO;
	sqlite3_finalize(st);
	return rc;
}

int vigil_store_select_span(struct vigil_store *s,
			    const struct vigil_store_span *v, size_t n)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;

	rc = exec_sql(s, "DROP VIEW IF EXISTS temp.kernel_tuples;"
		      "DROP TABLE IF EXISTS temp.vigil_span;"
		      "CREATE TEMP TABLE vigil_span (node TEXT PRIMARY KEY, "
		      "from_ms INTEGER, from_serial INTEGER, to_ms INTEGER, "
		      "to_serial INTEGER) WITHOUT ROWID");
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO temp.vigil_span "
			       "VALUES (?1, ?2, ?3, ?4, ?5)", -1, &st,
			       NULL) != SQLITE_OK)
		return -EIO;
	for (i = 0; i < n && !rc; i++) {
		sqlite3_bind_text(st, 1, v[i].node, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, v[i].from_ms);
		sqlite3_bind_int64(st, 3, v[i].from_serial);
		sqlite3_bind_int64(st, 4, v[i].to_ms);
		sqlite3_bind_int64(st, 5, v[i].to_serial);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = -EIO;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (!rc)
		rc = store_records_views(s, false);
	/* the kernel's learned table has no time and serial per access */
	if (!rc)
		rc = exec_sql(s, "CREATE TEMP VIEW kernel_tuples AS SELECT * "
			      "FROM main.kernel_tuples WHERE 0");
	return rc;
}
