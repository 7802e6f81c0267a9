/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil analyzer: record.c: audit records as vigil sees them (no logging
 * here). */
#ifndef VIGIL_ANALYZER_RECORD_H
#define VIGIL_ANALYZER_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <auparse.h>

#include "intern.h"

enum rec_kind {
	REC_CONTEXT,	/* any other: SYSCALL, PATH, unknown types... */
	REC_VIGIL,
	REC_APPARMOR,
	REC_SELINUX,
	REC_LANDLOCK,
	REC_FOREIGN_OTHER,	/* other MAC records (AVC, USER_AVC, MAC_*) */
};
extern const char *const rec_kind_names[];

struct vigil_record {
	uint64_t seq;
	uint32_t uid;
	int32_t pid;
	const char *verdict, *op, *access;	/* never NULL once parsed */
	const char *exe, *path, *target, *comm;	/* NULL when "?" */
	/* path for file ops (target if path is ?), else target */
	const char *object;
	const char *extra;	/* op-specific fields, "k=v k=v", maybe "" */
	uint32_t mntns;		/* mntns=, 0 when absent (initial namespace) */
	/* mntnsid=: that namespace's unique id (its number may be a dead
	 * namespace's too); 0 when absent (an older kernel) */
	uint64_t mntnsid;
	/* netns=: the network namespace of an abstract unix name, when not
	 * the initial one (its cookie); 0 when absent */
	uint64_t netns;
	/* via=: the exec ancestors' exes, root-most first, "//" between
	 * them (docs/record-format.md); NULL when absent */
	const char *via;
	/* uclass=: "root", "system" or "user"; NULL when absent (a kernel
	 * whose tuples were not keyed by uid) */
	const char *uclass;
	char *mem;		/* owns the decoded strings */
	size_t cap, used;
};

/* The record's type number, also for names auparse does not know. */
int vigil_record_type(auparse_state_t *au);
/* Classify the current record of au. */
enum rec_kind vigil_record_kind(auparse_state_t *au);
/*
 * Parse the current record of au (of kind REC_VIGIL) into r, reusing
 * r->mem. Return: 0, -EINVAL (malformed; *ret_reason says why), -ENOMEM.
 */
int vigil_record_parse(auparse_state_t *au, struct vigil_record *r,
		       const char **ret_reason);
void vigil_record_free(struct vigil_record *r);
/*
 * Decode an audit string value: "quoted", HEX, or ? (NULL). Writes into
 * out (at least strlen(val) + 1 bytes). Return 0, 1 for "?", -EINVAL.
 */
int audit_value_decode(const char *val, char *out);
/* The value of field key in the text of an audit record (key="..." or
 * key=HEX, decoded for name, profile and peer), malloc'd; NULL when
 * absent. */
char *audit_field(const char *text, const char *key);
/*
 * Is an AppArmor record's profile the program exe's own, or one of its
 * children's (PROFILE//CHILD)? Its own: named by its path (profile
 * "/usr/bin/x" or a path-named profile), or by the name vigil's AppArmor
 * export gives it (aa_profile_name). What report and diff keep.
 */
bool aa_profile_of(const char *prof, const char *exe);
/*
 * The name vigil's AppArmor export gives the profile of exe (malloc'd,
 * NULL: out of memory): the path without its leading '/', each '/' as
 * '.', each byte but [A-Za-z0-9._+-] as '_', a first character that is
 * not a letter or digit as 'x' ("/tmp/x/y" -> "tmp.x.y").
 */
char *aa_profile_name(const char *exe);
/* The fields of an AppArmor record that say what it was about (each
 * malloc'd, NULL when absent): what trial, report and diff show. info:
 * AppArmor's note ("optional: no audit": see aa_optional()). */
struct aa_fields {
	char *verdict, *profile, *op, *name, *cap, *family, *mask, *info;
	char *sock_type, *signal, *peer;	/* network, signal, ptrace */
};
/*
 * Whether the record is of a check the kernel made without auditing
 * (CAP_OPT_NOAUDIT, e.g. ns_capable_noaudit() in net_ctl_permissions()
 * on each open of /proc/sys/net/...): AppArmor logs it only in complain
 * mode, as ALLOWED with info="optional: no audit"; enforced, it denies it
 * with no record and the kernel takes its fallback. vigil honours
 * CAP_OPT_NOAUDIT as AppArmor's enforce mode does: it records none.
 */
bool aa_optional(const struct aa_fields *f);
/* What trial --report, report and diff print above the optional checks
 * they list apart (docs/export.md, "Optional checks"). */
extern const char aa_optional_heading[];
void aa_fields_parse(struct aa_fields *f, const char *text);
void aa_fields_free(struct aa_fields *f);
/* The record's object: name, else capname, else family; NULL if none. */
const char *aa_fields_object(const struct aa_fields *f);
/*
 * AppArmor's records counted as report and diff show them: ALLOWED
 * (complain mode: would have denied) and DENIED, and each distinct
 * "VERDICT\tPROFILE\tOPERATION\tOBJECT\tMASK" (OBJECT: name, else
 * capname, else family, else ?) in keys, its count by id. An optional
 * check (aa_optional(): ALLOWED, but no would-be denial) is counted in
 * optional, not allowed, under the VERDICT "optional" (aa_tally_optional).
 */
struct aa_tally {
	struct strtab keys;
	long long *count;
	size_t cap;
	long long allowed, denied, optional;
};
/* Whether key id of t is an optional check's: listed apart. */
bool aa_tally_optional(const struct aa_tally *t, size_t id);
/* Count one record (its text) when it has a verdict and a profile that
 * keep(ctx, profile) accepts: 0 or -ENOMEM. */
int aa_tally_add(struct aa_tally *t, const char *text,
		 bool (*keep)(void *ctx, const char *profile), void *ctx);
void aa_tally_free(struct aa_tally *t);
/*
 * Whether via (a decoded via= value or the learned table's column) has
 * the grammar of docs/record-format.md: elements joined by "/", each a
 * path starting with '/', at most VIGIL_VIA_MAX_ELEMENTS and
 * VIGIL_VIA_MAX_BYTES, "?" only as the first, no element twice in a
 * row. false with *why set when not.
 */
#define VIGIL_VIA_MAX_ELEMENTS 8
#define VIGIL_VIA_MAX_BYTES 1024
bool vigil_via_valid(const char *via, const char **why);
/*
 * The elements of a valid via (pointers into it) into chain[0..max): how
 * many (0 for NULL or ""). "?" is left out: it names no program.
 */
struct vigil_policy_name;
unsigned int vigil_via_chain(const char *via, struct vigil_policy_name *chain,
			     unsigned int max);
/* Whether one of the elements of via is exe (exactly). */
bool vigil_via_has(const char *via, const char *exe);
/* Is op a file-class op (object is path=)? */
bool vigil_op_is_file(const char *op);

#endif /* VIGIL_ANALYZER_RECORD_H */
