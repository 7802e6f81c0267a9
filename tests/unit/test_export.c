// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests: the export driver (with a target that logs what it is
 * asked), the globs as the targets read them, a candidate as a rule set;
 * each target has its own file, test_export_TARGET.c.
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
#include "export/driver.h"
#include "export/object.h"
#include "candidate.h"
#include "policy.h"
#include "test_files.h"
#include "test_export.h"

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
		cmocka_unit_test(test_candidate),
		cmocka_unit_test(test_driver_per_subject),
		cmocka_unit_test(test_driver_per_system),
		cmocka_unit_test(test_driver_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
