// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests: the systemd export, checked by systemd-analyze verify.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "vigil.h"
#include "util.h"
#include "export.h"
#include "test_files.h"
#include "test_export.h"

/* ---- systemd ---- */

/* systemd-analyze verify on a unit running /usr/bin/true with the drop-in:
 * its exit status; *err: what it printed on stderr. */
static int sd_verify(const char *dir, const char *dropin, char **err)
{
	char unit[256], cmd[1024];

	snprintf(unit, sizeof(unit), "%s/x.service", dir);
	write_text(unit, "[Unit]\nDescription=vigil export test\n\n[Service]\n"
		   "ExecStart=/usr/bin/true\n");
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/x.service.d' && "
		 "cp '%s' '%s/x.service.d/'", dir, dropin, dir);
	assert_int_equal(system(cmd), 0);
	return sh(err, "cd '%s' && systemd-analyze verify x.service "
		  "2>&1 >/dev/null", dir);
}

static void test_systemd(void **state)
{
	struct export_files files = { 0 };
	struct vigil_ruleset rs;
	struct tdir d;
	char *text, *err, path[256], cmd[512];

	(void)state;
	need("systemd-analyze", "systemd");
	workload(&rs);
	tdir_make(&d);
	assert_int_equal(export_run(&export_systemd, &rs, d.path, &opts,
				    &files), 0);
	assert_int_equal(files.n, 2);
	snprintf(path, sizeof(path), "%s/vigil-usr.bin.demo.conf", d.path);
	assert_string_equal(files.paths[0], path);
	text = slurp(path);
	check_header(text, "#");
	assert_true(contains(text, "\n[Service]\nNoNewPrivileges=yes\n"
				   "ProtectSystem=strict\nProtectHome=yes\n"));
	assert_false(strstr(text, "ProtectKernelModules=yes"));
	assert_true(contains(text, "\nReadWritePaths=/dev/tty /tmp "
				   "/var/lib /var/log\n"));
	assert_true(contains(text, "\nCapabilityBoundingSet="
				   "CAP_NET_BIND_SERVICE CAP_SYS_MODULE\n"));
	assert_true(contains(text, "\nRestrictAddressFamilies=AF_UNIX "
				   "AF_INET\n"));
	assert_true(contains(text, "\nSocketBindAllow=tcp:8080\n"
				   "SocketBindDeny=any\n"));
	assert_true(contains(text, "#   - signal term /usr/bin/demo-helper: "
				   "signals and ptrace"));
	assert_int_equal(sd_verify(d.path, path, &err), 0);
	if (err[0])
		fail_msg("systemd-analyze verify printed: %s", err);
	free(err);
	/* a broken drop-in: stderr is not empty */
	snprintf(cmd, sizeof(cmd), "sed -i 's/^SocketBindDeny=any/"
		 "SocketBindDeny=anything/; s/^ProtectSystem=/ProtectSystm=/' "
		 "'%s'", path);
	assert_int_equal(system(cmd), 0);
	sd_verify(d.path, path, &err);
	assert_true(err[0] != '\0');
	free(err);
	free(text);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

static void test_systemd_escape(void **state)
{
	struct export_files files = { 0 };
	struct vigil_ruleset rs = { 0 };
	struct vigil_subject_rules *sr;
	struct tdir d;
	char *text, *err, obj[256];

	(void)state;
	need("systemd-analyze", "systemd");
	tdir_make(&d);
	snprintf(obj, sizeof(obj), "%s/a b\"c%%d\\e\n", d.path);
	assert_int_equal(mkdir(obj, 0700), 0);
	snprintf(obj + strlen(obj), sizeof(obj) - strlen(obj), "/f");
	sr = add_subject(&rs, "/usr/bin/demo");
	add_rule(sr, VIGIL_CLASS_FILE, F(W), obj, false);
	assert_int_equal(export_run(&export_systemd, &rs, d.path, &opts,
				    &files), 0);
	text = slurp(files.paths[0]);
	snprintf(obj, sizeof(obj), "ReadWritePaths=\"%s/a b\\\"c%%%%d\\\\e"
		 "\\x0a\"\n", d.path);
	assert_true(contains(text, obj));
	assert_true(contains(text, "CapabilityBoundingSet=\n"
				   "RestrictAddressFamilies=none\n"));
	assert_int_equal(sd_verify(d.path, files.paths[0], &err), 0);
	if (err[0])
		fail_msg("systemd-analyze verify printed: %s", err);
	free(err);
	free(text);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_systemd),
		cmocka_unit_test(test_systemd_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
