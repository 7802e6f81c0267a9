/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: distinct strings numbered in the order first seen, and
 * sets of integer pairs. What a one-pass aggregation (vigil report) needs
 * instead of SQL GROUP BY / count(DISTINCT), which sort.
 */
#ifndef VIGIL_ANALYZER_INTERN_H
#define VIGIL_ANALYZER_INTERN_H

#include <stddef.h>
#include <stdint.h>

struct strtab_block;
struct strtab_slot;

/* Strings, each stored once (NUL-terminated, in blocks of the table's
 * own) and numbered 0, 1, 2, ...: names[id] stays valid until
 * strtab_free. Zero-initialise before use. */
struct strtab {
	char **names;
	struct strtab_slot *slots;	/* open addressing, name NULL: empty;
					 * table_alloc'ed */
	size_t n, cap, nslots;
	struct strtab_block *blocks;
	char *next;			/* free space in blocks */
	size_t left;
};

/* The id of s[0..len) (no NUL inside), added if new: 1 when added, 0 when
 * it was there, -ENOMEM (nothing added). */
int strtab_intern(struct strtab *t, const char *s, size_t len, uint32_t *id);
/* The id of s, or -1 when absent. */
long long strtab_find(const struct strtab *t, const char *s, size_t len);
void strtab_free(struct strtab *t);

/*
 * Zeroed memory for large tables: from 2 MiB an anonymous mapping with
 * transparent huge pages asked for (a table filled at random otherwise
 * takes a page fault and a TLB miss per 4 KiB); calloc below. Free with
 * table_free and the same size.
 */
void *table_alloc(size_t size);
void table_free(void *p, size_t size);

/* A set of (a, b) pairs of 64-bit integers, b never 0. Zero-initialise. */
struct pairset {
	uint64_t (*slots)[2];		/* table_alloc'ed */
	size_t n, nslots;
};

/* 1 when (a, b) was added, 0 when it was there, -EINVAL for b == 0,
 * -ENOMEM (nothing added). */
int pairset_add(struct pairset *s, uint64_t a, uint64_t b);
void pairset_free(struct pairset *s);

#endif
