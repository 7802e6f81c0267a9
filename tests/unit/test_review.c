// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests: vigil review (issue 26 §2) through the verb: a synthetic
 * log ingested, a hand-edited candidate that lacks most of it, questions
 * ranked by risk, answers from a file, the candidate rewritten with its
 * hand edits kept, left-out accesses never asked again, a bounding
 * policy, nothing written when the answers run out, names escaped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "vigil.h"
#include "util.h"
#include "review.h"
#include "candidate.h"
#include "policy.h"
#include "test_files.h"

static char dir[] = "/tmp/vigil-test-review.XXXXXX";
static char db[300], logf[300], cand[300], out[300], ans[300], root[300],
	    bound[300];

#define REVD "/usr/local/bin/revd"
#define L(seq, rest) \
	"type=KERNEL_OTHER msg=audit(1796284357.020:" #seq "): vigil=1 seq=" \
	#seq " verdict=learned " rest " pid=9 comm=\"revd\"\n"
#define F(seq, op, acc, path) \
	L(seq, "op=" op " access=" acc " uid=0 exe=\"" REVD "\" path=\"" \
	  path "\" target=?")
#define CAP(seq, name, num) \
	"type=KERNEL_OTHER msg=audit(1796284357.020:" #seq "): vigil=1 seq=" \
	#seq " verdict=learned op=capable access=use uid=0 exe=\"" REVD \
	"\" path=? target=\"" name "\" pid=9 comm=\"revd\" capability=" \
	#num "\n"

/* revd: its config, six conf.d files, a library, /etc/shadow, a hook it
 * writes then runs, two capabilities, a hostile name; other: one read. */
static const char log_text[] =
	F(1, "open", "r", "/etc/revd/main.conf")
	F(2, "open", "r", "/etc/revd/conf.d/a.conf")
	F(3, "open", "r", "/etc/revd/conf.d/b.conf")
	F(4, "open", "r", "/etc/revd/conf.d/c.conf")
	F(5, "open", "r", "/etc/revd/conf.d/d.conf")
	F(6, "open", "r", "/etc/revd/conf.d/e.conf")
	F(7, "open", "r", "/etc/revd/conf.d/f.conf")
	F(8, "mmap", "m", "/usr/lib/x86_64-linux-gnu/libc.so.6")
	F(9, "open", "r", "/etc/shadow")
	F(10, "open", "w", "/var/lib/revd/hook")
	F(11, "exec", "x", "/var/lib/revd/hook")
	CAP(12, "sys_admin", 21)
	CAP(13, "net_bind_service", 10)
	L(14, "op=open access=r uid=0 exe=\"" REVD "\" "
	  "path=2F746D702F1B5D303B50574E45440778 target=?")
	L(15, "op=open access=r uid=0 exe=\"/usr/bin/other\" "
	  "path=\"/etc/other.conf\" target=?");

/* The hand-edited candidate: revd's main.conf only. */
static const char cand_text[] =
	"# hand-written header\n"
	"subject " REVD " {\n"
	"\t# keep: my own note\n"
	"\tfile r /etc/revd/main.conf\n"
	"}\n"
	"# trailing hand note\n";

static int setup(void **state)
{
	char *argv_i[] = { "ingest", "--db", db, logf, NULL };

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(db, sizeof(db), "%s/v.db", dir);
	snprintf(logf, sizeof(logf), "%s/audit.log", dir);
	snprintf(cand, sizeof(cand), "%s/cand.policy", dir);
	snprintf(out, sizeof(out), "%s/out.txt", dir);
	snprintf(ans, sizeof(ans), "%s/answers", dir);
	snprintf(bound, sizeof(bound), "%s/bound.policy", dir);
	/* an empty tree for the blast radius: nothing exists beyond */
	snprintf(root, sizeof(root), "%s/root", dir);
	if (mkdir(root, 0755))
		return -1;
	write_text(logf, log_text);
	if (run_verb(do_ingest, argv_i, out))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char cmd[400];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* The risk rules, one case each. */
static void test_risk(void **state)
{
	struct review_risk r;

	(void)state;
	review_risk_of(REVD, VIGIL_CLASS_CAP, 1, "sys_admin", NULL, NULL, &r);
	assert_int_equal(r.level, REVIEW_RISK_HIGH);
	review_risk_of(REVD, VIGIL_CLASS_CAP, 1, "net_bind_service", NULL,
		       NULL, &r);
	assert_int_equal(r.level, REVIEW_RISK_MEDIUM);
	review_risk_of(REVD, VIGIL_CLASS_FILE, VIGIL_FILE_W | VIGIL_FILE_X,
		       "/var/lib/revd/hook", NULL, NULL, &r);
	assert_int_equal(r.level, REVIEW_RISK_HIGH);
	assert_string_equal(r.why, "write and exec on one path");
	review_risk_of(REVD, VIGIL_CLASS_FILE, VIGIL_FILE_R, "/etc/shadow",
		       NULL, "/etc/shadow*", &r);
	assert_int_equal(r.level, REVIEW_RISK_HIGH);
	/* a recursive glob within two folders of / */
	review_risk_of(REVD, VIGIL_CLASS_FILE, VIGIL_FILE_R, "/etc/a/b",
		       "/etc/**", NULL, &r);
	assert_int_equal(r.level, REVIEW_RISK_HIGH);
	review_risk_of(REVD, VIGIL_CLASS_FILE, VIGIL_FILE_R, "/srv/a/b/c",
		       "/srv/a/b/**", NULL, &r);
	assert_int_equal(r.level, REVIEW_RISK_MEDIUM);
	/* another program's files, its own */
	review_risk_of(REVD, VIGIL_CLASS_FILE, VIGIL_FILE_W, "/usr/bin/sudo",
		       NULL, NULL, &r);
	assert_int_equal(r.level, REVIEW_RISK_HIGH);
	review_risk_of(REVD, VIGIL_CLASS_FILE, VIGIL_FILE_W,
		       "/etc/revd/state", NULL, NULL, &r);
	assert_int_equal(r.level, REVIEW_RISK_MEDIUM);
	review_risk_of(REVD, VIGIL_CLASS_FILE, VIGIL_FILE_R,
		       "/etc/revd/main.conf", NULL, NULL, &r);
	assert_int_equal(r.level, REVIEW_RISK_ROUTINE);
	review_risk_of(REVD, VIGIL_CLASS_FILE, VIGIL_FILE_R | VIGIL_FILE_M,
		       "/usr/lib/x86_64-linux-gnu/libc.so.6", NULL, NULL, &r);
	assert_int_equal(r.level, REVIEW_RISK_ROUTINE);
	/* reading a stranger's file is no routine */
	review_risk_of(REVD, VIGIL_CLASS_FILE, VIGIL_FILE_R, "/etc/other.conf",
		       NULL, NULL, &r);
	assert_int_equal(r.level, REVIEW_RISK_MEDIUM);
	review_risk_of(REVD, VIGIL_CLASS_MODULE, 1, "/lib/modules/x.ko", NULL,
		       NULL, &r);
	assert_int_equal(r.level, REVIEW_RISK_HIGH);
	review_risk_of(REVD, VIGIL_CLASS_PTRACE, 1, "/usr/bin/other", NULL,
		       NULL, &r);
	assert_int_equal(r.level, REVIEW_RISK_HIGH);
}

/* The position of needle in text (fails when absent). */
static size_t at(const char *text, const char *needle)
{
	const char *p = strstr(text, needle);

	if (!p)
		fail_msg("'%s' not in:\n%s", needle, text);
	return (size_t)(p - text);
}

/* --dry-run: every question, the riskiest first; nothing written. */
static void test_dry_run(void **state)
{
	char *argv_r[] = { "review", "--db", db, "--root", root, "-n", cand,
			   NULL };
	char *text, *after;

	(void)state;
	write_text(cand, cand_text);
	assert_int_equal(run_verb(do_review, argv_r, out), EXIT_FINDING);
	text = slurp(out);
	at(text, "cand.policy: 8 questions about 13 accesses it lacks\n");
	/* high before medium before routine */
	assert_true(at(text, "Severity: high (a capability") <
		    at(text, "Severity: medium"));
	assert_true(at(text, "Severity: high (a sensitive object)") <
		    at(text, "Severity: medium"));
	assert_true(at(text, "Severity: high (write and exec on one path)") <
		    at(text, "Severity: medium"));
	assert_true(at(text, "Severity: medium") <
		    at(text, "Severity: routine"));
	/* one question for the six conf.d files, with generate's glob */
	at(text, "   2 - glob:    file r /etc/revd/conf.d/*\n");
	at(text, "many siblings");
	at(text, "Subject: /usr/bin/other  (no block yet: one is added)\n");
	/* the hostile name as terminal text, never raw */
	at(text, "file r /tmp/\\x1b]0;PWNED\\x07x");
	assert_null(strchr(text, '\x1b'));
	assert_null(strchr(text, '\a'));
	free(text);
	after = slurp(cand);
	assert_string_equal(after, cand_text);
	free(after);
}

/* Count the occurrences of needle in text. */
static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/*
 * Answers from a file: leave out the sensitive read, allow the rest as
 * seen or as globs, skip one; the additions go inside the block, the
 * hand edits stay, the result parses; a second review asks only the
 * skipped question and never the left-out one.
 */
static void test_answers(void **state)
{
	char *argv_r[] = { "review", "--db", db, "--root", root, "--answers",
			   ans, cand, NULL };
	char *argv_n[] = { "review", "--db", db, "--root", root, "-n", cand,
			   NULL };
	struct vigil_policy_error perr = { 0 };
	struct vigil_policy *pol = NULL;
	char *text, *b, *e;
	const char *p, *q;

	(void)state;
	write_text(cand, cand_text);
	/*
	 * The order of the dry run above: high (hook wx, /etc/shadow,
	 * sys_admin: their order among each other by object), then the
	 * rest. The test finds each question's kind in the output instead
	 * of trusting the order: l for shadow, s for sys_admin, a or g
	 * elsewhere. A first pass learns the order.
	 */
	assert_int_equal(run_verb(do_review, argv_n, out), EXIT_FINDING);
	text = slurp(out);
	{
		FILE *f = fopen(ans, "w");

		assert_non_null(f);
		fputs("# answers for the test\n", f);
		p = text;
		while ((p = strstr(p, "\n[")) != NULL) {
			q = strstr(p + 1, "\n[");
			e = strndup(p, q ? (size_t)(q - p) : strlen(p));
			assert_non_null(e);
			if (strstr(e, "/etc/shadow"))
				fputs("d\n", f);	/* aa-logprof's deny */
			else if (strstr(e, "sys_admin"))
				fputs("e\ns\n", f);
			else if (strstr(e, "2 - glob:"))
				fputs("g\n", f);
			else
				fputs("\n", f);		/* the default */
			free(e);
			p++;
		}
		assert_int_equal(fclose(f), 0);
	}
	free(text);
	assert_int_equal(run_verb(do_review, argv_r, out), EXIT_FINDING);
	text = slurp(out);
	at(text, "left out, 2 skipped: written to ");	/* hook: high */
	at(text, "cap use sys_admin: count 1");		/* the evidence */
	free(text);
	text = slurp(cand);
	/* the hand edits, in place */
	assert_true(!strncmp(text, "# hand-written header\nsubject " REVD
			     " {\n\t# keep: my own note\n\tfile r "
			     "/etc/revd/main.conf\n", 80));
	at(text, "}\n# trailing hand note\n");
	/* inside revd's block, before its "}" */
	b = strstr(text, "subject " REVD " {");
	e = strstr(b, "\n}\n");
	assert_true(at(text, "\tfile r /etc/revd/conf.d/*\n") <
		    (size_t)(e - text));
	assert_true(at(text, "\tcap use net_bind_service\n") <
		    (size_t)(e - text));
	assert_true(at(text, "\t# vigil review: left out " REVD
		       " file r /etc/shadow\n") < (size_t)(e - text));
	assert_int_equal(count(text, "file r /etc/shadow"), 1);
	assert_int_equal(count(text, "sys_admin"), 0);
	/* a new block for the other program, after the hand note */
	assert_true(at(text, "# trailing hand note\n") <
		    at(text, "subject /usr/bin/other {\n"));
	assert_int_equal(vigil_policy_parse(text, strlen(text), &pol, &perr),
			 0);
	vigil_policy_free(pol);
	free(text);
	/* again: the skipped questions only, shadow left out earlier */
	assert_int_equal(run_verb(do_review, argv_n, out), EXIT_FINDING);
	text = slurp(out);
	at(text, "cand.policy: 2 questions about 2 accesses it lacks, 1 left "
	   "out earlier\n");
	assert_int_equal(count(text, "/etc/shadow"), 0);
	free(text);
}

/* The answers run out, or one is bad: exit 2, the candidate untouched. */
static void test_nothing_half_written(void **state)
{
	char *argv_r[] = { "review", "--db", db, "--root", root, "--answers",
			   ans, cand, NULL };
	char *text;

	(void)state;
	write_text(cand, cand_text);
	write_text(ans, "a\na\n");
	assert_int_equal(run_verb(do_review, argv_r, out), EXIT_USAGE);
	text = slurp(out);
	at(text, "the answers end before question 3 of 8: nothing written");
	free(text);
	text = slurp(cand);
	assert_string_equal(text, cand_text);
	free(text);
	write_text(ans, "a\nyes please\n");
	assert_int_equal(run_verb(do_review, argv_r, out), EXIT_USAGE);
	text = slurp(out);
	at(text, ":2: 'yes please' is no answer to this question");
	free(text);
	text = slurp(cand);
	assert_string_equal(text, cand_text);
	free(text);
	/* q: nothing written either */
	write_text(ans, "a\nq\n");
	assert_int_equal(run_verb(do_review, argv_r, out), EXIT_FINDING);
	text = slurp(cand);
	assert_string_equal(text, cand_text);
	free(text);
	/* no temporary file left beside it */
	{
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "ls '%s' | grep -q 'cand.policy.'",
			 dir);
		assert_int_equal(system(cmd), 256);
	}
}

/* --bound: what lies beyond it is a finding, never a question. */
static void test_bound(void **state)
{
	char *argv_r[] = { "review", "--db", db, "--root", root, "--bound",
			   bound, "-n", cand, NULL };
	char *text, *findings;

	(void)state;
	write_text(cand, cand_text);
	write_text(bound, "subject /usr/local/bin/* {\n"
		   "\tfile r /etc/revd/**\n"
		   "\tfile rm /usr/lib/**\n"
		   "\tcap use net_bind_service\n"
		   "}\n");
	assert_int_equal(run_verb(do_review, argv_r, out), EXIT_FINDING);
	text = slurp(out);
	at(text, "cand.policy: 3 questions about 8 accesses it lacks, 5 "
	   "beyond the bound\n");
	findings = strstr(text, "\nBeyond the bound");
	assert_non_null(findings);
	/* asked: conf.d, libc, net_bind_service; never sys_admin, shadow */
	assert_true(at(text, "conf.d/*") < (size_t)(findings - text));
	at(findings, REVD ": cap use sys_admin\t");
	at(findings, REVD ": file r /etc/shadow\t");
	at(findings, REVD ": file wx /var/lib/revd/hook\t");
	at(findings, "/usr/bin/other: file r /etc/other.conf\t");
	assert_int_equal(count(text, "sys_admin"), 1);
	free(text);
	/* a glob beyond the bound is not offered */
	write_text(bound, "subject /usr/local/bin/* {\n"
		   "\tfile r /etc/revd/conf.d/{a,b,c,d,e,f}.conf\n"
		   "}\n");
	assert_int_equal(run_verb(do_review, argv_r, out), EXIT_FINDING);
	text = slurp(out);
	at(text, "(no glob: it would reach beyond the bound)");
	assert_int_equal(count(text, "2 - glob:"), 0);
	free(text);
}

/* Usage: no terminal and no answers; "-" as the candidate. */
static void test_usage(void **state)
{
	char *argv_r[] = { "review", "--db", db, cand, NULL };
	char *argv_m[] = { "review", "--db", db, "-n", "-", NULL };
	char *text;

	(void)state;
	write_text(cand, cand_text);
	/* run_verb's stdin is the test's: not a terminal under ./run */
	if (!isatty(0)) {
		assert_int_equal(run_verb(do_review, argv_r, out), EXIT_USAGE);
		text = slurp(out);
		at(text, "standard input is not a terminal");
		free(text);
	}
	assert_int_equal(run_verb(do_review, argv_m, out), EXIT_USAGE);
}

/* candidate_read as a verb: argv[1] read, its text printed back. */
static int read_verb(int argc, char **argv)
{
	struct vigil_policy *pol = NULL;
	char *text = NULL;
	size_t len = 0;
	int rc;

	assert_int_equal(argc, 2);
	rc = candidate_read(argv[1], &text, &len, &pol);
	if (rc) {
		assert_null(text);
		assert_null(pol);
		return EXIT_USAGE;
	}
	assert_non_null(pol);
	assert_int_equal(strlen(text), len);
	fputs(text, stdout);
	free(text);
	vigil_policy_free(pol);
	return EXIT_OK;
}

/*
 * The candidate is read and parsed by one helper (candidate.c) for
 * generate --update, diff, review and export: each says the same
 * "FILE:LINE: why" for a bad rule and "FILE: why" for a missing file.
 */
static void test_candidate_read(void **state)
{
	char bad[320], missing[320], big[320], line[600];
	char *argv_c[] = { "read", cand, NULL };
	char *argv_b[] = { "read", bad, NULL };
	char *argv_m[] = { "read", missing, NULL };
	char *argv_g[] = { "read", big, NULL };
	char *argv_u[] = { "generate", "--db", db, "--update", bad, NULL };
	char *argv_d[] = { "diff", "--db", db, bad, NULL };
	char *argv_r[] = { "review", "--db", db, "-n", bad, NULL };
	char *argv_e[] = { "export", "--db", db, "--to", "apparmor", bad,
			   NULL };
	char *argv_um[] = { "generate", "--db", db, "--update", missing,
			    NULL };
	char *argv_dm[] = { "diff", "--db", db, missing, NULL };
	char *argv_rm[] = { "review", "--db", db, "-n", missing, NULL };
	char *argv_em[] = { "export", "--db", db, "--to", "apparmor",
			    missing, NULL };
	char **verbs[] = { argv_u, argv_d, argv_r, argv_e };
	char **verbs_m[] = { argv_um, argv_dm, argv_rm, argv_em };
	int (*fns[])(int, char **) = { do_generate, do_diff, do_review,
				       do_export };
	char *text;
	FILE *f;

	(void)state;
	snprintf(bad, sizeof(bad), "%s/bad.policy", dir);
	snprintf(missing, sizeof(missing), "%s/missing.policy", dir);
	snprintf(big, sizeof(big), "%s/big.policy", dir);
	write_text(cand, cand_text);
	write_text(bad, "subject " REVD " {\n\tfile r /etc/x\n\tfile q /y\n}\n");
	f = fopen(big, "w");
	assert_non_null(f);
	for (int i = 0; i < 70000; i++)
		fputs("# a comment line\n", f);
	assert_int_equal(fclose(f), 0);

	assert_int_equal(run_verb(read_verb, argv_c, out), EXIT_OK);
	text = slurp(out);
	assert_string_equal(text, cand_text);
	free(text);
	assert_int_equal(run_verb(read_verb, argv_b, out), EXIT_USAGE);
	text = slurp(out);
	snprintf(line, sizeof(line), "%s:3: ", bad);
	at(text, line);
	free(text);
	assert_int_equal(run_verb(read_verb, argv_m, out), EXIT_USAGE);
	text = slurp(out);
	snprintf(line, sizeof(line), "%s: No such file or directory", missing);
	at(text, line);
	free(text);
	assert_int_equal(run_verb(read_verb, argv_g, out), EXIT_USAGE);
	text = slurp(out);
	snprintf(line, sizeof(line),
		 "%s: policy larger than 1 MiB (the kernel's limit)", big);
	at(text, line);
	free(text);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(run_verb(fns[i], verbs[i], out), EXIT_USAGE);
		text = slurp(out);
		snprintf(line, sizeof(line), "%s:3: ", bad);
		at(text, line);
		free(text);
		assert_int_equal(run_verb(fns[i], verbs_m[i], out),
				 EXIT_USAGE);
		text = slurp(out);
		snprintf(line, sizeof(line), "%s: No such file or directory",
			 missing);
		at(text, line);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_risk),
		cmocka_unit_test(test_dry_run),
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_nothing_half_written),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_candidate_read),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
