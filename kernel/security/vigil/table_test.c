// SPDX-License-Identifier: GPL-2.0-only
/* vigil: KUnit tests of the aggregation table. */

#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/hashtable.h>
#include <linux/delay.h>
#include <linux/slab.h>

#include "bounds.h"
#include "vigil_limits.h"
#include "subject.h"
#include "table.h"
#include "vigil.h"

static struct vigil_subject test_subj = { .permanent = true };

static void key_for(struct vigil_key *key, u64 ino, u64 access)
{
	memset(key, 0, sizeof(*key));
	key->subj = &test_subj;
	key->op = VIGIL_OP_OPEN;
	key->access = access;
	key->obj_a = ino;
}

static int table_test_init(struct kunit *test)
{
	struct vigil_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, vigil_table_init(t, 4, 64 * 1024), 0);
	test->priv = t;
	return 0;
}

static void table_test_exit(struct kunit *test)
{
	vigil_table_destroy(test->priv);
}

static int insert(struct vigil_table *t, const struct vigil_key *key,
		  const char *obj, enum vigil_verdict v, u64 *seq)
{
	u32 hash = vigil_key_hash(key, obj, strlen(obj));
	bool held;

	return vigil_table_insert(t, key, hash, obj, strlen(obj),
				  GLOBAL_ROOT_UID, 0, 0, v, seq, &held, NULL);
}

static int hit(struct vigil_table *t, const struct vigil_key *key,
	       const char *obj)
{
	return vigil_table_hit(t, key, vigil_key_hash(key, obj, strlen(obj)),
			       obj, strlen(obj), NULL);
}

static void table_insert_then_repeat(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	struct vigil_entry *e;
	struct vigil_key key;
	u64 seq = 99;
	int i;

	key_for(&key, 42, VIGIL_FILE_R);
	KUNIT_EXPECT_EQ(test, hit(t, &key, "/etc/hostname"), -ENOENT);
	KUNIT_EXPECT_EQ(test, insert(t, &key, "/etc/hostname",
				     VIGIL_VERDICT_LEARN, &seq), 0);
	KUNIT_EXPECT_EQ(test, seq, 1ULL);
	for (i = 0; i < 9; i++)
		KUNIT_EXPECT_EQ(test, hit(t, &key, "/etc/hostname"),
				VIGIL_VERDICT_LEARN);
	KUNIT_EXPECT_EQ(test, t->nr, 1U);
	e = list_first_entry(&t->fifo, struct vigil_entry, fifo);
	KUNIT_EXPECT_EQ(test, atomic64_read(&e->count), 10LL);
	KUNIT_EXPECT_STREQ(test, e->obj, "/etc/hostname");

	/* A second insert of the same tuple counts instead. */
	KUNIT_EXPECT_EQ(test, insert(t, &key, "/etc/hostname",
				     VIGIL_VERDICT_LEARN, &seq), -EEXIST);
	KUNIT_EXPECT_EQ(test, atomic64_read(&e->count), 11LL);
	KUNIT_EXPECT_EQ(test, t->nr, 1U);
}

static void table_distinct_keys(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	struct vigil_key a, b, c;
	u64 seq;

	key_for(&a, 1, VIGIL_FILE_R);
	key_for(&b, 1, VIGIL_FILE_W);	/* other access */
	key_for(&c, 2, VIGIL_FILE_R);	/* other object */
	KUNIT_EXPECT_EQ(test, insert(t, &a, "/a", VIGIL_VERDICT_LEARN, &seq), 0);
	KUNIT_EXPECT_EQ(test, insert(t, &b, "/a", VIGIL_VERDICT_LEARN, &seq), 0);
	KUNIT_EXPECT_EQ(test, insert(t, &c, "/b", VIGIL_VERDICT_LEARN, &seq), 0);
	KUNIT_EXPECT_EQ(test, seq, 3ULL);
	KUNIT_EXPECT_EQ(test, t->nr, 3U);

	/* Keys by name compare the string, not only its hash. */
	key_for(&a, 0, VIGIL_CAP_USE);
	a.op = VIGIL_OP_CAPABLE;
	a.by_name = 1;
	KUNIT_EXPECT_EQ(test, insert(t, &a, "chown", VIGIL_VERDICT_LEARN,
				     &seq), 0);
	KUNIT_EXPECT_EQ(test, hit(t, &a, "chown"), VIGIL_VERDICT_LEARN);
	KUNIT_EXPECT_EQ(test, hit(t, &a, "kill"), -ENOENT);
}

static void table_allowed_not_numbered(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	struct vigil_key key;
	u64 seq = 5;

	key_for(&key, 7, VIGIL_FILE_R);
	key.gen = 1;
	KUNIT_EXPECT_EQ(test, insert(t, &key, "/x", VIGIL_VERDICT_ALLOW,
				     &seq), 0);
	KUNIT_EXPECT_EQ(test, seq, 0ULL);
	KUNIT_EXPECT_EQ(test, hit(t, &key, "/x"), VIGIL_VERDICT_ALLOW);
	/* A new policy generation flushes observe verdicts. */
	vigil_table_flush_observed(t);
	KUNIT_EXPECT_EQ(test, hit(t, &key, "/x"), -ENOENT);
	KUNIT_EXPECT_EQ(test, t->nr, 0U);
	KUNIT_EXPECT_EQ(test, t->bytes, (size_t)0);
}

/*
 * The bytes counted are the slab's: a tuple whose size is no kmalloc bucket
 * takes the next bucket, and table_kb bounds that memory.
 */
static void table_bytes_slab_rounded(struct kunit *test)
{
	static const char * const objs[] = {
		"/a", "/etc/hostname", "/usr/lib/x86_64-linux-gnu/libc.so.6",
		"/var/lib/postgresql/15/main/pg_wal/000000010000000000000001",
	};
	struct vigil_table *t = test->priv;
	struct vigil_entry *e;
	struct vigil_key key;
	size_t sum = 0;
	u64 seq;
	int i;

	for (i = 0; i < ARRAY_SIZE(objs); i++) {
		key_for(&key, 100 + i, VIGIL_FILE_R);
		KUNIT_ASSERT_EQ(test, insert(t, &key, objs[i],
					     VIGIL_VERDICT_LEARN, &seq), 0);
	}
	list_for_each_entry(e, &t->fifo, fifo) {
		KUNIT_EXPECT_EQ(test, (size_t)e->size, ksize(e));
		sum += ksize(e);
	}
	KUNIT_EXPECT_EQ(test, t->nr, (unsigned int)ARRAY_SIZE(objs));
	KUNIT_EXPECT_EQ(test, t->bytes, sum);
}

static void table_eviction_bounds_memory(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	struct vigil_key key;
	char obj[32];
	u64 seq, i;

	for (i = 0; i < 5000; i++) {
		key_for(&key, i, VIGIL_FILE_R);
		snprintf(obj, sizeof(obj), "/f/%llu", i);
		KUNIT_ASSERT_EQ(test, insert(t, &key, obj, VIGIL_VERDICT_LEARN,
					     &seq), 0);
		KUNIT_ASSERT_LE(test, t->bytes, t->max_bytes);
	}
	KUNIT_EXPECT_EQ(test, seq, 5000ULL);
	KUNIT_EXPECT_GT(test, atomic64_read(&t->evictions), 0LL);
	KUNIT_EXPECT_EQ(test, t->nr + atomic64_read(&t->evictions), 5000LL);
	/* The oldest went first: the newest is still there. */
	key_for(&key, 0, VIGIL_FILE_R);
	KUNIT_EXPECT_EQ(test, hit(t, &key, "/f/0"), -ENOENT);
	key_for(&key, 4999, VIGIL_FILE_R);
	KUNIT_EXPECT_EQ(test, hit(t, &key, "/f/4999"), VIGIL_VERDICT_LEARN);
	/* Shrinking evicts down to the new bound. */
	vigil_table_set_max(t, 16 * 1024);
	KUNIT_EXPECT_LE(test, t->bytes, (size_t)16 * 1024);
}

struct hammer {
	struct vigil_table *t;
	struct completion done;
	int inserted;
};

static int hammer_fn(void *arg)
{
	struct hammer *h = arg;
	struct vigil_key key;
	char obj[16];
	u64 seq;
	int i;

	for (i = 0; i < 2000; i++) {
		key_for(&key, i % 100, VIGIL_FILE_R);
		snprintf(obj, sizeof(obj), "/c/%d", i % 100);
		if (hit(h->t, &key, obj) < 0 &&
		    !insert(h->t, &key, obj, VIGIL_VERDICT_LEARN, &seq))
			h->inserted++;
	}
	complete(&h->done);
	return 0;
}

static void table_concurrent_inserts(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	struct hammer h[4];
	struct vigil_entry *e;
	long long total = 0;
	int i, inserted = 0;

	for (i = 0; i < ARRAY_SIZE(h); i++) {
		h[i].t = t;
		h[i].inserted = 0;
		init_completion(&h[i].done);
		KUNIT_ASSERT_FALSE(test, IS_ERR(kthread_run(hammer_fn, &h[i],
							    "vigil-kunit")));
	}
	for (i = 0; i < ARRAY_SIZE(h); i++) {
		wait_for_completion(&h[i].done);
		inserted += h[i].inserted;
	}
	/* Each distinct tuple inserted once, every access counted once. */
	KUNIT_EXPECT_EQ(test, inserted, 100);
	KUNIT_EXPECT_EQ(test, t->nr, 100U);
	KUNIT_EXPECT_EQ(test, t->seq, 100ULL);
	list_for_each_entry(e, &t->fifo, fifo)
		total += atomic64_read(&e->count);
	KUNIT_EXPECT_EQ(test, total, 4LL * 2000);
}

static int insert_uid(struct vigil_table *t, u64 ino, kuid_t uid, bool *held)
{
	struct vigil_key key;
	char obj[32];
	u64 seq;

	key_for(&key, ino, VIGIL_FILE_R);
	snprintf(obj, sizeof(obj), "/u/%llu", ino);
	return vigil_table_insert(t, &key, vigil_key_hash(&key, obj,
							  strlen(obj)),
				  obj, strlen(obj), uid, 0, 0,
				  VIGIL_VERDICT_LEARN, &seq, held, NULL);
}

static struct vigil_uid_share *share_find(struct vigil_table *t, kuid_t uid)
{
	struct vigil_uid_share *us;
	int bkt;

	hash_for_each(t->uids, bkt, us, node)
		if (uid_eq(us->uid, uid))
			return us;
	return NULL;
}

/* A uid's flood: held back past its burst, within a quarter of the table. */
static void table_uid_share(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	kuid_t uid = KUIDT_INIT(1000);
	struct vigil_uid_share *us;
	int i, held = 0, refused = 0, rc;
	struct vigil_key key;
	bool h;
	u64 seq;

	key_for(&key, 1, VIGIL_FILE_R);
	KUNIT_ASSERT_EQ(test, insert(t, &key, "/root", VIGIL_VERDICT_LEARN,
				     &seq), 0);
	for (i = 0; i < VIGIL_UID_BURST + 2000; i++) {
		rc = insert_uid(t, 100 + i, uid, &h);
		if (rc == -ENOSPC)
			refused++;
		else if (!rc && h)
			held++;
	}
	us = share_find(t, uid);
	KUNIT_ASSERT_NOT_NULL(test, us);
	KUNIT_EXPECT_LE(test, us->bytes, t->max_bytes / 4);
	/* Its first sightings past the burst were held back (and pinned). */
	KUNIT_EXPECT_GT(test, held, 0);
	KUNIT_EXPECT_EQ(test, (u64)held, us->held);
	/* Once its share was all pinned, the rest was refused, counted. */
	KUNIT_EXPECT_GT(test, refused, 0);
	KUNIT_EXPECT_EQ(test, (u64)refused, us->dropped);
	/* root's tuple was never evicted by it. */
	KUNIT_EXPECT_EQ(test, hit(t, &key, "/root"), VIGIL_VERDICT_LEARN);
}

/* A pinned tuple outlives evictions until the learned file shows it. */
static void table_pinned_kept(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	struct vigil_entry *e;
	struct vigil_key key;
	char obj[32];
	u64 seq, i;

	key_for(&key, 1, VIGIL_FILE_R);
	KUNIT_ASSERT_EQ(test, insert(t, &key, "/lost", VIGIL_VERDICT_LEARN,
				     &seq), 0);
	vigil_table_pin(t, &key, vigil_key_hash(&key, "/lost", 5), "/lost", 5);
	for (i = 0; i < 3000; i++) {
		key_for(&key, 10 + i, VIGIL_FILE_R);
		snprintf(obj, sizeof(obj), "/f/%llu", i);
		KUNIT_ASSERT_EQ(test, insert(t, &key, obj, VIGIL_VERDICT_LEARN,
					     &seq), 0);
	}
	KUNIT_EXPECT_GT(test, atomic64_read(&t->evictions), 0LL);
	key_for(&key, 1, VIGIL_FILE_R);
	KUNIT_EXPECT_EQ(test, hit(t, &key, "/lost"), VIGIL_VERDICT_LEARN);
	/* Shown: it may go like any other. */
	spin_lock(&t->lock);
	list_for_each_entry(e, &t->fifo, fifo)
		vigil_table_shown(t, e);
	spin_unlock(&t->lock);
	KUNIT_EXPECT_EQ(test, t->nr_pinned, 0U);
	KUNIT_EXPECT_EQ(test, t->pinned_bytes, (size_t)0);
	vigil_table_set_max(t, 16 * 1024);
	KUNIT_EXPECT_EQ(test, hit(t, &key, "/lost"), -ENOENT);
}

/* Insert root's tuple /P/I and pin it, as a lost record does. */
static void insert_pinned(struct kunit *test, struct vigil_table *t,
			  const char *p, u64 i)
{
	struct vigil_key key;
	char obj[32];
	u64 seq;

	key_for(&key, i, VIGIL_FILE_R);
	snprintf(obj, sizeof(obj), "/%s/%llu", p, i);
	KUNIT_ASSERT_EQ(test, insert(t, &key, obj, VIGIL_VERDICT_LEARN, &seq),
			0);
	vigil_table_pin(t, &key, vigil_key_hash(&key, obj, strlen(obj)), obj,
			strlen(obj));
}

/* Insert N new tuples of root's, counting the refused ones. */
static int insert_many(struct vigil_table *t, u64 from, int n)
{
	struct vigil_key key;
	int i, refused = 0;
	char obj[32];
	u64 seq;

	for (i = 0; i < n; i++) {
		key_for(&key, from + i, VIGIL_FILE_R);
		snprintf(obj, sizeof(obj), "/new/%llu", from + i);
		if (insert(t, &key, obj, VIGIL_VERDICT_LEARN, &seq))
			refused++;
	}
	return refused;
}

/*
 * A burst of lost records pins a run of tuples that ends up oldest: new
 * tuples still get in (the CI failure where 3398 lost records at the
 * head of the table refused every later first sighting).
 */
static void table_pinned_run(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	struct vigil_key key;
	char obj[32];
	u64 i;

	/* 50 tuples of 512 slab bytes: within the pins' half of 64 KiB. */
	for (i = 0; i < 50; i++)
		insert_pinned(test, t, "lost", 1 + i);
	KUNIT_EXPECT_EQ(test, t->nr_pinned, 50U);
	KUNIT_EXPECT_EQ(test, insert_many(t, 1000, 3000), 0);
	KUNIT_EXPECT_EQ(test, t->full, 0ULL);
	KUNIT_EXPECT_GT(test, atomic64_read(&t->evictions), 2000LL);
	KUNIT_EXPECT_LE(test, t->bytes, t->max_bytes);
	for (i = 0; i < 50; i++) {
		key_for(&key, 1 + i, VIGIL_FILE_R);
		snprintf(obj, sizeof(obj), "/lost/%llu", 1 + i);
		KUNIT_EXPECT_EQ(test, hit(t, &key, obj), VIGIL_VERDICT_LEARN);
	}
}

/*
 * Pins hold at most half the table: a loss past that leaves its tuple
 * evictable, counted, and the table keeps learning.
 */
static void table_pins_bounded(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	kuid_t uids[] = { KUIDT_INIT(1001), KUIDT_INIT(1002),
			  KUIDT_INIT(1003) };
	int i, u, dropped = 0;
	bool h;
	u64 n;

	for (n = 0; n < 2000; n++)
		insert_pinned(test, t, "lost", 1 + n);
	KUNIT_EXPECT_GT(test, t->pin_refused, 0ULL);
	KUNIT_EXPECT_LE(test, t->pinned_bytes, t->max_bytes / 2);
	KUNIT_EXPECT_GT(test, t->pinned_bytes, t->max_bytes / 4);
	KUNIT_EXPECT_EQ(test, insert_many(t, 10000, 3000), 0);
	KUNIT_EXPECT_EQ(test, t->full, 0ULL);

	/* Three uids past their rate: their held tuples fit no more pins. */
	for (u = 0; u < ARRAY_SIZE(uids); u++)
		for (i = 0; i < VIGIL_UID_BURST + 500; i++)
			insert_uid(t, 100000 * (u + 1) + i, uids[u], &h);
	for (u = 0; u < ARRAY_SIZE(uids); u++)
		dropped += share_find(t, uids[u])->dropped;
	KUNIT_EXPECT_GT(test, dropped, 0);
	KUNIT_EXPECT_LE(test, t->pinned_bytes, t->max_bytes / 2);
	/* root still learns. */
	n = t->full;
	KUNIT_EXPECT_EQ(test, insert_many(t, 20000, 3000), 0);
	KUNIT_EXPECT_EQ(test, t->full, n);
}

static u64 emitted_seq[VIGIL_RELEASE_BATCH];
static unsigned int emitted_n;
static bool emit_ok;

static bool fake_emit(const struct vigil_entry *e)
{
	if (!emit_ok)
		return false;
	if (emitted_n < ARRAY_SIZE(emitted_seq))
		emitted_seq[emitted_n++] = e->seq;
	return true;
}

/*
 * Many uids together record no more than all persons' burst: the rest is
 * held back; a uid that recorded nothing yet still records.
 */
static void table_unpriv_rate(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	struct vigil_uid_share *us;
	int u, i, recorded = 0, bkt;
	bool h, more;

	vigil_table_set_max(t, 16 * 1024 * 1024);
	for (u = 0; u < 9; u++)
		for (i = 0; i < 600; i++)
			if (!insert_uid(t, 1000000 * (u + 1) + i,
					KUIDT_INIT(2000 + u), &h) && !h)
				recorded++;
	/* 5400 first sightings; one uid alone would record 1000 of them. */
	KUNIT_EXPECT_LE(test, recorded, vigil_pool_unpriv(VIGIL_UNPRIV_BURST) +
			VIGIL_UNPRIV_RATE);
	KUNIT_EXPECT_GE(test, recorded, vigil_pool_bulk(VIGIL_UNPRIV_BURST));
	KUNIT_EXPECT_EQ(test, t->nr_held, 5400U - recorded);
	/* A person holding little is not held back by them... */
	KUNIT_EXPECT_EQ(test, insert_uid(t, 99, KUIDT_INIT(3000), &h), 0);
	KUNIT_EXPECT_FALSE(test, h);
	/* ...nor by their release, which leaves that part alone. */
	spin_lock(&t->lock);
	t->tokens = VIGIL_UNPRIV_BURST;
	t->stamp = jiffies;
	hash_for_each(t->uids, bkt, us, node)
		us->tokens = VIGIL_UID_BURST;
	spin_unlock(&t->lock);
	emit_ok = true;
	while (vigil_table_release(t, fake_emit, &more))
		;
	KUNIT_EXPECT_TRUE(test, more);
	KUNIT_EXPECT_GE(test, t->tokens,
			VIGIL_UNPRIV_BURST - vigil_pool_bulk(VIGIL_UNPRIV_BURST));
	KUNIT_EXPECT_EQ(test, insert_uid(t, 98, KUIDT_INIT(3001), &h), 0);
	KUNIT_EXPECT_FALSE(test, h);
}

/* Unprivileged pins leave root an eighth of the pin budget. */
static void table_root_pin_reserve(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	struct vigil_entry *e;
	struct vigil_key key;
	char obj[32];
	int u, i;
	bool h;

	for (u = 0; u < 4; u++)
		for (i = 0; i < VIGIL_UID_BURST + 800; i++)
			insert_uid(t, 1000000 * (u + 1) + i,
				   KUIDT_INIT(2000 + u), &h);
	KUNIT_EXPECT_LE(test, t->upinned_bytes,
			vigil_pool_unpriv(t->max_bytes / 2));
	KUNIT_EXPECT_GT(test, t->upinned_bytes,
			vigil_pool_bulk(t->max_bytes / 2) -
			t->max_bytes / 32);
	for (i = 0; i < 10; i++)
		insert_pinned(test, t, "root", 1 + i);
	KUNIT_EXPECT_EQ(test, t->pin_refused, 0ULL);
	/* They outlive a table turned over by root's new tuples. */
	KUNIT_EXPECT_EQ(test, insert_many(t, 5000, 2000), 0);
	for (i = 0; i < 10; i++) {
		key_for(&key, 1 + i, VIGIL_FILE_R);
		snprintf(obj, sizeof(obj), "/root/%d", 1 + i);
		KUNIT_EXPECT_EQ(test, hit(t, &key, obj), VIGIL_VERDICT_LEARN);
	}
	spin_lock(&t->lock);
	list_for_each_entry(e, &t->fifo, fifo)
		vigil_table_shown(t, e);
	spin_unlock(&t->lock);
	KUNIT_EXPECT_EQ(test, t->upinned_bytes, (size_t)0);
	KUNIT_EXPECT_EQ(test, t->nr_held, 0U);
}

/*
 * Held-back tuples are recorded as the rate refills, oldest first, and
 * unpinned; when audit takes none they stay held, and none is lost.
 */
static void table_release(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	kuid_t uid = KUIDT_INIT(4000);
	struct vigil_uid_share *us;
	unsigned int held, n;
	bool h, more;
	int i;

	vigil_table_set_max(t, 16 * 1024 * 1024);
	/* 200 over the burst: a tick's refill during the loop is no matter. */
	for (i = 0; i < VIGIL_UID_BURST + 200; i++)
		insert_uid(t, 100 + i, uid, &h);
	us = share_find(t, uid);
	KUNIT_ASSERT_NOT_NULL(test, us);
	held = t->nr_held;
	KUNIT_EXPECT_GE(test, held, 100U);
	KUNIT_EXPECT_EQ(test, (u64)held, us->held);
	/* Audit takes nothing: all stay held and pinned. */
	emit_ok = false;
	emitted_n = 0;
	spin_lock(&t->lock);
	us->tokens = VIGIL_UID_BURST;
	t->tokens = VIGIL_UNPRIV_BURST;
	spin_unlock(&t->lock);
	KUNIT_EXPECT_EQ(test, vigil_table_release(t, fake_emit, &more), 0U);
	KUNIT_EXPECT_TRUE(test, more);
	KUNIT_EXPECT_EQ(test, t->nr_held, held);
	KUNIT_EXPECT_EQ(test, t->nr_pinned, held);
	/* Audit takes them: a batch a pass, oldest first, then unpinned. */
	emit_ok = true;
	n = vigil_table_release(t, fake_emit, &more);
	KUNIT_EXPECT_EQ(test, n, (unsigned int)VIGIL_RELEASE_BATCH);
	for (i = 1; i < n; i++)
		KUNIT_EXPECT_LT(test, emitted_seq[i - 1], emitted_seq[i]);
	KUNIT_EXPECT_EQ(test, t->nr_held, held - n);
	KUNIT_EXPECT_EQ(test, t->nr_pinned, held - n);
	KUNIT_EXPECT_EQ(test, us->released, (u64)n);
	while (more && n)
		n = vigil_table_release(t, fake_emit, &more);
	KUNIT_EXPECT_FALSE(test, more);
	KUNIT_EXPECT_EQ(test, t->nr_held, 0U);
	KUNIT_EXPECT_EQ(test, t->nr_pinned, 0U);
	KUNIT_EXPECT_EQ(test, t->released, (u64)held);
	KUNIT_EXPECT_EQ(test, t->upinned_bytes, (size_t)0);
	KUNIT_EXPECT_EQ(test, us->pinned_bytes, (size_t)0);
	/* Released tuples are like recorded ones: evictable. */
	vigil_table_set_max(t, 16 * 1024);
	KUNIT_EXPECT_LE(test, t->bytes, (size_t)16 * 1024);
}

/* Empty shares are reclaimed: the 1025th uid later gets its own. */
static void table_shares_reclaimed(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	bool h;
	int u;

	vigil_table_set_max(t, 16 * 1024 * 1024);
	for (u = 0; u < VIGIL_UIDS_MAX + 10; u++)
		KUNIT_ASSERT_EQ(test, insert_uid(t, 10 + u,
						 KUIDT_INIT(10000 + u), &h), 0);
	KUNIT_EXPECT_EQ(test, t->nr_uids, (unsigned int)VIGIL_UIDS_MAX);
	KUNIT_EXPECT_EQ(test, t->other->nr, 10U);
	/* Their tuples go; their buckets refill (a token: 10 ms). */
	spin_lock(&t->lock);
	t->swept = jiffies - 2 * HZ;
	spin_unlock(&t->lock);
	vigil_table_set_max(t, 16 * 1024);
	vigil_table_set_max(t, 16 * 1024 * 1024);
	msleep(50);
	KUNIT_EXPECT_EQ(test, insert_uid(t, 5, KUIDT_INIT(90000), &h), 0);
	KUNIT_EXPECT_NOT_NULL(test, share_find(t, KUIDT_INIT(90000)));
	KUNIT_EXPECT_GT(test, t->reclaimed, 0ULL);
	KUNIT_EXPECT_LT(test, t->nr_uids, (unsigned int)VIGIL_UIDS_MAX);
}

/* Names of one directory are compared, not only hashed. */
static void table_names_compared(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	struct vigil_key a, b;
	u64 seq;

	key_for(&a, 5, VIGIL_FILE_C);
	a.op = VIGIL_OP_MKDIR;
	a.obj_c = 0x1234;	/* the same hash for both names */
	b = a;
	a.name = (const unsigned char *)"x";
	a.namelen = 1;
	b.name = (const unsigned char *)"y";
	b.namelen = 1;
	KUNIT_EXPECT_EQ(test, insert(t, &a, "/d/x", VIGIL_VERDICT_LEARN,
				     &seq), 0);
	KUNIT_EXPECT_EQ(test, hit(t, &a, "/d/x"), VIGIL_VERDICT_LEARN);
	KUNIT_EXPECT_EQ(test, hit(t, &b, "/d/y"), -ENOENT);
	KUNIT_EXPECT_EQ(test, insert(t, &b, "/d/y", VIGIL_VERDICT_LEARN,
				     &seq), 0);
	KUNIT_EXPECT_EQ(test, t->nr, 2U);
	/* Each name has its own tuple. */
	KUNIT_EXPECT_EQ(test, hit(t, &b, "/d/y"), VIGIL_VERDICT_LEARN);
}

/*
 * One read chunk of the learned file: up to @n tuples after @cursor (from
 * the oldest when @first), each counted in @seen by its seq, then the
 * cursor parked before the next one, as learned_start/next/stop do.
 * Return: false at the end of the table.
 */
static bool read_chunk(struct vigil_table *t, struct vigil_entry *cursor,
		       bool first, int n, u8 *seen, size_t nseen)
{
	struct vigil_entry *e;

	spin_lock(&t->lock);
	e = vigil_table_next(t, first ? &t->fifo : &cursor->fifo);
	for (; e && n--; e = vigil_table_next(t, &e->fifo))
		if (e->seq < nseen)
			seen[e->seq]++;
	vigil_table_cursor_park(t, cursor, e);
	spin_unlock(&t->lock);
	return e;
}

/*
 * A reader of the learned file while tuples are evicted (the oldest, by
 * inserts into a full table), flushed (observe verdicts, before and just
 * after its place) and added: each tuple there from its first to its last
 * chunk is read exactly once, and none twice.
 */
static void table_cursor_never_skips(struct kunit *test)
{
	struct vigil_table *t = test->priv;
	struct vigil_entry *cursor, *e;
	const size_t nseen = 4096;
	struct vigil_key key;
	u64 seq, next = 0;
	int chunk = 0, i;
	char obj[32];
	bool more;
	u8 *seen;

	seen = kunit_kzalloc(test, nseen, GFP_KERNEL);
	cursor = kunit_kzalloc(test, sizeof(*cursor), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	KUNIT_ASSERT_NOT_NULL(test, cursor);
	vigil_table_cursor_init(cursor);
	/* A full table: every later insert evicts its oldest tuple. */
	while (!atomic64_read(&t->evictions)) {
		key_for(&key, 1000 + next, VIGIL_FILE_R);
		key.gen = next % 3 == 1;	/* an observe verdict */
		snprintf(obj, sizeof(obj), "/r/%llu", next++);
		KUNIT_ASSERT_EQ(test, insert(t, &key, obj, key.gen ?
					     VIGIL_VERDICT_DENY :
					     VIGIL_VERDICT_LEARN, &seq), 0);
	}
	more = read_chunk(t, cursor, true, 3, seen, nseen);
	while (more) {
		/* Two new tuples: two of the oldest go. */
		for (i = 0; i < 2; i++) {
			key_for(&key, 1000 + next, VIGIL_FILE_R);
			snprintf(obj, sizeof(obj), "/r/%llu", next++);
			KUNIT_ASSERT_EQ(test, insert(t, &key, obj,
						     VIGIL_VERDICT_LEARN,
						     &seq), 0);
		}
		/* Observe verdicts go: behind the reader and just ahead. */
		if (++chunk == 20)
			vigil_table_flush_observed(t);
		more = read_chunk(t, cursor, false, 3, seen, nseen);
	}
	KUNIT_ASSERT_LT(test, (size_t)t->seq, nseen);
	KUNIT_EXPECT_GT(test, chunk, 20);
	/* Every tuple still there was read once (the new ones at the end). */
	list_for_each_entry(e, &t->fifo, fifo)
		if (!vigil_entry_is_cursor(e))
			KUNIT_EXPECT_EQ_MSG(test, seen[e->seq], 1,
					    "seq %llu", e->seq);
	for (i = 0; i < nseen; i++)
		KUNIT_EXPECT_LE_MSG(test, seen[i], 1, "seq %d", i);
	vigil_table_cursor_drop(t, cursor);
}

static struct kunit_case vigil_table_test_cases[] = {
	KUNIT_CASE(table_insert_then_repeat),
	KUNIT_CASE(table_distinct_keys),
	KUNIT_CASE(table_allowed_not_numbered),
	KUNIT_CASE(table_eviction_bounds_memory),
	KUNIT_CASE(table_bytes_slab_rounded),
	KUNIT_CASE(table_concurrent_inserts),
	KUNIT_CASE(table_uid_share),
	KUNIT_CASE(table_pinned_kept),
	KUNIT_CASE(table_pinned_run),
	KUNIT_CASE(table_pins_bounded),
	KUNIT_CASE(table_names_compared),
	KUNIT_CASE(table_unpriv_rate),
	KUNIT_CASE(table_root_pin_reserve),
	KUNIT_CASE(table_release),
	KUNIT_CASE(table_shares_reclaimed),
	KUNIT_CASE(table_cursor_never_skips),
	{}
};

static struct kunit_suite vigil_table_test_suite = {
	.name = "vigil_table",
	.init = table_test_init,
	.exit = table_test_exit,
	.test_cases = vigil_table_test_cases,
};

kunit_test_suite(vigil_table_test_suite);
