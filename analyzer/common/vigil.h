/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: what every file of it shares: the version, the exit
 * codes, the global options and the verbs of main.c's command table (each
 * file's own interface is in its own header: util.h, store.h, ...).
 */
#ifndef VIGIL_ANALYZER_VIGIL_H
#define VIGIL_ANALYZER_VIGIL_H

#ifndef VIGIL_VERSION
#define VIGIL_VERSION "0.1"
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit codes (contract). */
enum {
	EXIT_OK = 0,
	EXIT_FINDING = 1,
	EXIT_USAGE = 2,
};

/* A verb of the one command table (main.c): vigil --help, the man page
 * test and the completion are made from it. */
struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *args;	/* "[FILE...|-]" */
	const char *summary;	/* one line */
};

/* main.c: global options. */
extern const char *vigil_db_opt;	/* --db, or NULL */
extern const char *progname;
extern const char *vigil_verb;		/* the verb running, for messages */

/* The verbs (their files: ingest.c, plugin.c, kernel.c, generate.c,
 * diff.c, report.c, export.c, trial.c, run.c). */
int do_ingest(int argc, char **argv);
int do_plugin(int argc, char **argv);
int do_status(int argc, char **argv);
int do_mode(int argc, char **argv);
int do_owners(int argc, char **argv);
int do_load(int argc, char **argv);
int do_snapshot(int argc, char **argv);
int do_generate(int argc, char **argv);
int do_diff(int argc, char **argv);
int do_review(int argc, char **argv);
int do_report(int argc, char **argv);
int do_subjects(int argc, char **argv);
int do_export(int argc, char **argv);
int do_trial(int argc, char **argv);
int do_run(int argc, char **argv);

#endif /* VIGIL_ANALYZER_VIGIL_H */
