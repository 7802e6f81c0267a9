/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: "vigil generate --update CANDIDATE" (update.c): what was
 * observed since a candidate was made, merged into the candidate the admin
 * reviewed, keeping every line of it. docs/generate.md, "--update".
 */
#ifndef VIGIL_ANALYZER_UPDATE_H
#define VIGIL_ANALYZER_UPDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rules.h"

/* The marker of a rule the admin left out: the rest of the line is
 * "CLASS ACCESS GLOB", optionally followed by a '#' comment. */
#define VIGIL_UPDATE_LEFT_OUT "# vigil: left out: "
/* The header line an update writes (replaced by the next update). */
#define VIGIL_UPDATE_HEADER "# vigil: updated by generate --update"

/*
 * The observations an update merges, all strict (literal) and split by
 * exec chain (vigil_rules_opts.by_via) but gen:
 * - known: learned observations of the window the candidate was made
 *   from (its "# observed from A to B"); an access among them that the
 *   candidate does not allow was left out by the admin;
 * - fresh: observations after it, learned and would-deny, the sensitive
 *   ones marked (vigil_rules_opts.check);
 * - fresh_learned: the learned ones of fresh (the rest of fresh's
 *   access is a trial's would-deny);
 * - gen: the rules generate would make now (generalised unless strict,
 *   by_via), whose globs the additions take.
 * last: the time of the latest observation merged (seconds), for the
 * header's "observed ... to".
 */
struct vigil_update_change;
struct vigil_update_in {
	const struct vigil_ruleset *known, *fresh, *fresh_learned, *gen;
	int64_t last;
	/* optional: called once per change, in the file's order, before
	 * vigil_update_text returns (generate --format json); its non-zero
	 * return is vigil_update_text's */
	int (*change)(void *ctx, const struct vigil_update_change *c);
	void *ctx;
};

/* One change an update makes: lines inserted into the candidate. */
struct vigil_update_change {
	const char *kind;	/* "added", "proposed", "left_out" (by
				 * hand) or "sensitive" (never proposed) */
	const char *subject;	/* its block's subject, as written */
	const char *via;	/* its block's via, as written, or NULL */
	unsigned int line;	/* the candidate's line it goes before */
	enum vigil_class class;
	uint64_t access;
	const char *glob;	/* the object, policy form */
	const struct vigil_subject_rules *sr;	/* its evidence (NULL: a marker) */
	const struct vigil_rule *r;
	const char *text;	/* the lines inserted, exactly */
};

struct vigil_update_stats {
	size_t added;		/* rules added from learned observations */
	size_t proposed;	/* rules added from a trial's would-deny */
	size_t left_out;	/* markers written (removed by hand) */
	size_t sensitive;	/* markers of would-deny sensitive objects */
	size_t kept_out;	/* fresh accesses an existing marker names */
	size_t literal;		/* additions kept literal: a glob would
				   admit what a marker names */
	size_t unnamed;		/* fresh accesses of subjects no block
				   of the candidate selects */
};

/*
 * Merge in into the candidate text[0..len) (already accepted by the
 * shared parser): every line of it kept as written, in its place; new
 * rules (and left-out markers) inserted in their block where generate
 * would sort them, each with its evidence comment; the header's
 * "# observed from A to B" moved to in->last and the
 * VIGIL_UPDATE_HEADER line written after it. *ret (malloc'd) and
 * *ret_len. 0, -EINVAL (the text's blocks could not be listed: err
 * says the line), -ENOMEM.
 */
int vigil_update_text(const char *text, size_t len,
		      const struct vigil_update_in *in, char **ret,
		      size_t *ret_len, struct vigil_update_stats *st,
		      char *err, size_t err_size);

/*
 * The window of the candidate's header ("# observed from A to B", before
 * the first block): 0 and *from, *to (seconds), or -ENOENT (no such
 * line).
 */
int vigil_update_window(const char *text, size_t len, int64_t *from,
			int64_t *to);

/*
 * update_json.c: generate --update --format json (docs/generate.md): the
 * changes, collected by vigil_update_json_change (vigil_update_in.change,
 * ctx the struct), then the whole object written by _end. 0 or -ENOMEM.
 */
struct vigil_update_json {
	char *buf;
	size_t len, n;
	FILE *f;
};
int vigil_update_json_begin(struct vigil_update_json *j);
int vigil_update_json_change(void *ctx, const struct vigil_update_change *c);
/* aa: AppArmor's records merged, optional checks, others (or NULL). */
int vigil_update_json_end(struct vigil_update_json *j, FILE *out,
			  const char *candidate, const char *written,
			  const struct vigil_update_stats *st,
			  const size_t aa[3], const char *policy);
void vigil_update_json_free(struct vigil_update_json *j);

#endif /* VIGIL_ANALYZER_UPDATE_H */
