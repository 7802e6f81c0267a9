// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: string interning and pair sets (see intern.h). Open
 * addressing with linear probing, tables kept at most half full, sizes
 * powers of two. The hash is seeded per process so a crafted log cannot
 * choose collisions in advance.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>

#include "intern.h"
#include "util.h"

#define BLOCK_SIZE (1u << 20)
#define HUGE_SIZE (2u << 20)

struct strtab_block {
	struct strtab_block *next;
	char data[];
};

/* A lookup touches the slot and the stored string (its id just before
 * it): two cache lines, whatever the table's size. */
struct strtab_slot {
	uint64_t hash;
	char *name;
};

static uint64_t seed;

void *table_alloc(size_t size)
{
	void *p;

	if (size < HUGE_SIZE)
		return calloc(1, size);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, size, MADV_HUGEPAGE);	/* a hint: may be refused */
	return p;
}

void table_free(void *p, size_t size)
{
	if (!p)
		return;
	if (size < HUGE_SIZE)
		free(p);
	else
		munmap(p, size);
}

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

static uint64_t hash_seed(void)
{
	if (!seed && getrandom(&seed, sizeof(seed), GRND_NONBLOCK) !=
	    sizeof(seed))
		seed = (uintptr_t)&seed ^ 0x9e3779b97f4a7c15ULL;
	return seed | 1;
}

/* Eight bytes at a time: cheaper than a byte loop on long paths. */
static uint64_t str_hash(const char *s, size_t len)
{
	uint64_t h = hash_seed() ^ (len * 0x9e3779b97f4a7c15ULL), v;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&v, s, 8);
		h = (h ^ v) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	v = 0;
	memcpy(&v, s, len);
	return mix(h ^ v);
}

/* The string, preceded by its id (4 bytes, aligned). */
static char *store_str(struct strtab *t, const char *s, size_t len,
		       uint32_t id)
{
	size_t need = (sizeof(id) + len + 1 + 3) & ~(size_t)3;
	char *p;

	if (need > t->left) {
		size_t size = need > BLOCK_SIZE ? need : BLOCK_SIZE;
		struct strtab_block *b = malloc(sizeof(*b) + size);

		if (!b)
			return NULL;
		b->next = t->blocks;
		t->blocks = b;
		t->next = b->data;
		t->left = size;
	}
	p = t->next;
	memcpy(p, &id, sizeof(id));
	p += sizeof(id);
	memcpy(p, s, len);
	p[len] = '\0';
	t->next += need;
	t->left -= need;
	return p;
}

static uint32_t stored_id(const char *name)
{
	uint32_t id;

	memcpy(&id, name - sizeof(id), sizeof(id));
	return id;
}

static int strtab_grow(struct strtab *t)
{
	size_t nslots = t->nslots ? 2 * t->nslots : 64, i, j;
	struct strtab_slot *slots = table_alloc(nslots * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < t->nslots; i++) {
		if (!t->slots[i].name)
			continue;
		for (j = t->slots[i].hash & (nslots - 1); slots[j].name;
		     j = (j + 1) & (nslots - 1))
			;
		slots[j] = t->slots[i];
	}
	table_free(t->slots, t->nslots * sizeof(*slots));
	t->slots = slots;
	t->nslots = nslots;
	return 0;
}

/* The slot holding s, or the empty slot where it would go. */
static struct strtab_slot *lookup(const struct strtab *t, const char *s,
				  size_t len, uint64_t h)
{
	size_t j;

	for (j = h & (t->nslots - 1); t->slots[j].name;
	     j = (j + 1) & (t->nslots - 1))
		if (t->slots[j].hash == h &&
		    !strncmp(t->slots[j].name, s, len) &&
		    !t->slots[j].name[len])
			break;
	return &t->slots[j];
}

long long strtab_find(const struct strtab *t, const char *s, size_t len)
{
	const struct strtab_slot *slot;

	if (!t->nslots)
		return -1;
	slot = lookup(t, s, len, str_hash(s, len));
	return slot->name ? (long long)stored_id(slot->name) : -1;
}

int strtab_intern(struct strtab *t, const char *s, size_t len, uint32_t *id)
{
	uint64_t h = str_hash(s, len);
	struct strtab_slot *slot;

	if (t->nslots) {
		slot = lookup(t, s, len, h);
		if (slot->name) {
			*id = stored_id(slot->name);
			return 0;
		}
	}
	if (t->n >= UINT32_MAX - 1)
		return -ENOMEM;
	if (grow_array((void **)&t->names, &t->cap, t->n + 1,
		       sizeof(*t->names)))
		return -ENOMEM;
	if (2 * (t->n + 1) > t->nslots && strtab_grow(t))
		return -ENOMEM;
	slot = lookup(t, s, len, h);
	slot->name = store_str(t, s, len, (uint32_t)t->n);
	if (!slot->name)
		return -ENOMEM;
	slot->hash = h;
	t->names[t->n] = slot->name;
	*id = (uint32_t)t->n++;
	return 1;
}

void strtab_free(struct strtab *t)
{
	struct strtab_block *b, *next;

	for (b = t->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	free(t->names);
	table_free(t->slots, t->nslots * sizeof(*t->slots));
	memset(t, 0, sizeof(*t));
}

static size_t pair_slot(uint64_t a, uint64_t b, size_t nslots)
{
	return mix(a ^ hash_seed() ^ mix(b)) & (nslots - 1);
}

static int pairset_grow(struct pairset *s)
{
	size_t nslots = s->nslots ? 2 * s->nslots : 64, i, j;
	uint64_t (*slots)[2] = table_alloc(nslots * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < s->nslots; i++) {
		if (!s->slots[i][1])
			continue;
		for (j = pair_slot(s->slots[i][0], s->slots[i][1], nslots);
		     slots[j][1]; j = (j + 1) & (nslots - 1))
			;
		slots[j][0] = s->slots[i][0];
		slots[j][1] = s->slots[i][1];
	}
	table_free(s->slots, s->nslots * sizeof(*slots));
	s->slots = slots;
	s->nslots = nslots;
	return 0;
}

int pairset_add(struct pairset *s, uint64_t a, uint64_t b)
{
	size_t j;

	if (!b)
		return -EINVAL;
	if (2 * (s->n + 1) > s->nslots && pairset_grow(s))
		return -ENOMEM;
	for (j = pair_slot(a, b, s->nslots); s->slots[j][1];
	     j = (j + 1) & (s->nslots - 1))
		if (s->slots[j][0] == a && s->slots[j][1] == b)
			return 0;
	s->slots[j][0] = a;
	s->slots[j][1] = b;
	s->n++;
	return 1;
}

void pairset_free(struct pairset *s)
{
	table_free(s->slots, s->nslots * sizeof(*s->slots));
	memset(s, 0, sizeof(*s));
}
