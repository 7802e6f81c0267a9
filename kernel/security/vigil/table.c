// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil: the bounded aggregation table of distinct accesses.
 *
 * Lookups are lock-free under RCU, so a repeat access only bumps a count.
 * Insertions, evictions and flushes take the table lock. Memory is bounded
 * by max_bytes; when an insertion would pass it, the oldest tuples are
 * evicted first (they are recorded again if seen again).
 */

#include <linux/jhash.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "vigil.h"

/* Table memory in KiB, settable at boot (vigil.table_kb=) and in securityfs. */
unsigned long vigil_table_kb __ro_after_init = 4096;
struct vigil_table vigil_table;

static int __init vigil_table_kb_setup(char *str)
{
	unsigned long v;

	if (!kstrtoul(str, 0, &v) && v >= 16 && v <= 1024 * 1024)
		vigil_table_kb = v;
	else
		pr_warn("vigil: vigil.table_kb=%s out of range 16..1048576\n",
			str);
	return 1;
}
__setup("vigil.table_kb=", vigil_table_kb_setup);

int vigil_table_init(struct vigil_table *t, unsigned int bits,
		     size_t max_bytes)
{
	t->buckets = kvcalloc(1U << bits, sizeof(*t->buckets), GFP_KERNEL);
	if (!t->buckets)
		return -ENOMEM;
	spin_lock_init(&t->lock);
	t->bits = bits;
	INIT_LIST_HEAD(&t->fifo);
	t->bytes = 0;
	t->max_bytes = max_bytes;
	t->nr = 0;
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

	list_for_each_entry_safe(e, tmp, &t->fifo, fifo) {
		hlist_del_rcu(&e->hnode);
		entry_free(e);
	}
	INIT_LIST_HEAD(&t->fifo);
	kvfree(t->buckets);
	t->buckets = NULL;
}

u32 vigil_key_hash(const struct vigil_key *key, const char *obj, size_t len)
{
	u32 words[9];

	words[0] = (u32)(unsigned long)key->subj;
	words[1] = (u32)((unsigned long)key->subj >> 16 >> 16);
	words[2] = (u32)key->obj_a;
	words[3] = (u32)(key->obj_a >> 32);
	words[4] = (u32)key->obj_b;
	words[5] = (u32)(key->obj_b >> 32);
	words[6] = (u32)key->access ^ (u32)(key->access >> 32);
	words[7] = key->gen;
	words[8] = key->op | key->by_name << 16 | key->nsx << 24;
	return jhash2(words, ARRAY_SIZE(words), key->by_name ?
		      jhash(obj, len, 0) : 0);
}

static bool key_equal(const struct vigil_entry *e, const struct vigil_key *key,
		      const char *obj, size_t len)
{
	const struct vigil_key *k = &e->key;

	if (k->subj != key->subj || k->obj_a != key->obj_a ||
	    k->obj_b != key->obj_b || k->access != key->access ||
	    k->gen != key->gen || k->op != key->op ||
	    k->by_name != key->by_name || k->nsx != key->nsx)
		return false;
	if (!key->by_name)
		return true;
	return e->objlen == len && !memcmp(e->obj, obj, len);
}

static struct hlist_head *bucket(const struct vigil_table *t, u32 hash)
{
	return &t->buckets[hash >> (32 - t->bits)];
}

static void entry_touch(struct vigil_entry *e)
{
	atomic64_inc(&e->count);
	WRITE_ONCE(e->last, ktime_get_real_seconds());
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
		    u32 hash, const char *obj, size_t len)
{
	struct vigil_entry *e;
	int verdict = -ENOENT;

	rcu_read_lock();
	hlist_for_each_entry_rcu(e, bucket(t, hash), hnode) {
		if (e->hash == hash && key_equal(e, key, obj, len)) {
			entry_touch(e);
			verdict = e->verdict;
			break;
		}
	}
	rcu_read_unlock();
	return verdict;
}

static void evict_oldest(struct vigil_table *t)
{
	struct vigil_entry *e;

	lockdep_assert_held(&t->lock);
	e = list_first_entry(&t->fifo, struct vigil_entry, fifo);
	list_del(&e->fifo);
	hlist_del_rcu(&e->hnode);
	t->bytes -= e->size;
	t->nr--;
	atomic64_inc(&t->evictions);
	entry_free(e);
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
 * @verdict: what it is; all but VIGIL_VERDICT_ALLOW take the next sequence
 *           number, as they are recorded
 * @ret_seq: its sequence number, 0 for VIGIL_VERDICT_ALLOW
 *
 * Never sleeps (GFP_ATOMIC). When the table is full the oldest tuples are
 * evicted to make room.
 *
 * Return: 0 when inserted, -EEXIST when another CPU inserted it first (its
 * count was bumped instead; its verdict is the caller's, as the key decides
 * it), -ENOMEM.
 */
int vigil_table_insert(struct vigil_table *t, const struct vigil_key *key,
		       u32 hash, const char *obj, size_t len, kuid_t uid,
		       u32 mntns, enum vigil_verdict verdict, u64 *ret_seq)
{
	struct vigil_entry *e, *new;
	size_t size;

	len = min_t(size_t, len, PATH_MAX);
	size = struct_size(new, obj, len + 1);
	new = kmalloc(size, GFP_ATOMIC | __GFP_NOWARN);
	if (!new)
		return -ENOMEM;
	new->key = *key;
	new->hash = hash;
	new->size = size;
	new->uid = uid;
	new->mntns = mntns;
	new->verdict = verdict;
	atomic64_set(&new->count, 1);
	new->first = ktime_get_real_seconds();
	new->last = new->first;
	new->objlen = len;
	memcpy(new->obj, obj, len);
	new->obj[len] = '\0';

	spin_lock(&t->lock);
	hlist_for_each_entry(e, bucket(t, hash), hnode) {
		if (e->hash == hash && key_equal(e, key, obj, len)) {
			entry_touch(e);
			spin_unlock(&t->lock);
			kfree(new);
			return -EEXIST;
		}
	}
	while (t->bytes + size > t->max_bytes && !list_empty(&t->fifo))
		evict_oldest(t);
	new->seq = verdict == VIGIL_VERDICT_ALLOW ? 0 : ++t->seq;
	vigil_subject_get(key->subj);
	list_add_tail(&new->fifo, &t->fifo);
	hlist_add_head_rcu(&new->hnode, bucket(t, hash));
	t->bytes += size;
	t->nr++;
	spin_unlock(&t->lock);
	*ret_seq = new->seq;
	return 0;
}

/* Drop the verdicts of observe mode: a new policy decides afresh. */
void vigil_table_flush_observed(struct vigil_table *t)
{
	struct vigil_entry *e, *tmp;

	spin_lock(&t->lock);
	list_for_each_entry_safe(e, tmp, &t->fifo, fifo) {
		if (!e->key.gen)
			continue;
		list_del(&e->fifo);
		hlist_del_rcu(&e->hnode);
		t->bytes -= e->size;
		t->nr--;
		entry_free(e);
	}
	spin_unlock(&t->lock);
}

void vigil_table_set_max(struct vigil_table *t, size_t max_bytes)
{
	spin_lock(&t->lock);
	t->max_bytes = max_bytes;
	while (t->bytes > t->max_bytes && !list_empty(&t->fifo))
		evict_oldest(t);
	spin_unlock(&t->lock);
}
