// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests: exec chains (via=, issue 13 §5) end to end through the
 * verbs: synthetic audit lines with via= ingested, generate --children
 * scoping a service's children to it, the export of "via" blocks to
 * every target, diff matching observations with their ancestors.
 */
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

#include "vigil.h"
#include "util.h"
#include "test_files.h"

static char dir[] = "/tmp/vigil-test-via.XXXXXX";
static char db[300], logf[300], cand[300], out[300];

#define SVC "/usr/local/bin/statesvc"
#define SYSTEMD "/usr/lib/systemd/systemd"

/*
 * A service run by systemd: it reads its configuration, runs sort and
 * sh, which runs tr (a grandchild), re-execs itself; sort run by a
 * user's bash reads a secret; wc exec'd by the service in an old log
 * (no via=).
 */
static const char log_text[] =
	"type=KERNEL_OTHER msg=audit(1796284357.020:1): vigil=1 seq=1 verdict=learned op=open access=r uid=0 exe=\"" SVC "\" path=\"/etc/statesvc.conf\" target=? pid=9 comm=\"statesvc\" via=\"" SYSTEMD "\"\n"
	"type=KERNEL_OTHER msg=audit(1796284357.020:2): vigil=1 seq=2 verdict=learned op=exec access=x uid=0 exe=\"" SVC "\" path=\"/usr/bin/sort\" target=? pid=9 comm=\"statesvc\" via=\"" SYSTEMD "\"\n"
	"type=KERNEL_OTHER msg=audit(1796284357.020:3): vigil=1 seq=3 verdict=learned op=open access=r uid=0 exe=\"/usr/bin/sort\" path=\"/var/lib/statesvc/data\" target=? pid=10 comm=\"sort\" via=\"" SYSTEMD "/" SVC "\"\n"
	"type=KERNEL_OTHER msg=audit(1796284357.020:4): vigil=1 seq=4 verdict=learned op=open access=r uid=1000 exe=\"/usr/bin/sort\" path=\"/home/u/secret\" target=? pid=11 comm=\"sort\" via=\"/usr/bin/bash\"\n"
	"type=KERNEL_OTHER msg=audit(1796284357.020:5): vigil=1 seq=5 verdict=learned op=exec access=x uid=0 exe=\"" SVC "\" path=\"/usr/bin/dash\" target=? pid=9 comm=\"statesvc\" via=\"" SYSTEMD "\"\n"
	"type=KERNEL_OTHER msg=audit(1796284357.020:6): vigil=1 seq=6 verdict=learned op=exec access=x uid=0 exe=\"/usr/bin/dash\" path=\"/usr/bin/tr\" target=? pid=12 comm=\"sh\" via=\"" SYSTEMD "/" SVC "\"\n"
	"type=KERNEL_OTHER msg=audit(1796284357.020:7): vigil=1 seq=7 verdict=learned op=open access=r uid=0 exe=\"/usr/bin/tr\" path=\"/etc/tr.conf\" target=? pid=13 comm=\"tr\" via=\"" SYSTEMD "/" SVC "//usr/bin/dash\"\n"
	"type=KERNEL_OTHER msg=audit(1796284357.020:8): vigil=1 seq=8 verdict=learned op=open access=r uid=0 exe=\"" SVC "\" path=\"/etc/statesvc2.conf\" target=? pid=14 comm=\"statesvc\" via=\"" SYSTEMD "/" SVC "\"\n"
	"type=KERNEL_OTHER msg=audit(1796284357.020:9): vigil=1 seq=9 verdict=learned op=exec access=x uid=0 exe=\"" SVC "\" path=\"/usr/bin/wc\" target=? pid=9 comm=\"statesvc\"\n"
	"type=KERNEL_OTHER msg=audit(1796284357.020:10): vigil=1 seq=10 verdict=learned op=open access=r uid=0 exe=\"/usr/bin/wc\" path=\"/etc/wc.conf\" target=? pid=15 comm=\"wc\"\n"
	"type=KERNEL_OTHER msg=audit(1796284357.020:11): vigil=1 seq=11 verdict=learned op=capable access=use uid=0 exe=\"/usr/bin/dash\" path=? target=\"net_admin\" pid=12 comm=\"sh\" capability=12 via=\"" SYSTEMD "/" SVC "\"\n"
	"type=KERNEL_OTHER msg=audit(1796284357.020:12): vigil=1 seq=12 verdict=learned op=open access=r uid=0 exe=\"/usr/bin/dash\" path=\"/etc/profile\" target=? pid=16 comm=\"sh\" via=\"/usr/sbin/sshd\"\n"
	/* malformed: an element that is not a path */
	"type=KERNEL_OTHER msg=audit(1796284357.020:13): vigil=1 seq=13 verdict=learned op=open access=r uid=0 exe=\"/usr/bin/tr\" path=\"/etc/x\" target=? pid=17 comm=\"tr\" via=\"" SVC "//usr/bin/dash//\"\n";

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(db, sizeof(db), "%s/v.db", dir);
	snprintf(logf, sizeof(logf), "%s/audit.log", dir);
	snprintf(cand, sizeof(cand), "%s/cand.policy", dir);
	snprintf(out, sizeof(out), "%s/out.txt", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[400];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* The lines of block "subject HEAD {" of text, up to its "}". */
static char *block(const char *text, const char *head)
{
	char key[400];
	const char *b, *e;

	snprintf(key, sizeof(key), "\nsubject %s {\n", head);
	b = strstr(text, key);
	if (!b)
		return NULL;
	b += strlen(key);
	e = strstr(b, "\n}\n");
	assert_non_null(e);
	return strndup(b, (size_t)(e + 1 - b));
}

static void ingest_and_generate(void)
{
	char *argv_i[] = { "ingest", "--db", db, logf, NULL };
	char *argv_g[] = { "generate", "--db", db, "--subject", SVC,
			   "--children", "-o", cand, NULL };
	char *text, x[320];

	unlink(db);
	snprintf(x, sizeof(x), "%s-wal", db);
	unlink(x);
	snprintf(x, sizeof(x), "%s-shm", db);
	unlink(x);
	write_text(logf, log_text);
	/* one malformed line (exit 1), named by file, line and field */
	assert_int_equal(run_verb(do_ingest, argv_i, out), 1);
	text = slurp(out);
	if (!strstr(text, "audit.log:13: malformed record: bad via= (ends "
		    "with a separator)"))
		fail_msg("ingest said: %s", text);
	free(text);
	assert_int_equal(run_verb(do_generate, argv_g, out), 0);
}

static void test_generate_children(void **state)
{
	char *text, *b;

	(void)state;
	ingest_and_generate();
	text = slurp(cand);
	/* the children, each via the service, before any plain block */
	b = block(text, "/usr/bin/sort via " SVC);
	assert_non_null(b);
	assert_non_null(strstr(b, "file r /var/lib/statesvc/data\n"));
	assert_null(strstr(b, "secret"));	/* bash's run of sort */
	free(b);
	assert_null(strstr(text, "/home/u/secret"));
	assert_null(strstr(text, "\nsubject /usr/bin/sort {"));
	b = block(text, "/usr/bin/dash via " SVC);
	assert_non_null(b);
	assert_non_null(strstr(b, "file x /usr/bin/tr\n"));
	assert_non_null(strstr(b, "cap use net_admin\n"));
	assert_null(strstr(b, "/etc/profile"));	/* sshd's run of sh */
	free(b);
	/* the grandchild is the service's child too */
	b = block(text, "/usr/bin/tr via " SVC);
	assert_non_null(b);
	assert_non_null(strstr(b, "file r /etc/tr.conf\n"));
	free(b);
	/* the service: its own records, its re-exec folded in */
	b = block(text, SVC);
	assert_non_null(b);
	assert_non_null(strstr(b, "file r /etc/statesvc.conf\n"));
	assert_non_null(strstr(b, "file r /etc/statesvc2.conf\n"));
	assert_non_null(strstr(b, "file x /usr/bin/sort\n"));
	free(b);
	assert_null(strstr(text, "subject " SVC " via"));
	/* wc from the old log: today's plain block, said so */
	b = block(text, "/usr/bin/wc");
	assert_non_null(b);
	assert_non_null(strstr(b, "file r /etc/wc.conf\n"));
	free(b);
	assert_non_null(strstr(text, "its records carry no via= (a kernel "
			       "before exec-chain scoping)"));
	assert_non_null(strstr(text, "# --children: 3 blocks of what ran "
			       "under a named subject"));
	free(text);
}

/* AppArmor's own parser takes profile f, when installed
 * (test_export_apparmor requires it) */
static void aa_parses(const char *f)
{
	char cmd[600];

	if (system("command -v apparmor_parser > /dev/null 2>&1"))
		return;
	snprintf(cmd, sizeof(cmd), "apparmor_parser -QK '%s' > /dev/null 2>&1",
		 f);
	assert_int_equal(system(cmd), 0);
}

static void test_export_via(void **state)
{
	char odir[300], f[400], *text, *b;
	char *argv_a[] = { "export", "--db", db, "--to", "apparmor", "-o",
			   odir, cand, NULL };
	char *argv_t[] = { "export", "--db", db, "--to", "tomoyo", "-o",
			   odir, cand, NULL };
	char *argv_l[] = { "export", "--db", db, "--to", "landlock",
			   "--abi", "3", "-o", odir, cand, NULL };
	char *argv_s[] = { "export", "--db", db, "--to", "systemd", "-o",
			   odir, cand, NULL };
	char *argv_e[] = { "export", "--db", db, "--to", "selinux", "-o",
			   odir, cand, NULL };

	(void)state;
	ingest_and_generate();
	/* AppArmor: the children folded into the service's profile (ix),
	 * no profile of their own */
	snprintf(odir, sizeof(odir), "%s/aa", dir);
	assert_int_equal(run_verb(do_export, argv_a, out), 0);
	text = slurp(out);
	assert_non_null(strstr(text, "/aa/usr.local.bin.statesvc\n"));
	assert_non_null(strstr(text, "/aa/usr.bin.wc\n"));
	assert_null(strstr(text, "usr.bin.sort"));
	assert_null(strstr(text, "usr.bin.tr"));
	assert_null(strstr(text, "usr.bin.dash"));
	free(text);
	snprintf(f, sizeof(f), "%s/usr.local.bin.statesvc", odir);
	text = slurp(f);
	assert_non_null(strstr(text, "# subject /usr/bin/sort via " SVC
			       " (a child scoped to this service): ix"));
	assert_non_null(strstr(text, "\"/var/lib/statesvc/data{,/}\" r,\n"));
	assert_non_null(strstr(text, "\"/etc/tr.conf{,/}\" r,\n"));
	assert_non_null(strstr(text, "\"/usr/bin/sort\" ix,\n"));
	assert_non_null(strstr(text, "capability net_admin,\n"));
	assert_null(strstr(text, "secret"));
	assert_null(strstr(text, "/etc/profile"));
	assert_non_null(strstr(text, "loading this export never confines "
			       "that program run outside the service"));
	/* sh needs a capability the service lacks: Cx to a child profile
	 * nested in the service's, with its rules and tr's (which it runs) */
	assert_non_null(strstr(text, "\"/usr/bin/dash\" Cx -> usr.bin.dash,\n"));
	assert_non_null(strstr(text, "# subject /usr/bin/dash via " SVC
			       " (a child scoped to this service): Cx -> "
			       "usr.bin.dash, a child profile of its own "
			       "below: it needs capability net_admin"));
	b = strstr(text, "\n  profile usr.bin.dash {\n");
	assert_non_null(b);
	assert_non_null(strstr(b, "  capability net_admin,\n"));
	assert_non_null(strstr(b, "\"/etc/tr.conf{,/}\" r,\n"));
	assert_non_null(strstr(b, "\"/usr/bin/tr\" ix,\n"));
	/* before it, in the service's own rules: no net_admin */
	assert_true(strstr(text, "  capability net_admin,\n") > b);
	/* sort needs nothing more: ix */
	assert_non_null(strstr(text, "\"/usr/bin/sort\" ix,\n"));
	assert_null(strstr(text, "profile usr.bin.sort"));
	free(text);
	aa_parses(f);

	/* a via block's evidence: what ran under its via only (sort's own
	 * read of the secret for bash is not counted) */
	{
		char cand2[320], *t2, *p;
		char *argv_2[] = { "export", "--db", db, "--to", "apparmor",
				   "-o", odir, cand2, NULL };

		t2 = slurp(cand);
		p = strstr(t2, "file r /var/lib/statesvc/data\n");
		assert_non_null(p);
		memcpy(p, "file r /**                   \n", 30);
		snprintf(cand2, sizeof(cand2), "%s/cand2.policy", dir);
		write_text(cand2, t2);
		free(t2);
		snprintf(odir, sizeof(odir), "%s/aa2", dir);
		assert_int_equal(run_verb(do_export, argv_2, out), 0);
		snprintf(f, sizeof(f), "%s/usr.local.bin.statesvc", odir);
		t2 = slurp(f);
		assert_non_null(strstr(t2, "  # (/usr/bin/sort) generalised: "
				       "glob of the candidate, covering 1 "
				       "observed object\n  \"/**\" r,\n"));
		free(t2);
	}

	/* a program the Cx child runs, named by a local user with a line
	 * break and a rule in its name: named escaped in the child
	 * profile's comment, never a rule of its own */
	{
		static const char evil[] =
			"/usr/bin/t\\x0a\\x20\\x20/etc/shadow\\x20r,";
		char cand3[320], *t2, *p, *q;
		char *argv_3[] = { "export", "--db", db, "--to", "apparmor",
				   "-o", odir, cand3, NULL };
		size_t n = 0;

		t2 = slurp(cand);
		/* each "/usr/bin/tr" becomes evil: the exec rule and the block */
		p = malloc(strlen(t2) * 4 + 1);
		assert_non_null(p);
		for (q = t2; *q;) {
			if (!strncmp(q, "/usr/bin/tr", 11) &&
			    (q[11] == '\n' || q[11] == ' ')) {
				memcpy(p + n, evil, strlen(evil));
				n += strlen(evil);
				q += 11;
			} else {
				p[n++] = *q++;
			}
		}
		p[n] = '\0';
		assert_non_null(strstr(p, "file x /usr/bin/t\\x0a"));
		snprintf(cand3, sizeof(cand3), "%s/cand3.policy", dir);
		write_text(cand3, p);
		free(p);
		free(t2);
		snprintf(odir, sizeof(odir), "%s/aa3", dir);
		assert_int_equal(run_verb(do_export, argv_3, out), 0);
		snprintf(f, sizeof(f), "%s/usr.local.bin.statesvc", odir);
		t2 = slurp(f);
		b = strstr(t2, "\n  profile usr.bin.dash {\n");
		assert_non_null(b);
		assert_non_null(strstr(b, "\n  # subject /usr/bin/t\\x0a"));
		assert_null(strstr(t2, "\n  /etc/shadow r,"));
		assert_null(strstr(t2, "\n/etc/shadow"));
		free(t2);
		aa_parses(f);
	}

	/* TOMOYO: the transition form, one domain per exec path */
	snprintf(odir, sizeof(odir), "%s/tm", dir);
	assert_int_equal(run_verb(do_export, argv_t, out), 0);
	snprintf(f, sizeof(f), "%s/tomoyo-domain_policy.conf", odir);
	text = slurp(f);
	assert_non_null(strstr(text, "\n<kernel> " SVC " /usr/bin/sort\n"
			       "use_profile 3\nuse_group 0\n\nmisc env \\*\n"
			       "file getattr /\n"
			       "file getattr /\\*\n"
			       "file getattr /\\{\\*\\}/\n"
			       "file getattr /\\{\\*\\}/\\*\n"
			       "file getattr \\*:/\n"
			       "file getattr \\*:/\\*\n"
			       "file getattr \\*:/\\{\\*\\}/\n"
			       "file getattr \\*:/\\{\\*\\}/\\*\n"
			       "file getattr \\*:[\\$]\n"
			       "file getattr anon_inode:\\*\n"
			       "file read /var/lib/statesvc/data\n"));
	assert_non_null(strstr(text, "\n<kernel> " SVC
			       " /usr/bin/dash /usr/bin/tr\n"));
	assert_null(strstr(text, "\n<kernel> /usr/bin/sort\n"));
	free(text);
	snprintf(f, sizeof(f), "%s/tomoyo-exception_policy.conf", odir);
	text = slurp(f);
	assert_non_null(strstr(text, "initialize_domain " SVC " from any\n"));
	assert_null(strstr(text, "initialize_domain /usr/bin/sort"));
	free(text);

	/* Landlock and systemd: the service's ruleset/unit has the union */
	snprintf(odir, sizeof(odir), "%s/ll", dir);
	assert_int_equal(run_verb(do_export, argv_l, out), 0);
	snprintf(f, sizeof(f), "%s/usr.local.bin.statesvc.landlock.json",
		 odir);
	text = slurp(f);
	assert_non_null(strstr(text, "/var/lib/statesvc/data"));
	assert_non_null(strstr(text, "/etc/tr.conf"));
	free(text);
	snprintf(f, sizeof(f), "%s/usr.local.bin.statesvc.landlock.txt",
		 odir);
	text = slurp(f);
	assert_non_null(strstr(text, "the blocks 'via' it (its children) are "
			       "included"));
	free(text);
	snprintf(f, sizeof(f), "%s/usr.bin.sort.landlock.json", odir);
	assert_int_equal(access(f, F_OK), -1);
	snprintf(odir, sizeof(odir), "%s/sd", dir);
	assert_int_equal(run_verb(do_export, argv_s, out), 0);
	snprintf(f, sizeof(f), "%s/vigil-usr.local.bin.statesvc.conf", odir);
	text = slurp(f);
	assert_non_null(strstr(text, "the blocks 'via' it (its children) are "
			       "included"));
	free(text);
	snprintf(f, sizeof(f), "%s/vigil-usr.bin.sort.conf", odir);
	assert_int_equal(access(f, F_OK), -1);
	/* SELinux: folded into the service's domain */
	snprintf(odir, sizeof(odir), "%s/se", dir);
	assert_int_equal(run_verb(do_export, argv_e, out), 0);
	text = slurp(out);
	assert_null(strstr(text, "sort"));
	free(text);
	snprintf(f, sizeof(f), "%s/vigil_usr_local_bin_statesvc.te", odir);
	text = slurp(f);
	assert_non_null(strstr(text, "folded into this domain"));
	free(text);
}

/* A via block whose service is not in the file: an error naming its line. */
static void test_export_dangling(void **state)
{
	char pol[300], odir[300], *text;
	char *argv_a[] = { "export", "--to", "apparmor", "-o", odir, pol,
			   NULL };

	(void)state;
	snprintf(pol, sizeof(pol), "%s/dangling.policy", dir);
	snprintf(odir, sizeof(odir), "%s/dang", dir);
	write_text(pol, "# a hand edit\nsubject /usr/bin/a {\n"
			"\tfile r /etc/a\n}\n\n"
			"subject /usr/bin/sort via /usr/bin/gone {\n"
			"\tfile r /etc/b\n}\n");
	vigil_db_opt = NULL;
	setenv("VIGIL_DB", "/nonexistent/vigil.db", 1);
	assert_int_equal(run_verb(do_export, argv_a, out), EXIT_USAGE);
	text = slurp(out);
	assert_non_null(strstr(text, "dangling.policy: line 6: subject "
			       "/usr/bin/sort via /usr/bin/gone: no block of "
			       "/usr/bin/gone in this export"));
	free(text);
	assert_int_equal(access(odir, F_OK), -1);
	/* a loop of via blocks */
	write_text(pol, "subject /usr/bin/a via /usr/bin/b {\n}\n"
			"subject /usr/bin/b via /usr/bin/a {\n}\n");
	assert_int_equal(run_verb(do_export, argv_a, out), EXIT_USAGE);
	text = slurp(out);
	assert_non_null(strstr(text, "line 1: subject /usr/bin/a via "
			       "/usr/bin/b: its via blocks run under each "
			       "other in a loop"));
	free(text);
	unsetenv("VIGIL_DB");
}

/*
 * A plain block of an executable beside its via block: first the via
 * one, then the plain one; TOMOYO keeps the child in the service's
 * domain with no_initialize_domain, and tomoyo-checkpolicy takes both
 * files when installed.
 */
static void test_plain_and_via(void **state)
{
	char pol[300], odir[300], f[400], cmd[600], *text, *v, *p;
	char *argv_g[] = { "generate", "--db", db, "--subject", SVC,
			   "--subject", "/usr/bin/sort", "--children", "-o",
			   pol, NULL };
	char *argv_t[] = { "export", "--db", db, "--to", "tomoyo", "-o",
			   odir, pol, NULL };

	(void)state;
	ingest_and_generate();
	snprintf(pol, sizeof(pol), "%s/both.policy", dir);
	snprintf(odir, sizeof(odir), "%s/tm2", dir);
	assert_int_equal(run_verb(do_generate, argv_g, out), 0);
	text = slurp(pol);
	v = strstr(text, "\nsubject /usr/bin/sort via " SVC " {\n");
	p = strstr(text, "\nsubject /usr/bin/sort {\n");
	assert_non_null(v);
	assert_non_null(p);
	assert_true(v < p);
	/* the plain block has all sort did, the bash run's secret too */
	assert_non_null(strstr(p, "/secret\n"));
	free(text);
	assert_int_equal(run_verb(do_export, argv_t, out), 0);
	snprintf(f, sizeof(f), "%s/tomoyo-exception_policy.conf", odir);
	text = slurp(f);
	assert_non_null(strstr(text, "\nno_initialize_domain /usr/bin/sort "
			       "from <kernel> " SVC "\n"));
	assert_non_null(strstr(text, "\ninitialize_domain /usr/bin/sort from "
			       "any\n"));
	free(text);
	if (!system("command -v tomoyo-checkpolicy > /dev/null 2>&1")) {
		snprintf(cmd, sizeof(cmd), "tomoyo-checkpolicy e < '%s' 2>&1 | "
			 "grep -q ' 0 Error'", f);
		assert_int_equal(system(cmd), 0);
		snprintf(f, sizeof(f), "%s/tomoyo-domain_policy.conf", odir);
		snprintf(cmd, sizeof(cmd), "tomoyo-checkpolicy d < '%s' 2>&1 | "
			 "grep -q ' 0 Error'", f);
		assert_int_equal(system(cmd), 0);
	}
}

/* diff: a via block applies to what ran under its via only. */
static void test_diff_via(void **state)
{
	char *argv_d[] = { "diff", "--db", db, cand, NULL };
	char *text;

	(void)state;
	ingest_and_generate();
	assert_int_equal(run_verb(do_diff, argv_d, out), 1);
	text = slurp(out);
	/* what sort did for bash, sh for sshd: no block applies */
	assert_non_null(strstr(text, "subject /usr/bin/sort {\t# not named by "
			       "the policy, run via /usr/bin/bash\n"
			       "\tfile r /home/u/secret\t"));
	assert_non_null(strstr(text, "subject /usr/bin/dash {\t# not named by "
			       "the policy, run via /usr/sbin/sshd\n"
			       "\tfile r /etc/profile\t"));
	assert_non_null(strstr(text, "2 needed but missing, 0 allowed but "
			       "never used\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generate_children),
		cmocka_unit_test(test_export_via),
		cmocka_unit_test(test_export_dangling),
		cmocka_unit_test(test_plain_and_via),
		cmocka_unit_test(test_diff_via),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
