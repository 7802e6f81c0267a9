// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests: the rule model (rules.c), vigil generate and vigil diff. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "vigil.h"
#include "util.h"
#include "record.h"
#include "store.h"
#include "rules.h"
#include "rules_int.h"
#include "policy_write.h"
#include "policy.h"
#include "blast.h"
#include "match.h"
#include "test_files.h"

static char dir[] = "/tmp/vigil-test-rules.XXXXXX";
static char path[256];
static struct vigil_store *store;
static uint64_t seq;

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* A fresh database NAME, open in store. */
static void db_new(const char *name)
{
	char err[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	assert_int_equal(vigil_store_open(path, &store, err, sizeof(err)), 0);
	assert_int_equal(vigil_store_begin(store), 0);
	seq = 0;
}

static void db_close(void)
{
	assert_int_equal(vigil_store_commit(store), 0);
	vigil_store_close(store);
	store = NULL;
}

static void db_reopen(void)
{
	char err[256];

	assert_int_equal(vigil_store_open(path, &store, err, sizeof(err)), 0);
}

/*
 * A record as the kernel writes it: file ops carry path=, the others
 * target= (see tests/fixtures/vigil-learn.log).
 */
static uint32_t rec_pid_v = 100;

static void rec_at(int64_t time_ms, const char *verdict, const char *exe,
		   const char *op, const char *access, const char *object)
{
	struct vigil_record r = {
		.uid = 0, .pid = rec_pid_v, .verdict = verdict, .op = op,
		.access = access, .exe = exe, .object = object,
		.comm = "t", .extra = "",
	};

	r.seq = ++seq;
	if (vigil_op_is_file(op))
		r.path = object;
	else
		r.target = object;
	assert_int_equal(vigil_store_add_record(store, "", time_ms, seq, &r),
			 1);
}

static void rec(const char *exe, const char *op, const char *access,
		const char *object)
{
	rec_at(1796284356000 + (int64_t)seq * 1000, "learned", exe, op,
	       access, object);
}

/* rec() by the task pid. */
static void rec_pid(uint32_t pid, const char *exe, const char *op,
		    const char *access, const char *object)
{
	rec_pid_v = pid;
	rec(exe, op, access, object);
	rec_pid_v = 100;
}

static struct vigil_ruleset load(bool strict)
{
	struct vigil_ruleset rs;

	assert_int_equal(vigil_rules_load(store, NULL, 0, strict, &rs), 0);
	return rs;
}

static const struct vigil_subject_rules *
subj(const struct vigil_ruleset *rs, const char *exe)
{
	size_t i;

	for (i = 0; i < rs->nsubjects; i++)
		if (!strcmp(rs->subjects[i].exe, exe))
			return &rs->subjects[i];
	fail_msg("no subject %s", exe);
	return NULL;
}

/* The rule of sr whose glob is glob (escaped form), or NULL. */
static const struct vigil_rule *rule(const struct vigil_subject_rules *sr,
				     enum vigil_class class, const char *glob)
{
	size_t i;

	for (i = 0; i < sr->nrules; i++)
		if (sr->rules[i].class == class &&
		    !strcmp(sr->rules[i].glob, glob))
			return &sr->rules[i];
	return NULL;
}

static const struct vigil_rule *must(const struct vigil_subject_rules *sr,
				     enum vigil_class class, const char *glob)
{
	const struct vigil_rule *r = rule(sr, class, glob);

	if (!r) {
		for (size_t i = 0; i < sr->nrules; i++)
			print_message("have %s\n", sr->rules[i].glob);
		fail_msg("no rule %s", glob);
	}
	return r;
}

/* The policy text of rs; it must parse, and is returned parsed too. */
static char *policy_text(const struct vigil_ruleset *rs, bool strict,
			 struct vigil_policy **ret_pol)
{
	struct vigil_policy_error perr = { 0 };
	struct vigil_policy *pol = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(vigil_policy_write(f, rs, "test.db", strict, false), 0);
	assert_int_equal(fclose(f), 0);
	if (vigil_policy_parse(text, len, &pol, &perr))
		fail_msg("line %u: %s\n%s", perr.line, perr.msg, text);
	if (ret_pol)
		*ret_pol = pol;
	else
		vigil_policy_free(pol);
	return text;
}

/*
 * Every distinct learned tuple of the database is allowed by the policy of
 * rs. The tuples come from SQL on the records table, not from rules.c, so
 * a tuple the rule model drops or mangles is caught. Return: how many
 * distinct tuples were checked.
 */
static size_t check_covers(const struct vigil_ruleset *rs)
{
	struct vigil_policy *pol;
	char *text = policy_text(rs, false, &pol);
	sqlite3 *db;
	sqlite3_stmt *st;
	size_t n = 0;
	int rc;

	/* Make what the store wrote visible to a second connection. */
	if (store) {
		assert_int_equal(vigil_store_commit(store), 0);
		assert_int_equal(vigil_store_begin(store), 0);
	}
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY,
					 NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
		"SELECT DISTINCT exe, op, access, object FROM records"
		" WHERE verdict = 'learned' AND exe IS NOT NULL"
		" AND object IS NOT NULL ORDER BY 1, 2, 3, 4", -1, &st, NULL),
		SQLITE_OK);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *exe = (const char *)sqlite3_column_text(st, 0);
		const char *op = (const char *)sqlite3_column_text(st, 1);
		const char *acc = (const char *)sqlite3_column_text(st, 2);
		const char *obj = (const char *)sqlite3_column_text(st, 3);
		const struct vigil_policy_subject *ps;
		int o = vigil_op_from_name(op, strlen(op));
		enum vigil_class class;
		u64 bits;

		assert_true(o >= 0);
		class = vigil_op_class(o);
		assert_int_equal(vigil_access_parse(class, acc, strlen(acc),
						    &bits), 0);
		ps = vigil_policy_find_subject(pol, exe, strlen(exe), NULL, 0,
					       VIGIL_POLICY_UCLASS_ALL);
		if (!ps)
			fail_msg("no block for subject %s\n%s", exe, text);
		if (!vigil_policy_allows(ps, class, bits, obj, strlen(obj)))
			fail_msg("%s: %s %s %s not allowed\n%s", exe, op, acc,
				 obj, text);
		n++;
	}
	assert_int_equal(rc, SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(db);
	vigil_policy_free(pol);
	free(text);
	return n;
}

/* The accesses the rules of rs account for, all subjects together. */
static uint64_t rules_count(const struct vigil_ruleset *rs)
{
	uint64_t total = 0;
	size_t i, j;

	for (i = 0; i < rs->nsubjects; i++)
		for (j = 0; j < rs->subjects[i].nrules; j++)
			total += rs->subjects[i].rules[j].count;
	return total;
}

/* strcmp for qsort over an array of char *. */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_proc(void **state)
{
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;

	(void)state;
	db_new("proc.db");
	rec("/usr/bin/ps", "open", "r", "/proc/1234/status");
	rec("/usr/bin/ps", "open", "r", "/proc/5678/status");
	rec("/usr/bin/ps", "open", "r", "/proc/self/maps");
	rec("/usr/bin/ps", "open", "r", "/proc/1/task/77/stat");
	rec("/usr/bin/ps", "open", "r", "/proc/cpuinfo");
	rs = load(false);
	sr = subj(&rs, "/usr/bin/ps");
	r = must(sr, VIGIL_CLASS_FILE, "/proc/*/status");
	assert_true(r->generalised);
	assert_int_equal(r->distinct, 2);
	assert_int_equal(r->count, 2);
	assert_int_equal(r->nexamples, 2);
	assert_string_equal(r->examples[0], "/proc/1234/status");
	assert_string_equal(r->why, "per-pid /proc");
	assert_true(r->heuristics == VIGIL_HEUR_PROC);
	must(sr, VIGIL_CLASS_FILE, "/proc/*/maps");
	must(sr, VIGIL_CLASS_FILE, "/proc/*/task/*/stat");
	r = must(sr, VIGIL_CLASS_FILE, "/proc/cpuinfo");
	assert_false(r->generalised);
	assert_null(r->why);
	assert_int_equal(sr->nrules, 4);
	check_covers(&rs);
	vigil_ruleset_free(&rs);
	db_close();
}

static void test_temp(void **state)
{
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;

	(void)state;
	db_new("temp.db");
	rec("/usr/bin/app", "create", "c", "/tmp/foo.aB3xYz");
	rec("/usr/bin/app", "create", "c", "/tmp/foo.Qw9erT");
	rec("/usr/bin/app", "open", "w", "/tmp/foo.Qw9erT");
	rec("/usr/bin/app", "create", "c", "/tmp/tmpk3j_x9a2");
	rec("/usr/bin/app", "open", "rw", "/var/tmp/session-9f3a2c7d1e/data");
	rec("/usr/bin/app", "open", "rw", "/dev/shm/sem.Xy12Ab");
	rec("/usr/bin/app", "open", "r", "/tmp/plain");
	rec("/usr/bin/app", "open", "r", "/etc/foo.aB3xYz");
	/* O_TMPFILE files, named "#INO" by the kernel, in any folder */
	rec("/usr/bin/app", "open", "rwc", "/var/lib/app/#1234");
	rec("/usr/bin/app", "open", "rwc", "/var/lib/app/#98765");
	rs = load(false);
	sr = subj(&rs, "/usr/bin/app");
	r = must(sr, VIGIL_CLASS_FILE, "/var/lib/app/\\#*");
	assert_int_equal(r->distinct, 2);
	assert_string_equal(r->why, "temporary name");
	r = must(sr, VIGIL_CLASS_FILE, "/tmp/foo.*");
	assert_int_equal(r->distinct, 2);
	assert_int_equal(r->count, 3);
	assert_true(r->access == (VIGIL_FILE_C | VIGIL_FILE_W));
	assert_string_equal(r->why, "temporary name");
	must(sr, VIGIL_CLASS_FILE, "/tmp/tmp*");
	must(sr, VIGIL_CLASS_FILE, "/var/tmp/session-*/data");
	must(sr, VIGIL_CLASS_FILE, "/dev/shm/sem.*");
	/* plain names, and random ones outside temporary folders, stay */
	assert_false(must(sr, VIGIL_CLASS_FILE, "/tmp/plain")->generalised);
	assert_false(must(sr, VIGIL_CLASS_FILE,
			  "/etc/foo.aB3xYz")->generalised);
	check_covers(&rs);
	vigil_ruleset_free(&rs);
	db_close();
}

static void test_library(void **state)
{
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;

	(void)state;
	db_new("lib.db");
	rec("/usr/bin/cat", "mmap", "m", "/usr/lib/x86_64-linux-gnu/libc.so.6");
	rec("/usr/bin/cat", "open", "r", "/usr/lib/x86_64-linux-gnu/libc.so.6");
	rec("/usr/bin/cat", "open", "r", "/usr/lib/libfoo.so.1.2.3");
	rec("/usr/bin/cat", "open", "r", "/usr/lib/libbar.so");
	rec("/usr/bin/cat", "open", "r", "/usr/lib/libbaz.so.conf");
	rs = load(false);
	sr = subj(&rs, "/usr/bin/cat");
	r = must(sr, VIGIL_CLASS_FILE, "/usr/lib/x86_64-linux-gnu/libc.so*");
	assert_true(r->access == (VIGIL_FILE_R | VIGIL_FILE_M));
	assert_int_equal(r->count, 2);
	assert_int_equal(r->distinct, 1);
	assert_string_equal(r->why, "versioned library");
	must(sr, VIGIL_CLASS_FILE, "/usr/lib/libfoo.so*");
	assert_false(must(sr, VIGIL_CLASS_FILE,
			  "/usr/lib/libbar.so")->generalised);
	assert_false(must(sr, VIGIL_CLASS_FILE,
			  "/usr/lib/libbaz.so.conf")->generalised);
	check_covers(&rs);
	vigil_ruleset_free(&rs);
	db_close();
}

static void test_siblings(void **state)
{
	static const char *const five[] = { "a", "b", "c", "d", "e" };
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	char p[64];
	size_t i;

	(void)state;
	db_new("sib.db");
	for (i = 0; i < 5; i++) {
		snprintf(p, sizeof(p), "/etc/app/%s.conf", five[i]);
		rec("/usr/sbin/app", "open", "r", p);
		/* four in another folder: too few */
		if (i < 4) {
			snprintf(p, sizeof(p), "/srv/app/%s", five[i]);
			rec("/usr/sbin/app", "open", "r", p);
		}
	}
	/* same folder, other access: not merged */
	rec("/usr/sbin/app", "open", "w", "/etc/app/state");
	rs = load(false);
	sr = subj(&rs, "/usr/sbin/app");
	r = must(sr, VIGIL_CLASS_FILE, "/etc/app/*");
	assert_true(r->access == VIGIL_FILE_R);
	assert_int_equal(r->distinct, 5);
	assert_int_equal(r->nexamples, 3);
	assert_string_equal(r->examples[0], "/etc/app/a.conf");
	assert_string_equal(r->examples[2], "/etc/app/c.conf");
	assert_string_equal(r->why, "many siblings");
	assert_non_null(must(sr, VIGIL_CLASS_FILE, "/etc/app/state"));
	assert_non_null(must(sr, VIGIL_CLASS_FILE, "/srv/app/a"));
	assert_int_equal(sr->nrules, 1 + 1 + 4);
	check_covers(&rs);
	vigil_ruleset_free(&rs);
	db_close();
}

static void test_home(void **state)
{
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;

	(void)state;
	db_new("home.db");
	rec("/usr/bin/vim", "open", "r", "/home/alice/.vimrc");
	rec("/usr/bin/vim", "open", "r", "/home/bob/.vimrc");
	rec("/usr/bin/vim", "open", "rw", "/home/bob/.cache/tmpAb12Cd9x");
	rs = load(false);
	sr = subj(&rs, "/usr/bin/vim");
	r = must(sr, VIGIL_CLASS_FILE, "/home/*/.vimrc");
	assert_int_equal(r->distinct, 2);
	assert_string_equal(r->why, "home folder");
	/* temporary names count only in temporary folders */
	must(sr, VIGIL_CLASS_FILE, "/home/*/.cache/tmpAb12Cd9x");
	check_covers(&rs);
	vigil_ruleset_free(&rs);
	db_close();
}

/* Several heuristics on one path: all are named. */
static void test_combined(void **state)
{
	struct vigil_ruleset rs;
	const struct vigil_rule *r;

	(void)state;
	db_new("comb.db");
	rec("/usr/bin/x", "open", "r", "/proc/42/root/usr/lib/libz.so.1.2.13");
	rs = load(false);
	r = must(subj(&rs, "/usr/bin/x"), VIGIL_CLASS_FILE,
		 "/proc/*/root/usr/lib/libz.so*");
	assert_string_equal(r->why, "per-pid /proc + versioned library");
	check_covers(&rs);
	vigil_ruleset_free(&rs);
	db_close();
}

static void fill_mixed(void)
{
	rec("/usr/bin/bash", "exec", "x", "/usr/bin/cat");
	rec("/usr/bin/bash", "exec", "x", "/usr/bin/ls");
	rec("/usr/bin/bash", "signal", "sig34", "/usr/bin/sleep");
	rec("/usr/bin/cat", "open", "r", "/proc/99/status");
	rec("/usr/bin/cat", "mmap", "m", "/usr/lib/libc.so.6");
	rec("/usr/bin/cat", "open", "r", "/usr/lib/libc.so.6");
	rec("/usr/sbin/nginx", "capable", "use", "net_bind_service");
	rec("/usr/sbin/nginx", "bind", "bind", "inet:stream:80");
	rec("/usr/sbin/nginx", "socket", "socket", "inet6:dgram");
	rec("/usr/sbin/nginx", "connect", "connect",
	    "unix:stream:/run/php/php-fpm.sock");
	rec("/usr/sbin/nginx", "socket", "socket", "inet:stream");
	rec("/usr/sbin/nginx", "listen", "listen", "inet:stream:80");
	rec("/usr/bin/ps", "ptrace", "read", "/usr/sbin/nginx");
	rec("/usr/bin/mount", "mount", "mount", "/mnt");
	rec("/usr/sbin/insmod", "module", "load", "(memory)");
	rec("/usr/sbin/modprobe", "module", "load",
	    "/lib/modules/6.1.0/kernel/fs/fat/vfat.ko");
	rec("/home/users/my tool/bin/run", "open", "w", "/tmp/line\nbreak");
	rec("/usr/bin/touch", "create", "c", "/tmp/a b ");
	rec("/usr/bin/touch", "create", "c", "/tmp/x#y\\z*{a,b}?");
	rec("/usr/bin/touch", "create", "c", "/tmp/\x01\x7f\xc3\xa9");
	rec("/usr/bin/rm", "unlink", "d", "/home/bob/file");
	rec_at(1796284400000, "would-deny", "/usr/bin/cat", "open", "r",
	       "/etc/shadow");
}

static void test_classes_and_children(void **state)
{
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;

	(void)state;
	db_new("mixed.db");
	fill_mixed();
	rs = load(false);
	sr = subj(&rs, "/usr/bin/bash");
	assert_int_equal(sr->nchildren, 1);	/* ls is not a subject */
	assert_string_equal(sr->children[0], "/usr/bin/cat");
	r = must(sr, VIGIL_CLASS_FILE, "/usr/bin/cat");
	assert_true(r->access == VIGIL_FILE_X);
	must(sr, VIGIL_CLASS_SIGNAL, "/usr/bin/sleep");
	sr = subj(&rs, "/usr/sbin/nginx");
	must(sr, VIGIL_CLASS_CAP, "net_bind_service");
	r = must(sr, VIGIL_CLASS_NET, "inet:stream:80");
	assert_true(r->access == (VIGIL_NET_BIND | VIGIL_NET_LISTEN));
	must(sr, VIGIL_CLASS_NET, "inet6:dgram");
	must(sr, VIGIL_CLASS_NET, "unix:stream:/run/php/php-fpm.sock");
	must(subj(&rs, "/usr/bin/ps"), VIGIL_CLASS_PTRACE, "/usr/sbin/nginx");
	must(subj(&rs, "/usr/bin/mount"), VIGIL_CLASS_MOUNT, "/mnt");
	/* not a path: "**" then the name */
	r = must(subj(&rs, "/usr/sbin/insmod"), VIGIL_CLASS_MODULE,
		 "**(memory)");
	assert_true(r->heuristics == VIGIL_HEUR_RELATIVE);
	/* would-deny records are accesses too */
	must(subj(&rs, "/usr/bin/cat"), VIGIL_CLASS_FILE, "/etc/shadow");
	/* escaped objects */
	sr = subj(&rs, "/usr/bin/touch");
	must(sr, VIGIL_CLASS_FILE, "/tmp/a\\ b\\ ");
	must(sr, VIGIL_CLASS_FILE, "/tmp/x\\#y\\\\z\\*\\{a\\,b\\}\\?");
	must(sr, VIGIL_CLASS_FILE, "/tmp/\\x01\\x7f\xc3\xa9");
	must(subj(&rs, "/home/users/my tool/bin/run"), VIGIL_CLASS_FILE,
	     "/tmp/line\\x0abreak");
	assert_int_equal(rs.records, 22);
	assert_int_equal(rs.tuples, 22);
	assert_int_equal(rs.skipped, 0);
	check_covers(&rs);
	vigil_ruleset_free(&rs);
	db_close();
}

/* A literal '*' in an observed path stays literal: no wider match. */
static void test_literal_meta(void **state)
{
	const struct vigil_policy_subject *ps;
	struct vigil_policy *pol;
	struct vigil_ruleset rs;
	char *text;

	(void)state;
	db_new("meta.db");
	rec("/usr/bin/touch", "create", "c", "/tmp/x#y\\z*{a,b}?");
	rec("/usr/bin/touch", "create", "c", "/proc/12/a*b");
	rs = load(false);
	text = policy_text(&rs, false, &pol);
	ps = vigil_policy_find_subject(pol, "/usr/bin/touch", 14, NULL, 0,
				       VIGIL_POLICY_UCLASS_ALL);
	assert_non_null(ps);
	assert_true(vigil_policy_allows(ps, VIGIL_CLASS_FILE, VIGIL_FILE_C,
					"/tmp/x#y\\z*{a,b}?", 17));
	assert_false(vigil_policy_allows(ps, VIGIL_CLASS_FILE, VIGIL_FILE_C,
					 "/tmp/x#y\\zQQ{a,b}?", 18));
	/* heuristics skip paths with metacharacters */
	assert_false(vigil_policy_allows(ps, VIGIL_CLASS_FILE, VIGIL_FILE_C,
					 "/proc/13/a*b", 12));
	vigil_policy_free(pol);
	free(text);
	vigil_ruleset_free(&rs);
	db_close();
}

static void test_strict(void **state)
{
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	size_t i, j;

	(void)state;
	db_new("strict.db");
	fill_mixed();
	rec("/usr/bin/ps", "open", "r", "/proc/1234/status");
	rec("/usr/bin/ps", "open", "r", "/proc/5678/status");
	rs = load(true);
	sr = subj(&rs, "/usr/bin/ps");
	must(sr, VIGIL_CLASS_FILE, "/proc/1234/status");
	must(sr, VIGIL_CLASS_FILE, "/proc/5678/status");
	must(subj(&rs, "/usr/bin/cat"), VIGIL_CLASS_FILE,
	     "/usr/lib/libc.so.6");
	for (i = 0; i < rs.nsubjects; i++) {
		for (j = 0; j < rs.subjects[i].nrules; j++) {
			const struct vigil_rule *r = &rs.subjects[i].rules[j];

			/* only what no path can say otherwise */
			assert_true(!r->generalised ||
				    r->heuristics == VIGIL_HEUR_RELATIVE);
			assert_int_equal(r->distinct, 1);
		}
	}
	check_covers(&rs);
	vigil_ruleset_free(&rs);
	db_close();
}

static void test_snapshot_merge(void **state)
{
	struct vigil_tuple t = {
		.seq = 1, .count = 40, .first = 1796284356, .last = 1796290000,
		.uid = 0, .verdict = "learned", .op = "open", .access = "r",
		.exe = "/usr/bin/cat", .object = "/etc/hostname",
	};
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	int64_t snap, tuples, missing;

	(void)state;
	db_new("snap.db");
	rec("/usr/bin/cat", "open", "r", "/etc/hostname");
	/* an older snapshot is ignored */
	assert_int_equal(vigil_store_snapshot_begin(store, 10, &snap), 0);
	t.count = 1000;
	assert_int_equal(vigil_store_add_tuple(store, snap, 1, &t), 0);
	assert_int_equal(vigil_store_snapshot_end(store, snap, &tuples,
						  &missing), 0);
	assert_int_equal(vigil_store_snapshot_begin(store, 20, &snap), 0);
	t.count = 40;
	assert_int_equal(vigil_store_add_tuple(store, snap, 1, &t), 0);
	/* only in the kernel's table (its record was lost) */
	t.seq = 2;
	t.count = 3;
	t.object = "/etc/passwd";
	assert_int_equal(vigil_store_add_tuple(store, snap, 2, &t), 0);
	/* observe mode, allowed by the policy: an access too */
	t.seq = 0;
	t.verdict = "allowed";
	t.object = "/etc/group";
	assert_int_equal(vigil_store_add_tuple(store, snap, 3, &t), 0);
	/* no object */
	t.object = NULL;
	assert_int_equal(vigil_store_add_tuple(store, snap, 4, &t), 0);
	assert_int_equal(vigil_store_snapshot_end(store, snap, &tuples,
						  &missing), 0);
	rs = load(false);
	sr = subj(&rs, "/usr/bin/cat");
	r = must(sr, VIGIL_CLASS_FILE, "/etc/hostname");
	assert_int_equal(r->count, 40);
	assert_int_equal(r->first, 1796284356);
	assert_int_equal(r->last, 1796290000);
	assert_int_equal(must(sr, VIGIL_CLASS_FILE, "/etc/passwd")->count, 3);
	must(sr, VIGIL_CLASS_FILE, "/etc/group");
	assert_int_equal(rs.snapshot, snap);
	assert_int_equal(rs.snapshot_tuples, 3);
	assert_int_equal(rs.records, 1);
	assert_int_equal(rs.skipped, 1);
	check_covers(&rs);
	vigil_ruleset_free(&rs);
	db_close();
}

static void test_subjects(void **state)
{
	char *names[] = { "/usr/bin/cat", "/usr/sbin/nginx" };
	char *bad[] = { "/usr/bin/cat", "/no/such" };
	struct vigil_ruleset rs;

	(void)state;
	db_new("subj.db");
	fill_mixed();
	assert_int_equal(vigil_rules_load(store, names, 2, false, &rs), 0);
	assert_int_equal(rs.nsubjects, 2);
	assert_string_equal(rs.subjects[0].exe, "/usr/bin/cat");
	assert_string_equal(rs.subjects[1].exe, "/usr/sbin/nginx");
	vigil_ruleset_free(&rs);
	vigil_ruleset_free(NULL);
	assert_int_equal(vigil_rules_load(store, bad, 2, false, &rs),
			 -ENOENT);
	assert_int_equal(vigil_store_subject_known(store, "/usr/bin/cat"), 1);
	assert_int_equal(vigil_store_subject_known(store, "/no/such"), 0);
	db_close();
}

static void test_deterministic(void **state)
{
	struct vigil_ruleset a, b;
	char *ta, *tb;
	char first[256];

	(void)state;
	db_new("det1.db");
	fill_mixed();
	rec("/usr/bin/ps", "open", "r", "/proc/1234/status");
	rec("/usr/bin/ps", "open", "r", "/proc/5678/status");
	a = load(false);
	b = load(false);
	ta = policy_text(&a, false, NULL);
	tb = policy_text(&b, false, NULL);
	assert_string_equal(ta, tb);
	free(tb);
	vigil_ruleset_free(&b);
	db_close();
	snprintf(first, sizeof(first), "%s", path);

	/* the same records inserted in reverse order */
	db_new("det2.db");
	rec("/usr/bin/ps", "open", "r", "/proc/5678/status");
	rec("/usr/bin/ps", "open", "r", "/proc/1234/status");
	db_close();
	db_reopen();
	assert_int_equal(vigil_store_begin(store), 0);
	{
		/* fill_mixed's records, then ps's, in another order: same
		 * times, so use the first database's rows */
		char sql[768];
		sqlite3 *db = vigil_store_sqlite(store);

		snprintf(sql, sizeof(sql),
			 "DELETE FROM records; ATTACH '%s' AS o; "
			 "INSERT INTO records (node, time_ms, serial, seq, "
			 "verdict, op, access, uid, exe, path, target, "
			 "object, pid, comm, extra) SELECT node, time_ms, "
			 "serial, seq, verdict, op, access, uid, exe, path, "
			 "target, object, pid, comm, extra FROM o.records "
			 "ORDER BY id DESC", first);
		assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL),
				 SQLITE_OK);
	}
	assert_int_equal(vigil_store_commit(store), 0);
	assert_int_equal(sqlite3_exec(vigil_store_sqlite(store),
				      "DETACH o", NULL, NULL, NULL),
			 SQLITE_OK);
	b = load(false);
	tb = policy_text(&b, false, NULL);
	assert_string_equal(ta, tb);
	free(ta);
	free(tb);
	vigil_ruleset_free(&a);
	vigil_ruleset_free(&b);
	vigil_store_close(store);
	store = NULL;
}

/*
 * Random object bytes: the policy always parses and covers every distinct
 * tuple, and the rules account for every access.
 */
#define N_RANDOM 400
static void test_random_objects(void **state)
{
	static const char alphabet[] = "/*?{},#\\ \t.-_aZ09\x01\x7f\xff";
	static const char *const ops[] = { "open", "create", "mmap", "exec" };
	static const char *const acc[] = { "r", "c", "m", "x" };
	struct vigil_ruleset rs;
	unsigned int rnd = 12345;
	char p[64], *keys[N_RANDOM];
	int i, j, n, distinct;

	(void)state;
	db_new("random.db");
	for (i = 0; i < N_RANDOM; i++) {
		rnd = rnd * 1103515245 + 12345;
		n = 1 + (rnd >> 16) % 40;
		p[0] = i % 3 ? '/' : 'x';	/* some not paths */
		for (j = 1; j < n; j++) {
			rnd = rnd * 1103515245 + 12345;
			p[j] = alphabet[(rnd >> 16) % (sizeof(alphabet) - 1)];
		}
		p[n] = '\0';
		if (i % 5 == 0)
			snprintf(p, sizeof(p), "/tmp/f%d.a%dB%dc", i % 7, i,
				 i * 7);
		rec(i % 2 ? "/usr/bin/a" : "/usr/bin/b c", ops[i % 4],
		    acc[i % 4], p);
		/* The distinct tuples, counted here, not by SQL or rules.c. */
		keys[i] = malloc(sizeof(p) + 16);
		assert_non_null(keys[i]);
		snprintf(keys[i], sizeof(p) + 16, "%d %d %s", i % 2, i % 4, p);
	}
	qsort(keys, N_RANDOM, sizeof(keys[0]), cmp_str);
	for (i = 0, distinct = 0; i < N_RANDOM; i++)
		if (i == 0 || strcmp(keys[i], keys[i - 1]))
			distinct++;
	for (i = 0; i < N_RANDOM; i++)
		free(keys[i]);
	assert_true(distinct > N_RANDOM / 2);
	rs = load(false);
	assert_int_equal(check_covers(&rs), distinct);
	assert_int_equal(rules_count(&rs), N_RANDOM);
	vigil_ruleset_free(&rs);
	rs = load(true);
	assert_int_equal(check_covers(&rs), distinct);
	assert_int_equal(rules_count(&rs), N_RANDOM);
	vigil_ruleset_free(&rs);
	db_close();
}

static void test_escape(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(vigil_glob_escape("a b", 3, false, buf, sizeof(buf)),
			 4);
	assert_string_equal(buf, "a\\ b");
	vigil_glob_escape("*x*", 3, true, buf, sizeof(buf));
	assert_string_equal(buf, "*x*");
	vigil_glob_escape("*\t\n", 3, false, buf, sizeof(buf));
	assert_string_equal(buf, "\\*\\x09\\x0a");
	/* snprintf semantics */
	assert_int_equal(vigil_glob_escape("#####", 5, false, buf, 4), 10);
	assert_string_equal(buf, "\\#\\");
	assert_string_equal(vigil_time_iso(0, buf, sizeof(buf)),
			    "1970-01-01T00:00:00Z");
}

static void test_generate_diff(void **state)
{
	char pol[300], pol2[300], out[300], dbp[300], bad[300];
	char *text, *t2;

	(void)state;
	db_new("verbs.db");
	fill_mixed();
	db_close();
	snprintf(dbp, sizeof(dbp), "%s", path);
	snprintf(pol, sizeof(pol), "%s/gen.policy", dir);
	snprintf(pol2, sizeof(pol2), "%s/gen2.policy", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(bad, sizeof(bad), "%s/bad.policy", dir);

	/* the trial's would-deny included (diff agrees), judged against an
	 * empty tree (the same everywhere) */
	assert_int_equal(run_verb(do_generate, (char *[]){ "generate", "--db",
			 dbp, "-o", pol, "--include-would-deny", "--root",
			 dir, NULL }, out), 0);
	assert_int_equal(run_verb(do_generate, (char *[]){ "generate", "--db",
			 dbp, "-o", pol2, "--include-would-deny", "--root",
			 dir, NULL }, out), 0);
	text = slurp(pol);
	t2 = slurp(pol2);
	assert_string_equal(text, t2);	/* byte-identical */
	free(t2);
	assert_non_null(strstr(text, "generated by vigil " VIGIL_VERSION));
	assert_non_null(strstr(text, "# database: "));
	assert_non_null(strstr(text, "\t# why: 1 distinct, count 2, first "));
	assert_non_null(strstr(text, "heuristic: per-pid /proc; blast "
				     "radius 0 more existing (per-pid /proc: "
				     "not bounded); uid 0\n"
				     "\tfile r /proc/*/status\n"));
	assert_non_null(strstr(text, "subject /home/users/my\\ tool/bin/run {"));
	assert_non_null(strstr(text, "\t# runs subject /usr/bin/cat\n"));

	/* the generated policy agrees with the observations */
	assert_int_equal(run_verb(do_diff, (char *[]){ "diff", "--db", dbp,
			 pol, NULL }, out), 0);
	t2 = slurp(out);
	assert_string_equal(t2, "0 needed but missing, "
				"0 allowed but never used\n");
	free(t2);

	/* remove a rule, add one: both are reported */
	{
		static const char was[] = "\tcap use net_bind_service\n";
		char *p = strstr(text, was), *edited;

		assert_non_null(p);
		assert_true(asprintf(&edited, "%.*s\tcap use net_raw\n%s"
				     "subject /usr/bin/never {\n"
				     "\tfile r /x\n}\n", (int)(p - text), text,
				     p + strlen(was)) > 0);
		write_text(bad, edited);
		free(edited);
	}
	assert_int_equal(run_verb(do_diff, (char *[]){ "diff", "--db", dbp,
			 bad, NULL }, out), 1);
	t2 = slurp(out);
	assert_non_null(strstr(t2, "needed but missing:\n"
				   "subject /usr/sbin/nginx {\n"
				   "\tcap use net_bind_service\t# count 1"));
	assert_non_null(strstr(t2, "allowed but never used:\n"));
	assert_non_null(strstr(t2, ": cap use net_raw\t# subject "
				   "/usr/sbin/nginx\n"));
	assert_non_null(strstr(t2, ": file r /x\t# subject /usr/bin/never\n"));
	assert_non_null(strstr(t2, "1 needed but missing, "
				   "2 allowed but never used\n"));
	free(t2);

	/* --subject narrows both sides */
	assert_int_equal(run_verb(do_diff, (char *[]){ "diff", "--db", dbp,
			 "--subject", "/usr/bin/cat", bad, NULL }, out), 0);
	assert_int_equal(run_verb(do_diff, (char *[]){ "diff", "--db", dbp,
			 "--subject", "/usr/sbin/nginx", bad, NULL }, out),
			 1);

	/* a partly used rule */
	write_text(bad, "subject /usr/sbin/nginx {\n"
			"\tnet bind,listen,connect inet:stream:80\n}\n");
	assert_int_equal(run_verb(do_diff, (char *[]){ "diff", "--db", dbp,
			 "--subject", "/usr/sbin/nginx", bad, NULL }, out),
			 1);
	t2 = slurp(out);
	assert_non_null(strstr(t2, ":2: net bind,listen,connect "
				   "inet:stream:80\t# subject /usr/sbin/nginx"
				   ", unused: connect\n"));
	free(t2);

	/* a policy that does not parse: FILE:LINE: message, exit 2 */
	write_text(bad, "subject /usr/bin/cat {\n\tfiel r /etc/x\n}\n");
	assert_int_equal(run_verb(do_diff, (char *[]){ "diff", "--db", dbp,
			 bad, NULL }, out), 2);
	t2 = slurp(out);
	assert_non_null(strstr(t2, "bad.policy:2: unknown class 'fiel'"));
	free(t2);

	/* usage errors and unknown subjects: exit 2 */
	assert_int_equal(run_verb(do_diff, (char *[]){ "diff", "--db", dbp,
			 NULL }, out), 2);
	assert_int_equal(run_verb(do_generate, (char *[]){ "generate",
			 "--db", dbp, "--subject", "/no/such", NULL }, out),
			 2);
	assert_int_equal(run_verb(do_generate, (char *[]){ "generate",
			 "--db", dbp, "extra", NULL }, out), 2);
	assert_int_equal(run_verb(do_generate, (char *[]){ "generate",
			 "--db", "/nonexistent/x.db", NULL }, out), 2);
	free(text);
}

/* Near the kernel's limits: compact evidence, then a clear refusal. */
static void test_limits(void **state)
{
	char out[300], dbp[300], obj[64], *t;
	int i;

	(void)state;
	snprintf(out, sizeof(out), "%s/limits.out", dir);
	db_new("limits.db");
	for (i = 0; i < 12500; i++) {
		snprintf(obj, sizeof(obj), "/data/d%d/file", i);
		rec("/usr/bin/big", "open", "r", obj);
	}
	db_close();
	snprintf(dbp, sizeof(dbp), "%s", path);
	assert_int_equal(run_verb(do_generate, (char *[]){ "generate", "--db",
			 dbp, "--strict", NULL }, out), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "# evidence of literal rules left out"));
	assert_null(strstr(t, "\t# count "));
	assert_non_null(strstr(t, "\tfile r /data/d12499/file\n"));
	free(t);
	db_reopen();
	assert_int_equal(vigil_store_begin(store), 0);
	for (i = 0; i < 4000; i++) {
		snprintf(obj, sizeof(obj), "/data/e%d/file", i);
		rec("/usr/bin/big", "open", "r", obj);
	}
	db_close();
	assert_int_equal(run_verb(do_generate, (char *[]){ "generate", "--db",
			 dbp, "--strict", NULL }, out), 2);
	t = slurp(out);
	assert_non_null(strstr(t, "exceeds the kernel's limits"));
	free(t);
}

/* ---- safe generalisation (vigil_rules_load_opts, blast.c) ---- */

/* Make ROOT/rel (and its folders) as an empty file. */
static void touch_in(const char *root, const char *rel)
{
	char p[600], cmd[1300];

	snprintf(p, sizeof(p), "%s%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\" && : > '%s'",
		 p, p);
	assert_int_equal(system(cmd), 0);
}

static struct vigil_ruleset load_checked(const char *root, bool broad,
					 const char *sensitive)
{
	struct vigil_rules_opts o = {
		.no_would_deny = true, .check = true, .root = root,
		.broad = broad, .sensitive_file = sensitive,
	};
	struct vigil_ruleset rs;
	char err[300] = "";

	if (vigil_rules_load_opts(store, NULL, 0, &o, &rs, err, sizeof(err)))
		fail_msg("load: %s", err);
	return rs;
}

/*
 * Six reads in /etc (what getaddrinfo reads) never give /etc/STAR: it
 * would admit /etc/shadow, which exists here and was never read; even
 * when /etc/shadow does not exist on the machine (the literal list).
 */
static void test_safe_etc(void **state)
{
	static const char *const names[] = {
		"/etc/hosts", "/etc/resolv.conf", "/etc/nsswitch.conf",
		"/etc/host.conf", "/etc/gai.conf", "/etc/ld.so.cache",
	};
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	char root[300];
	size_t i;

	(void)state;
	for (int with_shadow = 0; with_shadow < 2; with_shadow++) {
		snprintf(root, sizeof(root), "%s/root-etc%d", dir, with_shadow);
		for (i = 0; i < ARRAY_SIZE(names); i++)
			touch_in(root, names[i]);
		if (with_shadow)
			touch_in(root, "/etc/shadow");
		db_new(with_shadow ? "etc1.db" : "etc0.db");
		for (i = 0; i < ARRAY_SIZE(names); i++)
			rec("/usr/bin/getent", "open", "r", names[i]);
		rs = load_checked(root, true, NULL);
		sr = subj(&rs, "/usr/bin/getent");
		assert_null(rule(sr, VIGIL_CLASS_FILE, "/etc/*"));
		assert_int_equal(sr->nrules, 6);
		r = must(sr, VIGIL_CLASS_FILE, "/etc/hosts");
		assert_false(r->generalised);
		assert_non_null(r->blast);
		assert_non_null(strstr(r->blast, "not generalised to /etc/*: "
				       "it would admit what the sensitive "
				       "pattern /etc/shadow* names, whatever "
				       "exists"));
		check_covers(&rs);
		vigil_ruleset_free(&rs);
		/* unchecked, the old heuristic would make it */
		rs = load(false);
		must(subj(&rs, "/usr/bin/getent"), VIGIL_CLASS_FILE, "/etc/*");
		vigil_ruleset_free(&rs);
		db_close();
	}
}

/* The blast bound: max(20, 10 x observed) more existing objects. */
static void test_safe_blast(void **state)
{
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	char root[300], name[64], sens[400];
	int i;
	FILE *f;

	(void)state;
	snprintf(root, sizeof(root), "%s/root-blast", dir);
	db_new("blast.db");
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "/srv/app/conf/c%d.conf", i);
		touch_in(root, name);
		rec("/usr/bin/app", "open", "r", name);
	}
	/* 3 more: within the bound, with examples */
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "/srv/app/conf/other%d", i);
		touch_in(root, name);
	}
	rs = load_checked(root, false, NULL);
	r = must(subj(&rs, "/usr/bin/app"), VIGIL_CLASS_FILE,
		 "/srv/app/conf/*");
	assert_string_equal(r->blast, "blast radius 3 more existing, e.g. "
			    "/srv/app/conf/other0, /srv/app/conf/other1, "
			    "/srv/app/conf/other2");
	vigil_ruleset_free(&rs);
	/* 53 more: over max(20, 50) */
	for (i = 3; i < 53; i++) {
		snprintf(name, sizeof(name), "/srv/app/conf/other%d", i);
		touch_in(root, name);
	}
	rs = load_checked(root, false, NULL);
	sr = subj(&rs, "/usr/bin/app");
	assert_null(rule(sr, VIGIL_CLASS_FILE, "/srv/app/conf/*"));
	r = must(sr, VIGIL_CLASS_FILE, "/srv/app/conf/c0.conf");
	assert_non_null(strstr(r->blast, "it would admit 53 more existing "
			       "objects, e.g. "));
	assert_non_null(strstr(r->blast, "over the bound of 50 (--broad"));
	vigil_ruleset_free(&rs);
	/* --broad allows it */
	rs = load_checked(root, true, NULL);
	r = must(subj(&rs, "/usr/bin/app"), VIGIL_CLASS_FILE,
		 "/srv/app/conf/*");
	assert_non_null(strstr(r->blast, "blast radius 53 more existing"));
	vigil_ruleset_free(&rs);
	/* a sensitive file of the admin's own, even with --broad */
	snprintf(sens, sizeof(sens), "%s/sensitive.conf", dir);
	f = fopen(sens, "w");
	assert_non_null(f);
	fputs("# ours\n\n  /srv/app/conf/other4?  \n", f);
	assert_int_equal(fclose(f), 0);
	rs = load_checked(root, true, sens);
	sr = subj(&rs, "/usr/bin/app");
	assert_null(rule(sr, VIGIL_CLASS_FILE, "/srv/app/conf/*"));
	r = must(sr, VIGIL_CLASS_FILE, "/srv/app/conf/c1.conf");
	assert_non_null(strstr(r->blast, "it would admit what the sensitive "
			       "pattern /srv/app/conf/other4? names"));
	vigil_ruleset_free(&rs);
	/* a bad line is an error naming file and line */
	f = fopen(sens, "w");
	assert_non_null(f);
	fputs("/ok\n/bad{\n", f);
	assert_int_equal(fclose(f), 0);
	{
		struct vigil_rules_opts o = { .check = true, .root = root,
					      .sensitive_file = sens };
		char err[300] = "";

		assert_int_equal(vigil_rules_load_opts(store, NULL, 0, &o, &rs,
						       err, sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, "sensitive.conf:2: "));
	}
	db_close();
}

/* Token string of a glob without braces, as blast_tokens_meet takes it. */
static size_t toks(const char *g, uint16_t *t)
{
	size_t n = 0;

	for (; *g; g++) {
		if (g[0] == '*' && g[1] == '*') {
			t[n++] = VIGIL_GLOB_DSTAR;
			g++;
		} else {
			t[n++] = *g == '*' ? VIGIL_GLOB_STAR :
				 *g == '?' ? VIGIL_GLOB_ANY : (unsigned char)*g;
		}
	}
	return n;
}

static int meet(const char *a, const char *b, bool opaque)
{
	uint16_t ta[256], tb[256];
	size_t na = toks(a, ta), nb = toks(b, tb);

	return blast_tokens_meet(ta, na, tb, nb, opaque);
}

/* The overlap of two globs, judged on the patterns alone. */
static void test_sensitive_overlap(void **state)
{
	(void)state;
	/* places: any text both match */
	assert_int_equal(meet("/etc/ssl/private/*", "/etc/ssl/private/**", false), 1);
	assert_int_equal(meet("/home/*/.ssh/config", "/home/*/.ssh/**", false), 1);
	assert_int_equal(meet("/home/*/.config/x/rc", "/home/*/.ssh/**", false), 0);
	assert_int_equal(meet("/proc/*/environ", "/proc/*/environ", false), 1);
	assert_int_equal(meet("/proc/*/status", "/proc/*/environ", false), 0);
	assert_int_equal(meet("/proc/*/status", "/proc/*/mem", false), 0);
	assert_int_equal(meet("/etc/*", "/etc/shadow*", false), 1);
	assert_int_equal(meet("/etc/ssl/*", "/etc/ssl/private/**", false), 0);
	assert_int_equal(meet("/etc/ssl/*", "/etc/ssl/private", false), 1);
	assert_int_equal(meet("/var/log/audit/*", "/var/log/audit/**", false), 1);
	assert_int_equal(meet("/var/log/*", "/var/log/audit/**", false), 0);
	assert_int_equal(meet("/sys/kernel/security/x/*", "/sys/kernel/security/**", false), 1);
	assert_int_equal(meet("/sys/kernel/*", "/sys/kernel/security/**", false), 0);
	/* '*' never crosses '/', '?' is one byte */
	assert_int_equal(meet("/a/*", "/a/b/c", false), 0);
	assert_int_equal(meet("/a/???", "/a/bc", false), 0);
	assert_int_equal(meet("/a/???", "/a/b*", false), 1);
	assert_int_equal(meet("/root/x", "/root/**", false), 1);
	assert_int_equal(meet("/rootx/y", "/root/**", false), 0);
	/* names: the glob's own text must spell one */
	assert_int_equal(meet("/srv/k/*.key", "**/*.key", true), 1);
	assert_int_equal(meet("/srv/k/srv-??????.key", "**/*.key", true), 1);
	assert_int_equal(meet("/srv/k/state.*", "**/*.key", true), 0);
	assert_int_equal(meet("/usr/lib/libz.so*", "**/*.key", true), 0);
	assert_int_equal(meet("/srv/k/*", "**/id_rsa*", true), 0);
	assert_int_equal(meet("/srv/k/id_rsa.*", "**/id_rsa*", true), 1);
	assert_int_equal(meet("/home/*/.ssh/id_rsa", "**/id_rsa*", true), 1);
	/* the same without opacity: a star spells anything */
	assert_int_equal(meet("/srv/k/state.*", "**/*.key", false), 1);
}

/*
 * Sensitive objects judged on the patterns, whatever exists: an empty
 * /etc/ssl/private, one user's ~/.ssh/config, /var/log/audit and
 * /sys/kernel/security read on a tree where none of them exists (and no
 * /proc) never become globs; the literal rules that stay are marked;
 * --root that does not exist is an error.
 */
static void test_safe_patterns(void **state)
{
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	char root[300], name[700], err[300] = "";
	int i;

	(void)state;
	snprintf(root, sizeof(root), "%s/root-pat", dir);
	snprintf(name, sizeof(name), "mkdir -p %s/etc/ssl/private %s/srv",
		 root, root);
	assert_int_equal(system(name), 0);
	db_new("pat.db");
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "/etc/ssl/private/k%d.txt", i);
		rec("/usr/bin/p", "open", "r", name);
		snprintf(name, sizeof(name), "/var/log/audit/audit.log.%d", i);
		rec("/usr/bin/p", "open", "r", name);
		snprintf(name, sizeof(name), "/sys/kernel/security/x/f%d", i);
		rec("/usr/bin/p", "open", "r", name);
	}
	rec("/usr/bin/p", "open", "r", "/home/alice/.ssh/config");
	rec("/usr/bin/p", "open", "r", "/home/alice/.config/p/rc");
	rec("/usr/bin/p", "open", "r", "/proc/123/environ");
	rec("/usr/bin/p", "open", "r", "/proc/123/status");
	rec("/usr/bin/p", "open", "r", "/etc/shadow");
	rec("/usr/bin/p", "open", "r", "/srv/k/ab12cd.key");
	rec("/usr/bin/p", "open", "r", "/srv/k/x9Kq2M.key");
	rec("/usr/bin/p", "open", "r", "/srv/k/state.Ab3dE9");
	rec("/usr/bin/p", "open", "r", "/srv/k/state.x9Kq2M");
	rs = load_checked(root, false, NULL);
	sr = subj(&rs, "/usr/bin/p");
	assert_null(rule(sr, VIGIL_CLASS_FILE, "/etc/ssl/private/*"));
	r = must(sr, VIGIL_CLASS_FILE, "/etc/ssl/private/k0.txt");
	assert_false(r->generalised);
	assert_string_equal(r->sensitive, "/etc/ssl/private/**");
	assert_non_null(strstr(r->blast, "not generalised to "
			       "/etc/ssl/private/*: it would admit what the "
			       "sensitive pattern /etc/ssl/private/** names"));
	assert_null(rule(sr, VIGIL_CLASS_FILE, "/var/log/audit/*"));
	assert_null(rule(sr, VIGIL_CLASS_FILE, "/var/log/audit/audit.log.*"));
	r = must(sr, VIGIL_CLASS_FILE, "/var/log/audit/audit.log.3");
	assert_string_equal(r->sensitive, "/var/log/audit/**");
	assert_null(rule(sr, VIGIL_CLASS_FILE, "/sys/kernel/security/x/*"));
	must(sr, VIGIL_CLASS_FILE, "/sys/kernel/security/x/f5");
	assert_null(rule(sr, VIGIL_CLASS_FILE, "/home/*/.ssh/config"));
	r = must(sr, VIGIL_CLASS_FILE, "/home/alice/.ssh/config");
	assert_string_equal(r->sensitive, "/home/*/.ssh/**");
	r = must(sr, VIGIL_CLASS_FILE, "/home/*/.config/p/rc");
	assert_null(r->sensitive);
	assert_null(rule(sr, VIGIL_CLASS_FILE, "/proc/*/environ"));
	r = must(sr, VIGIL_CLASS_FILE, "/proc/123/environ");
	assert_string_equal(r->sensitive, "/proc/*/environ");
	must(sr, VIGIL_CLASS_FILE, "/proc/*/status");
	r = must(sr, VIGIL_CLASS_FILE, "/etc/shadow");
	assert_string_equal(r->sensitive, "/etc/shadow*");
	/* a key's name spelled by the glob: refused; a random name: not */
	assert_null(rule(sr, VIGIL_CLASS_FILE, "/srv/k/*.key"));
	r = must(sr, VIGIL_CLASS_FILE, "/srv/k/ab12cd.key");
	assert_string_equal(r->sensitive, "**/*.key");
	must(sr, VIGIL_CLASS_FILE, "/srv/k/state.*");
	check_covers(&rs);
	/* the policy text marks each literal sensitive rule */
	{
		char *t = policy_text(&rs, false, NULL);

		assert_non_null(strstr(t, "\t# sensitive: it matches /etc/shadow* "
				       "of the sensitive list; the program used "
				       "it (r) while learning: keep it only if "
				       "it must\n\tfile r /etc/shadow\n"));
		free(t);
	}
	vigil_ruleset_free(&rs);
	/* --root that does not exist */
	{
		struct vigil_rules_opts o = { .check = true,
					      .root = "/nonexistent-vigil" };

		assert_int_equal(vigil_rules_load_opts(store, NULL, 0, &o, &rs,
						       err, sizeof(err)),
				 -ENOENT);
		assert_string_equal(err, "--root /nonexistent-vigil: No such "
				    "file or directory");
	}
	db_close();
}

/*
 * Names that vary between runs, from the database: a pid-numbered temp
 * file of three runs (its number the pid of the records), a number that
 * is no pid but differs run to run, a pid-numbered link seen once; the
 * state file, rotations and configs stay literal.
 */
/*
 * heur_vary's cost is near linear in the names of one folder and shape
 * (it was n^2/2 calls of rules_vary_glob: 2,000 names cost seconds), and
 * its groups are the same: 1,000 config names read in every run (none
 * merge), 1,000 pid-numbered snapshots of 1,000 runs (one glob), in
 * one folder 1,000 numbered names of which every tenth was made by the
 * program (those merge, the others stay literal), and 1,000 module names
 * of long words that do not look random (none merge).
 */
static void test_vary_calls(void **state)
{
	const int64_t t = 1796284800000LL, hour = 3600000;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	struct vigil_ruleset rs;
	char name[128];
	size_t i, calls, lit;

	(void)state;
	db_new("vary-calls.db");
	for (i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "/etc/b/conf-%zu.conf", 1000 + i);
		rec_pid_v = 100;
		rec_at(t, "learned", "/usr/bin/b", "open", "r", name);
		rec_pid_v = 101;
		rec_at(t + 24 * hour, "learned", "/usr/bin/b", "open", "r",
		       name);
		snprintf(name, sizeof(name), "/var/lib/b/temp-%zu.rdb",
			 20000 + 7 * i);
		rec_pid_v = (uint32_t)(20000 + 7 * i);
		rec_at(t + (int64_t)i * hour, "learned", "/usr/bin/b", "open",
		       "wc", name);
		snprintf(name, sizeof(name), "/srv/b/seg-%zu.dat", 5000 + i);
		rec_pid_v = 100;
		rec_at(t, "learned", "/usr/bin/b", "open", i % 10 ? "r" : "wc",
		       name);
		rec_at(t + 24 * hour, "learned", "/usr/bin/b", "open", "r",
		       name);
		/* long words that do not look random (python modules) */
		snprintf(name, sizeof(name), "/usr/lib/b/module%c%c%c.py",
			 "ghijklmnopqrstuv"[i / 256 % 16],
			 "ghijklmnopqrstuv"[i / 16 % 16],
			 "ghijklmnopqrstuv"[i % 16]);
		rec_at(t, "learned", "/usr/bin/b", "open", "r", name);
		rec_at(t + 24 * hour, "learned", "/usr/bin/b", "open", "r",
		       name);
	}
	rec_pid_v = 100;
	calls = rules_vary_calls;
	rs = load(false);
	calls = rules_vary_calls - calls;
	sr = subj(&rs, "/usr/bin/b");
	r = must(sr, VIGIL_CLASS_FILE, "/var/lib/b/temp-*.rdb");
	assert_int_equal(r->distinct, 1000);
	r = must(sr, VIGIL_CLASS_FILE, "/srv/b/seg-*.dat");
	assert_int_equal(r->distinct, 100);
	assert_string_equal(r->why, "numbers it made");
	/* the others stay names (then many siblings, a heuristic after) */
	for (i = lit = 0; i < sr->nrules; i++)
		lit += !strncmp(sr->rules[i].object, "/etc/b/", 7);
	assert_int_equal(lit, 1);
	r = must(sr, VIGIL_CLASS_FILE, "/etc/b/*");
	assert_string_equal(r->why, "many siblings");
	assert_int_equal(r->distinct, 1000);
	r = must(sr, VIGIL_CLASS_FILE, "/srv/b/*");
	assert_int_equal(r->distinct, 900);
	r = must(sr, VIGIL_CLASS_FILE, "/usr/lib/b/*");
	assert_int_equal(r->distinct, 1000);
	/* 4,000 names: a few calls each, not one per pair (n^2/2 a folder) */
	if (calls > 10 * 4000)
		fail_msg("%zu calls of rules_vary_glob for 4,000 names", calls);
	vigil_ruleset_free(&rs);
	db_close();
}

static void test_vary_db(void **state)
{
	static const uint32_t pids[] = { 6745, 6752, 6759 };
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	char root[300], name[128];
	size_t i;
	char *t;

	(void)state;
	snprintf(root, sizeof(root), "%s/root-vary", dir);
	touch_in(root, "/var/lib/x/state.json");
	db_new("vary.db");
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "/var/lib/x/.state.%u.tmp",
			 (unsigned int)pids[i]);
		rec_pid(pids[i], "/usr/bin/w", "create", "c", name);
		rec_pid(pids[i], "/usr/bin/w", "open", "wc", name);
		rec_pid(pids[i], "/usr/bin/w", "rename", "d", name);
		rec_pid(pids[i], "/usr/bin/w", "rename", "c",
			"/var/lib/x/state.json");
		snprintf(name, sizeof(name), "/var/lib/x/temp-%u.rdb",
			 (unsigned int)(1000 + 1111 * i));
		rec("/usr/bin/w", "open", "wc", name);
		rec("/usr/bin/w", "open", "r", "/etc/w/site1.conf");
		rec("/usr/bin/w", "open", "r", "/etc/w/site2.conf");
	}
	rec("/usr/bin/w", "open", "a", "/var/log/w/log.1");
	rec("/usr/bin/w", "open", "a", "/var/log/w/log.2");
	rec_pid(4242, "/usr/bin/w", "link", "c", "/run/w/admin.sock.4242.bak");
	/* a rotation it does itself: rot.1 renamed to rot.2, rot to rot.1 */
	rec("/usr/bin/w", "rename", "d", "/var/log/w/rot.1");
	rec("/usr/bin/w", "rename", "c", "/var/log/w/rot.2");
	rec("/usr/bin/w", "rename", "d", "/var/log/w/rot");
	rec("/usr/bin/w", "rename", "c", "/var/log/w/rot.1");
	rs = load_checked(root, false, NULL);
	sr = subj(&rs, "/usr/bin/w");
	r = must(sr, VIGIL_CLASS_FILE, "/var/lib/x/.state.*.tmp");
	assert_int_equal(r->distinct, 3);
	assert_string_equal(r->why, "pid in name");
	assert_int_equal(r->access, VIGIL_FILE_W | VIGIL_FILE_C | VIGIL_FILE_D);
	r = must(sr, VIGIL_CLASS_FILE, "/var/lib/x/temp-*.rdb");
	assert_string_equal(r->why, "varying number");
	r = must(sr, VIGIL_CLASS_FILE, "/run/w/admin.sock.*.bak");
	assert_string_equal(r->why, "pid in name");
	assert_int_equal(r->distinct, 1);
	must(sr, VIGIL_CLASS_FILE, "/var/lib/x/state.json");
	must(sr, VIGIL_CLASS_FILE, "/var/log/w/log.1");
	must(sr, VIGIL_CLASS_FILE, "/var/log/w/log.2");
	r = must(sr, VIGIL_CLASS_FILE, "/var/log/w/rot.*");
	assert_string_equal(r->why, "numbers it made");
	assert_int_equal(r->distinct, 2);
	must(sr, VIGIL_CLASS_FILE, "/var/log/w/rot");
	must(sr, VIGIL_CLASS_FILE, "/etc/w/site1.conf");
	must(sr, VIGIL_CLASS_FILE, "/etc/w/site2.conf");
	check_covers(&rs);
	t = policy_text(&rs, false, NULL);
	assert_non_null(strstr(t, "e.g. /var/lib/x/.state.6745.tmp, "
			       "/var/lib/x/.state.6752.tmp, "
			       "/var/lib/x/.state.6759.tmp; heuristic: pid in "
			       "name; blast radius 0 more existing"));
	free(t);
	vigil_ruleset_free(&rs);
	db_close();
}

/*
 * mkdtemp drew one case and no digit for one of six quarantine folders
 * ("ISMSXH", 1 name in 90): the random-name glob its five siblings make
 * takes it too (it held a literal rule beside the glob, and the next
 * run's folder is another name; CI of 2026-12-08, 93-next-run).
 */
static void test_random_absorb(void **state)
{
	static const char *const sfx[] = {
		"ISMSXH", "aksnRE", "Pk0Ils", "NTVNpo", "uzBG2s", "yiPjkS",
	};
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	char name[128];
	size_t i;

	(void)state;
	db_new("absorb.db");
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		snprintf(name, sizeof(name),
			 "/srv/b.git/objects/tmp_objdir-incoming-%s", sfx[i]);
		rec("/usr/bin/g", "mkdir", "c", name);
		rec("/usr/bin/g", "open", "r", name);
		rec("/usr/bin/g", "rmdir", "d", name);
	}
	rec("/usr/bin/g", "open", "r", "/srv/b.git/objects/info/ALTERN");
	rs = load(false);
	sr = subj(&rs, "/usr/bin/g");
	r = must(sr, VIGIL_CLASS_FILE,
		 "/srv/b.git/objects/tmp_objdir-incoming-*");
	assert_int_equal(r->distinct, 6);
	assert_int_equal(r->access, VIGIL_FILE_R | VIGIL_FILE_C | VIGIL_FILE_D);
	for (i = 0; i < sr->nrules; i++)
		if (strstr(sr->rules[i].glob, "ISMSXH"))
			fail_msg("a literal rule: %s", sr->rules[i].glob);
	/* a literal no random glob matches stays */
	must(sr, VIGIL_CLASS_FILE, "/srv/b.git/objects/info/ALTERN");
	check_covers(&rs);
	vigil_ruleset_free(&rs);
	db_close();
}

/*
 * A push's quarantine (git receive-pack, issue 24 §2): each run makes
 * objects/tmp_objdir-incoming-XXXXXX/ with its own fan-out folders, temp
 * and hashed names and a pack/ folder, moves the objects into the store
 * and removes it. The folder's name varies, so what is beneath it takes
 * its glob: one rule for each shape beneath, not one per run (the next
 * run's folder is new). A folder of fixed names is left as it is, and so
 * is what lies beneath a folder glob of another heuristic (siblings).
 */
static void test_beneath_db(void **state)
{
	static const char o[] = "/srv/b.git/objects";
	static const char *const in[] = { "6WNIDC", "q1Zx9k", "HZOnjR" };
	static const char *const hh[] = { "4d", "ed", "1c" };
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	char root[300], name[200], g[200];
	size_t i;
	char *t;

	(void)state;
	snprintf(root, sizeof(root), "%s/root-beneath", dir);
	touch_in(root, "/srv/b.git/HEAD");
	db_new("beneath.db");
	for (i = 0; i < 3; i++) {
		const char *git = "/usr/lib/git-core/git";

		snprintf(name, sizeof(name), "%s/tmp_objdir-incoming-%s", o,
			 in[i]);
		rec(git, "mkdir", "c", name);
		snprintf(name, sizeof(name), "%s/tmp_objdir-incoming-%s/pack",
			 o, in[i]);
		rec(git, "mkdir", "c", name);
		rec(git, "rmdir", "d", name);
		snprintf(name, sizeof(name), "%s/tmp_objdir-incoming-%s/%s", o,
			 in[i], hh[i]);
		rec(git, "mkdir", "c", name);
		rec(git, "rmdir", "d", name);
		snprintf(name, sizeof(name),
			 "%s/tmp_objdir-incoming-%s/%s/tmp_obj_%c%cb3xY", o,
			 in[i], hh[i], 'A' + (int)i, 'q' - (int)i);
		rec(git, "create", "c", name);
		rec(git, "unlink", "d", name);
		snprintf(name, sizeof(name),
			 "%s/tmp_objdir-incoming-%s/%s/%02zu1e5f1c0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e",
			 o, in[i], hh[i], i);
		rec(git, "link", "l", name);
		rec(git, "unlink", "d", name);
		snprintf(name, sizeof(name),
			 "%s/%s/%02zu1e5f1c0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e", o,
			 hh[i], i);
		rec(git, "link", "l", name);
		snprintf(name, sizeof(name), "%s/tmp_objdir-incoming-%s", o,
			 in[i]);
		rec(git, "rmdir", "d", name);
		/* fixed folders: site1/, site2/ (not names that vary) */
		snprintf(name, sizeof(name), "/srv/sites/site%zu/conf", i + 1);
		rec(git, "open", "r", name);
		seq += 100;	/* the next run, later */
	}
	/* siblings: five folders of one parent, a file beneath one */
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "/srv/many/d%zu", i);
		rec("/usr/bin/other", "open", "r", name);
	}
	rec("/usr/bin/other", "open", "r", "/srv/many/d0/conf");
	rs = load_checked(root, false, NULL);
	sr = subj(&rs, "/usr/lib/git-core/git");
	snprintf(g, sizeof(g), "%s/tmp_objdir-incoming-*", o);
	r = must(sr, VIGIL_CLASS_FILE, g);
	assert_int_equal(r->distinct, 3);
	snprintf(g, sizeof(g), "%s/tmp_objdir-incoming-*/pack", o);
	r = must(sr, VIGIL_CLASS_FILE, g);
	assert_int_equal(r->distinct, 3);
	assert_string_equal(r->why, "beneath a folder that varies");
	assert_int_equal(r->access, VIGIL_FILE_C | VIGIL_FILE_D);
	snprintf(g, sizeof(g), "%s/tmp_objdir-incoming-*/?" "?", o);
	r = must(sr, VIGIL_CLASS_FILE, g);
	assert_int_equal(r->distinct, 3);
	snprintf(g, sizeof(g), "%s/tmp_objdir-incoming-*/?" "?/*", o);
	r = must(sr, VIGIL_CLASS_FILE, g);
	assert_int_equal(r->distinct, 6);
	assert_string_equal(r->why, "content-addressed store + beneath a "
			    "folder that varies");
	assert_int_equal(r->access, VIGIL_FILE_C | VIGIL_FILE_D |
			 VIGIL_FILE_L);
	snprintf(g, sizeof(g), "%s/?" "?/*", o);
	must(sr, VIGIL_CLASS_FILE, g);
	/* nothing beneath an incoming folder stays literal */
	for (i = 0; i < sr->nrules; i++)
		if (strstr(sr->rules[i].glob, "incoming-") &&
		    !strstr(sr->rules[i].glob, "incoming-*"))
			fail_msg("literal %s", sr->rules[i].glob);
	must(sr, VIGIL_CLASS_FILE, "/srv/sites/site1/conf");
	must(sr, VIGIL_CLASS_FILE, "/srv/sites/site2/conf");
	must(sr, VIGIL_CLASS_FILE, "/srv/sites/site3/conf");
	sr = subj(&rs, "/usr/bin/other");
	must(sr, VIGIL_CLASS_FILE, "/srv/many/*");
	must(sr, VIGIL_CLASS_FILE, "/srv/many/d0/conf");
	check_covers(&rs);
	t = policy_text(&rs, false, NULL);
	assert_non_null(strstr(t, "heuristic: beneath a folder that varies; "
			       "blast radius 0 more existing"));
	free(t);
	vigil_ruleset_free(&rs);
	db_close();
}

/*
 * A pseudo-terminal (issue 24: a login daemon's pty): the kernel numbers
 * it at each open of /dev/ptmx, so /dev/pts/0 of a learning run is
 * /dev/pts/STAR, seen once; /dev/ptmx and a name that is no number stay.
 */
static void test_pty_db(void **state)
{
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	char root[300];
	char *t;

	(void)state;
	snprintf(root, sizeof(root), "%s/root-pty", dir);
	touch_in(root, "/dev/ptmx");
	touch_in(root, "/dev/pts/0");
	touch_in(root, "/dev/pts/1");
	db_new("pty.db");
	rec("/usr/sbin/logind", "open", "rw", "/dev/ptmx");
	rec("/usr/sbin/logind", "open", "rw", "/dev/pts/0");
	rec("/usr/sbin/logind", "open", "r", "/dev/pts/ptmx");
	rec("/usr/sbin/logind", "open", "r", "/dev/tty1");
	rs = load_checked(root, false, NULL);
	sr = subj(&rs, "/usr/sbin/logind");
	r = must(sr, VIGIL_CLASS_FILE, "/dev/pts/*");
	assert_string_equal(r->why, "pty number");
	assert_int_equal(r->access, VIGIL_FILE_R | VIGIL_FILE_W);
	must(sr, VIGIL_CLASS_FILE, "/dev/ptmx");
	must(sr, VIGIL_CLASS_FILE, "/dev/pts/ptmx");
	must(sr, VIGIL_CLASS_FILE, "/dev/tty1");
	assert_null(rule(sr, VIGIL_CLASS_FILE, "/dev/pts/0"));
	check_covers(&rs);
	t = policy_text(&rs, false, NULL);
	assert_non_null(strstr(t, "heuristic: pty number"));
	free(t);
	vigil_ruleset_free(&rs);
	db_close();
}

/*
 * Under /tmp the temporary-name heuristic used to run first and keep a
 * pid literal (.tmp-16583-pack-*.pack): the names that vary are judged
 * first, with their evidence, and the temporary heuristic after them.
 */
static void test_tmp_vary(void **state)
{
	static const char p[] = "/tmp/r/.git/objects/pack";
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	char root[300], name[160];

	(void)state;
	snprintf(root, sizeof(root), "%s/root-tmpvary", dir);
	touch_in(root, "/tmp/r/.git/HEAD");
	db_new("tmpvary.db");
	/* two runs of git gc: the pid and a mkstemp suffix */
	snprintf(name, sizeof(name), "%s/.tmp-16583-pack-Ab3xYz.pack", p);
	rec_pid(16583, "/usr/bin/git", "open", "wc", name);
	seq += 100;	/* the next run, later */
	snprintf(name, sizeof(name), "%s/.tmp-16600-pack-Qz9aBc.pack", p);
	rec_pid(16600, "/usr/bin/git", "open", "wc", name);
	/* one run of another program: its pid, its random part */
	rec_pid(4242, "/usr/bin/one", "open", "wc",
		"/tmp/o/.tmp-4242-out-Kp3xQz.dat");
	/* a number that is no pid, alone: literal, as before */
	rec_pid(100, "/usr/bin/one", "open", "wc",
		"/tmp/o/job-12345-aB3xYz.out");
	rs = load_checked(root, false, NULL);
	sr = subj(&rs, "/usr/bin/git");
	snprintf(name, sizeof(name), "%s/.tmp-*-pack-*.pack", p);
	r = must(sr, VIGIL_CLASS_FILE, name);
	assert_int_equal(r->distinct, 2);
	assert_int_equal(sr->nrules, 1);
	assert_non_null(strstr(r->why, "pid in name"));
	assert_non_null(strstr(r->why, "random name"));
	sr = subj(&rs, "/usr/bin/one");
	r = must(sr, VIGIL_CLASS_FILE, "/tmp/o/.tmp-*-out-*.dat");
	assert_string_equal(r->why, "temporary name + pid in name");
	r = must(sr, VIGIL_CLASS_FILE, "/tmp/o/job-12345-*.out");
	assert_string_equal(r->why, "temporary name");
	check_covers(&rs);
	vigil_ruleset_free(&rs);
	db_close();
}

/*
 * PostgreSQL's dynamic shared memory, one random number each start:
 * /dev/shm/PostgreSQL.<number>. The program's camel-case prefix is a
 * word, not a random part: the glob keeps it (it was /dev/shm/ *.*, any
 * dotted name of any program's shared memory). A mixed-case name that no
 * word is stays random: /dev/shm/aB3xYz.lock -> *.lock.
 */
static void test_camel_prefix(void **state)
{
	static const unsigned int nums[] = { 1229675684, 128746716,
					     1350455572, 387122, 2054 };
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	char root[300], name[160];
	size_t i;

	(void)state;
	snprintf(root, sizeof(root), "%s/root-camel", dir);
	touch_in(root, "/dev/shm/.keep");
	db_new("camel.db");
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		snprintf(name, sizeof(name), "/dev/shm/PostgreSQL.%u", nums[i]);
		rec_pid(300 + i, "/usr/lib/postgresql/15/bin/postgres", "open",
			"rwc", name);
		seq += 100;
	}
	rec_pid(99, "/usr/bin/one", "open", "wc", "/dev/shm/aB3xYz.lock");
	rec_pid(99, "/usr/bin/one", "open", "wc", "/dev/shm/LibreOffice.lock");
	rs = load_checked(root, false, NULL);
	sr = subj(&rs, "/usr/lib/postgresql/15/bin/postgres");
	r = must(sr, VIGIL_CLASS_FILE, "/dev/shm/PostgreSQL.*");
	assert_int_equal(r->distinct, 5);
	assert_int_equal(sr->nrules, 1);
	sr = subj(&rs, "/usr/bin/one");
	must(sr, VIGIL_CLASS_FILE, "/dev/shm/*.lock");
	must(sr, VIGIL_CLASS_FILE, "/dev/shm/LibreOffice.lock");
	check_covers(&rs);
	vigil_ruleset_free(&rs);
	db_close();
}

/*
 * A content-addressed store: objects in two-hex-digit fan-out folders
 * under hashed names, temp names made in them, the folders made and
 * removed: one rule over the shape for each; a two-letter folder
 * without hashed objects stays literal.
 */
static void test_store_db(void **state)
{
	static const char o[] = "/srv/r/.git/objects";
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	char root[300], name[160];
	char *t;

	(void)state;
	snprintf(root, sizeof(root), "%s/root-store", dir);
	touch_in(root, "/srv/r/.git/HEAD");
	db_new("store.db");
	snprintf(name, sizeof(name), "%s/4d", o);
	rec("/usr/bin/git", "mkdir", "c", name);
	snprintf(name, sizeof(name), "%s/4d/tmp_obj_PV8brY", o);
	rec("/usr/bin/git", "open", "wc", name);
	rec("/usr/bin/git", "unlink", "d", name);
	snprintf(name, sizeof(name), "%s/4d/2b1e5f1c0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e", o);
	rec("/usr/bin/git", "link", "l", name);
	rec("/usr/bin/git", "open", "r", name);
	snprintf(name, sizeof(name), "%s/9a/0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c", o);
	rec("/usr/bin/git", "open", "r", name);
	snprintf(name, sizeof(name), "%s/9a", o);
	rec("/usr/bin/git", "rmdir", "d", name);
	rec("/usr/bin/git", "open", "r", "/srv/x/ab/readme");
	rs = load_checked(root, false, NULL);
	sr = subj(&rs, "/usr/bin/git");
	r = must(sr, VIGIL_CLASS_FILE, "/srv/r/.git/objects/?" "?/*");
	assert_string_equal(r->why, "content-addressed store");
	assert_int_equal(r->distinct, 3);
	assert_int_equal(r->access, VIGIL_FILE_R | VIGIL_FILE_W |
			 VIGIL_FILE_C | VIGIL_FILE_D | VIGIL_FILE_L);
	r = must(sr, VIGIL_CLASS_FILE, "/srv/r/.git/objects/?" "?");
	assert_int_equal(r->access, VIGIL_FILE_C | VIGIL_FILE_D);
	must(sr, VIGIL_CLASS_FILE, "/srv/x/ab/readme");
	check_covers(&rs);
	t = policy_text(&rs, false, NULL);
	assert_non_null(strstr(t, "heuristic: content-addressed store; "
			       "blast radius 0 more existing"));
	free(t);
	vigil_ruleset_free(&rs);
	db_close();
}

/*
 * /proc/PID: six pids of maps are one name, never siblings; random names
 * made by mktemp in the program's own folder differ between runs in that
 * part only; one such name alone stays literal.
 */
static void test_safe_proc_random(void **state)
{
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;
	const struct vigil_rule *r;
	char root[300], name[64];
	int i;

	(void)state;
	snprintf(root, sizeof(root), "%s/root-rand", dir);
	touch_in(root, "/var/lib/svc/state");
	db_new("rand.db");
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "/proc/%d/maps", 100 + i);
		rec("/usr/bin/svc", "open", "r", name);
	}
	rec("/usr/bin/svc", "open", "r", "/proc/100/status");
	rec("/usr/bin/svc", "create", "c", "/var/lib/svc/state.Ab3dE9");
	rec("/usr/bin/svc", "open", "wc", "/var/lib/svc/state.Ab3dE9");
	rec("/usr/bin/svc", "create", "c", "/var/lib/svc/state.x9Kq2M");
	rec("/usr/bin/svc", "rename", "d", "/var/lib/svc/state.x9Kq2M");
	rec("/usr/bin/svc", "rename", "c", "/var/lib/svc/state");
	rec("/usr/bin/svc", "open", "r", "/var/lib/other/cache.Zz81kQ");
	/* Python's tempfile names (lower case and digits) of two runs */
	rec("/usr/bin/svc", "open", "rwc", "/srv/x/vigil-py-oed3caeu");
	rec("/usr/bin/svc", "open", "rwc", "/srv/x/vigil-py-k2j4h5g6");
	/* versions are not random: they differ in one byte */
	rec("/usr/bin/svc", "open", "r", "/srv/x/python2.cfg");
	rec("/usr/bin/svc", "open", "r", "/srv/x/python3.cfg");
	rs = load_checked(root, false, NULL);
	sr = subj(&rs, "/usr/bin/svc");
	must(sr, VIGIL_CLASS_FILE, "/proc/*/maps");
	must(sr, VIGIL_CLASS_FILE, "/proc/*/status");
	assert_null(rule(sr, VIGIL_CLASS_FILE, "/proc/*/*"));
	r = must(sr, VIGIL_CLASS_FILE, "/var/lib/svc/state.*");
	assert_true(r->generalised);
	assert_true(r->heuristics & VIGIL_HEUR_RANDOM);
	assert_string_equal(r->why, "random name");
	assert_int_equal(r->access, VIGIL_FILE_W | VIGIL_FILE_C | VIGIL_FILE_D);
	assert_int_equal(r->distinct, 2);
	assert_string_equal(r->blast, "blast radius 0 more existing");
	must(sr, VIGIL_CLASS_FILE, "/var/lib/svc/state");
	must(sr, VIGIL_CLASS_FILE, "/var/lib/other/cache.Zz81kQ");
	must(sr, VIGIL_CLASS_FILE, "/srv/x/vigil-py-*");
	must(sr, VIGIL_CLASS_FILE, "/srv/x/python2.cfg");
	must(sr, VIGIL_CLASS_FILE, "/srv/x/python3.cfg");
	check_covers(&rs);
	free(policy_text(&rs, false, NULL));
	vigil_ruleset_free(&rs);
	db_close();
}

/* Would-deny records only when asked; a time window. */
static void test_safe_would_deny_window(void **state)
{
	struct vigil_rules_opts o = { .no_would_deny = true };
	struct vigil_ruleset rs;
	const struct vigil_subject_rules *sr;

	(void)state;
	db_new("wd.db");
	rec_at(1796284356000, "learned", "/usr/bin/w", "open", "r", "/a");
	rec_at(1796284400000, "would-deny", "/usr/bin/w", "open", "r",
	       "/etc/shadow");
	rec_at(1796284500000, "learned", "/usr/bin/w", "open", "r", "/b");
	assert_int_equal(vigil_rules_load_opts(store, NULL, 0, &o, &rs, NULL,
					       0), 0);
	sr = subj(&rs, "/usr/bin/w");
	assert_int_equal(sr->nrules, 2);
	assert_null(rule(sr, VIGIL_CLASS_FILE, "/etc/shadow"));
	vigil_ruleset_free(&rs);
	o.no_would_deny = false;
	assert_int_equal(vigil_rules_load_opts(store, NULL, 0, &o, &rs, NULL,
					       0), 0);
	must(subj(&rs, "/usr/bin/w"), VIGIL_CLASS_FILE, "/etc/shadow");
	vigil_ruleset_free(&rs);
	o.since_ms = 1796284400000;
	o.until_ms = 1796284499999;
	assert_int_equal(vigil_rules_load_opts(store, NULL, 0, &o, &rs, NULL,
					       0), 0);
	sr = subj(&rs, "/usr/bin/w");
	assert_int_equal(sr->nrules, 1);
	must(sr, VIGIL_CLASS_FILE, "/etc/shadow");
	vigil_ruleset_free(&rs);
	db_close();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_proc),
		cmocka_unit_test(test_temp),
		cmocka_unit_test(test_library),
		cmocka_unit_test(test_siblings),
		cmocka_unit_test(test_home),
		cmocka_unit_test(test_combined),
		cmocka_unit_test(test_classes_and_children),
		cmocka_unit_test(test_literal_meta),
		cmocka_unit_test(test_strict),
		cmocka_unit_test(test_snapshot_merge),
		cmocka_unit_test(test_subjects),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_random_objects),
		cmocka_unit_test(test_generate_diff),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_safe_etc),
		cmocka_unit_test(test_safe_blast),
		cmocka_unit_test(test_sensitive_overlap),
		cmocka_unit_test(test_safe_patterns),
		cmocka_unit_test(test_vary_db),
		cmocka_unit_test(test_vary_calls),
		cmocka_unit_test(test_store_db),
		cmocka_unit_test(test_random_absorb),
		cmocka_unit_test(test_beneath_db),
		cmocka_unit_test(test_pty_db),
		cmocka_unit_test(test_tmp_vary),
		cmocka_unit_test(test_camel_prefix),
		cmocka_unit_test(test_safe_proc_random),
		cmocka_unit_test(test_safe_would_deny_window),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
