// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests: the AppArmor export, checked by apparmor_parser.
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
#include "test_files.h"
#include "test_export.h"

/* ---- AppArmor ---- */

static void test_apparmor(void **state)
{
	struct export_files files = { 0 };
	struct vigil_ruleset rs;
	struct tdir d;
	char *text, *out, path[256];

	(void)state;
	need("apparmor_parser", "apparmor");
	workload(&rs);
	tdir_make(&d);
	assert_int_equal(export_run(&export_apparmor, &rs, d.path, &opts,
				    &files), 0);
	assert_int_equal(files.n, 2);
	snprintf(path, sizeof(path), "%s/usr.bin.demo", d.path);
	assert_string_equal(files.paths[0], path);
	text = slurp(path);
	check_header(text, "#");
	assert_true(contains(text, "abi <abi/3.0>,\n"));
	assert_true(contains(text, "include <tunables/global>\n"));
	assert_true(contains(text, "profile usr.bin.demo \"/usr/bin/demo\" {\n"
				   "  include <abstractions/base>\n"));
	assert_true(contains(text, "  \"/etc/hostname\" r,\n"));
	assert_true(contains(text, "  \"/etc/demo/a b\\\"c#d{,/}\" r,\n"));
	assert_true(contains(text, "  \"/etc/demo/new\\012line{,/}\" r,\n"));
	assert_true(contains(text,
			     "  \"/etc/demo/star\\*\\{x\\,y\\}\\?{,/}\" r,\n"));
	assert_true(contains(text, "  \"/var/lib/demo/**\" rw,\n"));
	assert_true(contains(text, "  \"/tmp/demo-work/out.txt\" rw,\n"));
	assert_true(contains(text, "  \"/var/log/demo.log\" ak,\n"));
	assert_true(contains(text,
		"  \"/usr/lib/x86_64-linux-gnu/libc.so*\" mr,\n"));
	assert_true(contains(text, "  \"/usr/bin/demo-helper\" ix,\n"));
	assert_true(contains(text, "  capability net_bind_service,\n"));
	assert_true(contains(text, "  network inet stream,\n"));
	assert_true(contains(text, "  network unix stream,\n"));
	assert_true(contains(text, "  \"/run/demo.sock\" rw,\n"));
	assert_true(contains(text, "  signal (send) set=(term) "
				   "peer={usr.bin.demo,usr.bin.demo-helper},"));
	assert_true(contains(text, "  signal (receive) set=(term) "
				   "peer=usr.bin.demo,\n"));
	assert_true(contains(text, "  ptrace (read) peer=unconfined,\n"));
	assert_true(contains(text, "  mount -> \"/mnt/demo\",\n"));
	assert_true(contains(text, "  umount \"/mnt/demo\",\n"));
	assert_true(contains(text, "  capability sys_module,\n"));
	/* the child's rules, as it runs here with ix */
	assert_true(contains(text, "  \"/etc/passwd\" r,\n"));
	/* what cannot be expressed is listed */
	assert_true(contains(text, "#   - file i /dev/null: ioctl only"));
	assert_true(contains(text, "#   - net socket,bind,listen,accept "
				   "inet:stream:8080: port"));
	assert_true(contains(text, "#   - file r **anon_inode:[eventfd]: not "
				   "an absolute path"));
	assert_false(strstr(text, "anon_inode:[eventfd]\" "));

	/* the validator accepts both profiles */
	assert_int_equal(sh(&out, "apparmor_parser -QK '%s' '%s'",
			    files.paths[0], files.paths[1]), 0);
	free(out);
	/* and a broken one makes it fail */
	snprintf(path, sizeof(path), "%s/broken", d.path);
	*strrchr(text, '}') = '\0';
	write_text(path, text);
	assert_int_not_equal(sh(&out, "apparmor_parser -QK '%s'", path), 0);
	free(out);
	free(text);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

/*
 * What passes vigil's trial passes AppArmor: an O_CREAT|O_APPEND open
 * (recorded ac) is w, since AppArmor asks for create; a #! script's
 * profile gets its interpreter; each network line once.
 */
static void test_apparmor_trial_safe(void **state)
{
	struct export_files files = { 0 };
	struct vigil_ruleset rs = { 0 };
	struct vigil_subject_rules *sr;
	struct tdir d;
	char *text, *out, script[256], *interp, want[600];

	(void)state;
	need("apparmor_parser", "apparmor");
	tdir_make(&d);
	snprintf(script, sizeof(script), "%s/svc", d.path);
	write_text(script, "#!/bin/sh\necho hi\n");
	sr = add_subject(&rs, script);
	add_rule(sr, VIGIL_CLASS_FILE, VIGIL_FILE_A | VIGIL_FILE_C,
		 "/var/log/svc.log", false);
	add_rule(sr, VIGIL_CLASS_NET, VIGIL_NET_SOCKET, "inet:stream", false);
	add_rule(sr, VIGIL_CLASS_NET, VIGIL_NET_BIND | VIGIL_NET_LISTEN,
		 "inet:stream:80", false);
	add_rule(sr, VIGIL_CLASS_NET, VIGIL_NET_CONNECT, "inet:stream:53",
		 false);
	assert_int_equal(export_run(&export_apparmor, &rs, d.path, &opts,
				    &files), 0);
	assert_int_equal(files.n, 1);
	text = slurp(files.paths[0]);
	assert_true(contains(text, "  \"/var/log/svc.log\" w,\n"));
	assert_true(contains(text, "  network inet stream,\n"));
	assert_null(strstr(strstr(text, "  network inet stream,\n") + 1,
			   "  network inet stream,\n"));
	interp = realpath("/bin/sh", NULL);
	assert_non_null(interp);
	snprintf(want, sizeof(want), "  \"%s\" mrix,\n", interp);
	free(interp);
	assert_true(contains(text, want));
	assert_int_equal(sh(&out, "apparmor_parser -QK '%s'", files.paths[0]),
			 0);
	free(out);
	free(text);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

/*
 * A glob with c may name the folders the program makes: AppArmor's
 * mkdir asks for the name with its trailing '/', whatever else the rule
 * grants (git's ".git/STAR" with rwcd and its hooks/ folder).
 */
static void test_apparmor_mkdir_glob(void **state)
{
	struct export_opts o = opts;
	struct export_files files = { 0 };
	struct vigil_ruleset rs = { .first = T0, .last = T0 + 60 };
	struct vigil_subject_rules *sr;
	struct tdir d;
	char *text;

	(void)state;
	tdir_make(&d);
	sr = add_subject(&rs, "/usr/bin/mk");
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W) | F(C) | F(D),
		 "/srv/vigil-none/.git/*", true);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W), "/srv/vigil-none/log/*",
		 true);
	add_rule(sr, VIGIL_CLASS_FILE, F(W) | F(C), "/srv/vigil-none/out",
		 false);
	assert_int_equal(export_run(&export_apparmor, &rs, d.path, &o,
				    &files), 0);
	text = slurp(files.paths[0]);
	assert_true(contains(text, "  \"/srv/vigil-none/.git/*{,/}\" rw,\n"));
	assert_true(contains(text, "  \"/srv/vigil-none/log/*\" rw,\n"));
	assert_true(contains(text, "  \"/srv/vigil-none/out\" w,\n"));
	free(text);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apparmor),
		cmocka_unit_test(test_apparmor_trial_safe),
		cmocka_unit_test(test_apparmor_mkdir_glob),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
