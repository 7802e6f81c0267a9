/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: export of a rule set to other security modules'
 * languages (AppArmor, SELinux, Landlock, TOMOYO, systemd): the verb
 * (export.c) and the driver's entry points (export/driver.c).
 */
#ifndef VIGIL_ANALYZER_EXPORT_H
#define VIGIL_ANALYZER_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rules.h"

struct export_opts {
	/* The candidate policy file translated, or NULL (from db). */
	const char *candidate;
	const char *db;		/* named in the header, or NULL */
	bool strict;		/* the rules are literal (--strict) */
	/* Landlock ABI to write for; 0: the running kernel's (or 1). */
	unsigned int landlock_abi;
	/* SELinux file contexts to map paths with; NULL: the installed. */
	const char *selinux_fcontexts;
};

/* The paths of the files an exporter wrote (caller frees). */
struct export_files {
	char **paths;
	size_t n;
};
void export_files_free(struct export_files *f);

/* The targets (export/: a table of operations each, driver.h). */
struct export_target;
extern const struct export_target export_apparmor, export_selinux,
	export_landlock, export_tomoyo, export_systemd;
/* The target named name ("apparmor"...), or NULL. */
const struct export_target *export_target_find(const char *name);

/*
 * Write the files of target t for every subject of rs into dir
 * (atomically: temporary file then rename), append their paths to out,
 * and return 0 or -errno (-ENOMEM, -EIO, errors of open/rename).
 */
int export_run(const struct export_target *t,
	       const struct vigil_ruleset *rs, const char *dir,
	       const struct export_opts *o, struct export_files *out);

/* Things a target cannot express, listed in the file's header. */
struct export_notes {
	char **v;
	size_t n;
};
/* Add a note (printf format), unless it is there. 0 or -ENOMEM. */
int note_add(struct export_notes *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void notes_free(struct export_notes *n);

/*
 * A file name for a subject: the exe path without its leading '/', '/'
 * as '.', other bytes outside [A-Za-z0-9._+-] as '_' ("usr.bin.demo").
 */
char *export_subject_name(const char *exe);

/* The subject of rs whose exe is exe, or NULL. */
const struct vigil_subject_rules *
export_find_subject(const struct vigil_ruleset *rs, const char *exe);

/*
 * Which subjects run under which: (*ret)[i * n + j] is true when the
 * processes of subject j run with the rules of subject i (i itself, and
 * the children i execs, transitively; rules.c lists the children). The
 * exporters whose children inherit the parent's confinement (AppArmor ix,
 * Landlock, TOMOYO without a domain transition...) include those rules.
 */
int export_reach(const struct vigil_ruleset *rs, bool **ret);

/* The running kernel's Landlock ABI, or 0 when it has none. */
int landlock_abi_version(void);

/*
 * The candidate file as a rule set (errors printed): parsed by the shared
 * parser, with the database's evidence when there (eo->db set then).
 * 0 or -errno.
 */
int export_load_candidate(const char *file, char *const *subjects,
			  size_t nsubjects, struct export_opts *eo,
			  struct vigil_ruleset *rs);

#endif /* VIGIL_ANALYZER_EXPORT_H */
