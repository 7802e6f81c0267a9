/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: what the rule model's files share: rules.c (the
 * model), its heuristics (rules_path.c, rules_hashed.c, rules_vary.c,
 * rules_vary_group.c, rules_siblings.c, rules_random.c), rules_merge.c
 * and rules_load.c (the observations from the database).
 */
#ifndef VIGIL_ANALYZER_RULES_INT_H
#define VIGIL_ANALYZER_RULES_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rules.h"

struct blast;

/* One observed (class, object) of a subject, before generalisation. */
struct obs {
	enum vigil_class class;
	uint64_t access;
	char *object;
	uint64_t count;
	int64_t first, last;
	bool exec;		/* some of it was op=exec */
	struct vigil_uids uids;
	uint32_t pid;		/* the records' pid when all had one, or 0 */
	uint64_t *hosts;	/* per host: a bit per host, or NULL */
	uint32_t host_words;
};

/* rules_vary.c: names that vary between runs (issue 24 §1). */
struct vary_name {
	const char *path;	/* absolute, no glob metacharacter */
	int64_t first, last;	/* when it was used (seconds) */
	uint32_t pid;		/* the records' pid, or 0 */
	uint64_t access;	/* file access bits (VIGIL_FILE_C: made by it) */
};
/*
 * Digits a number has at least to vary between runs (not "log.1"), unless
 * the program made each of the names itself (rotations, counters).
 */
#define VARY_DIGITS_MIN 3
/*
 * The least glob (unescaped, '*' the only operator but for a counter of
 * fixed width: a '?' a digit) over names[0..n), all of one folder, a '*'
 * for each part that varies between them with
 * the evidence (see rules_vary.c), or for one name its pid; *ret NULL
 * when there is none. *kind: the VIGIL_HEUR_* it used. 0 or -ENOMEM.
 */
int rules_vary_glob(const struct vary_name *names, size_t n, char **ret,
		    unsigned int *kind);
/*
 * Skip the names-that-vary heuristic (heur_vary): for
 * tests/bench/vary-cost only, its baseline in the same run. Never set by
 * vigil itself.
 */
extern bool rules_vary_off;
/* rules_vary_glob's calls so far: tests/unit/test_rules counts them. */
extern size_t rules_vary_calls;

/* rules_merge.c */
void rules_minmax(int64_t *first, int64_t *last, int64_t f, int64_t l);
/* dst |= src, host_words words each (dst NULL: nothing). */
void rules_hosts_or(uint64_t *dst, const uint64_t *src, uint32_t words);
uint32_t rules_hosts_count(const uint64_t *v, uint32_t words);
/* Add uid to u (sorted, once); past VIGIL_UIDS_MAX only u->more is set. */
void rules_uids_add(struct vigil_uids *u, uint32_t uid);
/* dst gets src's uids (sorted, once) and flags. */
void rules_uids_union(struct vigil_uids *dst, const struct vigil_uids *src);
void rules_rule_free(struct vigil_rule *r);
/* Sort rules (class, object, glob) and merge those of one class and
 * glob into one: *n less. */
void rules_sort_merge(struct vigil_rule *rules, size_t *n);
int rules_absorb_random(struct vigil_rule *rules, size_t *n);
/* Set every rule's blast note to a copy of note. 0 or -ENOMEM. */
int rules_set_blast(struct vigil_rule *r, const char *note);
/*
 * r becomes the glob *gen (its object, escaped glob, heuristic heur
 * added, generalised; no sensitive mark): *gen is taken (NULL after).
 * 0 or -ENOMEM (r unchanged).
 */
int rules_take_glob(struct vigil_rule *r, char **gen, unsigned int heur);

/* A byte of a word: [A-Za-z0-9_]. */
static inline bool rules_is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}
/* The length of the folder part of obj (before its last '/'), or 0. */
static inline size_t rules_dir_len(const char *obj)
{
	const char *s = strrchr(obj, '/');

	return s ? (size_t)(s - obj) : 0;
}

/* rules_path.c: the heuristics on one absolute path. */
/* rules_generalise_path()'s flags: the temporary-name heuristic not
 * now; on a glob of the names-that-vary heuristic (its '*' kept). */
#define GEN_NO_TEMP 1u
#define GEN_STAR_OK 2u
/*
 * The glob of an absolute path without metacharacters, generalised (the
 * VIGIL_HEUR_* it used in *heur): *ret is NULL when no heuristic
 * applies. 0 or -ENOMEM.
 */
int rules_generalise_path(const char *path, char **ret, unsigned int *heur,
			  unsigned int flags);
/* Whether s[0..len) looks random ("aB3xYz", "k3j_x9a2", hex). */
bool rules_looks_random(const char *s, size_t len);

/*
 * The heuristics over a subject's rules (rules_hashed.c,
 * rules_vary_group.c, rules_siblings.c): each generalises some of
 * rules[0..*n), each glob judged by b, then merges them (*n less).
 * 0 or -ENOMEM.
 */
int rules_heur_store(struct vigil_rule *rules, size_t *n, struct blast *b);
int rules_heur_vary(struct vigil_rule *rules, size_t *n, struct blast *b);
int rules_heur_temp_later(struct vigil_rule *rules, size_t *n,
			  struct blast *b);
int rules_heur_siblings(struct vigil_rule *rules, size_t *n, struct blast *b);
/* rules_beneath.c: rules beneath a folder whose name varies take its glob */
int rules_heur_beneath(struct vigil_rule *rules, size_t *n, struct blast *b);

/* rules.c */
/*
 * Build the rules of one subject from its observations (consumed); the
 * tuples no policy line can hold are added to *skipped.
 */
int rules_subject_build(struct vigil_subject_rules *sr, struct obs *obs,
			size_t nobs, bool strict, struct blast *b,
			uint64_t *skipped);

#endif /* VIGIL_ANALYZER_RULES_INT_H */
