/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: the export driver (driver.c) and the table of
 * operations each target (apparmor.c, landlock.c, selinux.c, systemd.c,
 * tomoyo.c) gives it. The driver owns the loop over subjects and their
 * rules, the notes on what a target cannot express, the header of every
 * file and the atomic writes; a target turns rules into its language.
 */
#ifndef VIGIL_ANALYZER_EXPORT_DRIVER_H
#define VIGIL_ANALYZER_EXPORT_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "export.h"
#include "rules.h"

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
 * Whether subject i can run subject j's block (exec rules aside): not
 * when j is "via" another subject than i or i's own via, nor when j is
 * a plain block and a block "via" i (or i's via) of the same exe comes
 * first for the tasks i runs.
 */
bool export_runs(const struct vigil_ruleset *rs, size_t i, size_t j);

/*
 * Which subjects run under which: (*ret)[i * n + j] is true when the
 * processes of subject j run with the rules of subject i (i itself, and
 * the children i execs, transitively; rules.c lists the children; the
 * blocks "via" i, whose parent it is). The
 * exporters whose children inherit the parent's confinement (AppArmor ix,
 * Landlock, TOMOYO without a domain transition...) include those rules.
 */
int export_reach(const struct vigil_ruleset *rs, bool **ret);

struct export_ctx;

/*
 * A target. For each subject (per_system false) the driver starts a file
 * (its notes: the general ones; an empty body in c->f), calls
 * subject_begin, then, for the subject and, when inherit, every subject
 * it runs (export_reach), in the rule set's order: reached, then rule
 * for each of its rules; then adds children_note when the subject runs
 * others, and calls subject_end, which writes the subject's files with
 * export_emit. A per_system target gets one file for all subjects (the
 * notes gathered across them), the subjects' own rules only, and writes
 * its files in end. Every operation but rule may be NULL; release
 * frees what the target keeps in c->priv (priv_size bytes, zeroed), and
 * is called whatever happened. A block "via" another (sr->via) gets no
 * file of its own: its rules go to its parent's (export_reach); a
 * per_system target is given it like the others and writes it in its
 * transition form.
 *
 * rule is called for every rule of a class (a rule of no class is noted
 * "unknown class" by the driver): each target switches over enum
 * vigil_class with no default, so that a new class is a compile error
 * (-Wswitch) until every target handles it.
 */
struct export_target {
	const char *name;		/* --to NAME */
	const char *title;		/* the header's: "AppArmor profile" */
	bool per_system;		/* one set of files for all */
	bool inherit;			/* the rules of the subjects it runs */
	const char *const *general;	/* notes every file starts with */
	size_t ngeneral;
	const char *children_note;	/* if a subject runs others */
	/* if a subject has blocks "via" it (their rules are included) */
	const char *via_note;
	size_t priv_size;
	int (*begin)(struct export_ctx *c);
	int (*subject_begin)(struct export_ctx *c);
	int (*reached)(struct export_ctx *c,
		       const struct vigil_subject_rules *sr);
	/*
	 * A subject reached that gets a block of its own nested in this
	 * subject's file (AppArmor's Cx child profile): nest returns 1 for
	 * it, 0 when its rules go inline (reached, then rule), or -errno.
	 * For a nested one the driver calls nest_begin, then reached and
	 * rule for it and each subject it runs (c->nest set to it), then
	 * nest_end; its rules are not given to the outer block. nest NULL:
	 * no nesting (nest_begin and nest_end are then unused).
	 */
	int (*nest)(struct export_ctx *c,
		    const struct vigil_subject_rules *sr);
	int (*nest_begin)(struct export_ctx *c,
			  const struct vigil_subject_rules *sr);
	int (*nest_end)(struct export_ctx *c,
			const struct vigil_subject_rules *sr);
	int (*rule)(struct export_ctx *c, const struct vigil_rule *r);
	int (*subject_end)(struct export_ctx *c);
	int (*end)(struct export_ctx *c);
	void (*release)(struct export_ctx *c);
};

/* What the operations see. */
struct export_ctx {
	const struct export_target *t;
	const struct vigil_ruleset *rs;
	const struct export_opts *o;
	const bool *reach;		/* export_reach() of rs */
	/* the subject being written (NULL in a per_system end) */
	const struct vigil_subject_rules *sr;
	size_t self;			/* its index in rs */
	/* the nested block being written in sr's file (nest), or NULL */
	const struct vigil_subject_rules *nest;
	FILE *f;			/* the body of the file being written */
	struct export_notes general;	/* how rules map to the target */
	struct export_notes left;	/* rules left out or made broader */
	void *priv;			/* the target's own state */
	/* the driver's */
	const char *dir;
	struct export_files *out;
	char *body;
	size_t blen;
};

/* One file: the header (unless raw), the lead lines, the text. */
struct export_file {
	const char *name;		/* in the output folder */
	const char *title;		/* the header's; NULL: the target's */
	const char *lead;		/* after the header, or NULL */
	const char *text;		/* the body, or NULL */
	size_t len;
	bool raw;			/* no header (JSON has no comments) */
};

/* The text written to c->f so far (c->f closed; c keeps it). 0 or
 * -ENOMEM. */
int export_body(struct export_ctx *c, const char **ret, size_t *ret_len);

/*
 * Write the file into the output folder atomically: the header (the
 * subject c->sr, or all subjects when NULL; the notes of c), then lead and
 * text. The path is added to the output list. 0 or -errno.
 */
int export_emit(struct export_ctx *c, const struct export_file *file);

/* "file rw /etc/x" for a rule, in vigil syntax (escaped: one line). */
int note_rule(struct export_notes *n, const struct vigil_rule *r,
	      const char *why);

#endif /* VIGIL_ANALYZER_EXPORT_DRIVER_H */
