/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil: an access as the hooks describe it, and the entry point every
 * hook calls (access.c) with its inline fast path.
 */
#ifndef _SECURITY_VIGIL_ACCESS_H
#define _SECURITY_VIGIL_ACCESS_H

#include <linux/cred.h>
#include <linux/lsm_audit.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/types.h>

#include "ops.h"
#include "path.h"
#include "state.h"
#include "stats.h"
#include "subject.h"
#include "table.h"
#include "vigil.h"

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
	 * An executable memfd's creator: the subject that made it (the
	 * file's opener), a tuple apart from another creator's of the same
	 * name, named in the record (creator=); NULL for other objects.
	 */
	const struct vigil_subject *creator;
	/*
	 * An abstract unix name's network namespace when it is not the
	 * initial one (abstract names are per namespace): its cookie, a
	 * tuple apart from the initial namespace's name (netns=); else 0.
	 */
	u64 netns;
	/*
	 * A compact key of (object) that no other object of the same op
	 * shares (a capability, a socket's family, type and port), or 0: a
	 * repeat is then found by vigil_observe_fast() before the object
	 * string is built or hashed.
	 */
	u64 fast;
};

/* access.c: the one entry point of every hook. */
void vigil_observe(const struct cred *cred, struct vigil_access *acc);
void vigil_account_repeat(struct vigil_subject *subj, int verdict);
bool vigil_observe_file(const struct cred *cred, enum vigil_op op,
			u64 access, const struct path *path);

/* A file access as the file fast path sees it (vigil_observe_file()). */
struct vigil_file_probe {
	u64 fast;		/* its cache key */
	u64 stamp;		/* folder moves and mount changes, now */
	const void *mnt;
	u64 obj_a;		/* its inode's id, 0 if it has none yet */
	u64 obj_b;		/* its folder's */
	const unsigned char *name;	/* its name, NUL-terminated */
	u64 access;
	u32 gen;
	u32 uid_key;
	u16 op;
	u8 nsx;
};

/**
 * vigil_file_fast_match - is @e the tuple of the file access @p?
 * @e: the tuple the subject's cache slot holds (under rcu_read_lock())
 * @p: the access
 *
 * Exactly what vigil_table_hit() would find: a file's tuple (by_name 0:
 * the cache key's bit) of the same mount, inode, folder and name bytes
 * (the siphash of the name is the name's), op, access, generation,
 * namespace and uid key, not evicted, and stamped at @p's stamp: no folder
 * moved and no mount changed since its moved number was last found right,
 * so the walk would find it again. A tuple whose path does not end with
 * its name (namelen 0) is never matched: its name cannot be compared.
 */
static inline bool vigil_file_fast_match(const struct vigil_entry *e,
					 const struct vigil_file_probe *p)
{
	/*
	 * One test, no branch each (under emulation every branch costs); a
	 * tuple with a file's cache key has both ids (never 0).
	 */
	if ((e->key.fast ^ p->fast) | (e->key.op ^ p->op) |
	    (e->key.access ^ p->access) | (e->key.gen ^ p->gen) |
	    (e->key.nsx ^ p->nsx) | (e->key.uid_key ^ p->uid_key) |
	    READ_ONCE(e->dead) | (READ_ONCE(e->stamp) ^ p->stamp) |
	    ((unsigned long)e->key.mnt ^ (unsigned long)p->mnt) |
	    (e->key.obj_a ^ p->obj_a) | (e->key.obj_b ^ p->obj_b) |
	    !e->namelen)
		return false;
	return !strcmp(p->name, e->obj + e->objlen - e->namelen);
}

/*
 * An access of a subject that observe mode judges with no block of its own
 * (VIGIL_FAST_UNNAMED): counted as vigil_observe() counts it, nothing
 * would deny it and no tuple is kept.
 */
static __always_inline void vigil_count_unnamed(struct vigil_subject *subj,
						enum vigil_op op)
{
	this_cpu_inc(vigil_stats.hook[op]);
	vigil_subject_event(subj);
	vigil_stat_inc(VIGIL_STAT_ALLOWED);
}

/*
 * Count a repeat of a tuple of @verdict as vigil_observe() does: learned,
 * suppressed; allowed, allowed; a would-be denial out of line (it is also
 * the subject's).
 */
static __always_inline void vigil_count_repeat(struct vigil_subject *subj,
					       u8 verdict)
{
	if (unlikely(verdict == VIGIL_VERDICT_DENY)) {
		vigil_account_repeat(subj, verdict);
		return;
	}
	this_cpu_inc(vigil_stats.stat[verdict == VIGIL_VERDICT_ALLOW ?
				      VIGIL_STAT_ALLOWED :
				      VIGIL_STAT_SUPPRESSED]);
}

/**
 * vigil_observe_fast - count a repeat of a compact access cheaply
 * @cred: the credentials of the subject
 * @op: the operation
 * @access: its access bits
 * @fast: the compact key of its object (vigil_access.fast)
 *
 * The subject's cache names the tuple the same compact access hit last:
 * when it is still in the table, under the same mode, policy generation
 * (the subject's block word, vigil_fast_mode_of(): no call while a loaded
 * policy's block is cached) and namespace, count it as vigil_observe() would, without building,
 * hashing or looking up the object. Hooks call it before they build their
 * struct vigil_access (clearing it costs more than this check), and only
 * in task context. Never sleeps. Inline, and every branch counts: a
 * capability check is a cheap system call (tests/bench/steady-ab). A task
 * with no subject (exec'd while vigil was off, or before it) and a subject
 * observed with no block of its own are done here too, as vigil_observe()
 * would do them, before the hook builds anything.
 *
 * Return: true when done; false when vigil_observe() must be called.
 */
static __always_inline bool vigil_observe_fast(const struct cred *cred,
					       enum vigil_op op, u64 access,
					       u64 fast)
{
	struct vigil_subject *subj = vigil_subject_of(cred);
	u32 gen, uid_key = vigil_uid_key(cred->uid);
	struct vigil_entry *e;
	unsigned int mode;
	bool hit = false;

	if (unlikely(!subj))
		return true;	/* not observed: vigil_observe() returns too */
	if (!fast)
		return false;
	rcu_read_lock();
	mode = vigil_fast_mode_of(rcu_dereference(vigil_policy_current), subj,
				  uid_key, vigil_mode_get(), &gen);
	if (unlikely(mode == VIGIL_MODE_OFF))
		goto out;
	if (unlikely(mode == VIGIL_FAST_UNNAMED)) {
		vigil_count_unnamed(subj, op);
		hit = true;
		goto out;
	}
	e = READ_ONCE(*vigil_fast_slot(subj, fast));
	if (!e)
		goto out;
	/* One test, no branch each: the cached tuple is this access's. */
	if ((e->key.fast ^ fast) | (e->key.op ^ op) | (e->key.access ^ access) |
	    (e->key.gen ^ gen) | (e->key.nsx ^ !vigil_mntns_initial()) |
	    (e->key.uid_key ^ uid_key) | READ_ONCE(e->dead))
		goto out;
	this_cpu_inc(vigil_stats.hook[op]);
	vigil_subject_event(subj);
	vigil_entry_touch(e);
	vigil_count_repeat(subj, e->verdict);
	hit = true;
out:
	rcu_read_unlock();
	return hit;
}

#endif /* _SECURITY_VIGIL_ACCESS_H */
