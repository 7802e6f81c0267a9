// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests: the TOMOYO export, checked by tomoyo-checkpolicy.
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

/* ---- TOMOYO ---- */

static void test_tomoyo(void **state)
{
	struct export_files files = { 0 };
	struct vigil_ruleset rs;
	struct tdir d;
	char *text, *out, path[256];

	(void)state;
	need("tomoyo-checkpolicy", "tomoyo-tools");
	workload(&rs);
	add_rule(&rs.subjects[1], VIGIL_CLASS_FILE, F(R),
		 "/srv/{a,b}/**/x*.conf", true);
	/* braces as operators: set the glob source */
	free(rs.subjects[1].rules[rs.subjects[1].nrules - 1].glob);
	rs.subjects[1].rules[rs.subjects[1].nrules - 1].glob =
		strdup("/srv/{a,b}/**/x*.conf");
	add_rule(&rs.subjects[1], VIGIL_CLASS_FILE, F(R), "/srv/c/**", true);
	/* procfs: TOMOYO's proc:/ names, self and another's pid */
	add_rule(&rs.subjects[1], VIGIL_CLASS_FILE, F(R), "/proc/*/stat", true);
	add_rule(&rs.subjects[1], VIGIL_CLASS_FILE, F(R), "/proc/filesystems",
		 false);
	tdir_make(&d);
	assert_int_equal(export_run(&export_tomoyo, &rs, d.path, &opts,
				    &files), 0);
	assert_int_equal(files.n, 2);
	text = slurp(files.paths[0]);
	check_header(text, "#");
	assert_true(contains(text, "\n<kernel> /usr/bin/demo\nuse_profile 3\n"
				   "use_group 0\n\nmisc env \\*\n"
				   "file getattr /\n"
				   "file getattr /\\*\n"
				   "file getattr /\\{\\*\\}/\n"
				   "file getattr /\\{\\*\\}/\\*\n"
				   "file getattr \\*:/\n"));
	/* a glob's folders: read with the trailing '/' */
	assert_true(contains(text, "\nfile read /var/lib/demo/\\*/\n"));
	/* stat is in the fixed lines: none per path */
	assert_false(strstr(text, "file getattr /etc/hostname"));
	assert_true(contains(text, "\nfile read proc:/self/stat\n"
				   "file read proc:/\\$/stat\n"));
	assert_true(contains(text, "\nfile read proc:/filesystems\n"));
	assert_false(strstr(text, "\nfile read /proc/"));
	assert_true(contains(text, "\nfile read /etc/hostname\n"));
	assert_true(contains(text, "\nfile read /etc/demo/a\\040b\"c#d\n"));
	assert_true(contains(text, "\nfile read /etc/demo/new\\012line\n"));
	assert_true(contains(text, "\nfile read /etc/demo/star*{x,y}?\n"));
	assert_true(contains(text, "\nfile read /var/lib/demo/\\*\n"));
	assert_true(contains(text,
			     "\nfile write /var/lib/demo/\\{\\*\\}/\\*\n"));
	assert_true(contains(text, "\nfile create /tmp/demo-work/out.txt "
				   "0-07777\n"));
	assert_true(contains(text, "\nfile unlink /tmp/demo-work/out.txt\n"));
	assert_true(contains(text, "\nfile rename /tmp/demo-work/out.txt "
				   "/tmp/demo-work/\\*\n"));
	assert_true(contains(text, "\nfile truncate /tmp/demo-work/out.txt\n"));
	assert_true(contains(text, "\nfile append /var/log/demo.log\n"));
	assert_true(contains(text, "\nfile execute /usr/bin/demo-helper\n"));
	assert_true(contains(text, "\nfile ioctl /dev/tty 0-0xFFFFFFFF\n"));
	assert_true(contains(text, "\nnetwork inet stream bind "
				   "0.0.0.0-255.255.255.255 8080\n"));
	assert_true(contains(text, "\nnetwork inet stream listen "
				   "0.0.0.0-255.255.255.255 8080\n"));
	assert_true(contains(text, "\nnetwork unix stream connect "
				   "/run/demo.sock\n"));
	assert_true(contains(text, "\nfile mount \\* /mnt/demo/ \\* "
				   "0-0xFFFFFFFF\n"));
	assert_true(contains(text, "\nfile unmount /mnt/demo/\n"));
	assert_true(contains(text, "\n<kernel> /usr/bin/demo-helper\n"));
	assert_true(contains(text, "\nfile read /srv/a/\\{\\*\\}/x\\*.conf\n"
				   "file read /srv/b/"));
	assert_true(contains(text, "\nfile read /srv/c/\\{\\*\\}/\\*\n"));
	assert_true(contains(text, "#   - cap use net_bind_service: TOMOYO 2.x "
				   "has no capability rules"));
	assert_int_equal(sh(&out, "tomoyo-checkpolicy d < '%s'",
			    files.paths[0]), 0);
	free(out);
	free(text);
	text = slurp(files.paths[1]);
	assert_true(contains(text, "\ninitialize_domain /usr/bin/demo from "
				   "any\n"));
	assert_int_equal(sh(&out, "tomoyo-checkpolicy e < '%s'",
			    files.paths[1]), 0);
	free(out);
	free(text);
	/* broken: rc 2 */
	snprintf(path, sizeof(path), "%s/broken.conf", d.path);
	write_text(path, "<kernel> /usr/bin/demo\nuse_profile 3\n"
		   "file read /etc/a b\n");
	assert_int_equal(sh(&out, "tomoyo-checkpolicy d < '%s'", path), 2);
	free(out);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tomoyo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
