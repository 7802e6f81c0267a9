/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil: the aggregation table (table.c) and the fast path's cache of its tuples. */
#ifndef _SECURITY_VIGIL_TABLE_H
#define _SECURITY_VIGIL_TABLE_H

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include "vigil_limits.h"
#include "subject.h"
#include "vigil.h"

/* table.c: the bounded aggregation table of distinct tuples. */
struct vigil_key {
	struct vigil_subject *subj;	/* a reference, in the table */
	/*
	 * A file: its inode's id, its parent directory's id, the mount and
	 * a keyed hash of its name; a name in a directory: the directory's
	 * id, 0, the mount and the name's hash. Other objects: compared by
	 * their string (by_name), obj_a an executable memfd's creator's
	 * subject id + 1, obj_b an abstract unix name's network namespace
	 * (vigil_entry_netns()), else 0.
	 */
	u64 obj_a;
	u64 obj_b;
	u64 obj_c;
	const void *mnt;
	/* The name, compared with the end of the object; never stored. */
	const unsigned char *name;
	u32 namelen;
	u64 access;
	u32 gen;	/* policy generation in observe mode, else 0 */
	u16 op;
	u8 by_name;	/* object compared by its string */
	u8 nsx;		/* the task was not in the initial mount namespace */
	u32 uid_key;	/* vigil_uid_key() of the task's real uid */
	/*
	 * A file's: the newest move of a folder above it (access.c:
	 * path_moved()), so that no tuple made through a folder's old path
	 * is found through its new one.
	 */
	u64 moved;
	/*
	 * The access's compact key (vigil_access.fast), or for a file the
	 * cache key of its dentry, mount, op and access, or 0; not compared.
	 */
	u64 fast;
};

/*
 * What one unprivileged person (a uid, or the owner of a subordinate
 * range: person.c) holds in the table and may still record: its tuples
 * are at most a quarter of the table (it evicts its own first), its pins
 * are bounded with everyone's (bounds.h), and its records are rate
 * limited (a token bucket, within one for all persons together); a first
 * sighting over the rate is kept in the table, pinned, and recorded later
 * as the rate allows ("held back", then "released").
 */
struct vigil_uid_share {
	struct hlist_node node;
	struct list_head fifo;	/* its tuples not pinned, oldest first */
	struct list_head held_list;	/* held back, not yet recorded */
	kuid_t uid;		/* INVALID_UID: the persons past VIGIL_UIDS_MAX */
	size_t bytes;
	size_t pinned_bytes;
	unsigned int nr;
	unsigned int tokens;
	unsigned long stamp;	/* jiffies of the last refill */
	u64 held;		/* first sightings not recorded: over its rate */
	u64 released;		/* of them, recorded later */
	u64 dropped;		/* not even kept: no room nor pin left */
};

#define VIGIL_UID_HASH_BITS 6

struct vigil_entry {
	struct hlist_node hnode;
	struct list_head fifo;		/* every tuple: the learned file's order */
	struct list_head evict;		/* in t->evictable while not pinned */
	struct list_head ufifo;		/* in its uid's share, while not pinned */
	struct vigil_uid_share *share;
	struct rcu_head rcu;
	struct vigil_key key;
	u32 hash;
	u32 size;
	u64 seq;
	u8 verdict;
	atomic64_t count;
	time64_t first;
	unsigned long last;	/* jiffies: vigil_entry_last() in seconds */
	kuid_t uid;
	u32 mntns;	/* 0, or the mount namespace its path was named in */
	u64 mntns_id;	/* and that namespace's unique id, or 0 */
	u16 namelen;	/* the key's name ends obj (0: not comparable) */
	/* Its record was not delivered: kept until the learned file shows it. */
	bool pinned;
	bool held;	/* held back: in its share's held_list, unless releasing */
	bool releasing;	/* its record is being written by the release work */
	bool dead;	/* unlinked: no fast path may count it */
	/*
	 * A file's: the folder moves and mount changes (access.c:
	 * file_stamp()) when its key's moved number was last found right,
	 * or 0; the file fast path counts it only while they are the same.
	 */
	u64 stamp;
	u16 objlen;
	char obj[];
};

/* The network namespace cookie of a tuple's abstract unix name, or 0. */
static inline u64 vigil_entry_netns(const struct vigil_entry *e)
{
	return e->key.by_name ? e->key.obj_b : 0;
}

/*
 * A reader's place in the table's fifo (the learned file): an entry of
 * size 0, never in a bucket nor in a uid's list, stepped over by every
 * walk of the fifo. It stays where the reader stopped while tuples around
 * it are evicted or added, so a read resumes in O(1), and never skips or
 * repeats a tuple.
 */
static inline bool vigil_entry_is_cursor(const struct vigil_entry *e)
{
	return !e->size;
}

struct vigil_table {
	spinlock_t lock;	/* writers: insert, evict, flush */
	struct hlist_head *buckets;
	unsigned int bits;
	struct list_head fifo;	/* every tuple, oldest first */
	struct list_head evictable;	/* those not pinned, oldest first */
	size_t bytes;
	size_t max_bytes;
	unsigned int nr;
	size_t pinned_bytes;	/* at most max_bytes / 2 */
	unsigned int nr_pinned;
	u64 seq;		/* last sequence number given out */
	atomic64_t evictions;
	u64 full;		/* inserts refused: nothing could be evicted */
	u64 pin_refused;	/* lost records whose tuple found no pin left */
	size_t upinned_bytes;	/* of pinned_bytes, unprivileged persons' */
	unsigned int nr_held;	/* held back, waiting to be released */
	u64 released;		/* held back, then recorded */
	unsigned int tokens;	/* unprivileged persons' records together */
	unsigned long stamp;
	unsigned long swept;	/* jiffies of the last sweep of empty shares */
	u64 reclaimed;		/* empty shares freed */
	u64 dropped;		/* unprivileged first sightings not even kept */
	struct hlist_head uids[1 << VIGIL_UID_HASH_BITS];
	unsigned int nr_uids;
	struct vigil_uid_share *other;
};

extern struct vigil_table vigil_table;
extern unsigned long vigil_table_kb;
int vigil_table_init(struct vigil_table *t, unsigned int bits,
		     size_t max_bytes);
void vigil_table_destroy(struct vigil_table *t);
u32 vigil_key_hash(const struct vigil_key *key, const char *obj, size_t len);
int vigil_table_hit(struct vigil_table *t, const struct vigil_key *key,
		    u32 hash, const char *obj, size_t len,
		    struct vigil_entry **ret_e);
int vigil_table_insert(struct vigil_table *t, const struct vigil_key *key,
		       u32 hash, const char *obj, size_t len, kuid_t uid,
		       u32 mntns, u64 mntns_id, enum vigil_verdict verdict,
		       u64 *ret_seq, bool *ret_held, struct vigil_entry **ret_e);
void vigil_fast_remember(struct vigil_entry *e);
time64_t vigil_entry_last(const struct vigil_entry *e);

/*
 * The fast path's helpers are inline: under emulation (and for the branch
 * predictor) every call and return of a hook's repeat costs.
 */
static inline struct vigil_entry **vigil_fast_slot(struct vigil_subject *s,
						   u64 fast)
{
	return &s->fast[hash_64(fast, ilog2(VIGIL_FAST_SLOTS))];
}

#define VIGIL_FAST_MASK ((u64)VIGIL_FAST_SLOTS - 1)

/*
 * The slot of any key: a file's cache key (VIGIL_FAST_FILE) says its slot
 * in its low bits (access.c: file_fast_key()), a compact key is hashed.
 */
static inline struct vigil_entry **vigil_fast_slot_of(struct vigil_subject *s,
						      u64 fast)
{
	if (fast & VIGIL_FAST_FILE)
		return &s->fast[fast & VIGIL_FAST_MASK];
	return vigil_fast_slot(s, fast);
}

/* The tuple @fast names in @s's cache, if any; under rcu_read_lock(). */
static inline struct vigil_entry *vigil_fast_lookup(struct vigil_subject *s,
						    u64 fast)
{
	struct vigil_entry *e = READ_ONCE(*vigil_fast_slot(s, fast));

	if (!e || e->key.fast != fast || READ_ONCE(e->dead))
		return NULL;
	return e;
}

/* Count a repeat of @e: one atomic add and a store of jiffies. */
static inline void vigil_entry_touch(struct vigil_entry *e)
{
	atomic64_inc(&e->count);
	WRITE_ONCE(e->last, jiffies);
}

void vigil_table_pin(struct vigil_table *t, const struct vigil_key *key,
		     u32 hash, const char *obj, size_t len);
void vigil_table_shown(struct vigil_table *t, struct vigil_entry *e);
void vigil_table_cursor_init(struct vigil_entry *cursor);
struct vigil_entry *vigil_table_next(struct vigil_table *t,
				     struct list_head *pos);
void vigil_table_cursor_park(struct vigil_table *t,
			     struct vigil_entry *cursor,
			     struct vigil_entry *next);
void vigil_table_delivered(struct vigil_table *t, struct vigil_entry *done,
			   struct vigil_entry *cursor);
void vigil_table_cursor_drop(struct vigil_table *t,
			     struct vigil_entry *cursor);
void vigil_table_flush_observed(struct vigil_table *t);
unsigned int vigil_table_release(struct vigil_table *t,
				 bool (*emit)(const struct vigil_entry *e),
				 bool *ret_more);
void vigil_release_kick(void);
void vigil_table_set_max(struct vigil_table *t, size_t max_bytes);

#endif /* _SECURITY_VIGIL_TABLE_H */
