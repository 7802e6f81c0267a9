// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests: the exporters (vigil export) on a rule set like a learned
 * workload, checked by each target's own validator, and vigil run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "vigil.h"
#include "util.h"
#include "export.h"
#include "export/driver.h"
#include "export/object.h"
#include "match.h"
#include "landlock.h"
#include "candidate.h"
#include "trial_selinux.h"
#include "policy.h"
#include "test_files.h"

#define T0 1796284356

/* ---- a rule set like a learned workload ---- */

static struct vigil_subject_rules *add_subject(struct vigil_ruleset *rs,
					       const char *exe)
{
	struct vigil_subject_rules *sr;

	rs->subjects = realloc(rs->subjects,
			       (rs->nsubjects + 1) * sizeof(*rs->subjects));
	assert_non_null(rs->subjects);
	sr = &rs->subjects[rs->nsubjects++];
	memset(sr, 0, sizeof(*sr));
	sr->exe = strdup(exe);
	sr->first = T0;
	sr->last = T0 + 60;
	return sr;
}

static void add_rule(struct vigil_subject_rules *sr, enum vigil_class class,
		     uint64_t access, const char *object, bool generalised)
{
	struct vigil_rule *r;

	sr->rules = realloc(sr->rules, (sr->nrules + 1) * sizeof(*sr->rules));
	assert_non_null(sr->rules);
	r = &sr->rules[sr->nrules++];
	memset(r, 0, sizeof(*r));
	r->class = class;
	r->access = access;
	r->object = strdup(object);
	r->generalised = generalised;
	r->glob = vigil_glob_escape_dup(object, strlen(object), generalised);
	if (!strncmp(object, "**", 2)) {
		/* not a path: "**" then the name, as rules.c writes it */
		char *e = vigil_glob_escape_dup(object + 2, strlen(object) - 2,
						false);

		free(r->glob);
		assert_true(asprintf(&r->glob, "**%s", e) > 0);
		free(e);
		r->generalised = true;
		r->heuristics = VIGIL_HEUR_RELATIVE;
	}
	if (generalised) {
		r->why_mem = strdup("versioned library");
		r->why = r->why_mem;
	}
	r->count = 3;
	r->first = T0;
	r->last = T0 + 10;
	r->distinct = 1;
	r->examples = calloc(1, sizeof(char *));
	r->examples[0] = strdup(object);
	r->nexamples = 1;
	sr->events += r->count;
}

static void add_child(struct vigil_subject_rules *sr, const char *exe)
{
	sr->children = realloc(sr->children,
			       (sr->nchildren + 1) * sizeof(char *));
	sr->children[sr->nchildren++] = strdup(exe);
}

#define F(x) VIGIL_FILE_##x

/* /usr/bin/demo and the child it runs, /usr/bin/demo-helper. */
static void workload(struct vigil_ruleset *rs)
{
	struct vigil_subject_rules *sr;

	memset(rs, 0, sizeof(*rs));
	rs->first = T0;
	rs->last = T0 + 60;
	rs->records = 42;
	rs->tuples = 30;
	sr = add_subject(rs, "/usr/bin/demo");
	add_child(sr, "/usr/bin/demo-helper");
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/etc/hostname", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/etc/demo/a b\"c#d", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/etc/demo/new\nline", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/etc/demo/star*{x,y}?", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W), "/var/lib/demo/**", true);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W) | F(C) | F(D) | F(T),
		 "/tmp/demo-work/out.txt", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(C) | F(D), "/tmp/demo-work/sub",
		 false);
	add_rule(sr, VIGIL_CLASS_FILE, F(A) | F(K), "/var/log/demo.log",
		 false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(M),
		 "/usr/lib/x86_64-linux-gnu/libc.so*", true);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(M),
		 "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(X), "/usr/bin/demo-helper", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W) | F(I), "/dev/tty", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(I), "/dev/null", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "**anon_inode:[eventfd]", false);
	add_rule(sr, VIGIL_CLASS_CAP, VIGIL_CAP_USE, "net_bind_service", false);
	add_rule(sr, VIGIL_CLASS_NET,
		 VIGIL_NET_SOCKET | VIGIL_NET_BIND | VIGIL_NET_LISTEN |
			 VIGIL_NET_ACCEPT,
		 "inet:stream:8080", false);
	add_rule(sr, VIGIL_CLASS_NET,
		 VIGIL_NET_SOCKET | VIGIL_NET_BIND,
		 "unix:stream:/tmp/demo-work/demo.sock", false);
	add_rule(sr, VIGIL_CLASS_NET, VIGIL_NET_SOCKET | VIGIL_NET_CONNECT,
		 "unix:stream:/run/demo.sock", false);
	add_rule(sr, VIGIL_CLASS_SIGNAL, 1ULL << (15 - 1),
		 "/usr/bin/demo-helper", false);
	add_rule(sr, VIGIL_CLASS_PTRACE, VIGIL_PTRACE_READ, "/usr/bin/other",
		 false);
	add_rule(sr, VIGIL_CLASS_MOUNT, VIGIL_MOUNT_MOUNT | VIGIL_MOUNT_UMOUNT,
		 "/mnt/demo", false);
	add_rule(sr, VIGIL_CLASS_MODULE, VIGIL_MODULE_LOAD,
		 "/lib/modules/demo.ko", false);
	sr = add_subject(rs, "/usr/bin/demo-helper");
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/etc/passwd", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(W) | F(C), "/tmp/demo-helper.log",
		 false);
	rs->nsubjects = 2;
}

/* ---- helpers ---- */

struct tdir {
	char path[64];
};

static void tdir_make(struct tdir *d)
{
	strcpy(d->path, "/tmp/vigil-export.XXXXXX");
	assert_non_null(mkdtemp(d->path));
}

static void tdir_rm(struct tdir *d)
{
	char cmd[128];

	if (getenv("VIGIL_TEST_KEEP")) {
		fprintf(stderr, "kept %s\n", d->path);
		return;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->path);
	assert_int_equal(system(cmd), 0);
}

static bool have(const char *tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

static void need(const char *tool, const char *package)
{
	if (!have(tool))
		fail_msg("%s not found: install the Debian package %s "
			 "(scripts/install-deps)", tool, package);
}

/* Run a shell command; its exit status, its output in *out. */
static int sh(char **out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int sh(char **out, const char *fmt, ...)
{
	char cmd[4096], tmp[] = "/tmp/vigil-sh.XXXXXX", full[4200];
	va_list ap;
	int fd, st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);
	snprintf(full, sizeof(full), "(%s) > %s 2>&1", cmd, tmp);
	st = system(full);
	if (out)
		*out = slurp(tmp);
	unlink(tmp);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static bool contains(const char *text, const char *line)
{
	if (!strstr(text, line)) {
		print_error("missing: %s\n--- in:\n%s\n", line, text);
		return false;
	}
	return true;
}

static void check_header(const char *text, const char *cmt)
{
	char want[128];

	snprintf(want, sizeof(want), "%s generated by vigil ", cmt);
	assert_true(!strncmp(text, cmt, strlen(cmt)));
	assert_true(contains(text, want));
	assert_true(contains(text, "observed from 2026-12-03T"));
	assert_true(contains(text, "42 records"));
	assert_true(contains(text, "/usr/bin/demo"));
}

static const struct export_opts opts = { .db = "test.db" };

/* ---- globs ---- */

static void test_glob_toks(void **state)
{
	struct glob_toks g;
	const char *src;
	char *s;

	(void)state;
	src = "/a\\ b/\\*x*/**/{c,d}?\\x0a,";
	assert_int_equal(glob_toks_parse(src, strlen(src), &g), 0);
	assert_false(glob_toks_literal(&g));
	s = glob_toks_literal_dir(&g);
	assert_string_equal(s, "/a b/");
	free(s);
	assert_int_equal(g.t[0].kind, GT_LIT);
	assert_int_equal(g.n, 19);
	assert_int_equal(g.t[2].c, ' ');
	assert_int_equal(g.t[5].kind, GT_LIT);
	assert_int_equal(g.t[5].c, '*');
	assert_int_equal(g.t[7].kind, GT_STAR);
	assert_int_equal(g.t[9].kind, GT_STAR2);
	assert_int_equal(g.t[11].kind, GT_LBRACE);
	assert_int_equal(g.t[13].kind, GT_COMMA);
	assert_int_equal(g.t[15].kind, GT_RBRACE);
	assert_int_equal(g.t[16].kind, GT_QMARK);
	assert_int_equal(g.t[17].c, '\n');
	assert_int_equal(g.t[18].kind, GT_LIT);	/* ',' outside braces */
	assert_int_equal(g.t[18].c, ',');
	glob_toks_free(&g);
	assert_int_equal(glob_toks_parse("/a\\q", 4, &g), -EINVAL);
	assert_int_equal(glob_toks_parse("/a\\x0", 5, &g), -EINVAL);
	assert_int_equal(glob_toks_parse("/a\\x00", 6, &g), -EINVAL);
	assert_int_equal(glob_toks_parse("/{a", 3, &g), -EINVAL);
	assert_int_equal(glob_toks_parse("/a}", 3, &g), -EINVAL);
	assert_int_equal(glob_toks_parse("/etc/x", 6, &g), 0);
	s = glob_toks_literal_dir(&g);
	assert_string_equal(s, "/etc/x");
	free(s);
	glob_toks_free(&g);
	/* a rule without source form: its object through the same lexer,
	 * '*' and '?' operators only when generalised */
	{
		struct vigil_rule r = {
			.object = "/a/**b?{,}\\", .generalised = true,
		};

		assert_int_equal(glob_toks_of_rule(&r, &g), 0);
		assert_int_equal(g.n, 10);
		assert_int_equal(g.t[3].kind, GT_STAR2);
		assert_int_equal(g.t[5].kind, GT_QMARK);
		assert_int_equal(g.t[6].kind, GT_LIT);
		assert_int_equal(g.t[6].c, '{');
		assert_int_equal(g.t[9].c, '\\');
		glob_toks_free(&g);
		r.generalised = false;
		assert_int_equal(glob_toks_of_rule(&r, &g), 0);
		assert_true(glob_toks_literal(&g));
		assert_int_equal(g.n, 11);
		glob_toks_free(&g);
	}
}

/* What the kernel refuses, the exporters refuse: one lexer (match.c). */
static void test_glob_toks_kernel_limits(void **state)
{
	struct glob_toks g;
	char *big;

	(void)state;
	assert_int_equal(glob_toks_parse("", 0, &g), -EINVAL);
	assert_int_equal(glob_toks_parse("/{a,{b,{c,{d}}}}", 16, &g),
			 -EINVAL);
	assert_int_equal(glob_toks_parse("/{a,{b,{c,d}}}", 14, &g), 0);
	glob_toks_free(&g);
	assert_int_equal(glob_toks_parse("/a\0b", 5, &g), -EINVAL);
	big = malloc(VIGIL_GLOB_MAX_LEN + 2);
	assert_non_null(big);
	memset(big, 'a', VIGIL_GLOB_MAX_LEN + 1);
	big[0] = '/';
	assert_int_equal(glob_toks_parse(big, VIGIL_GLOB_MAX_LEN + 1, &g),
			 -EINVAL);
	assert_int_equal(glob_toks_parse(big, VIGIL_GLOB_MAX_LEN, &g), 0);
	assert_int_equal(g.n, VIGIL_GLOB_MAX_LEN);
	glob_toks_free(&g);
	free(big);
}

/* Braces expanded by the kernel's expansion, in its order. */
static void test_glob_alts(void **state)
{
	static const char *const want[] = {
		"/x/b.1", "/x/b.2", "/x/c", "/x/d",
	};
	const char *src = "/x/{b.{1,2},c,d}";
	struct glob_alts a;
	size_t i;
	char *s;

	(void)state;
	assert_int_equal(glob_alts_expand(src, strlen(src), &a), 0);
	assert_int_equal(a.n, 4);
	for (i = 0; i < a.n; i++) {
		s = glob_toks_text(&a.v[i]);
		assert_non_null(s);
		assert_string_equal(s, want[i]);
		free(s);
	}
	glob_alts_free(&a);
	/* adjacent stars merged as the kernel merges them */
	src = "/x/{*,a}*";
	assert_int_equal(glob_alts_expand(src, strlen(src), &a), 0);
	assert_int_equal(a.n, 2);
	assert_int_equal(a.v[0].n, 4);
	assert_int_equal(a.v[0].t[3].kind, GT_STAR);
	glob_alts_free(&a);
	/* 75 alternatives: over the kernel's bound of 64 */
	src = "/{a,b,c,d,e}{a,b,c,d,e}{a,b,c}";
	assert_int_equal(glob_alts_expand(src, strlen(src), &a), -EINVAL);
	assert_int_equal(a.n, 0);
	src = "/{a,b,c,d}{a,b,c,d}{a,b,c,d}";
	assert_int_equal(glob_alts_expand(src, strlen(src), &a), 0);
	assert_int_equal(a.n, 64);
	glob_alts_free(&a);
}

static void test_subject_name(void **state)
{
	char *s;

	(void)state;
	s = export_subject_name("/usr/bin/demo");
	assert_string_equal(s, "usr.bin.demo");
	free(s);
	s = export_subject_name("/tmp/a b/../x\n");
	assert_string_equal(s, "tmp.a_b....x_");
	free(s);
}

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

/* A candidate as a rule set: its rules exactly, evidence from observations. */
static void test_candidate(void **state)
{
	static const char text[] =
		"subject /usr/bin/svc {\n"
		"\tfile r /etc/svc/*.conf\n"
		"\tfile x /usr/bin/grep\n"
		"\tnet bind inet:stream:80\n"
		"\tfile wc /var/lib/svc/state\\ 1\n"
		"}\n"
		"subject /usr/bin/grep {\n"
		"\tfile r /etc/passwd\n"
		"}\n"
		"subject /usr/bin/svc {\n"
		"\tfile r /etc/shadow\n"
		"}\n"
		"subject /usr/bin/lonely {\n"
		"}\n";
	struct vigil_policy *pol = NULL;
	struct vigil_ruleset obs = { 0 }, rs = { 0 };
	struct vigil_subject_rules *o;
	const struct vigil_subject_rules *sr;
	char err[200] = "";
	char *only[] = { "/usr/bin/grep" }, *none[] = { "/usr/bin/none" };

	(void)state;
	assert_int_equal(vigil_policy_parse(text, sizeof(text) - 1, &pol,
					    NULL), 0);
	/* observed: two conf files (one also written: not read), a shadow
	 * read the candidate does not allow */
	o = add_subject(&obs, "/usr/bin/svc");
	add_rule(o, VIGIL_CLASS_FILE, VIGIL_FILE_R, "/etc/svc/a.conf", false);
	o->rules[0].count = 3;
	add_rule(o, VIGIL_CLASS_FILE, VIGIL_FILE_R, "/etc/svc/b.conf", false);
	o->rules[1].count = 4;
	add_rule(o, VIGIL_CLASS_FILE, VIGIL_FILE_W, "/etc/svc/c.conf", false);
	add_rule(o, VIGIL_CLASS_FILE, VIGIL_FILE_R, "/etc/shadow", false);
	assert_int_equal(vigil_ruleset_from_policy(pol, NULL, &obs, NULL, NULL, 0, &rs,
						   err, sizeof(err)), 0);
	/* three blocks: the second /usr/bin/svc is never used by the kernel */
	assert_int_equal(rs.nsubjects, 3);
	sr = &rs.subjects[0];
	assert_string_equal(sr->exe, "/usr/bin/svc");
	assert_int_equal(sr->nrules, 4);
	assert_int_equal(sr->rules[0].class, VIGIL_CLASS_FILE);
	assert_string_equal(sr->rules[0].glob, "/etc/svc/*.conf");
	assert_true(sr->rules[0].generalised);
	assert_int_equal(sr->rules[0].distinct, 2);
	assert_int_equal(sr->rules[0].count, 7);
	assert_int_equal(sr->rules[0].nexamples, 2);
	assert_string_equal(sr->rules[0].examples[0], "/etc/svc/a.conf");
	assert_non_null(strstr(sr->rules[0].why, "covering 2 observed"));
	assert_false(sr->rules[2].generalised);
	assert_string_equal(sr->rules[2].object, "/var/lib/svc/state 1");
	assert_string_equal(sr->rules[2].glob, "/var/lib/svc/state\\ 1");
	assert_int_equal(sr->rules[2].access, VIGIL_FILE_W | VIGIL_FILE_C);
	assert_int_equal(sr->rules[3].class, VIGIL_CLASS_NET);
	assert_string_equal(sr->rules[3].object, "inet:stream:80");
	/* the exec rule makes grep a child of svc */
	assert_int_equal(sr->nchildren, 1);
	assert_string_equal(sr->children[0], "/usr/bin/grep");
	assert_int_equal(rs.subjects[1].nchildren, 0);
	assert_int_equal(rs.subjects[2].nrules, 0);
	for (size_t i = 0; i < sr->nrules; i++)
		assert_null(strstr(sr->rules[i].object, "shadow"));
	vigil_ruleset_free(&rs);
	/* subjects named; without observations */
	assert_int_equal(vigil_ruleset_from_policy(pol, NULL, NULL, NULL, only, 1, &rs,
						   err, sizeof(err)), 0);
	assert_int_equal(rs.nsubjects, 1);
	assert_int_equal(rs.subjects[0].rules[0].count, 0);
	vigil_ruleset_free(&rs);
	assert_int_equal(vigil_ruleset_from_policy(pol, NULL, NULL, NULL, none, 1, &rs,
						   err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/usr/bin/none"));
	vigil_policy_free(pol);
	pol = NULL;
	assert_int_equal(vigil_policy_parse("subject /usr/* {\n}\n", 19, &pol,
					    NULL), 0);
	assert_int_equal(vigil_ruleset_from_policy(pol, NULL, NULL, NULL, NULL, 0, &rs,
						   err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "is a glob"));
	vigil_policy_free(pol);
	vigil_ruleset_free(&obs);
}

/* ---- the driver, with a target that logs what it is asked ---- */

static char fake_log[1024];
static unsigned int fake_rules, fake_fail_at;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	size_t n = strlen(fake_log);
	va_list ap;

	if (n)
		fake_log[n++] = ' ';
	va_start(ap, fmt);
	vsnprintf(fake_log + n, sizeof(fake_log) - n, fmt, ap);
	va_end(ap);
}

static const char *base(const char *exe)
{
	return strrchr(exe, '/') + 1;
}

static int fake_begin(struct export_ctx *c)
{
	say("begin");
	assert_null(c->sr);
	return 0;
}

static int fake_subject_begin(struct export_ctx *c)
{
	say("subject_begin:%s", base(c->sr->exe));
	assert_ptr_equal(c->sr, &c->rs->subjects[c->self]);
	fprintf(c->f, "body of %s\n", c->sr->exe);
	return 0;
}

static int fake_reached(struct export_ctx *c,
			const struct vigil_subject_rules *sr)
{
	(void)c;
	say("reached:%s", base(sr->exe));
	return 0;
}

static int fake_rule(struct export_ctx *c, const struct vigil_rule *r)
{
	if (++fake_rules == fake_fail_at)
		return -EIO;
	switch (r->class) {
	case VIGIL_CLASS_FILE:
	case VIGIL_CLASS_CAP:
	case VIGIL_CLASS_NET:
	case VIGIL_CLASS_SIGNAL:
	case VIGIL_CLASS_PTRACE:
	case VIGIL_CLASS_MOUNT:
	case VIGIL_CLASS_MODULE:
		say("%s:%s", vigil_class_name(r->class), r->object);
		return note_rule(&c->left, r, "fake");
	case VIGIL_CLASS_COUNT:
		break;
	}
	fail_msg("a rule of no class reached the target");
	return -EINVAL;
}

static int fake_subject_end(struct export_ctx *c)
{
	const char *body;
	size_t len;

	say("subject_end:%s", base(c->sr->exe));
	if (c->t->per_system)
		return 0;
	assert_int_equal(export_body(c, &body, &len), 0);
	return export_emit(c, &(struct export_file){
		.name = base(c->sr->exe), .lead = "# lead\n",
		.text = body, .len = len,
	});
}

static int fake_end(struct export_ctx *c)
{
	const char *body;
	size_t len;

	say("end");
	assert_null(c->sr);
	if (!c->t->per_system)
		return 0;
	assert_int_equal(export_body(c, &body, &len), 0);
	return export_emit(c, &(struct export_file){
		.name = "all", .text = body, .len = len,
	});
}

static void fake_release(struct export_ctx *c)
{
	(void)c;
	say("release");
}

static const char *const fake_general[] = { "general one", "general two" };

#define FAKE_TARGET(system)						\
	{								\
		.name = "fake", .title = "fake target",			\
		.per_system = (system), .inherit = !(system),		\
		.general = fake_general,				\
		.ngeneral = ARRAY_SIZE(fake_general),			\
		.children_note = "runs children",			\
		.begin = fake_begin,					\
		.subject_begin = fake_subject_begin,			\
		.reached = fake_reached, .rule = fake_rule,		\
		.subject_end = fake_subject_end, .end = fake_end,	\
		.release = fake_release,				\
	}

/* a runs b (a child), c runs nobody and has a rule of no class. */
static void three(struct vigil_ruleset *rs)
{
	struct vigil_subject_rules *sr;

	memset(rs, 0, sizeof(*rs));
	rs->first = T0;
	rs->last = T0 + 60;
	sr = add_subject(rs, "/usr/bin/a");
	add_child(sr, "/usr/bin/b");
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/etc/a", false);
	add_rule(sr, VIGIL_CLASS_CAP, VIGIL_CAP_USE, "net_raw", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(X), "/usr/bin/b", false);
	sr = add_subject(rs, "/usr/bin/b");
	add_rule(sr, VIGIL_CLASS_SIGNAL, 1ULL << (15 - 1), "/usr/bin/a", false);
	sr = add_subject(rs, "/usr/bin/c");
	add_rule(sr, VIGIL_CLASS_MOUNT, VIGIL_MOUNT_MOUNT, "/mnt", false);
	add_rule(sr, VIGIL_CLASS_MODULE, VIGIL_MODULE_LOAD, "/x.ko", false);
	sr->rules[1].class = VIGIL_CLASS_COUNT;
}

static void fake_reset(unsigned int fail_at)
{
	fake_log[0] = '\0';
	fake_rules = 0;
	fake_fail_at = fail_at;
}

/* Per subject: the calls in order, the children's rules, one file each
 * with the header, its notes and the body; a rule of no class is noted by
 * the driver and never reaches the target. */
static void test_driver_per_subject(void **state)
{
	static const struct export_target fake = FAKE_TARGET(false);
	struct export_files files = { 0 };
	struct export_opts opts = { .candidate = "c.policy" };
	struct vigil_ruleset rs;
	struct tdir d;
	char path[128], *text;

	(void)state;
	three(&rs);
	tdir_make(&d);
	fake_reset(0);
	assert_int_equal(export_run(&fake, &rs, d.path, &opts, &files), 0);
	assert_string_equal(fake_log,
		"begin "
		"subject_begin:a reached:a file:/etc/a cap:net_raw "
		"file:/usr/bin/b reached:b signal:/usr/bin/a subject_end:a "
		"subject_begin:b reached:b signal:/usr/bin/a subject_end:b "
		"subject_begin:c reached:c mount:/mnt subject_end:c "
		"end release");
	assert_int_equal(files.n, 3);
	snprintf(path, sizeof(path), "%s/a", d.path);
	assert_string_equal(files.paths[0], path);
	text = slurp(path);
	assert_true(contains(text, "# fake target for vigil subject "
			     "/usr/bin/a\n"));
	assert_true(contains(text, "\n#   - general one\n#   - general two\n"
			     "#   - runs children\n#\n"));
	assert_true(contains(text, "# NOT expressed in fake target (4, "));
	assert_true(contains(text, "#   - signal term /usr/bin/a: fake\n"));
	assert_true(contains(text, "#\n# lead\nbody of /usr/bin/a\n"));
	assert_int_equal(text[strlen(text) - 1], '\n');
	assert_null(strstr(text, "body of /usr/bin/b"));
	free(text);
	snprintf(path, sizeof(path), "%s/b", d.path);
	text = slurp(path);
	assert_null(strstr(text, "runs children"));
	assert_null(strstr(text, "/etc/a"));
	assert_true(contains(text, "# NOT expressed in fake target (1, "));
	free(text);
	snprintf(path, sizeof(path), "%s/c", d.path);
	text = slurp(path);
	assert_true(contains(text, "#   - mount mount /mnt: fake\n"));
	assert_true(contains(text, "/x.ko: unknown class\n"));
	free(text);
	export_files_free(&files);
	tdir_rm(&d);
	vigil_ruleset_free(&rs);
}

/* Per system: each subject's own rules, the notes of all in one file
 * written at the end. */
static void test_driver_per_system(void **state)
{
	static const struct export_target fake = FAKE_TARGET(true);
	struct export_files files = { 0 };
	struct export_opts opts = { .candidate = "c.policy" };
	struct vigil_ruleset rs;
	struct tdir d;
	char *text;

	(void)state;
	three(&rs);
	tdir_make(&d);
	fake_reset(0);
	assert_int_equal(export_run(&fake, &rs, d.path, &opts, &files), 0);
	assert_string_equal(fake_log,
		"begin "
		"subject_begin:a reached:a file:/etc/a cap:net_raw "
		"file:/usr/bin/b subject_end:a "
		"subject_begin:b reached:b signal:/usr/bin/a subject_end:b "
		"subject_begin:c reached:c mount:/mnt subject_end:c "
		"end release");
	assert_int_equal(files.n, 1);
	text = slurp(files.paths[0]);
	assert_true(contains(text, "# fake target for vigil subjects "
			     "/usr/bin/a, /usr/bin/b, /usr/bin/c\n"));
	/* the general notes once; the children note once, for a */
	assert_true(contains(text, "\n#   - general one\n#   - general two\n"
			     "#   - runs children\n#\n"));
	assert_true(contains(text, "# NOT expressed in fake target (6, "));
	assert_true(contains(text, "#\nbody of /usr/bin/a\nbody of /usr/bin/b"
			     "\nbody of /usr/bin/c\n"));
	free(text);
	export_files_free(&files);
	tdir_rm(&d);
	vigil_ruleset_free(&rs);
}

/* An operation's error stops the export at once: no later calls but
 * release, no file, the error returned. */
static void test_driver_error(void **state)
{
	static const struct export_target fake = FAKE_TARGET(false);
	struct export_files files = { 0 };
	struct export_opts opts = { 0 };
	struct vigil_ruleset rs;
	struct tdir d;

	(void)state;
	three(&rs);
	tdir_make(&d);
	fake_reset(2);
	assert_int_equal(export_run(&fake, &rs, d.path, &opts, &files), -EIO);
	assert_string_equal(fake_log, "begin subject_begin:a reached:a "
			    "file:/etc/a release");
	assert_int_equal(files.n, 0);
	assert_ptr_equal(export_target_find("tomoyo"), &export_tomoyo);
	assert_null(export_target_find("fake"));
	tdir_rm(&d);
	vigil_ruleset_free(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glob_toks),
		cmocka_unit_test(test_glob_toks_kernel_limits),
		cmocka_unit_test(test_glob_alts),
		cmocka_unit_test(test_subject_name),
		cmocka_unit_test(test_apparmor),
		cmocka_unit_test(test_apparmor_trial_safe),
		cmocka_unit_test(test_landlock),
		cmocka_unit_test(test_landlock_tree),
		cmocka_unit_test(test_apparmor_mkdir_glob),
		cmocka_unit_test(test_landlock_reader),
		cmocka_unit_test(test_run_landlock),
		cmocka_unit_test(test_systemd),
		cmocka_unit_test(test_systemd_escape),
		cmocka_unit_test(test_tomoyo),
		cmocka_unit_test(test_selinux),
		cmocka_unit_test(test_selinux_permissive),
		cmocka_unit_test(test_selinux_avc),
		cmocka_unit_test(test_candidate),
		cmocka_unit_test(test_driver_per_subject),
		cmocka_unit_test(test_driver_per_system),
		cmocka_unit_test(test_driver_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
