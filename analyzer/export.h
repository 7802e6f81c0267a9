/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: exporters of a rule set to other security modules'
 * languages (AppArmor, SELinux, Landlock, TOMOYO, systemd), and what they
 * share: globs as tokens, notes on what a target cannot express, the header
 * every exported file starts with, atomic writes into a folder.
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

/*
 * Each exporter writes its files for every subject of rs into dir
 * (atomically: temporary file then rename), appends their paths to out,
 * and returns 0 or -errno (-ENOMEM, -EIO, errors of open/rename).
 */
int export_apparmor(const struct vigil_ruleset *rs, const char *dir,
		    const struct export_opts *o, struct export_files *out);
int export_selinux(const struct vigil_ruleset *rs, const char *dir,
		   const struct export_opts *o, struct export_files *out);
int export_landlock(const struct vigil_ruleset *rs, const char *dir,
		    const struct export_opts *o, struct export_files *out);
int export_tomoyo(const struct vigil_ruleset *rs, const char *dir,
		  const struct export_opts *o, struct export_files *out);
int export_systemd(const struct vigil_ruleset *rs, const char *dir,
		   const struct export_opts *o, struct export_files *out);

/* ---- shared by the exporters (export.c) ---- */

/* A glob as tokens: literal bytes and operators. */
enum gtok_kind {
	GT_LIT,		/* the byte c */
	GT_STAR,	/* "*": any run without '/' */
	GT_STAR2,	/* "**": any run */
	GT_QMARK,	/* "?": one byte but '/' */
	GT_LBRACE,	/* "{" */
	GT_COMMA,	/* "," between alternatives */
	GT_RBRACE,	/* "}" */
};

struct gtok {
	enum gtok_kind kind;
	unsigned char c;
};

struct glob_toks {
	struct gtok *t;
	size_t n;
};

/*
 * The tokens of a rule's object: from r->glob (escaped source form) when
 * set, else from r->object ('*' an operator only when r->generalised).
 * 0, -EINVAL (bad escape or braces), -ENOMEM.
 */
int glob_toks_of_rule(const struct vigil_rule *r, struct glob_toks *ret);
/*
 * The same from escaped source text, lexed by the kernel's own lexer
 * (match.c). 0, -EINVAL (a pattern the kernel refuses), -ENOMEM.
 */
int glob_toks_parse(const char *src, size_t len, struct glob_toks *ret);
void glob_toks_free(struct glob_toks *g);

/* A pattern's brace-free alternatives, as the kernel expands them. */
struct glob_alts {
	struct glob_toks *v;
	size_t n;
};
/*
 * Expand escaped source text with the kernel's expansion (match.c): at
 * most VIGIL_GLOB_MAX_ALTS alternatives, adjacent stars merged.
 * 0, -EINVAL (a pattern the kernel refuses), -ENOMEM.
 */
int glob_alts_expand(const char *src, size_t len, struct glob_alts *ret);
void glob_alts_free(struct glob_alts *a);
/* Whether every token is a literal byte. */
bool glob_toks_literal(const struct glob_toks *g);
/*
 * The literal text before the first operator, cut after its last '/'
 * (for a literal glob, the whole text). New string or NULL (no memory).
 * "/var/lib/STAR.db" gives "/var/lib/", "/etc/x" gives "/etc/x".
 */
char *glob_toks_literal_dir(const struct glob_toks *g);
/* The whole text of a literal glob (new string), or NULL. */
char *glob_toks_text(const struct glob_toks *g);

/* Things a target cannot express, listed in the file's header. */
struct export_notes {
	char **v;
	size_t n;
};
/* Add a note (printf format). 0 or -ENOMEM. */
int note_add(struct export_notes *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "file rw /etc/x" for a rule, in vigil syntax (escaped: one line). */
int note_rule(struct export_notes *n, const struct vigil_rule *r,
	      const char *why);
void notes_free(struct export_notes *n);
/*
 * A file rule's absolute path: the path itself (*ret_lit true) or, for a
 * glob, its longest glob-free folder (malloc'd). A rule that names no
 * absolute path is noted in left with why, and 1 is returned; else 0 or
 * -errno.
 */
int export_rule_path(const struct vigil_rule *r, struct export_notes *left,
		     const char *why, char **ret_path, bool *ret_lit);

/*
 * The header comment every exported file starts with: generator, target,
 * subjects, observation window, record count, the notes ("general" ones,
 * then the rules left out), each line prefixed by cmt ("#", "//"...).
 * sr: the subject of this file, or NULL for all of rs.
 */
void export_header(FILE *f, const char *cmt, const char *target,
		   const struct vigil_ruleset *rs,
		   const struct vigil_subject_rules *sr,
		   const struct export_opts *o,
		   const struct export_notes *general,
		   const struct export_notes *left_out);

/*
 * A file name for a subject: the exe path without its leading '/', '/'
 * as '.', other bytes outside [A-Za-z0-9._+-] as '_' ("usr.bin.demo").
 */
char *export_subject_name(const char *exe);
/* Write dir/name atomically and add the path to out. 0 or -errno. */
int export_write(const char *dir, const char *name, const char *text,
		 size_t len, struct export_files *out);

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

/* Capability names a cap rule's object names (a name or a glob). */
int export_caps(const struct vigil_rule *r, bool caps[VIGIL_CAP_COUNT]);

/*
 * A net rule's object "FAMILY:TYPE[:ADDRESS]" split into fresh strings
 * (address NULL when absent). 0, -EINVAL, -ENOMEM.
 */
struct net_obj {
	char *family, *type, *addr;
	int port;		/* -1 when addr is not a port */
};
int net_obj_parse(const struct vigil_rule *r, struct net_obj *ret);
void net_obj_free(struct net_obj *n);

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
