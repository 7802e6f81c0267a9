/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: what the export targets share (driver.c): notes on what
 * a target cannot express, the header of every file, atomic writes.
 */
#ifndef VIGIL_ANALYZER_EXPORT_DRIVER_H
#define VIGIL_ANALYZER_EXPORT_DRIVER_H

#include <stdio.h>

#include "export.h"
#include "rules.h"

/* "file rw /etc/x" for a rule, in vigil syntax (escaped: one line). */
int note_rule(struct export_notes *n, const struct vigil_rule *r,
	      const char *why);

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

/* Write dir/name atomically and add the path to out. 0 or -errno. */
int export_write(const char *dir, const char *name, const char *text,
		 size_t len, struct export_files *out);

#endif /* VIGIL_ANALYZER_EXPORT_DRIVER_H */
