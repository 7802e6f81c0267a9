// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil: KUnit tests of the file fast path's check (access.h:
 * vigil_file_fast_match()): a cached tuple counts a file access only when
 * it is exactly that access's tuple. Guest test: tests/vm/t/89-file-fast.sh.
 * And the mode every fast path counts a repeat in (state.h:
 * vigil_fast_mode_of()), read from the subject's cached block word: a new
 * policy, a block's own mode and the global mode are seen by the next
 * repeat, never a stale word's.
 */

#include <kunit/test.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "access.h"
#include "policy.h"
#include "state.h"
#include "subject.h"
#include "table.h"
#include "vigil.h"

#define OBJ "/srv/data/report.txt"
#define NAME "report.txt"

static int mnt_a, mnt_b;	/* two mounts: only their addresses matter */

/* A learned tuple of an open of OBJ, stamped 0x11, and its access. */
static struct vigil_entry *fixture(struct kunit *test,
				   struct vigil_file_probe *p)
{
	size_t len = strlen(OBJ);
	struct vigil_entry *e;

	e = kunit_kzalloc(test, struct_size(e, obj, len + 1), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	e->key.fast = VIGIL_FAST_FILE | 0x1234;
	e->key.op = VIGIL_OP_OPEN;
	e->key.access = VIGIL_FILE_R;
	e->key.mnt = &mnt_a;
	e->key.obj_a = 7;
	e->key.obj_b = 3;
	e->key.uid_key = VIGIL_UID_KEY_USERS;
	e->stamp = 0x11;
	e->verdict = VIGIL_VERDICT_LEARN;
	e->objlen = len;
	e->namelen = strlen(NAME);
	memcpy(e->obj, OBJ, len + 1);

	*p = (struct vigil_file_probe){
		.fast = e->key.fast,
		.stamp = 0x11,
		.mnt = &mnt_a,
		.obj_a = 7,
		.obj_b = 3,
		.name = NAME,
		.access = VIGIL_FILE_R,
		.uid_key = VIGIL_UID_KEY_USERS,
		.op = VIGIL_OP_OPEN,
	};
	return e;
}

static void file_fast_hit(struct kunit *test)
{
	struct vigil_file_probe p;
	struct vigil_entry *e = fixture(test, &p);

	KUNIT_EXPECT_TRUE(test, vigil_file_fast_match(e, &p));
	/* Observe mode: the same generation. */
	e->key.gen = 4;
	p.gen = 4;
	KUNIT_EXPECT_TRUE(test, vigil_file_fast_match(e, &p));
}

/* The file renamed: same dentry, so same slot, but another name. */
static void file_fast_renamed(struct kunit *test)
{
	static const char * const names[] = {
		"report.txv", "report.tx", "report.txt~", "", "Report.txt",
	};
	struct vigil_file_probe p;
	struct vigil_entry *e = fixture(test, &p);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		p.name = names[i];
		KUNIT_EXPECT_FALSE_MSG(test, vigil_file_fast_match(e, &p),
				       "%s", names[i]);
	}
	/* Moved to another folder under the same name. */
	fixture(test, &p);
	p.obj_b = 4;
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
	/* Another inode, or one vigil has not keyed yet (0). */
	p.obj_b = 3;
	p.obj_a = 8;
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
	p.obj_a = 0;
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
	/* A tuple whose path does not end with its name: never. */
	fixture(test, &p);
	e->namelen = 0;
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
}

/* A folder moved or a mount changed since the tuple was stamped. */
static void file_fast_moved(struct kunit *test)
{
	struct vigil_file_probe p;
	struct vigil_entry *e = fixture(test, &p);

	p.stamp = 0x13;
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
	/* Found under a folder whose number may change: never stamped. */
	e->stamp = 0;
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
}

static void file_fast_other_mount(struct kunit *test)
{
	struct vigil_file_probe p;
	struct vigil_entry *e = fixture(test, &p);

	p.mnt = &mnt_b;
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
}

/* Evicted (or flushed by a policy load): dead, never counted. */
static void file_fast_evicted(struct kunit *test)
{
	struct vigil_file_probe p;
	struct vigil_entry *e = fixture(test, &p);

	e->dead = true;
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
}

/* The uid class, op, access, generation, namespace, cache key. */
static void file_fast_key_parts(struct kunit *test)
{
	struct vigil_file_probe p;
	struct vigil_entry *e = fixture(test, &p);

	p.uid_key = 0;		/* root's access of a user's tuple */
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
	fixture(test, &p);
	p.uid_key = 100;	/* a system account's */
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
	fixture(test, &p);
	p.op = VIGIL_OP_EXEC;
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
	fixture(test, &p);
	p.access = VIGIL_FILE_R | VIGIL_FILE_W;
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
	fixture(test, &p);
	p.gen = 1;		/* observe mode, a tuple of learn mode */
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
	fixture(test, &p);
	p.nsx = 1;
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
	fixture(test, &p);
	/* A capability's tuple in the slot: another compact key. */
	p.fast = VIGIL_FAST_CAP | 0x1234;
	KUNIT_EXPECT_FALSE(test, vigil_file_fast_match(e, &p));
}

/* The fast path's mode and generation of @s's access as @uid_key. */
static unsigned int fast_mode(struct vigil_loaded_policy *lp,
			      struct vigil_subject *s, u32 uid_key,
			      enum vigil_mode global, u32 *gen)
{
	*gen = 0xdead;
	return vigil_fast_mode_of(lp, s, uid_key, global, gen);
}

/* Load @text as generation @gen into @lp, freeing the one it held. */
static void load(struct kunit *test, struct vigil_loaded_policy *lp,
		 const char *text, u32 gen)
{
	struct vigil_policy *p;

	KUNIT_ASSERT_EQ(test, vigil_policy_parse(text, strlen(text), &p, NULL),
			0);
	if (lp->policy)
		vigil_policy_free(lp->policy);
	lp->policy = p;
	lp->gen = gen;
}

static struct vigil_subject *subject_a(struct kunit *test)
{
	struct vigil_subject *s;

	s = kunit_kzalloc(test, struct_size(s, exe, 32), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->len = strlen("/usr/bin/a");
	memcpy(s->exe, "/usr/bin/a", s->len);
	return s;
}

/*
 * Expect @want and @want_gen of @s's access as @uid under global mode
 * @global.
 */
static void expect_fast(struct kunit *test, struct vigil_loaded_policy *lp,
			struct vigil_subject *s, u32 uid,
			enum vigil_mode global, unsigned int want,
			u32 want_gen)
{
	u32 gen;

	KUNIT_EXPECT_EQ_MSG(test, fast_mode(lp, s, uid, global, &gen), want,
			    "uid key %u, global %d", uid, global);
	KUNIT_EXPECT_EQ_MSG(test, gen, want_gen, "uid key %u, global %d",
			    uid, global);
}

/*
 * Each policy load is a new generation: the word cached for the last one
 * is stale, and the next repeat takes the new block's mode and generation
 * (observe: the generation its tuples carry); a block's own mode wins over
 * the global one, which is read at each repeat.
 */
static void fast_mode_reload(struct kunit *test)
{
	struct vigil_loaded_policy *lp;
	struct vigil_subject *s = subject_a(test);
	const u32 user = VIGIL_UID_KEY_USERS;
	int round;

	lp = kunit_kzalloc(test, sizeof(*lp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lp);
	/* No policy: the global mode. */
	expect_fast(test, NULL, s, user, VIGIL_MODE_OFF, VIGIL_MODE_OFF, 0);
	expect_fast(test, NULL, s, user, VIGIL_MODE_LEARN, VIGIL_MODE_LEARN, 0);
	expect_fast(test, NULL, s, user, VIGIL_MODE_OBSERVE,
		    VIGIL_MODE_OBSERVE, 0);

	load(test, lp, "subject /usr/bin/a {\n\tfile r /etc/a\n}\n", 1);
	/* The second round reads the word the first cached. */
	for (round = 0; round < 2; round++) {
		expect_fast(test, lp, s, user, VIGIL_MODE_OFF, VIGIL_MODE_OFF,
			    0);
		expect_fast(test, lp, s, user, VIGIL_MODE_LEARN,
			    VIGIL_MODE_LEARN, 0);
		expect_fast(test, lp, s, user, VIGIL_MODE_OBSERVE,
			    VIGIL_MODE_OBSERVE, 1);
	}
	/* Cached: the same answer though the subject's name now says b. */
	memcpy(s->exe, "/usr/bin/b", s->len);
	expect_fast(test, lp, s, user, VIGIL_MODE_OBSERVE, VIGIL_MODE_OBSERVE,
		    1);
	memcpy(s->exe, "/usr/bin/a", s->len);

	/* A block that observes whatever the global mode. */
	load(test, lp, "subject /usr/bin/a observe {\n}\n", 2);
	expect_fast(test, lp, s, user, VIGIL_MODE_OFF, VIGIL_MODE_OBSERVE, 2);
	expect_fast(test, lp, s, user, VIGIL_MODE_LEARN, VIGIL_MODE_OBSERVE, 2);
	expect_fast(test, lp, s, user, VIGIL_MODE_OBSERVE,
		    VIGIL_MODE_OBSERVE, 2);
	/* ... that is off ... */
	load(test, lp, "subject /usr/bin/a off {\n}\n", 3);
	expect_fast(test, lp, s, user, VIGIL_MODE_LEARN, VIGIL_MODE_OFF, 0);
	expect_fast(test, lp, s, user, VIGIL_MODE_OBSERVE, VIGIL_MODE_OFF, 0);
	/* ... that learns: tuples of generation 0. */
	load(test, lp, "subject /usr/bin/a learn {\n}\n", 4);
	expect_fast(test, lp, s, user, VIGIL_MODE_OFF, VIGIL_MODE_LEARN, 0);
	expect_fast(test, lp, s, user, VIGIL_MODE_OBSERVE, VIGIL_MODE_LEARN,
		    0);
	/* Not named: observed, only counted; learning still learns. */
	load(test, lp, "subject /usr/bin/b observe {\n}\n", 5);
	expect_fast(test, lp, s, user, VIGIL_MODE_OBSERVE, VIGIL_FAST_UNNAMED,
		    0);
	expect_fast(test, lp, s, user, VIGIL_MODE_LEARN, VIGIL_MODE_LEARN, 0);
	/* Named again: the new generation, not a cached one. */
	load(test, lp, "subject /usr/bin/a {\n}\n", 6);
	expect_fast(test, lp, s, user, VIGIL_MODE_OBSERVE, VIGIL_MODE_OBSERVE,
		    6);
	/* The slow path finds the block the fast path cached. */
	KUNIT_EXPECT_PTR_EQ(test, vigil_policy_block(lp, s, VIGIL_UCLASS_USER),
			    vigil_policy_subject_at(lp->policy, 0));
	vigil_policy_free(lp->policy);
}

/*
 * One word per uid class: an access as root, a system account or a user
 * takes its own class's block, each cached on its own.
 */
static void fast_mode_uclass(struct kunit *test)
{
	struct vigil_loaded_policy *lp;
	struct vigil_subject *s = subject_a(test);
	int round;

	KUNIT_EXPECT_EQ(test, vigil_uclass_of(0), VIGIL_UCLASS_ROOT);
	KUNIT_EXPECT_EQ(test, vigil_uclass_of(1), VIGIL_UCLASS_SYSTEM);
	KUNIT_EXPECT_EQ(test, vigil_uclass_of(VIGIL_SYS2_UID_MAX),
			VIGIL_UCLASS_SYSTEM);
	KUNIT_EXPECT_EQ(test, vigil_uclass_of(VIGIL_UID_KEY_USERS),
			VIGIL_UCLASS_USER);
	KUNIT_EXPECT_EQ(test, vigil_uid_key(KUIDT_INIT(1000)),
			VIGIL_UID_KEY_USERS);
	lp = kunit_kzalloc(test, sizeof(*lp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lp);
	load(test, lp,
	     "subject /usr/bin/a uid root observe {\n}\n"
	     "subject /usr/bin/a uid user off {\n}\n", 9);
	for (round = 0; round < 2; round++) {
		expect_fast(test, lp, s, 0, VIGIL_MODE_LEARN,
			    VIGIL_MODE_OBSERVE, 9);
		expect_fast(test, lp, s, VIGIL_UID_KEY_USERS,
			    VIGIL_MODE_LEARN, VIGIL_MODE_OFF, 0);
		/* No block for system accounts: the global mode. */
		expect_fast(test, lp, s, 100, VIGIL_MODE_LEARN,
			    VIGIL_MODE_LEARN, 0);
		expect_fast(test, lp, s, 100, VIGIL_MODE_OBSERVE,
			    VIGIL_FAST_UNNAMED, 0);
	}
	vigil_policy_free(lp->policy);
}

static struct kunit_case vigil_access_test_cases[] = {
	KUNIT_CASE(file_fast_hit),
	KUNIT_CASE(file_fast_renamed),
	KUNIT_CASE(file_fast_moved),
	KUNIT_CASE(file_fast_other_mount),
	KUNIT_CASE(file_fast_evicted),
	KUNIT_CASE(file_fast_key_parts),
	KUNIT_CASE(fast_mode_reload),
	KUNIT_CASE(fast_mode_uclass),
	{}
};

static struct kunit_suite vigil_access_test_suite = {
	.name = "vigil_access",
	.test_cases = vigil_access_test_cases,
};

kunit_test_suite(vigil_access_test_suite);
