/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: the rule model shared by generate, diff and the exporters.
 * Rules come from the observed tuples in the database (records with verdict
 * learned or would-deny, plus kernel snapshot tuples), generalised by the
 * heuristics of rules.c unless strict.
 */
#ifndef VIGIL_ANALYZER_RULES_H
#define VIGIL_ANALYZER_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ops.h"	/* enum vigil_class, access bits: kernel/security/vigil */
#include "rules_text.h"	/* glob escaping, ISO times */

struct vigil_store;
struct vigil_nodes;

/*
 * The uids an observation or a rule was seen under (the records' uid=,
 * the task's real uid), sorted; at most VIGIL_UIDS_MAX kept, more says
 * others were cut. service: one of them is a uid the subject ran as
 * (vigil_subject_rules.service_uids); a rule with uids but no service
 * uid is flagged (generate prints "# FLAG").
 */
#define VIGIL_UIDS_MAX 8
struct vigil_uids {
	uint32_t v[VIGIL_UIDS_MAX];
	unsigned int n;
	bool more;
	bool service;
	/*
	 * Some were records of the class "user" (uclass=user): the kernel
	 * keyed them by the class, not the uid, so they stand for every
	 * user's uid (issue 25 §2).
	 */
	bool user_class;
	/*
	 * The uid classes of all of them, cut or not: VIGIL_POLICY_UCLASS_*
	 * bits (policy.h), as a candidate's "uid" blocks judge them.
	 */
	unsigned int classes;
};
/* Debian's first uid of a person (adduser FIRST_UID, login.defs UID_MIN). */
#define VIGIL_FIRST_USER_UID 1000

/*
 * Whether uid is of the class "user" as the kernel keys tuples
 * (docs/record-format.md, "The uid in the key"): not root, not a system
 * account of Debian Policy 9.2.2 (1-999, 60000-65535: nobody, systemd's
 * DynamicUser= range).
 */
static inline bool vigil_uid_is_user(uint32_t uid)
{
	return uid >= VIGIL_FIRST_USER_UID && (uid < 60000 || uid > 65535);
}

/* The uid class of uid, as the kernel keys tuples: root, system, user. */
static inline const char *vigil_uid_class(uint32_t uid)
{
	return !uid ? "root" : vigil_uid_is_user(uid) ? "user" : "system";
}

/* The VIGIL_POLICY_UCLASS_* bit of uid's class (policy.h). */
static inline unsigned int vigil_uid_class_bit(uint32_t uid)
{
	return !uid ? 0x1 : vigil_uid_is_user(uid) ? 0x4 : 0x2;
}

/* One rule: CLASS ACCESS OBJECT for one subject, with its evidence. */
struct vigil_rule {
	enum vigil_class class;
	uint64_t access;	/* bits of ops.h for the class */
	char *object;		/* vigil glob syntax, unescaped: / * ** ? {a,b} */
	bool generalised;	/* object is a glob made by a heuristic */
	const char *why;	/* the heuristic's name ("per-pid /proc", ...), or NULL */
	uint64_t count;		/* accesses observed (sum over the covered tuples) */
	int64_t first, last;	/* seconds since the epoch */
	unsigned int distinct;	/* distinct observed objects it covers */
	char **examples;	/* up to 3 observed objects it covers */
	unsigned int nexamples;
	/*
	 * Added by rules.c (generate, diff). glob: the object in the escaped
	 * source form of the policy language, exactly what generate prints
	 * (it always compiles with vigil_glob_compile()). heuristics: the
	 * VIGIL_HEUR_* bits applied. When !generalised, object is the
	 * observed object itself, every byte literal, and examples[0] is it
	 * too. When generalised, '*' in object is the glob operator and no
	 * other metacharacter occurs, except in VIGIL_HEUR_RELATIVE objects
	 * ("**" then the observed name, literal): use glob to be exact.
	 */
	char *glob;
	unsigned int heuristics;
	char *why_mem;		/* storage of why (internal) */
	/*
	 * With vigil_rules_opts.check: blast: for a generalised rule, its
	 * blast radius ("3 more existing, e.g. /a, /b"), or for a literal
	 * rule a heuristic's glob that was refused and why. Else NULL.
	 */
	char *blast;
	/* Added by rules.c: the uids of the observations it covers. */
	struct vigil_uids uids;
	/*
	 * With vigil_rules_opts.check: a literal file rule on an object of
	 * the sensitive list: the pattern it matches (generate writes a
	 * "# sensitive:" line above it). Else NULL.
	 */
	char *sensitive;
	/* The records' pid when they all had one, else 0 (rules.c). */
	uint32_t pid;
	/*
	 * rules.c (internal): a name under a temporary folder whose number
	 * the temporary-name heuristic would keep literal: left to the
	 * names-that-vary heuristic first, the temporary one after it.
	 */
	bool temp_later;
	/*
	 * Per host (vigil_rules_opts.nodes): the hosts it was seen on, a
	 * bit per host of vigil_nodes (host_words words), and how many.
	 * Else NULL and 0.
	 */
	uint64_t *hosts;
	uint32_t host_words, nhosts;
};

/* Whether r was seen only under uids its subject never ran as. */
static inline bool vigil_rule_flagged(const struct vigil_rule *r)
{
	return r->uids.n && !r->uids.service;
}

/* The heuristics of rules.c, as bits of vigil_rule.heuristics. */
enum {
	VIGIL_HEUR_PROC = 1 << 0,	/* per-pid /proc: pid or self as a star */
	VIGIL_HEUR_TEMP = 1 << 1,	/* random-looking names in temp dirs */
	VIGIL_HEUR_LIBRARY = 1 << 2,	/* libfoo.so.1.2.3 as libfoo.so star */
	VIGIL_HEUR_SIBLINGS = 1 << 3,	/* >= 5 files of one folder: DIR star */
	VIGIL_HEUR_HOME = 1 << 4,	/* /home/NAME: the NAME as a star */
	/*
	 * A file/mount/module object that is not a path ("(memory)",
	 * "anon_inode:[x]"): written "**" then the name, also when strict.
	 */
	VIGIL_HEUR_RELATIVE = 1 << 5,
	/* names that differ between runs in a random-looking part */
	VIGIL_HEUR_RANDOM = 1 << 6,
	/* names that differ between runs in a number (rules_vary.c) */
	VIGIL_HEUR_NUMBER = 1 << 7,
	/* a number in the name that is the pid of the task using it */
	VIGIL_HEUR_PID = 1 << 8,
	/* a content-addressed store: DIR/HH/HASH as DIR/??/STAR */
	VIGIL_HEUR_STORE = 1 << 9,
	/*
	 * names that differ in a number (any length) the program made each
	 * of itself: rotations it does, counters (rules_vary.c)
	 */
	VIGIL_HEUR_MADE = 1 << 10,
	/*
	 * beneath a folder whose name varies between runs (a glob of the
	 * names-that-vary heuristics): the folder's glob in its path
	 */
	VIGIL_HEUR_BENEATH = 1 << 11,
	/* /dev/pts/N: a pseudo-terminal the kernel numbers at each open */
	VIGIL_HEUR_PTY = 1 << 12,
};

#define VIGIL_SIBLINGS_MIN 5

/* Every rule of one subject (an executable path). */
struct vigil_subject_rules {
	char *exe;
	uint64_t events;	/* accesses observed in all */
	int64_t first, last;
	struct vigil_rule *rules;
	size_t nrules;
	/* Executables this subject exec'd that are subjects here too. */
	char **children;
	size_t nchildren;
	/*
	 * The uids it ran as (sorted): the uids given to filter with
	 * (vigil_rules_opts.uids); else the root and system uids (not
	 * vigil_uid_is_user()) it was seen under; else the one it made
	 * the most accesses under (the lowest of a tie).
	 */
	uint32_t *service_uids;
	size_t nservice_uids;
	size_t flagged;		/* rules vigil_rule_flagged() */
	/*
	 * Exec-chain scoping (issue 13 §5). via: the block is "subject EXE
	 * via VIA": only what EXE did run under VIA (an exec ancestor; a
	 * literal path); NULL for a plain block. unscoped: a child (found
	 * by exec records) whose observations carry no via=, so its block
	 * holds what it did whoever ran it. chain: with
	 * vigil_rules_opts.by_via, the via= of its observations (NULL:
	 * none). line: the block's line in a candidate file (0: none),
	 * block: its index among the file's blocks; parent: with via, the
	 * index in the rule set of the block whose exe is via (set by
	 * vigil_ruleset_from_policy).
	 */
	char *via;
	bool unscoped;
	char *chain;
	unsigned int line, block;
	size_t parent;
	/*
	 * Per host (vigil_rules_opts.nodes): the hosts it was observed on;
	 * with min_hosts, the least number of them a rule needs (its
	 * threshold for this subject) and the rules seen on fewer,
	 * left out of rules.
	 */
	uint32_t nhosts, min_hosts;
	struct vigil_rule *left_out;
	size_t nleft_out;
};

struct vigil_ruleset {
	struct vigil_subject_rules *subjects;
	size_t nsubjects;
	int64_t first, last;	/* the observation window */
	uint64_t records;	/* records the rules were made from */
	/* Added by rules.c. */
	int64_t snapshot;	/* id of the kernel snapshot merged, or 0 */
	uint64_t snapshot_tuples;	/* its tuples used */
	uint64_t tuples;	/* distinct observed tuples used */
	uint64_t skipped;	/* observed tuples no rule can express */
	uint64_t flagged;	/* rules flagged, all subjects */
	/* generate: a header line saying what the rules were made from */
	const char *made_from;
	/* Per host: the hosts (names by bit), how many were selected. */
	const struct vigil_nodes *nodes;
	size_t nhosts;
	/*
	 * generate --uid: the uid classes of those uids (VIGIL_POLICY_UCLASS_*
	 * bits), written on every block ("uid CLASSES"); 0: every class.
	 */
	unsigned int uclasses;
};

/*
 * Build the rules of the subjects named (all when nsubjects is 0) from the
 * database. strict: one literal rule per observed object, no heuristic.
 * Deterministic: subjects sorted by exe, rules by class then object.
 * Return: 0, -ENOENT (a named subject was never observed), -EIO, -ENOMEM.
 */
int vigil_rules_load(struct vigil_store *s, char *const *subjects,
		     size_t nsubjects, bool strict, struct vigil_ruleset *ret);

/* How generate makes rules (vigil_rules_load: strict or not, all else 0). */
struct vigil_rules_opts {
	bool strict;		/* one literal rule per object */
	/*
	 * Leave out would-deny records and snapshot tuples (what a trial's
	 * policy lacked): generate's default. vigil_rules_load keeps them
	 * (diff, evidence: they are accesses the program made).
	 */
	bool no_would_deny;
	int64_t since_ms, until_ms;	/* record times; 0: unbounded */
	/*
	 * Check every glob a heuristic makes against the file system under
	 * root ("/" when NULL): it must not admit a sensitive object that was
	 * not observed (built-in list plus sensitive_file's globs), and the
	 * existing objects it admits beyond those observed (its blast radius)
	 * must stay within the bound unless broad. See docs/generate.md.
	 */
	bool check;
	const char *root;
	const char *sensitive_file;	/* NULL: none */
	bool broad;
	/*
	 * Whose observations: 0 the initial mount namespace's, another id
	 * (mntns= of the records) that namespace's, -1 all of them.
	 */
	int64_t mntns;
	/*
	 * With mntns > 0: that namespace of the number, by its unique id
	 * (mntnsid=); unset, the number must have named one namespace only
	 * (a dead namespace's number is given to the next one).
	 */
	bool mntnsid_set;
	uint64_t mntnsid;
	/*
	 * Also the abstract unix names of other network namespaces than the
	 * initial one (netns=): not the host's names, left out without it.
	 */
	bool netns_all;
	/* Only the observations under these uids (sorted); none: all. */
	const uint32_t *uids;
	size_t nuids;
	/*
	 * Exec chains (via=, issue 13 §5). via: only the observations of
	 * tasks with that exec ancestor, the ancestor's own left out; the
	 * subjects get sr->via. via_none: only observations without via=.
	 * by_via: one subject per (exe, via chain), sr->chain (diff).
	 * missing_ok: a named subject never observed is no error.
	 */
	const char *via;
	bool via_none, by_via, missing_ok;
	/*
	 * Hosts (issue 28). nodes: count per rule the selected hosts it
	 * was seen on (NULL: not per host). min_hosts: leave out the rules
	 * seen on fewer hosts than min_hosts, or, with min_hosts_pct, than
	 * that percentage of the hosts the subject was observed on
	 * (rounded up); they go to the subject's left_out.
	 */
	const struct vigil_nodes *nodes;
	unsigned int min_hosts;
	bool min_hosts_pct;
};
/*
 * generate --children: the named subjects' rules (all they did), then,
 * for each, the executables that ran under it (their via= names it, at
 * any depth), each a block "via" it with only what it did there, and
 * the children that exec records name but whose records carry no via=
 * (a kernel before exec-chain scoping), each a plain block marked
 * unscoped with what it did without via=. Subjects sorted by exe, the
 * via blocks of an exe before its plain block. *ret_scoped and
 * *ret_unscoped count those blocks. Errors as vigil_rules_load_opts.
 */
int vigil_rules_load_children(struct vigil_store *s, char *const *subjects,
			      size_t nsubjects,
			      const struct vigil_rules_opts *o,
			      struct vigil_ruleset *ret, size_t *ret_scoped,
			      size_t *ret_unscoped, char *err,
			      size_t err_size);
/*
 * The same with options. -EINVAL: sensitive_file has a bad glob (err
 * says which line), -ENODATA (a named subject none of whose
 * observations passes the filters: err says "no matches"),
 * -ENOENT/-EIO/-ENOMEM as above.
 */
int vigil_rules_load_opts(struct vigil_store *s, char *const *subjects,
			  size_t nsubjects, const struct vigil_rules_opts *o,
			  struct vigil_ruleset *ret, char *err,
			  size_t err_size);
/*
 * The random-name heuristic's pattern of a file path: each part of its
 * last component (between '.' and '-') that may be random as as many
 * '?' ("state.Ab3dE9" -> "state.??????"); NULL when none (or no memory:
 * *rc = -ENOMEM). generate folds names of one pattern that are each
 * other's vigil_random_variant() into one rule.
 */
char *vigil_random_pattern(const char *obj, int *rc);
/* Whether a and b (both of pattern pat) differ in at least half of its
 * '?' bytes: names made anew by each run, not "python2" and "python3". */
bool vigil_random_variant(const char *pat, const char *a, const char *b);
void vigil_ruleset_free(struct vigil_ruleset *rs);

#endif /* VIGIL_ANALYZER_RULES_H */
