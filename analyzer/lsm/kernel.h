/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil analyzer: kernel.c: the kernel through securityfs (status, mode,
 * load, snapshot) and its learned table's lines. */
#ifndef VIGIL_ANALYZER_KERNEL_H
#define VIGIL_ANALYZER_KERNEL_H

struct vigil_tuple;

/* Undo the learned table's octal escapes (\040) in place. 0 or -EINVAL. */
int unescape_octal(char *s);
/* Parse a learned table line in place: 0, 1 (header, blank), -EINVAL. */
int vigil_learned_parse(char *line, struct vigil_tuple *t);
/* The same, *why naming the bad field ("bad via= (...)"). */
int vigil_learned_parse_why(char *line, struct vigil_tuple *t,
			    const char **why);

#endif /* VIGIL_ANALYZER_KERNEL_H */
