// SPDX-License-Identifier: GPL-2.0-only
/* vigil analyzer: global options and the verb table. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "vigil.h"
#include "export.h"

static const struct cmd cmds[] = {
	{ "ingest", do_ingest },
	{ "plugin", do_plugin },
	{ "snapshot", do_snapshot },
	{ "status", do_status },
	{ "mode", do_mode },
	{ "load", do_load },
	{ "generate", do_generate },
	{ "diff", do_diff },
	{ "export", do_export },
	{ "run", do_run },
	{ "report", do_report },
};

static void usage(FILE *f)
{
	fputs("usage: vigil [--db PATH] VERB [ARGS...]\n"
	      "       vigil -h|--help | --version\n"
	      "\n"
	      "Verbs:\n"
	      "  ingest [FILE...|-]      store the vigil records of audit\n"
	      "                          logs\n"
	      "  plugin                  auditd plugin (records on stdin)\n"
	      "  snapshot                store the kernel's learned table,\n"
	      "                          report the tuples the database lacks\n"
	      "  status                  the kernel's mode and counters\n"
	      "  mode [learn|observe|off]  show or set the kernel's mode\n"
	      "  load [-n] POLICY        check, then load a candidate policy\n"
	      "  generate [--strict]     a candidate policy from observations\n"
	      "  diff POLICY             observations vs POLICY: missing and\n"
	      "                          unused rules\n"
	      "  export --to TARGET      policies for apparmor, selinux,\n"
	      "                          landlock, tomoyo or systemd\n"
	      "  run --landlock FILE -- COMMAND  run COMMAND under a\n"
	      "                          Landlock ruleset\n"
	      "\n"
	      "Options:\n"
	      "  --db PATH   the database (default: $VIGIL_DB, else\n"
	      "              /var/lib/vigil/vigil.db as root, else\n"
	      "              ./vigil.db)\n"
	      "  -h, --help  this help; VERB -h for a verb's\n"
	      "  --version   print the version\n"
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
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
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
		if (!strcmp(argv[optind], cmds[i].name))
			return cmds[i].fn(argc - optind, argv + optind);
	}
	p_err("unknown verb '%s' (vigil --help lists them)", argv[optind]);
	return EXIT_USAGE;
}
