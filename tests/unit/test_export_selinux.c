// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests: the SELinux export, checked by checkmodule and
 * semodule_package; the trial's AVC records.
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

#include <selinux/label.h>
#include <selinux/selinux.h>

#include "vigil.h"
#include "util.h"
#include "export.h"
#include "trial_selinux.h"
#include "test_files.h"
#include "test_export.h"

/* ---- SELinux ---- */

static void test_selinux(void **state)
{
	struct export_files files = { 0 };
	struct vigil_ruleset rs;
	struct tdir d;
	char *text, *out, path[256];

	(void)state;
	need("checkmodule", "checkpolicy");
	need("semodule_package", "semodule-utils");
	need("semodule", "policycoreutils");
	if (access("/etc/selinux/default/contexts/files/file_contexts", R_OK))
		fail_msg("no file contexts: install selinux-policy-default "
			 "(scripts/install-deps)");
	workload(&rs);
	tdir_make(&d);
	assert_int_equal(export_run(&export_selinux, &rs, d.path, &opts,
				    &files), 0);
	/* per subject: the module, its file context, the compiled module */
	assert_int_equal(files.n, 6);
	snprintf(path, sizeof(path), "%s/vigil_usr_bin_demo.fc", d.path);
	assert_string_equal(files.paths[1], path);
	text = slurp(path);
	assert_true(contains(text, "\n/usr/bin/demo\t--\tsystem_u:object_r:"
				   "vigil_usr_bin_demo_exec_t:s0\n"));
	free(text);
	snprintf(path, sizeof(path), "%s/vigil_usr_bin_demo.pp", d.path);
	assert_string_equal(files.paths[2], path);
	assert_int_equal(access(path, R_OK), 0);
	/* it links into a copy of the installed reference policy: every
	 * type, class and permission it names exists there */
	if (sh(&out, "r=%s/root && mkdir -p $r/var/lib/selinux $r/etc && "
	       "cp -a /var/lib/selinux/default $r/var/lib/selinux/ && "
	       "cp -a /etc/selinux $r/etc/ && semodule -p $r -s default -n "
	       "-i %s/vigil_usr_bin_demo.pp %s/vigil_usr_bin_demo_helper.pp "
	       "&& grep -q vigil_usr_bin_demo_exec_t "
	       "$r/var/lib/selinux/default/active/file_contexts",
	       d.path, d.path, d.path))
		fail_msg("semodule -i into a copy of the policy: %s", out);
	free(out);
	snprintf(path, sizeof(path), "%s/vigil_usr_bin_demo.te", d.path);
	assert_string_equal(files.paths[0], path);
	text = slurp(path);
	check_header(text, "#");
	assert_true(contains(text, "\nmodule vigil_usr_bin_demo 1.0;\n\n"
				   "require {\n\trole system_r;\n"));
	assert_true(contains(text, "\ttype etc_t;\n"));
	assert_true(contains(text, "\ntype vigil_usr_bin_demo_t, domain;\n"
				   "type vigil_usr_bin_demo_exec_t, file_type, "
				   "exec_type;\n"
				   "role system_r types vigil_usr_bin_demo_t;\n"));
	/* run from an admin's shell or by systemd, it enters its domain */
	assert_true(contains(text, "\ttype_transition unconfined_t "
				   "vigil_usr_bin_demo_exec_t:process "
				   "vigil_usr_bin_demo_t;\n"));
	assert_true(contains(text, "\ttype_transition init_t "
				   "vigil_usr_bin_demo_exec_t:process "
				   "vigil_usr_bin_demo_t;\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t etc_t:file "
				   "{ getattr open read };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "self:capability { net_bind_service "
				   "sys_module };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "self:tcp_socket { accept bind create "
				   "getattr getopt listen read setattr setopt "
				   "shutdown write };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t node_t:"
				   "tcp_socket { node_bind };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "vigil_usr_bin_demo_helper_t:process "
				   "{ signal };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t lib_t:file "
				   "{ execute getattr map open read };\n"));
	/* the port's type from the policy's portcon (8080:
	 * http_cache_port_t in the reference policy), as semanage port -l
	 * lists it */
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "http_cache_port_t:tcp_socket { name_bind };\n"));
	assert_false(strstr(text, "name_bind needs the port's type"));
	assert_false(strstr(text, "\npermissive "));
	/* devices get their class and the policy's device types */
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "null_device_t:chr_file { getattr ioctl };\n"));
	assert_false(strstr(text, "device_t:file"));
	/* a type in the policy: never one made up from a path */
	assert_false(strstr(text, "demo_work"));
	if (sh(&out, "cd '%s' && checkmodule -M -m -o vigil_usr_bin_demo.mod "
	       "vigil_usr_bin_demo.te && semodule_package -o "
	       "vigil_usr_bin_demo.pp -m vigil_usr_bin_demo.mod", d.path))
		fail_msg("checkmodule: %s", out);
	free(out);
	/* broken: an unknown keyword makes checkmodule fail */
	snprintf(path, sizeof(path), "%s/broken.te", d.path);
	*strstr(text, "allow ") = 'X';
	write_text(path, text);
	assert_int_not_equal(sh(&out, "cd '%s' && checkmodule -M -m -o "
				"vigil_usr_bin_demo.mod broken.te && "
				"semodule_package -o b.pp -m "
				"vigil_usr_bin_demo.mod", d.path), 0);
	free(out);
	free(text);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

/* vigil trial --to selinux: each domain declared permissive, and still a
 * module the reference policy links. */
static void test_selinux_permissive(void **state)
{
	struct export_opts po = { .selinux_permissive = true };
	struct export_files files = { 0 };
	struct vigil_ruleset rs;
	struct tdir d;
	char *text, *out, *mod;

	(void)state;
	need("checkmodule", "checkpolicy");
	need("semodule_package", "semodule-utils");
	workload(&rs);
	tdir_make(&d);
	assert_int_equal(export_run(&export_selinux, &rs, d.path, &po,
				    &files), 0);
	assert_int_equal(files.n, 6);
	text = slurp(files.paths[0]);
	assert_true(contains(text, "\nrole system_r types vigil_usr_bin_demo_t;"
				   "\n# vigil trial: denials logged, not "
				   "enforced\npermissive vigil_usr_bin_demo_t;\n"));
	free(text);
	assert_int_equal(access(files.paths[2], R_OK), 0);
	if (sh(&out, "r=%s/root && mkdir -p $r/var/lib/selinux $r/etc && "
	       "cp -a /var/lib/selinux/default $r/var/lib/selinux/ && "
	       "cp -a /etc/selinux $r/etc/ && semodule -p $r -s default -n "
	       "-i %s -i %s && semodule -p $r -s default -l | grep -qx "
	       "vigil_usr_bin_demo", d.path, files.paths[2], files.paths[5]))
		fail_msg("semodule -i into a copy of the policy: %s", out);
	free(out);
	/* the module vigil trial looks for: its name from the program's */
	mod = export_selinux_module("/usr/bin/demo");
	assert_string_equal(mod, "vigil_usr_bin_demo");
	free(mod);
	mod = export_selinux_module("/tmp/a b/x.y");
	assert_string_equal(mod, "vigil_tmp_a_b_x_y");
	free(mod);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

/* The AVC records vigil trial --to selinux reports: real examples
 * (ANCHORS.md, and the guest's) and malformed ones. */
static void test_selinux_avc(void **state)
{
	struct selinux_avc a;

	(void)state;
	assert_int_equal(selinux_avc_parse(
		"type=AVC msg=audit(1666691794.882:1434): avc:  denied  { read "
		"write open } for  pid=94509 comm=\"aide\" path=\"/hostroot/etc/"
		"kubernetes/aide.log.new\" dev=\"nvme0n1p4\" ino=167774224 "
		"scontext=system_u:system_r:selinuxrecording.process:s0:c218,"
		"c875 tcontext=system_u:object_r:kubernetes_file_t:s0 "
		"tclass=file permissive=1", &a), 0);
	assert_true(a.denied);
	assert_true(a.permissive);
	assert_string_equal(a.perms, "read write open");
	assert_string_equal(a.stype, "selinuxrecording.process");
	assert_string_equal(a.ttype, "kubernetes_file_t");
	assert_string_equal(a.tclass, "file");
	assert_string_equal(a.object, "/hostroot/etc/kubernetes/aide.log.new");
	selinux_avc_free(&a);
	/* name= when no path=, enforcing, ENRICHED fields cut */
	assert_int_equal(selinux_avc_parse(
		"type=AVC msg=audit(1.2:3): avc:  denied  { name_bind } for  "
		"pid=7 comm=\"lighttpd\" src=80 scontext=system_u:system_r:"
		"vigil_x_t:s0 tcontext=system_u:object_r:http_port_t:s0 "
		"tclass=tcp_socket permissive=0\x1dSOMETHING=\"x y\"", &a), 0);
	assert_false(a.permissive);
	assert_null(a.object);
	assert_string_equal(a.stype, "vigil_x_t");
	assert_string_equal(a.ttype, "http_port_t");
	assert_string_equal(a.tclass, "tcp_socket");
	selinux_avc_free(&a);
	assert_int_equal(selinux_avc_parse(
		"type=AVC msg=audit(1.2:3): avc:  granted  { setenforce } for  "
		"pid=1 comm=\"x\" name=\"enforce\" scontext=u:r:a_t:s0 "
		"tcontext=u:object_r:b_t:s0 tclass=security", &a), 0);
	assert_false(a.denied);
	assert_string_equal(a.object, "enforce");
	selinux_avc_free(&a);
	/* not AVCs vigil can read: no tclass, no braces, no type */
	assert_int_equal(selinux_avc_parse("type=AVC msg=audit(1.2:3): avc:  "
		"denied  { read } for scontext=u:r:a_t:s0 tcontext=u:r:b_t:s0",
		&a), -EINVAL);
	assert_int_equal(selinux_avc_parse("type=AVC msg=audit(1.2:3): avc:  "
		"denied read scontext=u:r:a_t:s0 tcontext=u:r:b_t:s0 "
		"tclass=file", &a), -EINVAL);
	assert_int_equal(selinux_avc_parse("type=AVC msg=audit(1.2:3): avc:  "
		"denied  { read } scontext=a_t tcontext=u:r:b_t:s0 tclass=file",
		&a), -EINVAL);
	assert_int_equal(selinux_avc_parse("apparmor=\"ALLOWED\" { x } "
		"scontext=u:r:a_t:s0 tcontext=u:r:b_t:s0 tclass=file", &a),
		-EINVAL);
}

/*
 * The walk vigil does not record: a path beneath a system alias's target
 * (/run, which Debian's base-files links from /var/run) gets the link's
 * lnk_file read and its folders' search; a unix socket's address, kept
 * as the program passed it, gets the same for each link on its way, and
 * the socket's connect.
 */
static void test_selinux_walk(void **state)
{
	struct export_files files = { 0 };
	struct vigil_ruleset rs = { 0 };
	struct vigil_subject_rules *sr;
	struct tdir d;
	char *text, path[256];
	struct stat st;

	(void)state;
	need("checkmodule", "checkpolicy");
	if (lstat("/var/run", &st) || !S_ISLNK(st.st_mode))
		fail_msg("/var/run is not a link here (Debian's base-files "
			 "makes it one)");
	sr = add_subject(&rs, "/usr/bin/demo");
	add_rule(sr, VIGIL_CLASS_FILE, VIGIL_FILE_R, "/run/demo.pid", false);
	sr = add_subject(&rs, "/usr/bin/demo2");
	add_rule(sr, VIGIL_CLASS_NET, VIGIL_NET_SOCKET | VIGIL_NET_CONNECT,
		 "unix:stream:/var/run/nscd/socket", false);
	tdir_make(&d);
	assert_int_equal(export_run(&export_selinux, &rs, d.path, &opts,
				    &files), 0);
	snprintf(path, sizeof(path), "%s/vigil_usr_bin_demo.te", d.path);
	text = slurp(path);
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t var_run_t:"
				   "lnk_file { getattr read };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t var_t:dir "
				   "{ getattr search };\n"));
	assert_true(contains(text, "/var/run, /etc/localtime, /lib64"));
	free(text);
	snprintf(path, sizeof(path), "%s/vigil_usr_bin_demo2.te", d.path);
	text = slurp(path);
	assert_true(contains(text, "\nallow vigil_usr_bin_demo2_t var_run_t:"
				   "lnk_file { getattr read };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo2_t var_run_t:"
				   "dir { getattr search };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo2_t var_t:dir "
				   "{ getattr search };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo2_t "
				   "self:unix_stream_socket { connect create "));
	free(text);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

/*
 * The files a program writes get private types of its module (issue 27
 * §3): a literal path it writes under /var, /run, /tmp or /srv is
 * labelled by the .fc with vigil_NAME_KIND_t (restorecon), and a file it
 * creates gets that type by a named type_transition in its folder's
 * type; its folder's type keeps add_name, the file's type its
 * permissions. A glob, a name a type_transition cannot carry and a
 * device keep the folder's or the policy's type.
 */
static void test_selinux_own_files(void **state)
{
	struct export_files files = { 0 };
	struct vigil_ruleset rs = { 0 };
	struct vigil_subject_rules *sr;
	struct tdir d;
	char *text, *out, path[256];

	(void)state;
	need("checkmodule", "checkpolicy");
	need("semodule_package", "semodule-utils");
	need("semodule", "policycoreutils");
#define F(x) VIGIL_FILE_##x
	sr = add_subject(&rs, "/usr/bin/demo");
	add_rule(sr, VIGIL_CLASS_FILE, F(A) | F(C),
		 "/var/log/demo-own/access.log", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(W) | F(C) | F(D) | F(T),
		 "/run/demo-own/demo.pid", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W), "/var/lib/demo-own/state",
		 false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W) | F(C),
		 "/tmp/demo-own/out.txt", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W), "/var/lib/demo-own/**",
		 true);
	add_rule(sr, VIGIL_CLASS_FILE, F(A) | F(C),
		 "/var/log/demo-own/a\"b c.log", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W), "/dev/null", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/var/log/demo-own/read.log",
		 false);
	/* shared: a file another subject reads, a file its child writes
	 * (the child runs in its domain too) */
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W), "/var/lib/demo-own/shared",
		 false);
	add_child(sr, "/usr/bin/demo-kid");
	sr = add_subject(&rs, "/usr/bin/demo-kid");
	add_rule(sr, VIGIL_CLASS_FILE, F(A) | F(C), "/var/log/demo-own/kid.log",
		 false);
	sr = add_subject(&rs, "/usr/bin/demo-other");
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/var/lib/demo-own/shared",
		 false);
#undef F
	tdir_make(&d);
	assert_int_equal(export_run(&export_selinux, &rs, d.path, &opts,
				    &files), 0);
	snprintf(path, sizeof(path), "%s/vigil_usr_bin_demo.te", d.path);
	text = slurp(path);
	/* declared, each kind once */
	assert_true(contains(text, "\ntype vigil_usr_bin_demo_log_t, "
				   "file_type;\ntype vigil_usr_bin_demo_run_t, "
				   "file_type;\ntype vigil_usr_bin_demo_tmp_t, "
				   "file_type;\ntype vigil_usr_bin_demo_var_t, "
				   "file_type;\n"));
	assert_false(strstr(text, "\ttype vigil_usr_bin_demo_log_t;"));
	/* the permissions on the file's own type, add_name on the folder's */
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "vigil_usr_bin_demo_log_t:file { append "
				   "create getattr open };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "vigil_usr_bin_demo_run_t:file { append "
				   "create getattr open unlink write };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "vigil_usr_bin_demo_var_t:file { append "
				   "getattr open read write };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t var_log_t:dir "
				   "{ add_name create getattr search write "
				   "};\n"));
	/* created: the named transitions from the folders' types */
	assert_true(contains(text, "\ntype_transition vigil_usr_bin_demo_t "
				   "var_log_t:file vigil_usr_bin_demo_log_t "
				   "\"access.log\";\n"));
	assert_true(contains(text, "\ntype_transition vigil_usr_bin_demo_t "
				   "var_run_t:file vigil_usr_bin_demo_run_t "
				   "\"demo.pid\";\n"));
	assert_true(contains(text, "\ntype_transition vigil_usr_bin_demo_t "
				   "tmp_t:file vigil_usr_bin_demo_tmp_t "
				   "\"out.txt\";\n"));
	/* only written, not created: labelled, no transition */
	assert_false(strstr(text, "\"state\""));
	/* the glob, the name no transition can carry, the device, the
	 * file only read: the types they had */
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t var_lib_t:file "
				   "{ append getattr open read write };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t var_log_t:file "
				   "{ append create getattr open read };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "null_device_t:chr_file { append getattr "
				   "open read write };\n"));
	assert_false(strstr(text, "b c.log\""));
	assert_false(strstr(text, "\"kid.log\""));
	free(text);
	snprintf(path, sizeof(path), "%s/vigil_usr_bin_demo_kid.te", d.path);
	text = slurp(path);
	assert_false(strstr(text, "\"kid.log\""));
	assert_false(strstr(text, "_log_t, file_type"));
	free(text);
	snprintf(path, sizeof(path), "%s/vigil_usr_bin_demo.fc", d.path);
	text = slurp(path);
	assert_true(contains(text, "\n/var/log/demo-own/access\\.log\t--\t"
				   "system_u:object_r:vigil_usr_bin_demo_log_t:"
				   "s0\n"));
	assert_true(contains(text, "\n/run/demo-own/demo\\.pid\t--\tsystem_u:"
				   "object_r:vigil_usr_bin_demo_run_t:s0\n"));
	assert_true(contains(text, "\n/var/lib/demo-own/state\t--\tsystem_u:"
				   "object_r:vigil_usr_bin_demo_var_t:s0\n"));
	assert_true(contains(text, "\n/tmp/demo-own/out\\.txt\t--\tsystem_u:"
				   "object_r:vigil_usr_bin_demo_tmp_t:s0\n"));
	assert_false(strstr(text, "read\\.log"));
	assert_false(strstr(text, "kid\\.log"));
	assert_false(strstr(text, "shared"));
	assert_false(strstr(text, "/dev/null"));
	free(text);
	/* it links into a copy of the installed reference policy, and the
	 * policy's file contexts label those files with their types */
	if (sh(&out, "r=%s/root && mkdir -p $r/var/lib/selinux $r/etc && "
	       "cp -a /var/lib/selinux/default $r/var/lib/selinux/ && "
	       "cp -a /etc/selinux $r/etc/ && semodule -p $r -s default -n "
	       "-i %s/vigil_usr_bin_demo.pp && grep -q "
	       "'^/var/log/demo-own/access\\\\\\.log\t--\tsystem_u:object_r:"
	       "vigil_usr_bin_demo_log_t:s0$' "
	       "$r/var/lib/selinux/default/active/file_contexts",
	       d.path, d.path))
		fail_msg("semodule -i into a copy of the policy: %s", out);
	free(out);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

/* The type the file contexts at fc give path (mode: its kind), or NULL. */
static char *fc_type(const char *fc, const char *path, mode_t mode)
{
	struct selinux_opt o = { SELABEL_OPT_PATH, fc };
	struct selabel_handle *h = selabel_open(SELABEL_CTX_FILE, &o, 1);
	char *con = NULL, *t = NULL, *c;

	assert_non_null(h);
	if (!selabel_lookup(h, &con, path, mode) && con) {
		c = strchr(con, ':');
		c = c ? strchr(c + 1, ':') : NULL;
		if (c)
			t = strndup(c + 1, strcspn(c + 1, ":"));
	}
	freecon(con);
	selabel_close(h);
	return t;
}

/*
 * A folder tree a program writes (issue 27 §3): DIR/STAR-STAR or DIR/STAR
 * with a write letter gets a private type of its module as a literal
 * file does: a .fc entry DIR(/.*)? (DIR(/[^/]*)? for a STAR), its bytes
 * escaped, a dir type_transition with DIR's name in its parent's type,
 * the dir and file permissions on the private type, and none on the
 * policy's type of the folder (var_lib_t, tmp_t: every such file on the
 * system). A path of the subject's own in the tree is the tree's. Not a
 * tree: one another subject names a path in (a glob of its included),
 * one whose subject another domain runs (a child), a folder too high
 * (/srv itself), one holding a sensitive path (/var/lib/vigil).
 */
static void test_selinux_own_trees(void **state)
{
	struct export_files files = { 0 };
	struct vigil_ruleset rs = { 0 };
	struct vigil_subject_rules *sr;
	struct tdir d;
	char *text, *out, path[256], fc[320], *t;

	(void)state;
	need("checkmodule", "checkpolicy");
	need("semodule_package", "semodule-utils");
	need("semodule", "policycoreutils");
#define F(x) VIGIL_FILE_##x
	sr = add_subject(&rs, "/usr/bin/demo");
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W) | F(C) | F(D),
		 "/var/lib/demo-tree/**", true);
	free(sr->rules[0].examples[0]);
	sr->rules[0].examples[0] = strdup("/var/lib/demo-tree/a/b.db");
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W) | F(C),
		 "/var/lib/demo-tree/state", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(W) | F(C), "/tmp/demo.tree/*", true);
	add_rule(sr, VIGIL_CLASS_FILE, F(A) | F(C), "/var/log/demo-tree/**",
		 true);
	/* nested: the outer tree's, labelling all beneath it */
	add_rule(sr, VIGIL_CLASS_FILE, F(W), "/var/lib/demo-tree/sub/*", true);
	add_rule(sr, VIGIL_CLASS_FILE, F(W) | F(C), "/run/demo-nest/*", true);
	add_rule(sr, VIGIL_CLASS_FILE, F(W), "/run/demo-nest/a/**", true);
	/* files below a STAR tree's entries: not the tree's (its .fc
	 * entry labels one level) */
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/tmp/demo.tree/sub/*.txt", true);
	sr = add_subject(&rs, "/usr/bin/demo2");
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W), "/srv/demo-shared/**",
		 true);
	add_rule(sr, VIGIL_CLASS_FILE, F(W) | F(C), "/srv/**", true);
	add_rule(sr, VIGIL_CLASS_FILE, F(W) | F(C), "/var/lib/vigil/**", true);
	add_child(sr, "/usr/bin/demo2-kid");
	sr = add_subject(&rs, "/usr/bin/demo2-kid");
	add_rule(sr, VIGIL_CLASS_FILE, F(W) | F(C), "/var/lib/demo-kid/**",
		 true);
	sr = add_subject(&rs, "/usr/bin/demo3");
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/srv/demo-*/x/*.txt", true);
#undef F
	tdir_make(&d);
	assert_int_equal(export_run(&export_selinux, &rs, d.path, &opts,
				    &files), 0);
	snprintf(path, sizeof(path), "%s/vigil_usr_bin_demo.te", d.path);
	text = slurp(path);
	assert_true(contains(text, "\ntype vigil_usr_bin_demo_log_t, "
				   "file_type;\ntype vigil_usr_bin_demo_run_t, "
				   "file_type;\ntype vigil_usr_bin_demo_tmp_t, "
				   "file_type;\ntype vigil_usr_bin_demo_var_t, "
				   "file_type;\n"));
	/* the rules on the tree's type: its folders and files */
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "vigil_usr_bin_demo_var_t:dir { add_name "
				   "create getattr open read remove_name rmdir "
				   "search write };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "vigil_usr_bin_demo_var_t:file { append "
				   "create getattr open read unlink write };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "vigil_usr_bin_demo_tmp_t:dir { add_name "
				   "create getattr search write };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "vigil_usr_bin_demo_tmp_t:file { append "
				   "create getattr open write };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t "
				   "vigil_usr_bin_demo_log_t:file { append "
				   "create getattr open };\n"));
	/* the folder made in its parent gets the type */
	assert_true(contains(text, "\ntype_transition vigil_usr_bin_demo_t "
				   "var_lib_t:dir vigil_usr_bin_demo_var_t "
				   "\"demo-tree\";\n"));
	assert_true(contains(text, "\ntype_transition vigil_usr_bin_demo_t "
				   "tmp_t:dir vigil_usr_bin_demo_tmp_t "
				   "\"demo.tree\";\n"));
	assert_true(contains(text, "\ntype_transition vigil_usr_bin_demo_t "
				   "var_log_t:dir vigil_usr_bin_demo_log_t "
				   "\"demo-tree\";\n"));
	/* nothing written on the policy's types of the folders: searched
	 * only (the state file in the tree is the tree's, no transition) */
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t var_lib_t:dir "
				   "{ getattr search };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t tmp_t:dir "
				   "{ getattr search };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t var_log_t:dir "
				   "{ getattr search };\n"));
	assert_null(strstr(text, " var_lib_t:file"));
	assert_true(contains(text, "\nallow vigil_usr_bin_demo_t tmp_t:file "
				   "{ getattr open read };\n"));
	assert_null(strstr(text, " var_log_t:file"));
	assert_null(strstr(text, "\"state\""));
	assert_true(contains(text, "file r /tmp/demo.tree/sub/*.txt: glob: "
				   "the types"));
	assert_null(strstr(strstr(text, "glob: the types") + 1,
			   "glob: the types"));
	free(text);
	snprintf(fc, sizeof(fc), "%s/vigil_usr_bin_demo.fc", d.path);
	text = slurp(fc);
	assert_true(contains(text, "\n/var/lib/demo-tree(/.*)?\tsystem_u:"
				   "object_r:vigil_usr_bin_demo_var_t:s0\n"));
	assert_true(contains(text, "\n/tmp/demo\\.tree(/[^/]*)?\tsystem_u:"
				   "object_r:vigil_usr_bin_demo_tmp_t:s0\n"));
	assert_true(contains(text, "\n/var/log/demo-tree(/.*)?\tsystem_u:"
				   "object_r:vigil_usr_bin_demo_log_t:s0\n"));
	assert_true(contains(text, "\n/run/demo-nest(/.*)?\tsystem_u:"
				   "object_r:vigil_usr_bin_demo_run_t:s0\n"));
	assert_null(strstr(text, "state"));
	assert_null(strstr(text, "/sub"));
	assert_null(strstr(text, "nest/a"));
	free(text);
	/* the others: no tree */
	snprintf(path, sizeof(path), "%s/vigil_usr_bin_demo2.fc", d.path);
	text = slurp(path);
	assert_null(strstr(text, "(/"));
	free(text);
	snprintf(path, sizeof(path), "%s/vigil_usr_bin_demo2.te", d.path);
	text = slurp(path);
	assert_null(strstr(text, "_t, file_type;\n"));
	assert_null(strstr(text, ":dir vigil_"));
	free(text);
	snprintf(path, sizeof(path), "%s/vigil_usr_bin_demo2_kid.fc", d.path);
	text = slurp(path);
	assert_null(strstr(text, "(/"));
	free(text);
	/* it links into a copy of the reference policy, whose file
	 * contexts then label the trees with their types */
	if (sh(&out, "r=%s/root && mkdir -p $r/var/lib/selinux $r/etc && "
	       "cp -a /var/lib/selinux/default $r/var/lib/selinux/ && "
	       "cp -a /etc/selinux $r/etc/ && semodule -p $r -s default -n "
	       "-i %s/vigil_usr_bin_demo.pp", d.path, d.path))
		fail_msg("semodule -i into a copy of the policy: %s", out);
	free(out);
	snprintf(fc, sizeof(fc), "%s/root/var/lib/selinux/default/active/"
		 "file_contexts", d.path);
#define TYPE_IS(p, m, want) do {					\
		t = fc_type(fc, p, m);					\
		if (!t || strcmp(t, want))				\
			fail_msg("%s: %s, not %s", p, t ? t : "(none)",	\
				 want);					\
		free(t);						\
	} while (0)
	TYPE_IS("/var/lib/demo-tree", S_IFDIR, "vigil_usr_bin_demo_var_t");
	TYPE_IS("/var/lib/demo-tree/a/b.db", S_IFREG,
		"vigil_usr_bin_demo_var_t");
	TYPE_IS("/var/lib/demo-treex", S_IFREG, "var_lib_t");
	TYPE_IS("/tmp/demo.tree", S_IFDIR, "vigil_usr_bin_demo_tmp_t");
	TYPE_IS("/tmp/demo.tree/x", S_IFREG, "vigil_usr_bin_demo_tmp_t");
	TYPE_IS("/var/log/demo-tree/x.log", S_IFREG,
		"vigil_usr_bin_demo_log_t");
#undef TYPE_IS
	/* one level only for a STAR; the '.' escaped */
	t = fc_type(fc, "/tmp/demo.tree/a/b", S_IFREG);
	assert_true(!t || strcmp(t, "vigil_usr_bin_demo_tmp_t"));
	free(t);
	t = fc_type(fc, "/tmp/demoxtree/a", S_IFREG);
	assert_true(!t || strcmp(t, "vigil_usr_bin_demo_tmp_t"));
	free(t);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

/*
 * A unix socket connect reaches a peer: when a subject of the export
 * binds that address, its domain is the peer's, and the connect gets
 * connectto on it (sendto for a datagram socket); a socket no subject
 * here binds stays noted (issue 27).
 */
static void test_selinux_connectto(void **state)
{
	struct export_files files = { 0 };
	struct vigil_ruleset rs = { 0 };
	struct vigil_subject_rules *sr;
	struct tdir d;
	char *text, *out, path[256];

	(void)state;
	need("checkmodule", "checkpolicy");
	need("semodule_package", "semodule-utils");
	need("semodule", "policycoreutils");
	sr = add_subject(&rs, "/usr/sbin/demod");
	add_rule(sr, VIGIL_CLASS_NET, VIGIL_NET_SOCKET | VIGIL_NET_BIND |
		 VIGIL_NET_LISTEN | VIGIL_NET_ACCEPT,
		 "unix:stream:/run/demod.sock", false);
	add_rule(sr, VIGIL_CLASS_NET, VIGIL_NET_SOCKET | VIGIL_NET_BIND,
		 "unix:dgram:/run/demod.dgram", false);
	sr = add_subject(&rs, "/usr/bin/democli");
	add_rule(sr, VIGIL_CLASS_NET, VIGIL_NET_SOCKET | VIGIL_NET_CONNECT,
		 "unix:stream:/run/demod.sock", false);
	add_rule(sr, VIGIL_CLASS_NET, VIGIL_NET_SOCKET | VIGIL_NET_CONNECT,
		 "unix:dgram:/run/demod.dgram", false);
	add_rule(sr, VIGIL_CLASS_NET, VIGIL_NET_SOCKET | VIGIL_NET_CONNECT,
		 "unix:stream:/run/other.sock", false);
	/* the same address as a datagram socket: not the stream peer's */
	add_rule(sr, VIGIL_CLASS_NET, VIGIL_NET_SOCKET | VIGIL_NET_CONNECT,
		 "unix:dgram:/run/demod.sock", false);
	tdir_make(&d);
	assert_int_equal(export_run(&export_selinux, &rs, d.path, &opts,
				    &files), 0);
	snprintf(path, sizeof(path), "%s/vigil_usr_bin_democli.te", d.path);
	text = slurp(path);
	assert_true(contains(text, "\nallow vigil_usr_bin_democli_t "
				   "vigil_usr_sbin_demod_t:unix_stream_socket "
				   "{ connectto };\n"));
	assert_true(contains(text, "\nallow vigil_usr_bin_democli_t "
				   "vigil_usr_sbin_demod_t:unix_dgram_socket "
				   "{ sendto };\n"));
	assert_true(contains(text, "\ttype vigil_usr_sbin_demod_t;\n"));
	/* the socket no subject binds, and the datagram one at the
	 * stream's address: noted, nothing written for them */
	assert_true(contains(text, "unix:stream:/run/other.sock: connectto "
				   "needs the domain of the peer (no subject "
				   "here binds it)"));
	assert_true(contains(text, "unix:dgram:/run/demod.sock: connectto "
				   "needs the domain of the peer"));
	free(text);
	snprintf(path, sizeof(path), "%s/vigil_usr_sbin_demod.te", d.path);
	text = slurp(path);
	assert_false(strstr(text, "{ connectto }"));
	free(text);
	/* the two modules link together into a copy of the policy */
	if (sh(&out, "r=%s/root && mkdir -p $r/var/lib/selinux $r/etc && "
	       "cp -a /var/lib/selinux/default $r/var/lib/selinux/ && "
	       "cp -a /etc/selinux $r/etc/ && semodule -p $r -s default -n "
	       "-i %s/vigil_usr_sbin_demod.pp -i %s/vigil_usr_bin_democli.pp",
	       d.path, d.path, d.path))
		fail_msg("semodule -i into a copy of the policy: %s", out);
	free(out);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	tdir_rm(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selinux),
		cmocka_unit_test(test_selinux_permissive),
		cmocka_unit_test(test_selinux_avc),
		cmocka_unit_test(test_selinux_walk),
		cmocka_unit_test(test_selinux_own_files),
		cmocka_unit_test(test_selinux_own_trees),
		cmocka_unit_test(test_selinux_connectto),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
