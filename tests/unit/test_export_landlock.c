// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests: the Landlock export (a landlockconfig ruleset) and
 * vigil run --landlock.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "vigil.h"
#include "util.h"
#include "export.h"
#include "landlock.h"
#include "test_files.h"
#include "test_export.h"

/* ---- Landlock ---- */

static void test_landlock(void **state)
{
	struct export_opts o = opts;
	struct export_files files = { 0 };
	struct vigil_ruleset rs;
	struct tdir d;
	char *text, err[256];

	(void)state;
	workload(&rs);
	tdir_make(&d);
	o.landlock_abi = 2;
	assert_int_equal(export_run(&export_landlock, &rs, d.path, &o,
				    &files), 0);
	assert_int_equal(files.n, 4);
	assert_non_null(strstr(files.paths[0], "/usr.bin.demo.landlock.json"));
	assert_non_null(strstr(files.paths[1], "/usr.bin.demo.landlock.txt"));
	text = slurp(files.paths[0]);
	assert_true(contains(text, "{\n  \"abi\": 2,\n  \"ruleset\": [\n    {\n"
				   "      \"handledAccessFs\": [\"abi.all\"]\n"));
	assert_false(strstr(text, "handledAccessNet"));
	assert_true(contains(text, "\"allowedAccess\": [\"execute\", "
				   "\"read_file\"],\n      \"parent\": [\n"
				   "        \"/usr/bin/demo\",\n"
				   "        \"/usr/bin/demo-helper\",\n"
				   "        \"/usr/lib/x86_64-linux-gnu/ld-linux-"
				   "x86-64.so.2\"\n"));
	assert_true(contains(text, "\"/etc/demo/a b\\\"c#d\""));
	assert_true(contains(text, "\"/etc/demo/new\\u000aline\""));
	assert_true(contains(text, "\"/var/lib/demo\""));
	assert_true(contains(text, "\"/tmp/demo-work\""));
	assert_true(contains(text, "\"/etc/passwd\""));
	assert_false(strstr(text, "netPort"));
	assert_int_equal(vigil_landlock_check(text, strlen(text), err,
					      sizeof(err)), 0);
	/* broken: the validator (vigil run's reader) fails */
	text[strlen(text) - 3] = ',';
	assert_int_equal(vigil_landlock_check(text, strlen(text), err,
					      sizeof(err)), -EINVAL);
	free(text);
	text = slurp(files.paths[1]);
	check_header(text, "#");
	assert_true(contains(text, "ABI 2 has no network rules"));
	assert_true(contains(text, "ABI 2 cannot control truncate"));
	assert_true(contains(text, "#   - cap use net_bind_service: Landlock "
				   "does not control capabilities"));
	assert_true(contains(text, "#   - mount mount,umount /mnt/demo: mount "
				   "and umount are always denied"));
	assert_true(contains(text, "#   - file rw /var/lib/demo/**: glob: "
				   "allowed beneath"));
	free(text);
	export_files_free(&files);

	/* ABI 4: TCP ports; ABI 5: ioctl */
	o.landlock_abi = 5;
	assert_int_equal(export_run(&export_landlock, &rs, d.path, &o,
				    &files), 0);
	text = slurp(files.paths[0]);
	assert_true(contains(text, "\"handledAccessNet\": [\"abi.all\"]"));
	assert_true(contains(text, "\"netPort\": [\n    {\n      "
				   "\"allowedAccess\": [\"bind_tcp\"],\n"
				   "      \"port\": [8080]\n"));
	assert_true(contains(text, "\"truncate\""));
	assert_true(contains(text, "\"ioctl_dev\""));
	assert_int_equal(vigil_landlock_check(text, strlen(text), err,
					      sizeof(err)), 0);
	free(text);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

/*
 * Trees the program creates (issue 24 §3): a ruleset never names a path
 * the program created while learning or one beneath it, but the nearest
 * folder above that exists, with the rights beneath, said in the .txt;
 * never a folder of secrets; refer where it moved names across folders.
 */
static void test_landlock_tree(void **state)
{
	struct export_opts o = opts;
	struct export_files files = { 0 };
	struct vigil_ruleset rs = { .first = T0, .last = T0 + 60 };
	struct vigil_subject_rules *sr;
	struct tdir d;
	char *text, err[256], p[300], want[600];

	(void)state;
	tdir_make(&d);
	sr = add_subject(&rs, "/usr/bin/mk");
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/etc/hostname", false);
	snprintf(p, sizeof(p), "%s/data", d.path);
	add_rule(sr, VIGIL_CLASS_FILE, F(C), p, false);
	snprintf(p, sizeof(p), "%s/data/incoming", d.path);
	add_rule(sr, VIGIL_CLASS_FILE, F(C), p, false);
	snprintf(p, sizeof(p), "%s/data/incoming/*", d.path);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W) | F(C) | F(D), p, true);
	snprintf(p, sizeof(p), "%s/data/active/*", d.path);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(C), p, true);
	add_rule(sr, VIGIL_CLASS_FILE, F(C), "/var/lib/vigil-newapp", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(W) | F(C),
		 "/var/lib/vigil-newapp/db", false);
	o.landlock_abi = 2;
	assert_int_equal(export_run(&export_landlock, &rs, d.path, &o,
				    &files), 0);
	text = slurp(files.paths[0]);
	snprintf(p, sizeof(p), "%s/data", d.path);
	assert_null(strstr(text, p));
	snprintf(want, sizeof(want), "\"allowedAccess\": [\"write_file\", "
		 "\"read_file\", \"read_dir\", \"remove_dir\", "
		 "\"remove_file\", \"make_dir\", \"make_reg\", \"make_sock\", "
		 "\"make_fifo\", \"make_sym\", \"refer\"],\n      \"parent\": "
		 "[\n        \"%s\"\n", d.path);
	assert_true(contains(text, want));
	/* /var/lib holds vigil's database: the created folder stays */
	assert_true(contains(text, "\"/var/lib/vigil-newapp\"\n"));
	assert_int_equal(vigil_landlock_check(text, strlen(text), err,
					      sizeof(err)), 0);
	free(text);
	text = slurp(files.paths[1]);
	snprintf(want, sizeof(want), "#   - %s/data/incoming: may not exist "
		 "when the ruleset is applied (created by the program while "
		 "learning): its rights are granted on %s, the nearest folder "
		 "that exists (broader)", d.path, d.path);
	assert_true(contains(text, want));
	assert_true(contains(text, "#   - /var/lib/vigil-newapp: created by "
			     "the program while learning, kept: /var/lib "
			     "holds what the sensitive pattern "
			     "/var/lib/vigil/** names"));
	assert_true(contains(text, "refer (ABI 2) granted where names may be "
			     "made or removed"));
	free(text);
	export_files_free(&files);
	/* ABI 1 has no refer */
	o.landlock_abi = 1;
	assert_int_equal(export_run(&export_landlock, &rs, d.path, &o,
				    &files), 0);
	text = slurp(files.paths[0]);
	assert_null(strstr(text, "refer"));
	free(text);
	export_files_free(&files);
	/* made and removed in one folder only: no refer */
	vigil_ruleset_free(&rs);
	memset(&rs, 0, sizeof(rs));
	sr = add_subject(&rs, "/usr/bin/mk");
	snprintf(p, sizeof(p), "%s/x/a", d.path);
	add_rule(sr, VIGIL_CLASS_FILE, F(W) | F(C), p, false);
	snprintf(p, sizeof(p), "%s/x/b", d.path);
	add_rule(sr, VIGIL_CLASS_FILE, F(D), p, false);
	o.landlock_abi = 2;
	assert_int_equal(export_run(&export_landlock, &rs, d.path, &o,
				    &files), 0);
	text = slurp(files.paths[0]);
	assert_null(strstr(text, "refer"));
	free(text);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

static void test_landlock_reader(void **state)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "", "line 1, column 0: '[' or '{' expected near end of file" },
		{ "[]", "top level: expected an object" },
		{ "{}", "top level: empty configuration" },
		{ "{\"abi\":2,\"x\":1}", "top level: unknown key 'x'" },
		{ "{\"abi\":2,\"abi\":3}",
		  "line 1, column 14: duplicate object key near '\"abi\"'" },
		{ "{\"abi\":-1}", "abi: expected a positive integer" },
		{ "{\"abi\":0}", "abi: expected a positive integer" },
		{ "{\"ruleset\":[{\"handledAccessFs\":[\"abi.all\"]}]}",
		  "ruleset[0].handledAccessFs: 'abi.all' needs \"abi\"" },
		{ "{\"abi\":2,\n\"ruleset\":[{\"handledAccessFs\":[\"rd\"]}]}",
		  "ruleset[0].handledAccessFs: unknown access 'rd'" },
		{ "{\"abi\":2,\"ruleset\":[{\"handledAccessFs\":[\"make_reg\",3]}]}",
		  "ruleset[0].handledAccessFs[1]: expected a string" },
		{ "{\"abi\":2,\"ruleset\":[{}]}", "ruleset[0]: empty object" },
		{ "{\"abi\":2,\"pathBeneath\":[{\"parent\":[\"/\"]}]}",
		  "pathBeneath[0]: needs \"allowedAccess\" and \"parent\"" },
		{ "{\"abi\":2,\"pathBeneath\":[{\"allowedAccess\":"
		  "[\"read_file\"],\"parent\":[\"/a\",1]}]}",
		  "pathBeneath[0].parent[1]: expected a path" },
		{ "{\"abi\":4,\"netPort\":[{\"allowedAccess\":[\"bind_tcp\"],"
		  "\"port\":[80,65536]}]}", "netPort[0].port[1]: expected 0..65535" },
		{ "{\"abi\":2} x", "line 1, column 11: end of file expected" },
		{ "{\"abi\":2,\"pathBeneath\":[{\"allowedAccess\":[\"x\"],"
		  "\"parent\":[\"/a\001\"]}]}", "control character 0x1" },
		{ "{\"abi\":2.5}", "abi: expected an integer" },
		{ "{\"abi\":99999999999999999999999}", "too big integer" },
		{ "{\"abi\":2,\"variable\":[]}", "variable: not supported" },
		{ "{\"abi\":2,\"pathBeneath\":[{\"allowedAccess\":"
		  "[\"read_file\"],\"parent\":[\"\\ud800\"]}]}",
		  "invalid Unicode '\\uD800'" },
		{ "{\"abi\":2,\"pathBeneath\":[{\"allowedAccess\":"
		  "[\"read_file\"],\"parent\":[\"a\\u0000b\"]}]}",
		  "line 1, column 75: \\u0000 is not allowed" },
		{ "{\"abi\":2,\n\"netPort\":[{\"allowedAccess\":[\"bind_tcp\"],"
		  "\n\"port\":[1,]}]}", "line 3, column 11: " },
	};
	const char *good;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int rc = vigil_landlock_check(bad[i].text, strlen(bad[i].text),
					      err, sizeof(err));

		if (rc != -EINVAL || !strstr(err, bad[i].err))
			fail_msg("case %zu: rc %d, err '%s', want '%s'", i, rc,
				 err, bad[i].err);
	}
	good = "{\"abi\":1,\"ruleset\":[{\"handledAccessFs\":"
	       "[\"abi.read_execute\",\"make_reg\"]}],\"pathBeneath\":"
	       "[{\"allowedAccess\":[\"read_file\"],\"parent\":"
	       "[\"/a\\u00e9\\ud83d\\ude00\\n\"]}]}";
	if (vigil_landlock_check(good, strlen(good), err, sizeof(err)))
		fail_msg("good case: %s", err);
}

/* Run do_run in a child: its exit status. */
static int run_child(const char *json, char *const cmd[])
{
	char *argv[16];
	pid_t pid;
	int st, i = 0, k;

	argv[i++] = "run";
	argv[i++] = "--landlock";
	argv[i++] = (char *)json;
	argv[i++] = "--";
	for (k = 0; cmd[k] && i < 15; k++)
		argv[i++] = cmd[k];
	argv[i] = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		_exit(do_run(i, argv));
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_run_landlock(void **state)
{
	static const char json[] =
		"{\"abi\": 1,\n"
		" \"ruleset\": [{\"handledAccessFs\": [\"abi.all\"]}],\n"
		" \"pathBeneath\": [\n"
		"  {\"allowedAccess\": [\"abi.read_execute\"],\n"
		"   \"parent\": [\"/usr\", \"/lib\", \"/lib64\", \"/bin\",\n"
		"              \"/etc/ld.so.cache\", \"/etc/hostname\",\n"
		"              \"/nonexistent/vigil\"]}]}\n";
	char *ok[] = { "cat", "/etc/hostname", NULL };
	char *denied[] = { "cat", "/etc/passwd", NULL };
	char *missing[] = { "/nonexistent/vigil-cmd", NULL };
	char *noexec[] = { "/etc/passwd", NULL };
	struct tdir d;
	char path[128], bad[128];

	(void)state;
	tdir_make(&d);
	snprintf(path, sizeof(path), "%s/ok.json", d.path);
	snprintf(bad, sizeof(bad), "%s/bad.json", d.path);
	write_text(path, json);
	write_text(bad, "{\"abi\": 1, \"ruleset\": [}");
	/* bad input: 2, before anything else */
	assert_int_equal(run_child(bad, ok), 2);
	if (landlock_abi_version() <= 0) {
		tdir_rm(&d);
		skip();	/* this kernel has no Landlock */
	}
	assert_int_equal(run_child(path, ok), 0);
	assert_int_equal(run_child(path, denied), 1);	/* cat: EACCES */
	assert_int_equal(run_child(path, missing), 127);
	assert_int_equal(run_child(path, noexec), 126);
	tdir_rm(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_landlock),
		cmocka_unit_test(test_landlock_tree),
		cmocka_unit_test(test_landlock_reader),
		cmocka_unit_test(test_run_landlock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
