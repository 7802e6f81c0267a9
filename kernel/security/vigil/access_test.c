// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil: KUnit tests of the file fast path's check (access.h:
 * vigil_file_fast_match()): a cached tuple counts a file access only when
 * it is exactly that access's tuple. Guest test: tests/vm/t/89-file-fast.sh.
 */

#include <kunit/test.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "access.h"
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

static struct kunit_case vigil_access_test_cases[] = {
	KUNIT_CASE(file_fast_hit),
	KUNIT_CASE(file_fast_renamed),
	KUNIT_CASE(file_fast_moved),
	KUNIT_CASE(file_fast_other_mount),
	KUNIT_CASE(file_fast_evicted),
	KUNIT_CASE(file_fast_key_parts),
	{}
};

static struct kunit_suite vigil_access_test_suite = {
	.name = "vigil_access",
	.test_cases = vigil_access_test_cases,
};

kunit_test_suite(vigil_access_test_suite);
