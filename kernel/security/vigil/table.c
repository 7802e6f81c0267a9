// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil: the bounded aggregation table of distinct accesses.
 *
 * Lookups are lock-free under RCU, so a repeat access only bumps a count.
 * Insertions, evictions and flushes take the table lock. Memory is bounded
 * by max_bytes; when an insertion would pass it, the oldest tuples are
 * evicted first (they are recorded again if seen again).
 *
 * No unprivileged person (a uid, or the owner of its subordinate uids:
 * person.c) can flood it: each holds at most a quarter of the table (its
 * own oldest tuples go first) and records at most VIGIL_UID_BURST first
 * sightings at once, VIGIL_UID_RATE a second after that, and all of them
 * together VIGIL_UNPRIV_BURST and VIGIL_UNPRIV_RATE (with a part kept for
 * persons that record little, bounds.h); the rest are kept in the table
 * and recorded later, as the rates allow (vigil_table_release()). A tuple
 * whose record was held back or lost is pinned: no eviction takes it
 * before its record or the learned file has shown it (vigil snapshot), so
 * nothing is lost unseen. Pinned tuples leave the eviction lists, so an
 * eviction is O(1) however many are pinned, and hold at most half the
 * table, of which unprivileged persons hold at most 7/8 (bounds.h): they
 * never stop it from learning, nor take root's pins.
 */

#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/log2.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "bounds.h"
#include "vigil_limits.h"
#include "person.h"
#include "record.h"
#include "subject.h"
#include "table.h"
#include "vigil.h"

/* Table memory in KiB, settable at boot (vigil.table_kb=) and in securityfs. */
unsigned long vigil_table_kb __ro_after_init = VIGIL_TABLE_KB_DEFAULT;
struct vigil_table vigil_table;

static int __init vigil_table_kb_setup(char *str)
{
	unsigned long v;

	if (!kstrtoul(str, 0, &v) && v >= VIGIL_TABLE_KB_MIN &&
	    v <= VIGIL_TABLE_KB_MAX)
		vigil_table_kb = v;
	else
		pr_warn("vigil: vigil.table_kb=%s out of range %u..%u\n", str,
			VIGIL_TABLE_KB_MIN, VIGIL_TABLE_KB_MAX);
	return 1;
}
__setup("vigil.table_kb=", vigil_table_kb_setup);

static struct vigil_uid_share *share_alloc(kuid_t uid, gfp_t gfp)
{
	struct vigil_uid_share *us = kzalloc(sizeof(*us), gfp);

	if (!us)
		return NULL;
	INIT_LIST_HEAD(&us->fifo);
	INIT_LIST_HEAD(&us->held_list);
	us->uid = uid;
	us->tokens = VIGIL_UID_BURST;
	us->stamp = jiffies;
	return us;
}

int vigil_table_init(struct vigil_table *t, unsigned int bits,
		     size_t max_bytes)
{
	t->other = share_alloc(INVALID_UID, GFP_KERNEL);
	if (!t->other)
		return -ENOMEM;
	t->buckets = kvcalloc(1U << bits, sizeof(*t->buckets), GFP_KERNEL);
	if (!t->buckets) {
		kfree(t->other);
		return -ENOMEM;
	}
	hash_init(t->uids);
	t->nr_uids = 0;
	t->full = 0;
	spin_lock_init(&t->lock);
	t->bits = bits;
	INIT_LIST_HEAD(&t->fifo);
	INIT_LIST_HEAD(&t->evictable);
	t->bytes = 0;
	t->max_bytes = max_bytes;
	t->nr = 0;
	t->pinned_bytes = 0;
	t->nr_pinned = 0;
	t->pin_refused = 0;
	t->upinned_bytes = 0;
	t->nr_held = 0;
	t->released = 0;
	t->tokens = VIGIL_UNPRIV_BURST;
	t->stamp = jiffies;
	t->swept = jiffies;
	t->reclaimed = 0;
	t->dropped = 0;
	t->seq = 0;
	atomic64_set(&t->evictions, 0);
	return 0;
}

/* A tuple holds a reference on its subject until it is freed. */
static void entry_free_rcu(struct rcu_head *head)
{
	struct vigil_entry *e = container_of(head, struct vigil_entry, rcu);

	vigil_subject_put(e->key.subj);
	kfree(e);
}

static void entry_free(struct vigil_entry *e)
{
	call_rcu(&e->rcu, entry_free_rcu);
}

/* Only for tables nobody else can reach any more (KUnit). */
void vigil_table_destroy(struct vigil_table *t)
{
	struct vigil_entry *e, *tmp;

	struct vigil_uid_share *us;
	struct hlist_node *n;
	int bkt;

	list_for_each_entry_safe(e, tmp, &t->fifo, fifo) {
		if (vigil_entry_is_cursor(e)) {
			list_del_init(&e->fifo);
			continue;
		}
		hlist_del_rcu(&e->hnode);
		entry_free(e);
	}
	INIT_LIST_HEAD(&t->fifo);
	hash_for_each_safe(t->uids, bkt, n, us, node)
		kfree(us);
	kfree(t->other);
	t->other = NULL;
	kvfree(t->buckets);
	t->buckets = NULL;
}

/* Refill a token bucket from the jiffies since its last refill. */
static void bucket_refill(unsigned int *tokens, unsigned long *stamp,
			  unsigned int burst, unsigned int rate)
{
	unsigned long now = jiffies, add;

	add = (now - *stamp) * rate / HZ;
	if (add) {
		*tokens = min_t(unsigned long, burst, *tokens + add);
		*stamp = now;
	}
}

/*
 * Free the shares that hold no tuple and whose bucket is full again (so
 * a new share gives nothing a reclaimed one did not have): a person that
 * comes later gets its own, not the overflow share.
 */
static void shares_sweep(struct vigil_table *t)
{
	struct vigil_uid_share *us;
	struct hlist_node *n;
	int bkt;

	lockdep_assert_held(&t->lock);
	t->swept = jiffies;
	hash_for_each_safe(t->uids, bkt, n, us, node) {
		if (us->nr)
			continue;
		bucket_refill(&us->tokens, &us->stamp, VIGIL_UID_BURST,
			      VIGIL_UID_RATE);
		if (us->tokens < VIGIL_UID_BURST)
			continue;
		hash_del(&us->node);
		t->nr_uids--;
		t->reclaimed++;
		kfree(us);
	}
}

/*
 * The share of @uid's person, created on its first tuple; NULL for root,
 * whose tuples and records are not bounded per person. Past
 * VIGIL_UIDS_MAX persons holding tuples (or out of memory) the others
 * share one; empty shares are swept at most once a second to make room.
 */
static struct vigil_uid_share *share_of(struct vigil_table *t, kuid_t uid)
{
	struct vigil_uid_share *us;

	lockdep_assert_held(&t->lock);
	if (uid_eq(uid, GLOBAL_ROOT_UID))
		return NULL;
	uid = vigil_person(uid);
	hash_for_each_possible(t->uids, us, node, __kuid_val(uid))
		if (uid_eq(us->uid, uid))
			return us;
	if (t->nr_uids >= VIGIL_UIDS_MAX && time_after(jiffies, t->swept + HZ))
		shares_sweep(t);
	if (t->nr_uids >= VIGIL_UIDS_MAX)
		return t->other;
	us = share_alloc(uid, GFP_ATOMIC | __GFP_NOWARN);
	if (!us)
		return t->other;
	hash_add(t->uids, &us->node, __kuid_val(uid));
	t->nr_uids++;
	return us;
}

/*
 * May @us record one more first sighting now? Within its own rate, and
 * within all persons' together, of which a person that took little of
 * late may take more (bounds.h); a release (@late) never takes that part:
 * a backlog of held-back tuples does not delay a newcomer's first
 * sightings. Takes a token of each if so.
 */
static bool share_may_record(struct vigil_table *t, struct vigil_uid_share *us,
			     bool late)
{
	bucket_refill(&us->tokens, &us->stamp, VIGIL_UID_BURST,
		      VIGIL_UID_RATE);
	bucket_refill(&t->tokens, &t->stamp, VIGIL_UNPRIV_BURST,
		      VIGIL_UNPRIV_RATE);
	if (!us->tokens ||
	    !vigil_pool_admit(VIGIL_UNPRIV_BURST,
			      VIGIL_UNPRIV_BURST - t->tokens,
			      late ? VIGIL_UNPRIV_BURST :
				     VIGIL_UID_BURST - us->tokens, 1))
		return false;
	us->tokens--;
	t->tokens--;
	return true;
}

static size_t share_max(const struct vigil_table *t)
{
	return t->max_bytes / 4;
}

/*
 * May a tuple of @size bytes be pinned for @us (NULL: root)? Pins hold at
 * most half the table, and unprivileged persons' a part of that.
 */
static bool pin_fits(const struct vigil_table *t,
		     const struct vigil_uid_share *us, size_t size)
{
	size_t cap = t->max_bytes / 2;

	if (t->pinned_bytes + size > cap)
		return false;
	return !us || vigil_pool_admit(cap, t->upinned_bytes,
				       us->pinned_bytes, size);
}

/* Keep @e until the learned file shows it: out of the eviction lists. */
static void entry_pin(struct vigil_table *t, struct vigil_entry *e)
{
	lockdep_assert_held(&t->lock);
	e->pinned = true;
	list_del_init(&e->evict);
	if (e->share) {
		list_del_init(&e->ufifo);
		e->share->pinned_bytes += e->size;
		t->upinned_bytes += e->size;
	}
	t->pinned_bytes += e->size;
	t->nr_pinned++;
}

/* Count @e's pin out, and take it off its share's held list. */
static void entry_pin_drop(struct vigil_table *t, struct vigil_entry *e)
{
	e->pinned = false;
	t->pinned_bytes -= e->size;
	t->nr_pinned--;
	if (e->share) {
		e->share->pinned_bytes -= e->size;
		t->upinned_bytes -= e->size;
	}
	if (e->held) {
		e->held = false;
		if (!e->releasing) {
			list_del_init(&e->ufifo);
			t->nr_held--;
		}
	}
}

/**
 * vigil_table_shown - the learned file showed a tuple
 * @t: the table, locked
 * @e: the tuple
 *
 * A snapshot has it: a pinned one may go now, first of all (it is put at
 * the oldest end of the eviction lists); a held-back one is not released
 * any more. One being released is left to the release work.
 */
void vigil_table_shown(struct vigil_table *t, struct vigil_entry *e)
{
	lockdep_assert_held(&t->lock);
	if (!e->pinned || e->releasing)
		return;
	entry_pin_drop(t, e);
	list_add(&e->evict, &t->evictable);
	if (e->share)
		list_add(&e->ufifo, &e->share->fifo);
}

/* A cursor for a reader of the fifo: in no list until parked. */
void vigil_table_cursor_init(struct vigil_entry *cursor)
{
	memset(cursor, 0, sizeof(*cursor));
	INIT_LIST_HEAD(&cursor->fifo);
}

/**
 * vigil_table_next - the tuple after a place in the fifo
 * @t: the table, locked
 * @pos: &t->fifo (from the oldest), a tuple's or a cursor's fifo node
 *
 * Return: the next tuple, cursors stepped over, or NULL at the end.
 */
struct vigil_entry *vigil_table_next(struct vigil_table *t,
				     struct list_head *pos)
{
	struct vigil_entry *e;

	lockdep_assert_held(&t->lock);
	for (pos = pos->next; pos != &t->fifo; pos = pos->next) {
		e = list_entry(pos, struct vigil_entry, fifo);
		if (!vigil_entry_is_cursor(e))
			return e;
	}
	return NULL;
}

/*
 * Leave @cursor just before @next, the first tuple not yet read, or at
 * the end of the fifo when @next is NULL (later tuples come after it).
 */
void vigil_table_cursor_park(struct vigil_table *t,
			     struct vigil_entry *cursor,
			     struct vigil_entry *next)
{
	lockdep_assert_held(&t->lock);
	list_move_tail(&cursor->fifo, next ? &next->fifo : &t->fifo);
}

/**
 * vigil_table_delivered - a reader got the lines of the tuples it passed
 * @t: the table, locked
 * @done: the reader's cursor before its first tuple not known delivered
 *	(not parked: the oldest)
 * @cursor: its cursor before the first tuple not yet read (not parked:
 *	none read)
 *
 * The tuples from @done up to @cursor went to the reader whole (the
 * learned file knows it: see learned_start()): each is shown
 * (vigil_table_shown()), and @done moves to @cursor. A tuple whose line
 * was only buffered, or copied in part, stays pinned until then.
 */
void vigil_table_delivered(struct vigil_table *t, struct vigil_entry *done,
			   struct vigil_entry *cursor)
{
	struct list_head *pos;
	struct vigil_entry *e;

	lockdep_assert_held(&t->lock);
	if (list_empty(&cursor->fifo))
		return;
	pos = list_empty(&done->fifo) ? t->fifo.next : done->fifo.next;
	for (; pos != &cursor->fifo && pos != &t->fifo; pos = pos->next) {
		e = list_entry(pos, struct vigil_entry, fifo);
		if (!vigil_entry_is_cursor(e))
			vigil_table_shown(t, e);
	}
	list_move_tail(&done->fifo, &cursor->fifo);
}

void vigil_table_cursor_drop(struct vigil_table *t,
			     struct vigil_entry *cursor)
{
	spin_lock(&t->lock);
	list_del_init(&cursor->fifo);
	spin_unlock(&t->lock);
}

u32 vigil_key_hash(const struct vigil_key *key, const char *obj, size_t len)
{
	u32 words[14];

	words[0] = (u32)(unsigned long)key->subj;
	words[1] = (u32)((unsigned long)key->subj >> 16 >> 16);
	words[2] = (u32)key->obj_a;
	words[3] = (u32)(key->obj_a >> 32);
	/* A move changes obj_b's words: no more to hash. */
	words[4] = (u32)key->obj_b ^ (u32)key->moved;
	words[5] = (u32)(key->obj_b >> 32) ^ (u32)(key->moved >> 32);
	words[6] = (u32)key->access ^ (u32)(key->access >> 32);
	words[7] = key->gen;
	words[8] = key->op | key->by_name << 16 | key->nsx << 24;
	words[9] = (u32)key->obj_c;
	words[10] = (u32)(key->obj_c >> 32);
	words[11] = (u32)(unsigned long)key->mnt;
	words[12] = (u32)((unsigned long)key->mnt >> 16 >> 16);
	words[13] = key->uid_key;
	return jhash2(words, ARRAY_SIZE(words), key->by_name ?
		      jhash(obj, len, 0) : 0);
}

static bool key_equal(const struct vigil_entry *e, const struct vigil_key *key,
		      const char *obj, size_t len)
{
	const struct vigil_key *k = &e->key;

	if (k->subj != key->subj || k->obj_a != key->obj_a ||
	    k->obj_b != key->obj_b || k->obj_c != key->obj_c ||
	    k->mnt != key->mnt || k->access != key->access ||
	    k->gen != key->gen || k->op != key->op ||
	    k->by_name != key->by_name || k->nsx != key->nsx ||
	    k->uid_key != key->uid_key || k->moved != key->moved)
		return false;
	if (key->by_name)
		return e->objlen == len && !memcmp(e->obj, obj, len);
	/* A name: the hash is not its identity, the bytes are. */
	if (key->namelen && e->namelen)
		return e->namelen == key->namelen &&
		       !memcmp(e->obj + e->objlen - e->namelen, key->name,
			       key->namelen);
	return true;
}

/* The length of @key's name when @obj ends with it as a component, or 0. */
static u16 name_tail(const struct vigil_key *key, const char *obj, size_t len)
{
	size_t n = key->namelen;

	if (key->by_name || !n || n > len || memcmp(obj + len - n, key->name, n))
		return 0;
	if (n < len && obj[len - n - 1] != '/')
		return 0;
	return n;
}

static struct hlist_head *bucket(const struct vigil_table *t, u32 hash)
{
	return &t->buckets[hash >> (32 - t->bits)];
}

/**
 * vigil_entry_last - when @e was last seen, in seconds since the epoch
 * @e: a tuple
 *
 * A repeat stores jiffies (no clock read on the fast path); the wall clock
 * time is the present less the jiffies since, never before the first.
 */
time64_t vigil_entry_last(const struct vigil_entry *e)
{
	unsigned long now = jiffies, last = READ_ONCE(e->last);
	unsigned long ago = time_after(last, now) ? 0 : (now - last) / HZ;

	return max_t(time64_t, e->first, ktime_get_real_seconds() - ago);
}

/**
 * vigil_table_hit - count a repeat of a known tuple
 * @t: the table
 * @key: the tuple
 * @hash: vigil_key_hash() of it
 * @obj: the object string, compared when @key->by_name
 * @len: its length
 *
 * Never sleeps, never allocates.
 *
 * Return: the tuple's verdict when it was known (its count is now one
 * higher), else -ENOENT.
 */
int vigil_table_hit(struct vigil_table *t, const struct vigil_key *key,
		    u32 hash, const char *obj, size_t len,
		    struct vigil_entry **ret_e)
{
	struct vigil_entry *e;
	int verdict = -ENOENT;

	rcu_read_lock();
	hlist_for_each_entry_rcu(e, bucket(t, hash), hnode) {
		if (e->hash == hash && key_equal(e, key, obj, len)) {
			vigil_entry_touch(e);
			verdict = e->verdict;
			if (ret_e)
				*ret_e = e;
			break;
		}
	}
	rcu_read_unlock();
	return verdict;
}

/**
 * vigil_fast_remember - let the subject's next repeat of @e skip the lookup
 * @e: a tuple with a compact key, found or inserted under rcu_read_lock()
 *
 * Its eviction clears the slot (entry_unlink): each side writes, then
 * reads the other's write after a full barrier, so one of them sees the
 * other and no slot keeps a tuple past its RCU grace period.
 */
void vigil_fast_remember(struct vigil_entry *e)
{
	struct vigil_entry **slot;

	if (!e->key.fast || e->key.subj->permanent)
		return;
	slot = vigil_fast_slot_of(e->key.subj, e->key.fast);
	if (READ_ONCE(*slot) == e)
		return;
	/* Publish e initialised (readers use it without the lock)... */
	smp_store_release(slot, e);
	/* ...then see its eviction, or the eviction sees it in the slot. */
	smp_mb();
	if (READ_ONCE(e->dead))
		cmpxchg(slot, e, NULL);
}

static void entry_unlink(struct vigil_table *t, struct vigil_entry *e)
{
	lockdep_assert_held(&t->lock);
	WRITE_ONCE(e->dead, true);
	if (e->key.fast && !e->key.subj->permanent) {
		smp_mb();	/* pairs with vigil_fast_remember() */
		cmpxchg(vigil_fast_slot_of(e->key.subj, e->key.fast), e, NULL);
	}
	list_del(&e->fifo);
	if (e->pinned) {
		entry_pin_drop(t, e);
	} else {
		list_del(&e->evict);
		if (e->share)
			list_del(&e->ufifo);
	}
	if (e->share) {
		e->share->bytes -= e->size;
		e->share->nr--;
	}
	hlist_del_rcu(&e->hnode);
	t->bytes -= e->size;
	t->nr--;
	entry_free(e);
}

/*
 * Evict the oldest tuple that is not pinned, of the whole table or (@us)
 * of one uid. Return: false when every one is pinned.
 */
static bool evict_oldest(struct vigil_table *t, struct vigil_uid_share *us)
{
	struct vigil_entry *e;

	lockdep_assert_held(&t->lock);
	if (us)
		e = list_first_entry_or_null(&us->fifo, struct vigil_entry,
					     ufifo);
	else
		e = list_first_entry_or_null(&t->evictable, struct vigil_entry,
					     evict);
	if (!e)
		return false;
	atomic64_inc(&t->evictions);
	entry_unlink(t, e);
	return true;
}

/* Evict what may go until @size more bytes fit, in @us and in @t. */
static bool make_room(struct vigil_table *t, struct vigil_uid_share *us,
		      size_t size)
{
	while (us && us->bytes + size > share_max(t))
		if (!evict_oldest(t, us))
			return false;
	while (t->bytes + size > t->max_bytes)
		if (!evict_oldest(t, NULL))
			return false;
	return true;
}

/**
 * vigil_table_insert - add the first sighting of a tuple
 * @t: the table
 * @key: the tuple
 * @hash: vigil_key_hash() of it
 * @obj: the object string, kept for the learned file
 * @len: its length
 * @uid: the uid of the first sighting
 * @mntns: 0, or the id of the mount namespace @obj was named in
 * @mntns_id: and that namespace's unique id (vigil_mntns_current()), or 0
 * @verdict: what it is; all but VIGIL_VERDICT_ALLOW take the next sequence
 *           number, as they are recorded
 * @ret_seq: its sequence number, 0 for VIGIL_VERDICT_ALLOW
 * @ret_held: set when @uid is over its record rate: the tuple is kept
 *            (pinned), and must not be recorded
 *
 * Never sleeps (GFP_ATOMIC). When the table (or @uid's share of it) is
 * full the oldest tuples that are not pinned are evicted to make room.
 *
 * Return: 0 when inserted, -EEXIST when another CPU inserted it first (its
 * count was bumped instead; its verdict is the caller's, as the key decides
 * it), -ENOMEM, -ENOSPC when nothing could be evicted or a tuple to hold
 * back found no pin left.
 */
int vigil_table_insert(struct vigil_table *t, const struct vigil_key *key,
		       u32 hash, const char *obj, size_t len, kuid_t uid,
		       u32 mntns, u64 mntns_id, enum vigil_verdict verdict,
		       u64 *ret_seq, bool *ret_held, struct vigil_entry **ret_e)
{
	struct vigil_uid_share *us;
	struct vigil_entry *e, *new;
	size_t size;

	len = min_t(size_t, len, PATH_MAX);
	/* What the slab gives, not what is asked: the bounds are in memory. */
	size = kmalloc_size_roundup(struct_size(new, obj, len + 1));
	new = kmalloc(size, GFP_ATOMIC | __GFP_NOWARN);
	if (!new)
		return -ENOMEM;
	new->key = *key;
	new->key.name = NULL;
	new->hash = hash;
	new->size = size;
	new->uid = uid;
	new->mntns = mntns;
	new->mntns_id = mntns_id;
	new->pinned = false;
	new->held = false;
	new->releasing = false;
	new->dead = false;
	new->stamp = 0;
	new->verdict = verdict;
	atomic64_set(&new->count, 1);
	new->first = ktime_get_real_seconds();
	new->last = jiffies;
	new->objlen = len;
	new->namelen = name_tail(key, obj, len);
	memcpy(new->obj, obj, len);
	new->obj[len] = '\0';

	spin_lock(&t->lock);
	hlist_for_each_entry(e, bucket(t, hash), hnode) {
		if (e->hash == hash && key_equal(e, key, obj, len)) {
			vigil_entry_touch(e);
			spin_unlock(&t->lock);
			kfree(new);
			return -EEXIST;
		}
	}
	us = share_of(t, uid);
	if (!make_room(t, us, size))
		goto refuse;
	*ret_held = false;
	if (us && verdict != VIGIL_VERDICT_ALLOW &&
	    !share_may_record(t, us, false)) {
		/* Held back, it must stay until recorded: or not be kept. */
		if (!pin_fits(t, us, size))
			goto refuse;
		us->held++;
		*ret_held = true;
	}
	new->seq = verdict == VIGIL_VERDICT_ALLOW ? 0 : ++t->seq;
	vigil_subject_get(key->subj);
	list_add_tail(&new->fifo, &t->fifo);
	list_add_tail(&new->evict, &t->evictable);
	new->share = us;
	if (us) {
		list_add_tail(&new->ufifo, &us->fifo);
		us->bytes += size;
		us->nr++;
	}
	if (*ret_held) {
		entry_pin(t, new);
		new->held = true;
		new->releasing = false;
		list_add_tail(&new->ufifo, &us->held_list);
		t->nr_held++;
	}
	hlist_add_head_rcu(&new->hnode, bucket(t, hash));
	t->bytes += size;
	t->nr++;
	spin_unlock(&t->lock);
	*ret_seq = new->seq;
	/* Valid as long as the caller's RCU read section, if it has one. */
	if (ret_e)
		*ret_e = new;
	return 0;

refuse:
	t->full++;
	if (us) {
		us->dropped++;
		t->dropped++;
	}
	spin_unlock(&t->lock);
	kfree(new);
	return -ENOSPC;
}

/**
 * vigil_table_pin - keep a tuple whose record audit could not take
 * @t: the table
 * @key: the tuple
 * @hash: vigil_key_hash() of it
 * @obj: the object string, compared when @key->by_name
 * @len: its length
 *
 * Until the learned file shows it, no eviction takes it; when pins
 * already hold half the table, it stays evictable (counted in
 * pin_refused): recorded again if seen again after its eviction. Never
 * sleeps.
 */
void vigil_table_pin(struct vigil_table *t, const struct vigil_key *key,
		     u32 hash, const char *obj, size_t len)
{
	struct vigil_entry *e;

	spin_lock(&t->lock);
	hlist_for_each_entry(e, bucket(t, hash), hnode) {
		if (e->hash == hash && key_equal(e, key, obj, len)) {
			if (e->pinned)
				break;
			if (pin_fits(t, e->share, e->size))
				entry_pin(t, e);
			else
				t->pin_refused++;
			break;
		}
	}
	spin_unlock(&t->lock);
}

/*
 * Drop the verdicts of observe mode: a new policy decides afresh. Pinned
 * ones (their record was lost) stay until the learned file shows them.
 */
void vigil_table_flush_observed(struct vigil_table *t)
{
	struct vigil_entry *e, *tmp;

	spin_lock(&t->lock);
	list_for_each_entry_safe(e, tmp, &t->fifo, fifo)
		if (!vigil_entry_is_cursor(e) && e->key.gen && !e->pinned)
			entry_unlink(t, e);
	spin_unlock(&t->lock);
}

void vigil_table_set_max(struct vigil_table *t, size_t max_bytes)
{
	spin_lock(&t->lock);
	t->max_bytes = max_bytes;
	while (t->bytes > t->max_bytes) {
		if (!evict_oldest(t, NULL))
			break;
	}
	spin_unlock(&t->lock);
}

/*
 * Take the oldest held-back tuple of @us for release when its rate (and
 * all persons') allows: it stays pinned, marked releasing, meanwhile.
 */
static bool release_take(struct vigil_table *t, struct vigil_uid_share *us,
			 struct vigil_entry **batch, unsigned int *n)
{
	struct vigil_entry *e;

	e = list_first_entry_or_null(&us->held_list, struct vigil_entry,
				     ufifo);
	if (!e || !share_may_record(t, us, true))
		return false;
	list_del_init(&e->ufifo);
	t->nr_held--;
	e->releasing = true;
	batch[(*n)++] = e;
	return true;
}

/**
 * vigil_table_release - record held-back tuples as the rates allow
 * @t: the table
 * @emit: writes a tuple's record; may sleep; true when audit took it
 * @ret_more: set when held-back tuples are left
 *
 * Up to VIGIL_RELEASE_BATCH tuples, one per person in turn, so that no
 * person's backlog delays another's. A recorded one is unpinned (its
 * record has it now); when audit takes none, the rest stay held back and
 * the pass stops. Sleeps (in @emit), takes the table lock.
 *
 * Return: how many were recorded.
 */
unsigned int vigil_table_release(struct vigil_table *t,
				 bool (*emit)(const struct vigil_entry *e),
				 bool *ret_more)
{
	struct vigil_entry *batch[VIGIL_RELEASE_BATCH], *e;
	unsigned int n = 0, i, done = 0;
	struct vigil_uid_share *us;
	bool took;
	int bkt;

	spin_lock(&t->lock);
	do {
		took = false;
		hash_for_each(t->uids, bkt, us, node) {
			if (n == VIGIL_RELEASE_BATCH)
				break;
			took |= release_take(t, us, batch, &n);
		}
		if (n < VIGIL_RELEASE_BATCH)
			took |= release_take(t, t->other, batch, &n);
	} while (took && n < VIGIL_RELEASE_BATCH);
	spin_unlock(&t->lock);

	for (i = 0; i < n && emit(batch[i]); i++) {
		e = batch[i];
		spin_lock(&t->lock);
		e->releasing = false;
		e->held = false;
		e->share->released++;
		t->released++;
		done++;
		/* Its record has it now: evictable, as if just recorded. */
		entry_pin_drop(t, e);
		list_add_tail(&e->evict, &t->evictable);
		list_add_tail(&e->ufifo, &e->share->fifo);
		spin_unlock(&t->lock);
	}
	/* Audit took no more: the rest go back, in order, for a next pass. */
	spin_lock(&t->lock);
	while (n > i) {
		e = batch[--n];
		e->releasing = false;
		list_add(&e->ufifo, &e->share->held_list);
		t->nr_held++;
	}
	*ret_more = t->nr_held;
	spin_unlock(&t->lock);
	return done;
}

static void release_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(release_work, release_work_fn);

static void release_work_fn(struct work_struct *work)
{
	bool more;

	while (vigil_table_release(&vigil_table, vigil_record_released,
				   &more) == VIGIL_RELEASE_BATCH)
		cond_resched();
	if (more)
		queue_delayed_work(system_unbound_wq, &release_work, HZ / 2);
}

/**
 * vigil_release_kick - have held-back tuples released soon
 *
 * Any context: queues the release work in a second unless it is queued.
 */
void vigil_release_kick(void)
{
	queue_delayed_work(system_unbound_wq, &release_work, HZ);
}
