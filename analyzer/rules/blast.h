/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: judging a glob a heuristic of generate made, on this
 * machine (blast.c): the sensitive objects it would admit without having
 * seen them, and its blast radius (existing objects it admits beyond
 * those observed). docs/generate.md describes both.
 */
#ifndef VIGIL_ANALYZER_BLAST_H
#define VIGIL_ANALYZER_BLAST_H

#include <stdbool.h>
#include <stddef.h>

struct blast;

/* The bound: a glob may admit max(BLAST_MIN, BLAST_FACTOR x observed). */
#define VIGIL_BLAST_MIN 20
#define VIGIL_BLAST_FACTOR 10
/* Entries a blast radius walk reads at most (then it says "at least"). */
#define VIGIL_BLAST_WALK_MAX 200000
/* The built-in sensitive globs (NULL-terminated), docs/generate.md. */
#define VIGIL_SENSITIVE_CONF "/etc/vigil/sensitive.conf"
extern const char *const vigil_sensitive_builtin[];

/*
 * root: the file system to look at ("/" when NULL or ""); sensitive_file:
 * more sensitive globs, one per line ('#' comments), or NULL. 0, -EINVAL
 * (err says which file, line and why), -ENOENT/-EACCES (the file),
 * -ENOMEM.
 */
int blast_new(const char *root, const char *sensitive_file, bool broad,
	      struct blast **ret, char *err, size_t err_size);
void blast_free(struct blast *b);

/* The observed file objects of the subject judged next, sorted (strcmp). */
void blast_set_observed(struct blast *b, char *const *sorted, size_t n);

/*
 * Judge object (a path in which '*' and '?' are the only operators, never
 * crossing '/') made from `observed` distinct observed objects; bounded:
 * whether the blast bound applies (not for per-pid /proc globs). Returns 1
 * (allowed; *ret_note says its blast radius), 0 (refused; *ret_note says
 * why) or -ENOMEM. *ret_note is malloc'd.
 */
int blast_judge(struct blast *b, const char *object, unsigned int observed,
		bool bounded, char **ret_note);

/*
 * The sensitive pattern (as written) that the literal path matches, or
 * NULL (also when b is NULL): generate marks such a literal rule.
 */
const char *blast_sensitive(const struct blast *b, const char *path);

/*
 * A built-in sensitive pattern that names something beneath the folder
 * dir (dir/STAR-STAR overlaps it; a name pattern only where dir's text
 * spells the name), in *ret, or NULL. 0 or -ENOMEM. The Landlock export
 * never moves rights up to such a folder.
 */
int vigil_sensitive_beneath(const char *dir, const char **ret);

/*
 * Whether some text matches both token strings (match.h's brace-free
 * tokens: bytes, VIGIL_GLOB_STAR, _DSTAR, _ANY); opaque: a's wildcards
 * never spell a byte of b's. 1, 0 or -ENOMEM. For the unit tests.
 */
#include <stdint.h>
int blast_tokens_meet(const uint16_t *a, size_t na, const uint16_t *b,
		      size_t nb, bool opaque);

#endif /* VIGIL_ANALYZER_BLAST_H */
