/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: the objects of rules as the export targets read them
 * (object.c): globs as tokens of the shared matcher's lexer, file paths,
 * capabilities, sockets.
 */
#ifndef VIGIL_ANALYZER_EXPORT_OBJECT_H
#define VIGIL_ANALYZER_EXPORT_OBJECT_H

#include <stdbool.h>
#include <stddef.h>

#include "rules.h"

struct export_notes;

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
 * The tokens of a rule's object, lexed by the kernel's lexer: r->glob
 * (escaped source form) when set, else r->object escaped ('*' and '?'
 * operators only when r->generalised). 0, -EINVAL (a pattern the kernel
 * refuses), -ENOMEM.
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

/*
 * A file rule's absolute path: the path itself (*ret_lit true) or, for a
 * glob, its longest glob-free folder (malloc'd). A rule that names no
 * absolute path is noted in left with why, and 1 is returned; else 0 or
 * -errno.
 */
int export_rule_path(const struct vigil_rule *r, struct export_notes *left,
		     const char *why, char **ret_path, bool *ret_lit);

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

#endif /* VIGIL_ANALYZER_EXPORT_OBJECT_H */
