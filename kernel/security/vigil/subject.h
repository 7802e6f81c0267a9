/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil: subjects (subject.c), their exec chains (chain.c), the cred, inode
 * and task blobs.
 */
#ifndef _SECURITY_VIGIL_SUBJECT_H
#define _SECURITY_VIGIL_SUBJECT_H

#include <linux/atomic.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/refcount.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "vigil_limits.h"
#include "vigil.h"

/*
 * subject.c: the executable a task runs, interned, shared by the creds and
 * tuples that name it and freed after the last of them.
 */
/*
 * Compact keys (vigil_access.fast): a capability, a socket; and a file's
 * cache key (access.c: file_fast_key()), which only finds a tuple to
 * verify, never stands for the file.
 */
#define VIGIL_FAST_FILE BIT_ULL(61)
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
	/*
	 * Accesses counted, per CPU (vigil_subject_events()): a repeat adds
	 * one without a locked instruction nor a cache line shared with the
	 * other CPUs that run the same program.
	 */
	u64 __percpu *events;
	atomic64_t first_sightings;
	atomic64_t would_deny;
	u32 mntns;	/* 0: initial mount namespace, else its inode number */
	u64 mntns_id;	/* and its unique id (vigil_mntns_current()) */
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
	 * Its block in the loaded policy for an access under each uid class
	 * (enum vigil_uclass; state.c: vigil_policy_block()): the block word
	 * (state.h): the policy's generation << 32, the fast path's mode
	 * under each global mode, the block's index + 1 (0 when no block
	 * names it); 0: not looked up yet.
	 */
	atomic64_t block[VIGIL_UCLASS_COUNT];
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
	/*
	 * A SysV shared memory segment's inode: the subject that created the
	 * segment (shmget()), a reference held until the inode is freed;
	 * NULL for other inodes but, after a failed shmget(), the task's next
	 * internal tmpfs one (hooks_fs.c: vigil_inode_alloc_security()).
	 */
	struct vigil_subject *shm_creator;
};

/*
 * A task's blob: set by shm_alloc_security, cleared by the task's next
 * inode allocation, which in shmget() is the new segment's inode.
 */
struct vigil_task {
	bool shm_creating;
};

static inline struct vigil_task *vigil_task(const struct task_struct *task)
{
	return task->security + vigil_blob_sizes.lbs_task;
}

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

/* Count an access of @s (vigil_subject.events); never sleeps. */
static inline void vigil_subject_event(struct vigil_subject *s)
{
	this_cpu_inc(*s->events);
}

u64 vigil_subject_events(const struct vigil_subject *s);

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
 * VIGIL_VIA_MAX bytes (vigil_limits.h), the nearest ancestors kept.
 */

struct vigil_policy_name;
unsigned int vigil_via_split(const char *via, size_t len,
			     struct vigil_policy_name *names, unsigned int max,
			     bool *ret_cut);
size_t vigil_via_build(char *buf, const char *via, size_t via_len,
		       const char *exe, size_t len, bool cut, bool crossed);

#endif /* _SECURITY_VIGIL_SUBJECT_H */
