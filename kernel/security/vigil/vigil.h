/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil: declarations shared by the LSM's files. */
#ifndef _SECURITY_VIGIL_VIGIL_H
#define _SECURITY_VIGIL_VIGIL_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/cred.h>
#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/lsm_audit.h>
#include <linux/lsm_hooks.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/mutex.h>
#include <linux/nsproxy.h>
#include <linux/path.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "compat.h"
#include "limits.h"
#include "ops.h"

enum vigil_mode {
	VIGIL_MODE_OFF,
	VIGIL_MODE_LEARN,
	VIGIL_MODE_OBSERVE,
	VIGIL_MODE_COUNT,
};

/* What the table holds for a tuple; part of its key. */
enum vigil_verdict {
	VIGIL_VERDICT_LEARN,	/* learn mode: first sighting recorded */
	VIGIL_VERDICT_DENY,	/* observe mode: the policy would deny */
	VIGIL_VERDICT_ALLOW,	/* observe mode: allowed, counted only */
	VIGIL_VERDICT_COUNT,
};

extern bool vigil_enabled;
extern struct lsm_blob_sizes vigil_blob_sizes;
DECLARE_STATIC_KEY_FALSE(vigil_active);

/* mode.c */
const char *vigil_mode_name(enum vigil_mode mode);
int vigil_mode_parse(const char *buf, size_t len, enum vigil_mode *ret_mode);
void vigil_mode_set(enum vigil_mode mode);
extern enum vigil_mode vigil_global_mode;

static inline enum vigil_mode vigil_mode_get(void)
{
	return READ_ONCE(vigil_global_mode);
}

const char *vigil_verdict_name(enum vigil_verdict verdict);

/*
 * The uid a tuple is keyed by: root's and each system account's own, or
 * VIGIL_UID_KEY_USERS for every other uid (the class "user"). System
 * accounts are Debian Policy's (9.2.2): 1 to 999 (adduser's SYS_UID_MAX)
 * and 60000 to 65535 (Debian's own accounts, nobody, systemd's
 * DynamicUser= range 61184-65519); a user's subordinate uids start at
 * 100000. A user, however many uids it holds, never shares a tuple with
 * root or a service account, so its run of a service's program cannot
 * record that service's accesses as its own first.
 */
#define VIGIL_SYS_UID_MAX 999
#define VIGIL_SYS2_UID_MIN 60000
#define VIGIL_SYS2_UID_MAX 65535
#define VIGIL_UID_KEY_USERS U32_MAX

enum vigil_uclass {
	VIGIL_UCLASS_ROOT,
	VIGIL_UCLASS_SYSTEM,
	VIGIL_UCLASS_USER,
};

static inline u32 vigil_uid_key(kuid_t kuid)
{
	/* A kuid is the uid the initial user namespace sees. */
	u32 uid = __kuid_val(kuid);

	if (uid <= VIGIL_SYS_UID_MAX ||
	    (uid >= VIGIL_SYS2_UID_MIN && uid <= VIGIL_SYS2_UID_MAX))
		return uid;
	return VIGIL_UID_KEY_USERS;
}

static inline enum vigil_uclass vigil_uclass_of(u32 uid_key)
{
	if (!uid_key)
		return VIGIL_UCLASS_ROOT;
	return uid_key == VIGIL_UID_KEY_USERS ? VIGIL_UCLASS_USER :
						VIGIL_UCLASS_SYSTEM;
}

const char *vigil_uclass_name(enum vigil_uclass c);

/*
 * subject.c: the executable a task runs, interned, shared by the creds and
 * tuples that name it and freed after the last of them.
 */
/* Compact keys (vigil_access.fast): a capability, a socket. */
#define VIGIL_FAST_CAP BIT_ULL(62)
#define VIGIL_FAST_NET BIT_ULL(63)

struct vigil_entry;

struct vigil_subject {
	struct hlist_node node;
	struct rcu_head rcu;
	refcount_t ref;
	kuid_t owner;		/* the uid charged for it, when charged */
	bool charged;
	bool permanent;		/* "?" (and KUnit's): never counted or freed */
	u32 hash;
	u32 id;
	atomic64_t execs;
	atomic64_t events;
	atomic64_t first_sightings;
	atomic64_t would_deny;
	u32 mntns;	/* 0: initial mount namespace, else its id */
	u8 uclass;	/* enum vigil_uclass of the real uid that exec'd it */
	/*
	 * Its exec changed the uid class from its exec parent's (a user's
	 * service manager started by root's): its exe is kept in its
	 * children's chains even when it repeats the nearest element.
	 */
	u8 crossed;
	/*
	 * Tuples of this subject by their compact key (vigil_access.fast):
	 * read under RCU, cleared by the eviction of the tuple (see
	 * vigil_fast_remember()); a cache, never the only copy.
	 */
	struct vigil_entry *fast[VIGIL_FAST_SLOTS];
	/*
	 * Its block in the loaded policy (state.c: vigil_policy_block()):
	 * the policy's generation << 32 | the block's index + 1, or 0 in the
	 * low half when no block names it; 0: not looked up yet.
	 */
	atomic64_t block;
	u32 len;
	u32 via_len;	/* 0: no exec ancestor */
	/* The exe, NUL, then its chain (vigil_subject_via()), NUL. */
	char exe[];
};

/* The subject's exec chain (chain.c); via_len bytes, none when 0. */
static inline const char *vigil_subject_via(const struct vigil_subject *s)
{
	return s->exe + s->len + 1;
}

struct vigil_cred {
	struct vigil_subject *subject;
};

/*
 * An inode's identity: never reused, given when vigil first keys it; and
 * for a folder, its place in the order of folder moves (access.c:
 * path_moved()).
 */
struct vigil_inode {
	atomic64_t id;
	/*
	 * The number of its last rename, or when it has none, the number of
	 * moves before vigil first saw it (this instance of the inode); 0
	 * until then.
	 */
	atomic64_t moved;
	/* Where its last rename takes it (move_sig()); 0: never renamed. */
	u64 moved_to;
	u64 moved_prev;	/* its number before its last rename */
};

static inline struct vigil_inode *vigil_inode(const struct inode *inode)
{
	return inode->i_security + vigil_blob_sizes.lbs_inode;
}

void vigil_folder_moving(const struct dentry *dentry,
			 const struct dentry *to);

static inline struct vigil_cred *vigil_cred(const struct cred *cred)
{
	return cred->security + vigil_blob_sizes.lbs_cred;
}

static inline struct vigil_subject *vigil_subject_of(const struct cred *cred)
{
	return vigil_cred(cred)->subject;
}

extern unsigned int vigil_max_subjects;
int __init vigil_subject_hooks_init(void);
unsigned int vigil_subject_count(void);
u64 vigil_subject_folded(void);
struct vigil_subject *vigil_subject_get(struct vigil_subject *s);
struct vigil_subject *vigil_subject_tryget(struct vigil_subject *s);
void vigil_subject_put(struct vigil_subject *s);
void vigil_subjects_for_each(void (*fn)(const struct vigil_subject *, void *),
			     void *arg);

/*
 * chain.c: exec chains ("via"): at most VIGIL_VIA_ELEMS elements and
 * VIGIL_VIA_MAX bytes (limits.h), the nearest ancestors kept.
 */

struct vigil_policy_name;
unsigned int vigil_via_split(const char *via, size_t len,
			     struct vigil_policy_name *names, unsigned int max,
			     bool *ret_cut);
size_t vigil_via_build(char *buf, const char *via, size_t via_len,
		       const char *exe, size_t len, bool cut, bool crossed);

/* state.c: the loaded candidate policy, published with RCU. */
struct vigil_policy;
struct vigil_policy_subject;
struct vigil_loaded_policy {
	struct vigil_policy *policy;
	u32 gen;
	bool has_modes;
};

extern struct vigil_loaded_policy __rcu *vigil_policy_current;
extern struct mutex vigil_state_lock;
const struct vigil_policy_subject *
vigil_policy_block(struct vigil_loaded_policy *lp, struct vigil_subject *subj);
int vigil_policy_replace(const char *text, size_t len, char *err,
			 size_t errsize);
void vigil_active_update(void);
u32 vigil_policy_gen(void);

/*
 * person.c: the owners of subordinate uid ranges (the owners file): a uid
 * in a range is charged to its owner.
 */
struct vigil_owner_range {
	u32 first;
	u32 count;
	u32 owner;
};

struct vigil_owners {
	unsigned int n;
	struct vigil_owner_range r[];	/* sorted, not overlapping */
};

kuid_t vigil_person(kuid_t uid);
kuid_t vigil_owners_lookup(const struct vigil_owners *o, u32 uid);
int vigil_owners_parse(const char *text, struct vigil_owners **ret,
		       char *err, size_t errsize);
void vigil_owners_replace(struct vigil_owners *o);
char *vigil_owners_dump(size_t *ret_len);

/* table.c: the bounded aggregation table of distinct tuples. */
struct vigil_key {
	struct vigil_subject *subj;	/* a reference, in the table */
	/*
	 * A file: its inode's id, its parent directory's id, the mount and
	 * a keyed hash of its name; a name in a directory: the directory's
	 * id, 0, the mount and the name's hash. Other objects: 0, compared
	 * by their string (by_name).
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
	/* The access's compact key (vigil_access.fast), or 0; not compared. */
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
	u16 namelen;	/* the key's name ends obj (0: not comparable) */
	/* Its record was not delivered: kept until the learned file shows it. */
	bool pinned;
	bool held;	/* held back: in its share's held_list, unless releasing */
	bool releasing;	/* its record is being written by the release work */
	bool dead;	/* unlinked: no fast path may count it */
	u16 objlen;
	char obj[];
};

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
		       u32 mntns, enum vigil_verdict verdict, u64 *ret_seq,
		       bool *ret_held, struct vigil_entry **ret_e);
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

/* stats.c */
enum vigil_stat {
	VIGIL_STAT_EMITTED,
	VIGIL_STAT_LOST,
	VIGIL_STAT_SUPPRESSED,
	VIGIL_STAT_WOULD_DENY,
	VIGIL_STAT_ALLOWED,
	VIGIL_STAT_NOMEM,
	VIGIL_STAT_SKIPPED_ATOMIC,
	VIGIL_STAT_HELD,
	VIGIL_STAT_COUNT,
};

struct vigil_pcpu_stats {
	u64 hook[VIGIL_OP_COUNT];
	u64 stat[VIGIL_STAT_COUNT];
};

DECLARE_PER_CPU(struct vigil_pcpu_stats, vigil_stats);

static inline void vigil_stat_inc(enum vigil_stat s)
{
	this_cpu_inc(vigil_stats.stat[s]);
}

u64 vigil_stat_sum(enum vigil_stat s);
u64 vigil_hook_sum(enum vigil_op op);
const char *vigil_stat_name(enum vigil_stat s);

/* audit.c */
extern int vigil_audit_type;
bool vigil_record_released(const struct vigil_entry *e);

/* An access as the hooks describe it. */
struct vigil_access {
	enum vigil_op op;
	u64 access;
	const struct path *path;	/* file objects */
	const struct dentry *child;	/* the object is path/child's name */
	const char *target;		/* other objects */
	size_t target_len;
	struct common_audit_data ad;	/* lsm_audit data for the record */
	/*
	 * The hook runs where it may sleep and holds no lock auditd could
	 * need: a record may then wait for room in audit's backlog, as the
	 * syscall's own records do, instead of being lost.
	 */
	bool may_sleep;
	/*
	 * An O_TMPFILE file: path is its folder, child the file (named
	 * "#INO" by the kernel); one tuple per folder and access.
	 */
	bool tmpfile;
	/*
	 * The task whose credentials are checked, when not current (the
	 * tracer of PTRACE_TRACEME): the record's pid and comm are its.
	 */
	struct task_struct *actor;
	/*
	 * A compact key of (object) that no other object of the same op
	 * shares (a capability, a socket's family, type and port), or 0: a
	 * repeat is then found by vigil_observe_fast() before the object
	 * string is built or hashed.
	 */
	u64 fast;
};

bool vigil_record(const struct vigil_subject *subj, const struct cred *cred,
		  enum vigil_verdict verdict, const struct vigil_access *acc,
		  const char *obj, size_t len, u32 mntns, u64 seq);

/* path.c: names as the initial mount namespace sees them. */
const char *vigil_path_resolve(const struct path *path, char *buf,
			       bool *ret_foreign);
bool vigil_dentry_mount(const struct dentry *dentry, struct path *ret_path);
u32 vigil_mntns_current(void);

/* Is the current task in the initial mount namespace? Never sleeps. */
static inline bool vigil_mntns_initial(void)
{
	const struct nsproxy *ns = current->nsproxy;

	return likely(ns == &init_nsproxy) ||
	       (ns && ns->mnt_ns == init_nsproxy.mnt_ns);
}

/* access.c: the one entry point of every hook. */
void vigil_observe(const struct cred *cred, struct vigil_access *acc);
u64 vigil_fast_mode(struct vigil_subject *subj);
void vigil_account_repeat(struct vigil_subject *subj, int verdict);

/**
 * vigil_observe_fast - count a repeat of a compact access cheaply
 * @cred: the credentials of the subject
 * @op: the operation
 * @access: its access bits
 * @fast: the compact key of its object (vigil_access.fast)
 *
 * The subject's cache names the tuple the same compact access hit last:
 * when it is still in the table, under the same mode, policy generation
 * and namespace, count it as vigil_observe() would, without building,
 * hashing or looking up the object. Hooks call it before they build their
 * struct vigil_access (clearing it costs more than this check), and only
 * in task context. Never sleeps. Inline, and every branch counts: a
 * capability check is a cheap system call (tests/bench/steady-ab).
 *
 * Return: true when counted; false when vigil_observe() must be called.
 */
static __always_inline bool vigil_observe_fast(const struct cred *cred,
					       enum vigil_op op, u64 access,
					       u64 fast)
{
	struct vigil_subject *subj = vigil_subject_of(cred);
	enum vigil_mode mode;
	struct vigil_entry *e;
	bool hit = false;
	u32 gen = 0;

	if (!subj || !fast)
		return false;
	rcu_read_lock();
	mode = vigil_mode_get();
	if (unlikely(rcu_access_pointer(vigil_policy_current))) {
		u64 mode_gen = vigil_fast_mode(subj);

		mode = (u32)mode_gen;
		gen = mode_gen >> 32;
	}
	if (mode == VIGIL_MODE_OFF)
		goto out;
	e = READ_ONCE(*vigil_fast_slot(subj, fast));
	if (!e)
		goto out;
	/* One test, no branch each: the cached tuple is this access's. */
	if ((e->key.fast ^ fast) | (e->key.op ^ op) | (e->key.access ^ access) |
	    (e->key.gen ^ gen) | (e->key.nsx ^ !vigil_mntns_initial()) |
	    (e->key.uid_key ^ vigil_uid_key(cred->uid)) | READ_ONCE(e->dead))
		goto out;
	this_cpu_inc(vigil_stats.hook[op]);
	atomic64_inc(&subj->events);
	vigil_entry_touch(e);
	if (likely(e->verdict == VIGIL_VERDICT_LEARN))
		vigil_stat_inc(VIGIL_STAT_SUPPRESSED);
	else
		vigil_account_repeat(subj, e->verdict);
	hit = true;
out:
	rcu_read_unlock();
	return hit;
}

static inline bool vigil_should_observe(void)
{
	return static_branch_unlikely(&vigil_active);
}

/* hooks_*.c */
void vigil_inherited_files(const struct cred *cred);
void __init vigil_fs_hooks_init(void);
void __init vigil_net_hooks_init(void);
void __init vigil_task_hooks_init(void);

#endif /* _SECURITY_VIGIL_VIGIL_H */
