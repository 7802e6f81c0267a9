/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil: the limits of the kernel side, in one place (docs/kernel.md,
 * "Limits"). The policy parser's and glob matcher's limits are shared
 * with the analyzer and stay in policy.h and match.h; what one person may
 * take of a shared pool is in bounds.h.
 */
#ifndef _SECURITY_VIGIL_VIGIL_LIMITS_H
#define _SECURITY_VIGIL_VIGIL_LIMITS_H

/*
 * Table memory in KiB: vigil.table_kb= and the table_kb file. Counted in
 * slab bytes (a tuple takes its kmalloc bucket); 8 MiB holds a busy
 * service's start (PostgreSQL's initdb and first start: ~2,900 held-back
 * tuples of 256-512 bytes) within one person's quarter.
 */
#define VIGIL_TABLE_KB_DEFAULT 8192
#define VIGIL_TABLE_KB_MIN 16
#define VIGIL_TABLE_KB_MAX (1024 * 1024)
/* Its hash buckets, sized at boot: 2^MIN..2^MAX, one per 256 bytes. */
#define VIGIL_TABLE_HASH_BITS_MIN 10
#define VIGIL_TABLE_HASH_BITS_MAX 20

/*
 * Subjects unprivileged execs may create (vigil.max_subjects=), and of
 * them one person at most 1/VIGIL_SUBJECTS_SHARE_DIV, at least
 * VIGIL_SUBJECTS_SHARE_MIN.
 */
#define VIGIL_MAX_SUBJECTS_DEFAULT 4096
#define VIGIL_MAX_SUBJECTS_MIN 16
#define VIGIL_MAX_SUBJECTS_MAX 65536
#define VIGIL_SUBJECTS_SHARE_DIV 8
#define VIGIL_SUBJECTS_SHARE_MIN 16

/* Per subject: the tuples its repeated compact accesses hit last. */
#define VIGIL_FAST_SLOTS 16

/*
 * Exec chains ("via"): at most VIGIL_VIA_ELEMS elements and VIGIL_VIA_MAX
 * bytes, the nearest ancestors kept.
 */
#define VIGIL_VIA_ELEMS 8
#define VIGIL_VIA_MAX 1024

/* Subordinate uid ranges in the owners file. */
#define VIGIL_OWNERS_MAX 4096

/* Accounts of unprivileged persons in the table; past it they share one. */
#define VIGIL_UIDS_MAX 1024
/* Records one unprivileged person may emit: a burst, then so many a second. */
#define VIGIL_UID_BURST 1000
#define VIGIL_UID_RATE 100
/* Records all unprivileged persons together may emit (bounds.h applies). */
#define VIGIL_UNPRIV_BURST 2000
#define VIGIL_UNPRIV_RATE 200
/* Held-back tuples recorded by one pass of the release work, at most. */
#define VIGIL_RELEASE_BATCH 64

/*
 * Longest exe and object written into a record, and the most bytes of
 * exe, via and object together: audit's hex encoding doubles them, so
 * they plus the other fields stay below the audit message limit
 * (MAX_AUDIT_MESSAGE_LENGTH, 8970).
 */
#define VIGIL_AUDIT_STR_MAX 2048
#define VIGIL_AUDIT_STR_BUDGET 4096

/*
 * Each CPU's buffer a name is resolved in (path.c): a path of PATH_MAX
 * bytes and a prefix before it ("unix:stream:").
 */
#define VIGIL_SCRATCH_PREFIX 32
#define VIGIL_SCRATCH_SIZE (VIGIL_SCRATCH_PREFIX + PATH_MAX)

#endif /* _SECURITY_VIGIL_VIGIL_LIMITS_H */
