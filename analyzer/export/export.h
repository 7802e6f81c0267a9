/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: export of a rule set to other security modules'
 * languages (AppArmor, SELinux, Landlock, TOMOYO, systemd): the verb
 * (export.c) and the driver's entry points (export/driver.c); the
 * helpers the driver shares with the targets are in export/driver.h.
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
	/* SELinux: each domain declared permissive (vigil trial) */
	bool selinux_permissive;
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
/* SELinux: the module a subject's program gets ("vigil_" IDENT), its
 * domain is that with "_t" (new string, or NULL). */
char *export_selinux_module(const char *exe);

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

/*
 * The candidate file as a rule set (errors printed): parsed by the shared
 * parser, with the database's evidence when there (eo->db set then).
 * 0 or -errno.
 */
int export_load_candidate(const char *file, char *const *subjects,
			  size_t nsubjects, struct export_opts *eo,
			  struct vigil_ruleset *rs);

#endif /* VIGIL_ANALYZER_EXPORT_H */
