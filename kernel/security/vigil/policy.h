/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil: the policy language: parser, canonical dump and evaluation.
 * Shared by the kernel and the analyzer (compiled unchanged in both).
 * The language is described in docs/policy-language.md.
 */
#ifndef _SECURITY_VIGIL_POLICY_H
#define _SECURITY_VIGIL_POLICY_H

#include "policy_env.h"
#include "ops.h"
#include "match.h"

/* Limits; the glob limits are in match.h. */
#define VIGIL_POLICY_MAX_BYTES (1024 * 1024)	/* text; -E2BIG beyond */
#define VIGIL_POLICY_MAX_LINE 4096		/* bytes, without "\r\n" */
#define VIGIL_POLICY_MAX_SUBJECTS 1024
#define VIGIL_POLICY_MAX_RULES 16384		/* in all blocks together */
/* Bytes of compiled globs. */
#define VIGIL_POLICY_MAX_MEMORY (32 * 1024 * 1024)

/* Subject modes; the values of enum vigil_mode (vigil.h). */
#define VIGIL_POLICY_MODE_UNSET (-1)
#define VIGIL_POLICY_MODE_OFF 0
#define VIGIL_POLICY_MODE_LEARN 1
#define VIGIL_POLICY_MODE_OBSERVE 2

/*
 * Uid classes a block judges ("uid root,system"), a bit each in the
 * order of enum vigil_uclass: the class of the uid an access is made
 * under, as the kernel keys its tuples (docs/record-format.md).
 */
#define VIGIL_POLICY_UCLASS_ROOT 0x1
#define VIGIL_POLICY_UCLASS_SYSTEM 0x2
#define VIGIL_POLICY_UCLASS_USER 0x4
#define VIGIL_POLICY_UCLASS_ALL 0x7

struct vigil_policy;
struct vigil_policy_subject;

/*
 * Why a policy was rejected: line is 1-based (0 when the error is not on a
 * line: -E2BIG, -ENOMEM), msg names the problem and the token, without the
 * line ("unknown class 'fiel'"). Report it as "line %u: %s".
 */
struct vigil_policy_error {
	unsigned int line;
	char msg[160];
};

/*
 * Parse text[0..len). Return: 0 and *ret_policy set; -EINVAL with err
 * filled; -E2BIG when len > VIGIL_POLICY_MAX_BYTES; -ENOMEM. err may be
 * NULL. Allocates with GFP_KERNEL (may sleep).
 */
int vigil_policy_parse(const char *text, size_t len,
		       struct vigil_policy **ret_policy,
		       struct vigil_policy_error *err);
/* NULL is fine. Does not sleep: may run from an RCU callback. */
void vigil_policy_free(struct vigil_policy *policy);
/*
 * Write the canonical form with snprintf() semantics: at most size bytes
 * including the NUL; returns the length of the whole dump.
 */
size_t vigil_policy_dump(const struct vigil_policy *policy, char *buf,
			 size_t size);

/* A name and its length (not NUL-terminated). */
struct vigil_policy_name {
	const char *s;
	size_t len;
};

/*
 * The first subject block whose glob matches exe[0..len), that judges one
 * of the uid classes @uclasses (VIGIL_POLICY_UCLASS_* bits: the kernel
 * passes the one of the access's uid) and, for a block with "via GLOB",
 * one of the task's exec ancestors chain[0..nr_chain) matches that glob;
 * NULL when none does ("not named"). chain may be NULL when nr_chain is
 * 0: then no via block matches. Does not allocate; atomic-safe.
 */
const struct vigil_policy_subject *
vigil_policy_find_subject(const struct vigil_policy *policy, const char *exe,
			  size_t len, const struct vigil_policy_name *chain,
			  unsigned int nr_chain, unsigned int uclasses);
/* VIGIL_POLICY_MODE_UNSET, or the VIGIL_POLICY_MODE_* the block sets. */
int vigil_policy_subject_mode(const struct vigil_policy_subject *subject);
/*
 * Whether the block allows all of access (bits of class) on
 * object[0..len): the access bits of the rules of that class whose glob
 * matches the object, OR-ed, must cover access (file w also grants a).
 * Does not allocate; atomic-safe. Only the rules the block's index finds
 * for the object are matched (those keyed by the object or by one of its
 * prefixes ending at a '/', and those without a key), so the cost grows
 * with the object's length and its rules, not with the block's size.
 */
bool vigil_policy_allows(const struct vigil_policy_subject *subject,
			 enum vigil_class class, u64 access,
			 const char *object, size_t len);
/*
 * The same verdict reached by trying every rule of the class in order,
 * without the block's index: the reference the tests and the benchmark
 * compare vigil_policy_allows() with.
 */
bool vigil_policy_allows_linear(const struct vigil_policy_subject *subject,
				enum vigil_class class, u64 access,
				const char *object, size_t len);

unsigned int vigil_policy_nr_subjects(const struct vigil_policy *policy);
unsigned int vigil_policy_nr_rules(const struct vigil_policy *policy);
/* Whether any subject block sets its own mode. */
bool vigil_policy_has_modes(const struct vigil_policy *policy);

/*
 * Walking a parsed policy (the analyzer's exporters translate it): the
 * i-th block in file order (NULL past the end), its subject and via globs, and the
 * i-th rule of a class (in file order within the class; NULL past the
 * end) with its access in *ret_access.
 */
const struct vigil_policy_subject *
vigil_policy_subject_at(const struct vigil_policy *policy, unsigned int i);
const struct vigil_glob *
vigil_policy_subject_glob(const struct vigil_policy_subject *subject);
/* The place of a block of @policy in file order (subject_at()'s @i). */
unsigned int vigil_policy_subject_index(const struct vigil_policy *policy,
					const struct vigil_policy_subject *s);
/* The block's via glob (an ancestor it must run under), or NULL. */
const struct vigil_glob *
vigil_policy_subject_via(const struct vigil_policy_subject *subject);
/* The uid classes it judges: VIGIL_POLICY_UCLASS_ALL without "uid". */
unsigned int
vigil_policy_subject_uclasses(const struct vigil_policy_subject *subject);
unsigned int vigil_policy_class_nr_rules(const struct vigil_policy_subject *s,
					 enum vigil_class class);
const struct vigil_glob *
vigil_policy_rule_at(const struct vigil_policy_subject *s,
		     enum vigil_class class, unsigned int i, u64 *ret_access);

#endif /* _SECURITY_VIGIL_POLICY_H */
