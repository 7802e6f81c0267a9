// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil generate --update (analyzer/rules/update.c): a candidate the admin
 * edited, merged with what was observed after it was made: every line of
 * the edit kept, removals marked and never added back, new accesses added
 * with the glob generate makes, a trial's would-deny proposed except on a
 * sensitive object, and a second update with nothing new changes nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vigil.h"
#include "util.h"
#include "record.h"
#include "store.h"
#include "rules.h"
#include "update.h"
#include "test_files.h"

static char dir[] = "/tmp/vigil-test-update.XXXXXX";
static char dbp[300], cand[300], out[300], root[300];
static struct vigil_store *store;
static uint64_t seq;

/* Each run an hour after the last: 2026-12-03T08:00:00Z + run hours. */
#define T0 1796284800000LL
#define RUN(n) (T0 + (int64_t)(n) * 3600000)

static int setup(void **state)
{
	char err[256];

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(dbp, sizeof(dbp), "%s/u.db", dir);
	snprintf(cand, sizeof(cand), "%s/cand.policy", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(root, sizeof(root), "%s/root", dir);
	if (mkdir(root, 0755))
		return -1;
	return vigil_store_open(dbp, &store, err, sizeof(err)) ? -1 : 0;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	vigil_store_close(store);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return getenv("KEEP") ? 0 : system(cmd) ? -1 : 0;
}

static void rec(int64_t ms, uint32_t pid, const char *verdict,
		const char *op, const char *access, const char *object)
{
	struct vigil_record r = {
		.uid = 0, .pid = pid, .verdict = verdict, .op = op,
		.access = access, .exe = "/usr/bin/w", .object = object,
		.comm = "w", .extra = "", .path = object,
	};

	r.seq = ++seq;
	assert_int_equal(vigil_store_begin(store), 0);
	assert_int_equal(vigil_store_add_record(store, "", ms, seq, &r), 1);
	assert_int_equal(vigil_store_commit(store), 0);
}

/* One run of the program: its pid-numbered state file, its reads. */
static void run(int n, uint32_t pid)
{
	char name[128];
	int64_t t = RUN(n);

	snprintf(name, sizeof(name), "/var/lib/w/.state.%u.tmp",
		 (unsigned int)pid);
	rec(t, pid, "learned", "create", "c", name);
	rec(t + 1, pid, "learned", "open", "wc", name);
	rec(t + 2, pid, "learned", "rename", "d", name);
	rec(t + 3, pid, "learned", "rename", "c", "/var/lib/w/state.json");
	rec(t + 4, pid, "learned", "open", "r", "/etc/w/w.conf");
	rec(t + 5, pid, "learned", "open", "r", "/etc/motd");
	snprintf(name, sizeof(name), "/proc/%u/status", (unsigned int)pid);
	rec(t + 6, pid, "learned", "open", "r", name);
}

static int gen(char **argv)
{
	return run_verb(do_generate, argv, out);
}

/* Delete the line holding needle and, with comment, the line before. */
static void cut_line(char *text, const char *needle, bool comment)
{
	char *p = strstr(text, needle), *s, *e;

	assert_non_null(p);
	s = p;
	while (s > text && s[-1] != '\n')
		s--;
	if (comment) {
		assert_true(s > text);
		s--;
		while (s > text && s[-1] != '\n')
			s--;
	}
	e = strchr(p, '\n');
	memmove(s, e + 1, strlen(e + 1) + 1);
}

/* Whether the lines of a appear in b in the same order (b may have more). */
static bool lines_kept(const char *a, const char *b)
{
	while (*a) {
		const char *nl = strchr(a, '\n');
		size_t l = nl ? (size_t)(nl - a + 1) : strlen(a);
		const char *hit;

		/* the header's window and update line are vigil's */
		if (strncmp(a, "# observed from ", 16)) {
			char *line = strndup(a, l);

			hit = strstr(b, line);
			free(line);
			if (!hit)
				return false;
			b = hit + l;
		}
		a += l;
	}
	return true;
}

static void test_update(void **state)
{
	char *edited, *text, *t2, *msg;
	const char *p;
	char *argv_up[] = { "generate", "--db", dbp, "--root", root,
			    "--update", cand, NULL };

	(void)state;
	/* learning: three runs */
	run(0, 6745);
	run(1, 6752);
	run(2, 6759);
	assert_int_equal(gen((char *[]){ "generate", "--db", dbp, "--root",
			     root, "-o", cand, NULL }), 0);
	text = slurp(cand);
	assert_non_null(strstr(text, "\tfile r /etc/motd\n"));
	assert_non_null(strstr(text, "\tfile r /proc/*/status\n"));
	assert_non_null(strstr(text, "\tfile wcd /var/lib/w/.state.*.tmp\n"));
	/* the review: two rules removed, a comment and a rule of the
	 * admin's own */
	cut_line(text, "\tfile r /etc/motd\n", true);
	cut_line(text, "\tfile r /proc/*/status\n", true);
	p = strstr(text, "\tfile wcd /var/lib/w/.state.*.tmp\n");
	assert_non_null(p);
	while (p[-1] != '\n' || p[0] != '\t' || p[1] != '#')
		p--;	/* before its # why: line */
	assert_true(asprintf(&edited, "%.*s\t# mine: the site's own file\n"
			     "\tfile r /srv/site.conf\n%s",
			     (int)(p - text), text, p) > 0);
	free(text);
	write_text(cand, edited);

	/* no update without a window */
	write_text(out, "");
	{
		char nohdr[300];
		char *t = strdup(edited);

		snprintf(nohdr, sizeof(nohdr), "%s/nohdr.policy", dir);
		cut_line(t, "# observed from ", false);
		write_text(nohdr, t);
		free(t);
		assert_int_equal(gen((char *[]){ "generate", "--db", dbp,
				     "--update", nohdr, NULL }), 2);
		msg = slurp(out);
		assert_non_null(strstr(msg, "no '# observed from A to B' "
					    "header line: say since when with "
					    "--since TIME"));
		free(msg);
		assert_int_equal(gen((char *[]){ "generate", "--db", dbp,
				     "--update", cand, "--boot", "0", NULL }),
				 2);
	}

	/* the next run, and a trial's would-deny */
	run(3, 7001);
	rec(RUN(3) + 10, 7001, "learned", "open", "r", "/etc/w/extra.conf");
	rec(RUN(3) + 11, 7001, "learned", "link", "c",
	    "/var/lib/w/admin.sock.7001.bak");
	rec(RUN(3) + 12, 7001, "would-deny", "open", "r", "/etc/w/trial.conf");
	rec(RUN(3) + 13, 7001, "would-deny", "open", "r", "/etc/shadow");

	assert_int_equal(gen(argv_up), 0);
	msg = slurp(out);
	assert_non_null(strstr(msg, "vigil: generate: --update "));
	assert_non_null(strstr(msg, ": 2 rules added, 1 proposed from a "
				    "trial's would-deny, 2 left out by hand "
				    "(marked), 1 sensitive would-deny never "
				    "proposed, 2 new accesses a marker names"));
	free(msg);
	text = slurp(cand);
	/* every line of the reviewed candidate, in its order */
	assert_true(lines_kept(edited, text));
	assert_non_null(strstr(text, "\t# mine: the site's own file\n"
				     "\tfile r /srv/site.conf\n"));
	/* the window moved on to the last observation */
	assert_non_null(strstr(text, "to 2026-12-03T11:00:00Z\n"
				     VIGIL_UPDATE_HEADER " to "
				     "2026-12-03T11:00:00Z: 2 rules added, 1 "
				     "proposed"));
	/* removed by hand: marked, not added back (the new pid's status
	 * and the motd read again) */
	assert_non_null(strstr(text, "\t# vigil: left out: file r /etc/motd\t"
				     "# observed while the candidate was made, "
				     "not in its rules: left out by hand"));
	assert_non_null(strstr(text, "\t# vigil: left out: file r "
				     "/proc/*/status\t"));
	assert_null(strstr(text, "\tfile r /etc/motd\n"));
	assert_null(strstr(text, "\tfile r /proc/"));
	/* new: with their evidence, sorted in place */
	p = strstr(text, "\t# vigil: added by --update: observed since the "
			 "candidate was made\n\t# count 1, first "
			 "2026-12-03T11:00:00Z, last 2026-12-03T11:00:00Z; "
			 "uid 0\n\tfile r /etc/w/extra.conf\n");
	assert_non_null(p);
	assert_true(p < strstr(text, "\tfile r /etc/w/trial.conf\n"));
	assert_true(strstr(text, "\tfile r /etc/w/trial.conf\n") <
		    strstr(text, "\tfile r /etc/w/w.conf\n"));
	assert_non_null(strstr(text, "heuristic: pid in name; blast radius 0 "
				     "more existing; uid 0\n\tfile c "
				     "/var/lib/w/admin.sock.*.bak\n"));
	/* the trial's would-deny: proposed, but never the sensitive one */
	assert_non_null(strstr(text, "\t# vigil: proposed by --update: "
				     "observed since the candidate (a trial's "
				     "would-deny: the candidate lacked it); "
				     "review it\n\t# count 1, "));
	assert_non_null(strstr(text, "\tfile r /etc/w/trial.conf\n"));
	assert_non_null(strstr(text, "\t# vigil: left out: file r /etc/shadow"
				     "\t# a trial's would-deny of a sensitive "
				     "object (it matches /etc/shadow* of"));
	assert_null(strstr(text, "\tfile r /etc/shadow\n"));
	/* the state file is covered already: nothing added for it */
	p = strstr(text, "/var/lib/w/.state.*.tmp\n");
	assert_non_null(p);
	assert_null(strstr(p + 1, "/var/lib/w/.state.*.tmp\n"));

	/* again with nothing new: the same text */
	assert_int_equal(gen(argv_up), 0);
	t2 = slurp(cand);
	{
		char *a = strstr(text, VIGIL_UPDATE_HEADER);
		char *b = strstr(t2, VIGIL_UPDATE_HEADER);

		assert_non_null(b);
		assert_memory_equal(text, t2, (size_t)(a - text));
		a = strchr(a, '\n');
		b = strchr(b, '\n');
		assert_string_equal(a, b);
	}
	assert_non_null(strstr(t2, ": 0 rules added, 0 proposed from a "
				   "trial's would-deny, 0 left out by hand"));
	free(t2);

	/* a fifth run doing what was left out: still left out */
	run(4, 8123);
	assert_int_equal(gen(argv_up), 0);
	msg = slurp(out);
	assert_non_null(strstr(msg, ": 0 rules added, 0 proposed from a "
				    "trial's would-deny, 0 left out by hand "
				    "(marked), 0 sensitive would-deny never "
				    "proposed, 2 new accesses a marker names"));
	free(msg);
	t2 = slurp(cand);
	assert_null(strstr(t2, "\tfile r /etc/motd\n"));
	assert_null(strstr(t2, "\tfile r /proc/"));
	free(t2);

	/* -o - prints, and leaves the candidate as it is */
	assert_int_equal(gen((char *[]){ "generate", "--db", dbp, "--root",
			     root, "--update", cand, "-o", "-", NULL }), 0);
	free(text);
	free(edited);
}

/*
 * A glob that would admit what the admin left out is not made: the new
 * name stays literal and says why.
 */
static void test_update_marker_glob(void **state)
{
	char cand2[300];
	char *text;
	int64_t t = RUN(10);

	(void)state;
	snprintf(cand2, sizeof(cand2), "%s/cand2.policy", dir);
	/* a candidate written by hand, its window before this run */
	write_text(cand2,
		   "# observed from 2026-12-03T17:30:00Z to "
		   "2026-12-03T17:59:00Z\n"
		   "subject /usr/bin/w {\n"
		   "\t" VIGIL_UPDATE_LEFT_OUT "file r /srv/w/d/secret.conf\n"
		   "\tfile r /srv/w/d/a.conf\n"
		   "}\n");
	rec(t, 9000, "learned", "open", "r", "/srv/w/d/b.conf");
	rec(t + 1, 9000, "learned", "open", "r", "/srv/w/d/c.conf");
	rec(t + 2, 9000, "learned", "open", "r", "/srv/w/d/d.conf");
	rec(t + 3, 9000, "learned", "open", "r", "/srv/w/d/e.conf");
	rec(t + 4, 9000, "learned", "open", "r", "/srv/w/d/f.conf");
	rec(t + 5, 9000, "learned", "open", "r", "/srv/w/d/secret.conf");
	assert_int_equal(gen((char *[]){ "generate", "--db", dbp, "--root",
			     root, "--since", "2026-12-03T18:00:00Z",
			     "--update", cand2, NULL }), 0);
	text = slurp(cand2);
	/* five siblings would make DIR/STAR: it admits secret.conf */
	assert_null(strstr(text, "\tfile r /srv/w/d/*\n"));
	assert_non_null(strstr(text, "; not generalised to /srv/w/d/*: it "
				     "would admit what '# vigil: left out: "
				     "/srv/w/d/secret.conf' names"));
	assert_non_null(strstr(text, "\tfile r /srv/w/d/b.conf\n"));
	assert_non_null(strstr(text, "\tfile r /srv/w/d/f.conf\n"));
	assert_null(strstr(text, "\tfile r /srv/w/d/secret.conf\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_update),
		cmocka_unit_test(test_update_marker_glob),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
