// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests: the SQLite store (schema, migrations, dedup, positions). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "record.h"
#include "store.h"

static char dir[] = "/tmp/vigil-test-store.XXXXXX";
static char path[256];

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static void new_path(const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
}

static int64_t query_int(const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t v = -1;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL),
			 SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void test_open_migrate(void **state)
{
	struct vigil_store *s = NULL;
	char err[256] = "";
	sqlite3 *db;
	char *msg = NULL;

	(void)state;
	new_path("a.db");
	assert_int_equal(vigil_store_open(path, &s, err, sizeof(err)), 0);
	assert_int_equal(vigil_store_schema_version(s), 8);
	vigil_store_close(s);
	vigil_store_close(NULL);
	assert_int_equal(query_int("PRAGMA user_version"), 8);
	/* reopening applies nothing twice */
	assert_int_equal(vigil_store_open(path, &s, err, sizeof(err)), 0);
	vigil_store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode", NULL, NULL,
				      &msg), SQLITE_OK);
	sqlite3_close(db);

	/* a database from a newer vigil is refused */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 99", NULL,
				      NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(vigil_store_open(path, &s, err, sizeof(err)),
			 -EPROTO);
	assert_non_null(strstr(err, "newer"));
	assert_int_equal(query_int("PRAGMA user_version"), 99);

	/* not a database */
	new_path("junk.db");
	{
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fputs("this is not a database, it is a long enough text file "
		      "to fill a header of one hundred bytes or so........\n",
		      f);
		fclose(f);
	}
	assert_int_not_equal(vigil_store_open(path, &s, err, sizeof(err)), 0);
	assert_true(err[0]);
}

static void test_wal(void **state)
{
	struct vigil_store *s = NULL;
	char err[256];
	sqlite3 *db;
	sqlite3_stmt *st;

	(void)state;
	new_path("wal.db");
	assert_int_equal(vigil_store_open(path, &s, err, sizeof(err)), 0);
	vigil_store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1,
					    &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static void test_records_dedup(void **state)
{
	struct vigil_store *s = NULL;
	struct vigil_record r = {
		.seq = 5, .uid = 0, .pid = 10, .verdict = "learned",
		.op = "open", .access = "r", .exe = "/usr/bin/cat",
		.path = "/etc/x", .object = "/etc/x", .comm = "cat",
		.extra = "",
	};
	char err[256];

	(void)state;
	new_path("dedup.db");
	assert_int_equal(vigil_store_open(path, &s, err, sizeof(err)), 0);
	assert_int_equal(vigil_store_begin(s), 0);
	assert_int_equal(vigil_store_add_record(s, NULL, 1000, 7, &r), 1);
	assert_int_equal(vigil_store_add_record(s, NULL, 1000, 7, &r), 0);
	assert_int_equal(vigil_store_add_record(s, "", 1000, 7, &r), 0);
	/* another node, time, serial or seq is another record */
	assert_int_equal(vigil_store_add_record(s, "h1", 1000, 7, &r), 1);
	assert_int_equal(vigil_store_add_record(s, NULL, 1001, 7, &r), 1);
	assert_int_equal(vigil_store_add_record(s, NULL, 1000, 8, &r), 1);
	r.seq = 6;
	assert_int_equal(vigil_store_add_record(s, NULL, 1000, 7, &r), 1);
	assert_int_equal(vigil_store_add_foreign(s, NULL, 1, 2, 1400,
						 REC_APPARMOR, "abc", 3), 1);
	assert_int_equal(vigil_store_add_foreign(s, NULL, 1, 2, 1400,
						 REC_APPARMOR, "abc", 3), 0);
	assert_int_equal(vigil_store_add_foreign(s, NULL, 1, 2, 1400,
						 REC_APPARMOR, "abd", 3), 1);
	assert_int_equal(vigil_store_commit(s), 0);
	/* a rolled-back batch leaves nothing */
	assert_int_equal(vigil_store_begin(s), 0);
	r.seq = 99;
	assert_int_equal(vigil_store_add_record(s, NULL, 1000, 7, &r), 1);
	assert_int_equal(vigil_store_rollback(s), 0);
	vigil_store_close(s);
	assert_int_equal(query_int("SELECT count(*) FROM records"), 5);
	assert_int_equal(query_int("SELECT count(*) FROM foreign_records"), 2);
	assert_int_equal(query_int("SELECT records FROM foreign_counts "
				   "WHERE kind = 'apparmor'"), 2);
}

static void test_sources(void **state)
{
	struct vigil_store *s = NULL;
	struct vigil_source src = {
		.dev = 64769, .ino = 1234, .offset = 4096, .line = 17,
		.head_len = 4096, .head_hash = 0xcbf29ce484222325ULL,
		.path = "/var/log/audit/audit.log",
	}, got;
	char err[256];

	(void)state;
	new_path("sources.db");
	assert_int_equal(vigil_store_open(path, &s, err, sizeof(err)), 0);
	assert_int_equal(vigil_store_get_source(s, 64769, 1234, &got),
			 -ENOENT);
	assert_int_equal(vigil_store_put_source(s, &src), 0);
	assert_int_equal(vigil_store_get_source(s, 64769, 1234, &got), 0);
	assert_int_equal(got.offset, 4096);
	assert_int_equal(got.line, 17);
	assert_int_equal(got.head_len, 4096);
	assert_true(got.head_hash == 0xcbf29ce484222325ULL);
	src.offset = 8192;
	src.path = "/var/log/audit/audit.log.1";	/* rotated: same inode */
	assert_int_equal(vigil_store_put_source(s, &src), 0);
	assert_int_equal(vigil_store_get_source(s, 64769, 1234, &got), 0);
	assert_int_equal(got.offset, 8192);
	vigil_store_close(s);
	assert_int_equal(query_int("SELECT count(*) FROM sources"), 1);
}

static void test_snapshot(void **state)
{
	struct vigil_store *s = NULL;
	struct vigil_record r = {
		.seq = 1, .verdict = "learned", .op = "open", .access = "r",
		.exe = "/usr/bin/cat", .path = "/etc/x", .object = "/etc/x",
		.comm = "cat", .extra = "",
	};
	struct vigil_tuple t1 = {
		.seq = 1, .count = 5, .first = 1, .last = 2, .uid = 0,
		.verdict = "learned", .op = "open", .access = "r",
		.exe = "/usr/bin/cat", .object = "/etc/x",
	}, t2 = t1, t3 = t1, t4 = t1, t5 = t1, t6 = t1;
	struct vigil_record r2 = r;
	int64_t snap, tuples, missing;
	char err[256];

	(void)state;
	t2.seq = 2;
	t2.object = NULL;	/* no record has a NULL object: missing */
	t3.seq = 0;
	t3.verdict = "allowed";	/* never recorded: not missing */
	t3.object = "/nowhere";
	r2.seq = 2;
	r2.exe = NULL;		/* "exe=?": matched by a tuple without one */
	r2.path = r2.object = "/etc/y";
	t4.seq = 4;
	t4.exe = NULL;
	t4.object = "/etc/y";
	t5.seq = 5;
	t5.mntns = 4026532000U;	/* another namespace's /etc/x: missing */
	t6.seq = 6;
	t6.uid = 1000;		/* another uid's: missing */
	new_path("snap.db");
	assert_int_equal(vigil_store_open(path, &s, err, sizeof(err)), 0);
	assert_int_equal(vigil_store_begin(s), 0);
	assert_int_equal(vigil_store_add_record(s, NULL, 1, 1, &r), 1);
	assert_int_equal(vigil_store_add_record(s, NULL, 1, 2, &r2), 1);
	assert_int_equal(vigil_store_snapshot_begin(s, 100, &snap), 0);
	assert_int_equal(vigil_store_add_tuple(s, snap, 1, &t1), 0);
	assert_int_equal(vigil_store_add_tuple(s, snap, 2, &t2), 0);
	assert_int_equal(vigil_store_add_tuple(s, snap, 3, &t3), 0);
	assert_int_equal(vigil_store_add_tuple(s, snap, 4, &t4), 0);
	assert_int_equal(vigil_store_add_tuple(s, snap, 5, &t5), 0);
	assert_int_equal(vigil_store_add_tuple(s, snap, 6, &t6), 0);
	assert_int_equal(vigil_store_snapshot_end(s, snap, &tuples, &missing),
			 0);
	assert_int_equal(vigil_store_commit(s), 0);
	assert_int_equal(tuples, 6);
	assert_int_equal(missing, 3);
	vigil_store_close(s);
	assert_int_equal(query_int("SELECT missing FROM snapshots"), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_migrate),
		cmocka_unit_test(test_wal),
		cmocka_unit_test(test_records_dedup),
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_snapshot),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
