// SPDX-License-Identifier: GPL-2.0-only
/* vigil analyzer: global options and the verb table. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "vigil.h"
#include "util.h"

/* The one command table: dispatch, vigil --help and vigil --verbs. */
static const struct cmd cmds[] = {
	{ "ingest", do_ingest, "[FILE...|-]",
	  "store the vigil records of audit logs" },
	{ "plugin", do_plugin, "",
	  "auditd plugin: records on standard input" },
	{ "snapshot", do_snapshot, "",
	  "the kernel's learned table, against the db" },
	{ "status", do_status, "", "the kernel's mode and counters" },
	{ "mode", do_mode, "[learn|observe|off]",
	  "show or set the kernel's mode" },
	{ "owners", do_owners, "[-n] [--subuid FILE]",
	  "charge subordinate uids to their owner" },
	{ "load", do_load, "[-n] [--dump] POLICY|-",
	  "check, then load a candidate policy" },
	{ "generate", do_generate, "[--strict] [-o FILE]",
	  "a candidate policy from the observations" },
	{ "diff", do_diff, "POLICY|-",
	  "observations vs POLICY: missing, unused rules" },
	{ "review", do_review, "[--answers FILE|-] [-n] CANDIDATE",
	  "ask about what CANDIDATE lacks, riskiest first" },
	{ "export", do_export, "--to TARGET [-o DIR] CANDIDATE|-",
	  "translate CANDIDATE for another LSM, systemd" },
	{ "trial", do_trial, "--to apparmor|tomoyo|selinux CANDIDATE",
	  "its export in the target's permissive mode" },
	{ "run", do_run, "--landlock FILE|- -- COMMAND",
	  "run COMMAND under a Landlock ruleset" },
	{ "subjects", do_subjects, "[--subject EXE]... [--format text|json]",
	  "every subject: counts, runs, uids, converged?" },
	{ "report", do_report, "[--format html|text|json] [-o DIR|FILE]",
	  "what was learned, would be denied; charts" },
};

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: vigil [--db PATH] VERB [ARGS...]\n"
	      "       vigil -h|--help | -V|--version\n"
	      "\n"
	      "Verbs (vigil VERB -h for each one's options):\n", f);
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		char head[64];

		snprintf(head, sizeof(head), "%s %s", cmds[i].name,
			 cmds[i].args);
		if (strlen(head) > 30)
			fprintf(f, "  %s\n  %-30s  %s\n", head, "",
				cmds[i].summary);
		else
			fprintf(f, "  %-30s  %s\n", head, cmds[i].summary);
	}
	fputs("\n"
	      "Options:\n"
	      "  --db PATH      the database (default: $VIGIL_DB, else\n"
	      "                 /var/lib/vigil/vigil.db as root, else\n"
	      "                 ./vigil.db); also after the verb\n"
	      "  -h, --help     this help; VERB -h for a verb's\n"
	      "  -V, --version  print the version\n"
	      "\n"
	      "Exit status: 0 ok, 1 difference or finding, 2 usage or input\n"
	      "error. See vigil(8).\n",
	      f);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "verbs", no_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "+hV", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			vigil_db_opt = optarg;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("vigil %s\n", VIGIL_VERSION);
			return EXIT_OK;
		case 'L':
			/* for the completion and the tests */
			for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
				printf("%s\n", cmds[i].name);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (!strcmp(argv[optind], cmds[i].name)) {
			vigil_verb = cmds[i].name;
			return cmds[i].fn(argc - optind, argv + optind);
		}
	}
	p_err("unknown verb '%s' (vigil --help lists them)", argv[optind]);
	return EXIT_USAGE;
}
