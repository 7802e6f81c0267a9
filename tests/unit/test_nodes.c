// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests: hosts (issue 28): the nodes the store keeps (schema 006),
 * the local host named once, --node/--all-nodes selection and its errors,
 * the selection as every read sees it, and per-host counts of the rules
 * generate writes (seen on N of M hosts, --min-hosts).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>
#include <sys/utsname.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "record.h"
#include "store.h"
#include "nodes.h"
#include "rules.h"
#include "schemas.h"

static struct vigil_store *store;
static uint64_t serial;
static char local[256];

static int setup(void **state)
{
	char err[256];
	struct utsname u;

	(void)state;
	serial = 0;
	if (uname(&u))
		return -1;
	snprintf(local, sizeof(local), "%s", u.nodename);
	return vigil_store_open(":memory:", &store, err, sizeof(err));
}

static int teardown(void **state)
{
	(void)state;
	vigil_store_close(store);
	store = NULL;
	return 0;
}

/* A learned file record of exe on node. */
static void rec(const char *node, const char *exe, const char *access,
		const char *object)
{
	struct vigil_record r = {
		.seq = ++serial, .uid = 0, .pid = 10, .verdict = "learned",
		.op = "open", .access = access, .exe = exe, .path = object,
		.object = object, .extra = "",
	};

	assert_int_equal(vigil_store_add_record(store, node, 1796000000000LL +
						(int64_t)serial * 1000,
						serial, &r), 1);
}

static int64_t count(const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	assert_int_equal(sqlite3_prepare_v2(vigil_store_sqlite(store), sql, -1,
					    &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The local host is named once, from uname; nodes kept by the trigger. */
static void test_nodes_kept(void **state)
{
	char *name = NULL;

	(void)state;
	assert_int_equal(vigil_store_local_node(store, &name), 0);
	assert_string_equal(name, local);
	free(name);
	rec("", "/usr/bin/a", "r", "/etc/a");
	rec("web1", "/usr/bin/a", "r", "/etc/a");
	rec("web1", "/usr/bin/a", "r", "/etc/b");
	rec("web2", "/usr/bin/a", "r", "/etc/a");
	assert_int_equal(count("SELECT count(*) FROM nodes"), 3);
	assert_int_equal(count("SELECT count(*) FROM nodes WHERE name = ''"),
			 1);
	assert_int_equal(count("SELECT count(*) FROM local_node"), 1);
}

/* '' and node=LOCALNAME are one host; several hosts need a choice. */
static void test_select(void **state)
{
	struct vigil_nodes n = { 0 };
	char err[1024];
	char *web[] = { "web*" }, *nope[] = { "nope" }, *both[] = { "web1",
								    "w*2" };

	(void)state;
	rec("", "/usr/bin/a", "r", "/etc/a");
	rec(local, "/usr/bin/a", "r", "/etc/c");
	rec("web1", "/usr/bin/a", "r", "/etc/a");
	rec("web2", "/usr/bin/a", "r", "/etc/a");
	assert_int_equal(vigil_nodes_load(store, &n), 0);
	assert_int_equal(n.n, 3);
	assert_int_equal(n.nstored, 4);
	assert_int_equal(vigil_nodes_host(&n, ""), n.local_host);
	assert_int_equal(vigil_nodes_host(&n, local), n.local_host);
	assert_int_equal(vigil_nodes_host(&n, "web9"), -1);

	assert_int_equal(vigil_nodes_select(&n, NULL, 0, false, err,
					    sizeof(err)), -EDOM);
	assert_non_null(strstr(err, "3 hosts"));
	assert_non_null(strstr(err, "web1, web2"));
	assert_non_null(strstr(err, "--all-nodes"));

	assert_int_equal(vigil_nodes_select(&n, nope, 1, false, err,
					    sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--node nope: no host"));
	assert_non_null(strstr(err, "web2"));

	assert_int_equal(vigil_nodes_select(&n, web, 1, false, err,
					    sizeof(err)), 0);
	assert_int_equal(n.nselected, 2);
	assert_false(n.selected[n.local_host]);
	assert_int_equal(vigil_nodes_select(&n, both, 2, false, err,
					    sizeof(err)), 0);
	assert_int_equal(n.nselected, 2);
	assert_int_equal(vigil_nodes_select(&n, NULL, 0, true, err,
					    sizeof(err)), 0);
	assert_int_equal(n.nselected, 3);

	/* applied: every read sees the selected hosts only */
	assert_int_equal(vigil_nodes_select(&n, web, 1, false, err,
					    sizeof(err)), 0);
	assert_int_equal(vigil_nodes_apply(store, &n), 0);
	assert_int_equal(count("SELECT count(*) FROM records"), 2);
	assert_int_equal(count("SELECT count(*) FROM kernel_tuples"), 0);
	assert_int_equal(count("SELECT count(*) FROM main.records"), 4);
	vigil_nodes_free(&n);

	/* the local host alone: its records with and without node= */
	assert_int_equal(vigil_nodes_local(store), 0);
	assert_int_equal(count("SELECT count(*) FROM records"), 2);
	assert_int_equal(count("SELECT count(*) FROM records WHERE node "
			       "LIKE 'web%'"), 0);
}

/* One host only: no choice needed. */
static void test_one_host(void **state)
{
	struct vigil_nodes n = { 0 };
	char err[256];

	(void)state;
	rec("", "/usr/bin/a", "r", "/etc/a");
	assert_int_equal(vigil_nodes_load(store, &n), 0);
	assert_int_equal(n.n, 1);
	assert_int_equal(vigil_nodes_select(&n, NULL, 0, false, err,
					    sizeof(err)), 0);
	assert_int_equal(n.nselected, 1);
	vigil_nodes_free(&n);
}

static const struct vigil_rule *find_rule(const struct vigil_subject_rules *sr,
					  const char *glob)
{
	for (size_t i = 0; i < sr->nrules; i++)
		if (!strcmp(sr->rules[i].glob, glob))
			return &sr->rules[i];
	return NULL;
}

/* Per host: on how many hosts each rule was seen; --min-hosts. */
static void test_rules_per_host(void **state)
{
	struct vigil_nodes n = { 0 };
	struct vigil_ruleset rs = { 0 };
	struct vigil_rules_opts o = { .strict = true };
	const struct vigil_rule *r;
	char err[256];
	int i;

	(void)state;
	/* /usr/bin/a on four hosts: /etc/all on each (twice on w1),
	 * /etc/two on w1 and w2, /etc/one on w3; /usr/bin/b on w4 only */
	for (i = 0; i < 2; i++)
		rec("w1", "/usr/bin/a", "r", "/etc/all");
	rec("w2", "/usr/bin/a", "r", "/etc/all");
	rec("w3", "/usr/bin/a", "r", "/etc/all");
	rec("w4", "/usr/bin/a", "r", "/etc/all");
	rec("w1", "/usr/bin/a", "r", "/etc/two");
	rec("w2", "/usr/bin/a", "rw", "/etc/two");
	rec("w3", "/usr/bin/a", "r", "/etc/one");
	rec("w4", "/usr/bin/b", "r", "/etc/b");
	assert_int_equal(vigil_nodes_load(store, &n), 0);
	assert_int_equal(vigil_nodes_select(&n, NULL, 0, true, err,
					    sizeof(err)), 0);
	o.nodes = &n;
	assert_int_equal(vigil_rules_load_opts(store, NULL, 0, &o, &rs, err,
					       sizeof(err)), 0);
	assert_int_equal(rs.nhosts, 4);
	assert_int_equal(rs.nsubjects, 2);
	assert_string_equal(rs.subjects[0].exe, "/usr/bin/a");
	assert_int_equal(rs.subjects[0].nhosts, 4);
	assert_int_equal(rs.subjects[1].nhosts, 1);
	r = find_rule(&rs.subjects[0], "/etc/all");
	assert_non_null(r);
	assert_int_equal(r->nhosts, 4);
	assert_int_equal(r->count, 5);
	r = find_rule(&rs.subjects[0], "/etc/two");
	assert_non_null(r);
	assert_int_equal(r->nhosts, 2);
	r = find_rule(&rs.subjects[0], "/etc/one");
	assert_non_null(r);
	assert_int_equal(r->nhosts, 1);
	vigil_ruleset_free(&rs);

	/* --min-hosts 2: /etc/one left out, and b's only rule */
	o.min_hosts = 2;
	assert_int_equal(vigil_rules_load_opts(store, NULL, 0, &o, &rs, err,
					       sizeof(err)), 0);
	assert_int_equal(rs.subjects[0].nrules, 2);
	assert_int_equal(rs.subjects[0].nleft_out, 1);
	assert_string_equal(rs.subjects[0].left_out[0].glob, "/etc/one");
	assert_int_equal(rs.subjects[0].min_hosts, 2);
	assert_int_equal(rs.subjects[1].nrules, 0);
	assert_int_equal(rs.subjects[1].nleft_out, 1);
	vigil_ruleset_free(&rs);

	/* --min-hosts 75%: of a's 4 hosts, 3; of b's 1 host, 1 */
	o.min_hosts = 75;
	o.min_hosts_pct = true;
	assert_int_equal(vigil_rules_load_opts(store, NULL, 0, &o, &rs, err,
					       sizeof(err)), 0);
	assert_int_equal(rs.subjects[0].min_hosts, 3);
	assert_int_equal(rs.subjects[0].nrules, 1);
	assert_int_equal(rs.subjects[0].nleft_out, 2);
	assert_int_equal(rs.subjects[1].nrules, 1);
	vigil_ruleset_free(&rs);

	/* two hosts selected: the rules of their records only */
	{
		char *sel[] = { "w[12]" };

		o.min_hosts = 0;
		assert_int_equal(vigil_nodes_select(&n, sel, 1, false, err,
						    sizeof(err)), 0);
		assert_int_equal(vigil_nodes_apply(store, &n), 0);
		assert_int_equal(vigil_rules_load_opts(store, NULL, 0, &o, &rs,
						       err, sizeof(err)), 0);
		assert_int_equal(rs.nhosts, 2);
		assert_int_equal(rs.nsubjects, 1);
		assert_null(find_rule(&rs.subjects[0], "/etc/one"));
		r = find_rule(&rs.subjects[0], "/etc/all");
		assert_non_null(r);
		assert_int_equal(r->nhosts, 2);
		vigil_ruleset_free(&rs);
	}
	vigil_nodes_free(&n);
}

/* A database of schema 4 gets its nodes from the records it holds. */
static void test_migration(void **state)
{
	char path[] = "/tmp/vigil-test-nodes.XXXXXX", db[300], err[256];
	struct vigil_store *s = NULL;
	sqlite3 *h;
	unsigned int i;

	(void)state;
	assert_non_null(mkdtemp(path));
	snprintf(db, sizeof(db), "%s/v4.db", path);
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	for (i = 0; i < vigil_migrations_count &&
		    vigil_migrations[i].version <= 4; i++)
		assert_int_equal(sqlite3_exec(h, vigil_migrations[i].sql, NULL,
					      NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "PRAGMA user_version = 4;"
				      "INSERT INTO records (node, time_ms, "
				      "serial, seq, verdict, op, access, uid, "
				      "pid) VALUES ('old', 1, 1, 1, 'learned', "
				      "'open', 'r', 0, 1), ('', 2, 2, 2, "
				      "'learned', 'open', 'r', 0, 1)", NULL,
				      NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	assert_int_equal(vigil_store_open(db, &s, err, sizeof(err)), 0);
	assert_int_equal(vigil_store_schema_version(s), 8);
	{
		sqlite3_stmt *st;

		assert_int_equal(sqlite3_prepare_v2(vigil_store_sqlite(s),
						    "SELECT group_concat(name, "
						    "'|') FROM (SELECT name "
						    "FROM nodes ORDER BY 1)",
						    -1, &st, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_string_equal((const char *)sqlite3_column_text(st, 0),
				    "|old");
		sqlite3_finalize(st);
	}
	vigil_store_close(s);
	snprintf(db, sizeof(db), "rm -rf '%s'", path);
	assert_int_equal(system(db), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nodes_kept, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_select, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_host, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_rules_per_host, setup,
						teardown),
		cmocka_unit_test(test_migration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
