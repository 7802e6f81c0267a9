// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil: what every hook does with an access: find the subject's mode,
 * count a repeat cheaply, or record a first sighting (learn) or a would-be
 * denial (observe). Never denies; sleeps only to hand a record to a full
 * audit backlog, and only from hooks that may (see vigil_access.may_sleep).
 */

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/limits.h>
#include <linux/once.h>
#include <linux/random.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/string.h>

/* struct mount: path_moved() crosses mount points as __d_path() does. */
#include "../../fs/mount.h"
#include "access.h"
#include "path.h"
#include "policy.h"
#include "record.h"
#include "state.h"
#include "stats.h"
#include "subject.h"
#include "table.h"
#include "vigil.h"

static atomic64_t last_inode_id = ATOMIC64_INIT(0);
static siphash_key_t name_hash_key;

/*
 * An inode's id: given the first time vigil keys it, never reused (an
 * inode number is, and btrfs subvolumes share a device). Inodes from
 * before the LSM blobs existed fall back to their device and number.
 */
static u64 inode_id(const struct inode *inode)
{
	struct vigil_inode *vi;
	u64 id, new;

	if (!inode)
		return 0;
	if (!inode->i_security)
		return ((u64)inode->i_sb->s_dev << 32 ^ inode->i_ino) |
		       1ULL << 63;
	vi = vigil_inode(inode);
	id = atomic64_read(&vi->id);
	if (id)
		return id;
	new = atomic64_inc_return(&last_inode_id);
	id = atomic64_cmpxchg(&vi->id, 0, new);
	return id ? id : new;
}

/*
 * Folder moves since boot: each rename of a folder takes the next number.
 * A file's key holds the newest number of the folders above it, so a
 * rename of any of them gives the names beneath new tuples: the verdict
 * and the record of a tuple are its path's, and that path changed.
 */
static atomic64_t folder_moves = ATOMIC64_INIT(0);
/*
 * Folder moves whose numbers are published (vigil_folder_moving(): after
 * the folder's fields): the file fast path's stamp (file_stamp()).
 */
static atomic64_t moves_published = ATOMIC64_INIT(0);

/* A folder renamed again while a walk read it: a number for that walk. */
#define VIGIL_MOVING BIT_ULL(63)
/*
 * Steps of a walk up, at most: a path deeper than PATH_MAX / 2 folders
 * cannot be named (vigil_path_resolve() gives "?"), so its moves do not
 * change its name; the bound also ends a walk that races with renames.
 */
#define VIGIL_MOVED_STEPS (PATH_MAX / 2)

/* A folder's place: its parent and its name's hash and length; never 0. */
static u64 move_sig(const struct dentry *parent, u64 hash_len)
{
	return ((u64)(unsigned long)parent ^ hash_len) | 1;
}

/*
 * A folder's number: its last rename's once it is where that rename takes
 * it, else (the rename is under way, or failed) the number it had before;
 * a folder never renamed takes the number of moves there were when vigil
 * first saw this instance of its inode, so one evicted and read again
 * never gets back a number older than its last rename. Sets *@unsettled
 * (when not NULL) when its rename is under way, failed, or raced with the
 * read: the number may change with no other move (file_stamp()).
 * Under rcu_read_lock(), or with the folder's parent locked.
 */
static u64 folder_number(const struct dentry *d, const struct dentry *parent,
			 bool *unsettled)
{
	const struct inode *inode = d_backing_inode(d);
	struct vigil_inode *vi;
	u64 m, to, prev, place;

	if (!inode || !inode->i_security)
		return 0;
	vi = vigil_inode(inode);
	m = atomic64_read_acquire(&vi->moved);
	if (!m) {
		m = atomic64_read(&folder_moves);
		/* A rename's number wins the race. */
		return atomic64_cmpxchg(&vi->moved, 0, m) ?: m;
	}
	to = READ_ONCE(vi->moved_to);
	if (!to)
		return m;
	prev = READ_ONCE(vi->moved_prev);
	place = move_sig(parent, READ_ONCE(d->d_name.hash_len));
	/* The place read (with the caller's d_parent) before moved again. */
	smp_rmb();
	if (atomic64_read(&vi->moved) != m) {
		if (unsettled)
			*unsettled = true;
		return m | VIGIL_MOVING;
	}
	if (place == to)
		return m;
	if (unsettled)
		*unsettled = true;
	return prev;
}

/**
 * vigil_folder_moving - a folder is about to be renamed
 * @dentry: the folder
 * @to: the dentry whose place it takes
 *
 * Called by security_inode_rename() before the rename, for each side of
 * an exchange, with the parents locked: the names beneath the folder take
 * the rename's number once the folder is at @to's place (folder_number()),
 * and until then keep the number they had, so neither an access made
 * before the move nor one racing with it leaves a tuple that the new path
 * finds, and a rename that fails changes nothing. Never sleeps.
 */
void vigil_folder_moving(const struct dentry *dentry, const struct dentry *to)
{
	struct inode *inode = d_backing_inode(dentry);
	struct vigil_inode *vi;

	if (!inode || !inode->i_security)
		return;
	vi = vigil_inode(inode);
	WRITE_ONCE(vi->moved_prev,
		   folder_number(dentry, dentry->d_parent, NULL));
	WRITE_ONCE(vi->moved_to, move_sig(to->d_parent, to->d_name.hash_len));
	/* A walk that reads the new number reads the fields above too. */
	atomic64_set_release(&vi->moved, atomic64_inc_return(&folder_moves));
	/*
	 * Then the stamp moves (fully ordered): a walk that read the new
	 * stamp reads the number, and until the folder is at its new place
	 * finds it unsettled.
	 */
	atomic64_inc_return(&moves_published);
}

/*
 * The newest number (folder_number()) of the folders from @d up to the
 * root of its mount namespace, crossing mount points as __d_path() does,
 * so that a rename above a mount point renumbers the names of the file
 * system mounted beneath it. 0 while no folder moved since boot.
 *
 * Under rcu_read_lock(): dentries, inodes with their blobs, and mounts are
 * freed after a grace period. A mount's parent and mount point are read
 * without mount_lock: a mount or a rename racing with the walk gives at
 * worst a number no tuple holds yet (a first sighting more). Sets
 * *@unsettled when a folder's number may still change (folder_number()).
 */
static u64 path_moved(const struct dentry *d, const struct vfsmount *vfsmnt,
		      bool *unsettled)
{
	const struct mount *mnt = real_mount((struct vfsmount *)vfsmnt);
	const struct mount *up;
	const struct dentry *parent;
	unsigned int steps;
	u64 newest = 0, flags = 0, n;

	if (!atomic64_read(&folder_moves))
		return 0;
	for (steps = 0; steps < VIGIL_MOVED_STEPS; steps++) {
		if (d == READ_ONCE(mnt->mnt.mnt_root)) {
			up = READ_ONCE(mnt->mnt_parent);
			if (up == mnt)
				break;	/* the namespace's root, or detached */
			d = READ_ONCE(mnt->mnt_mountpoint);
			mnt = up;
			continue;
		}
		parent = READ_ONCE(d->d_parent);
		if (parent == d)
			break;	/* not under its mount's root */
		n = folder_number(d, parent, unsettled);
		/* A flag never hides a newer number. */
		flags |= n & VIGIL_MOVING;
		newest = max(newest, n & ~VIGIL_MOVING);
		d = parent;
	}
	return newest | flags;
}

/*
 * The file fast path's stamp: the folder moves published and the mount
 * table's changes, together (each only grows, so their sum is the same
 * only while neither moved: read as a u32, the mount sequence wraps every
 * 2^31 changes, and would have to meet the moves exactly). Odd, never 0.
 * A tuple found by a walk that began at stamp S, and found no folder
 * unsettled, keeps its moved number, and its mount crossings, while the
 * stamp is S (vigil_observe_file()). Read before the walk: acquire, and
 * raw_read_seqcount() orders what follows.
 */
static u64 file_stamp(void)
{
	u64 moves = atomic64_read_acquire(&moves_published);

	return (moves + raw_read_seqcount(&mount_lock.seqcount)) << 1 | 1;
}

/* Under a mount table change (an odd sequence) no stamp is valid. */
static u64 file_stamp_settled(void)
{
	if (raw_read_seqcount(&mount_lock.seqcount) & 1)
		return 0;
	return file_stamp();
}

/*
 * The file fast path's cache key of an access to @d on @mnt: where in the
 * subject's cache (vigil_fast_slot_of()) its tuple may be. Only a place to
 * look: a hit is verified against the tuple's key. Its low bits are the
 * slot: the file's, plus the op, so that an open and its truncate (O_TRUNC)
 * or mapping never take each other's slot.
 */
static u64 file_fast_key(const struct dentry *d, const struct vfsmount *mnt,
			 enum vigil_op op, u64 access)
{
	u64 h = ((u64)(unsigned long)d ^ rol64((u64)(unsigned long)mnt, 29)) *
		GOLDEN_RATIO_64;
	u64 k = h ^ access * GOLDEN_RATIO_64 ^ (u64)op << 40;

	return VIGIL_FAST_FILE | (k & GENMASK_ULL(59, 0) & ~VIGIL_FAST_MASK) |
	       (((h >> 60) + op) & VIGIL_FAST_MASK);
}

/*
 * An inode's id if vigil gave it one, else 0 (no tuple has it); never
 * gives one: the fast path only compares.
 */
static u64 inode_id_peek(const struct inode *inode)
{
	if (!inode)
		return 0;
	if (!inode->i_security)
		return ((u64)inode->i_sb->s_dev << 32 ^ inode->i_ino) |
		       1ULL << 63;
	return atomic64_read(&vigil_inode(inode)->id);
}

/*
 * A file object's identity without a path walk: the file (its inode's
 * id) under its name (its parent's id and the name) on its mount, or for
 * a name in a directory (which may not exist yet) the directory and the
 * name. The name is hashed with a key of this boot, and compared: no two
 * files, and no two names of one file (hard links, renames, bind mounts),
 * share a tuple, so each name is judged and learned by its own path; nor
 * do its names before and after a move of a folder above it (the newest
 * move's number, path_moved()).
 * Under rcu_read_lock(): names and dentries are freed after a grace period.
 */
static void file_key(const struct vigil_access *acc, struct vigil_key *key,
		     u64 *ret_stamp)
{
	const struct dentry *d = acc->path->dentry, *parent;
	const unsigned char *name;
	bool unsettled = false;
	u64 stamp = file_stamp_settled();

	get_random_once(&name_hash_key, sizeof(name_hash_key));
	key->mnt = acc->path->mnt;
	key->obj_a = inode_id(d_backing_inode(d));
	if (acc->child) {
		name = READ_ONCE(acc->child->d_name.name);
		key->moved = path_moved(d, acc->path->mnt, NULL);
	} else {
		parent = READ_ONCE(d->d_parent);
		if (parent != d)
			key->obj_b = inode_id(d_backing_inode(parent));
		/* From its folder, unless it is its mount's root. */
		key->moved = path_moved(d == acc->path->mnt->mnt_root ?
					d : parent, acc->path->mnt,
					&unsettled);
		name = READ_ONCE(d->d_name.name);
		/*
		 * A file by its own name in a folder: the fast path may
		 * count its repeats (vigil_observe_file()) while the stamp
		 * holds; not a mount's root, nor a name beneath a folder
		 * whose number may change.
		 */
		if (!acc->tmpfile && parent != d &&
		    d != acc->path->mnt->mnt_root && !unsettled && stamp) {
			key->fast = file_fast_key(d, acc->path->mnt, acc->op,
						  acc->access);
			*ret_stamp = stamp;
		}
	}
	if (acc->tmpfile) {
		/* Any O_TMPFILE file of the folder: its "#INO" name varies. */
		key->obj_b = U64_MAX;
		return;
	}
	key->name = name;
	key->namelen = strlen(name);
	key->obj_c = siphash(name, key->namelen, &name_hash_key);
}

/*
 * The object's path into @buf, as the initial namespace names it; for a
 * child, the directory's path + name. Sets *@ret_foreign when the initial
 * root cannot reach it.
 */
static const char *file_object(const struct vigil_access *acc, char *buf,
			       bool *ret_foreign)
{
	const unsigned char *name;
	const char *p;
	size_t dlen, nlen;

	p = vigil_path_resolve(acc->path, buf, ret_foreign);
	if (!acc->child || p[0] != '/')
		return p;
	name = READ_ONCE(acc->child->d_name.name);
	nlen = strlen(name);
	dlen = strlen(p);
	if (dlen == 1)	/* "/" */
		dlen = 0;
	if (nlen + 2 > PATH_MAX - dlen)
		return "?";
	/* The path was written at the end of buf: build the result at its start. */
	memmove(buf, p, dlen);
	buf[dlen] = '/';
	memcpy(buf + dlen + 1, name, nlen);
	buf[dlen + 1 + nlen] = '\0';
	return buf;
}

static void account_repeat(struct vigil_subject *subj, int verdict)
{
	switch (verdict) {
	case VIGIL_VERDICT_ALLOW:
		vigil_stat_inc(VIGIL_STAT_ALLOWED);
		break;
	case VIGIL_VERDICT_DENY:
		vigil_stat_inc(VIGIL_STAT_WOULD_DENY);
		atomic64_inc(&subj->would_deny);
		fallthrough;
	default:
		vigil_stat_inc(VIGIL_STAT_SUPPRESSED);
		break;
	}
}

/*
 * The mode that applies to @subj's accesses under uid key @uid_key, and
 * its policy block for them if it has one.
 */
static enum vigil_mode subject_mode(struct vigil_subject *subj, u32 uid_key,
				    struct vigil_loaded_policy **ret_lp,
				    const struct vigil_policy_subject **ret_ps)
{
	struct vigil_loaded_policy *lp = rcu_dereference(vigil_policy_current);
	const struct vigil_policy_subject *ps = NULL;
	enum vigil_mode mode = vigil_mode_get();
	int m;

	if (lp) {
		ps = vigil_policy_block(lp, subj, vigil_uclass_of(uid_key));
		if (ps) {
			m = vigil_policy_subject_mode(ps);
			if (m >= 0)
				mode = m;
		}
	}
	*ret_lp = lp;
	*ret_ps = ps;
	return mode;
}

void vigil_account_repeat(struct vigil_subject *subj, int verdict)
{
	account_repeat(subj, verdict);
}

/*
 * Let the fast path find @e, the tuple of @key, found or inserted under
 * rcu_read_lock(). A file's is stamped first (the walk that found its
 * moved number began at @stamp), and only when @e was made with the same
 * cache key: a tuple made through another dentry of the same name keeps
 * its own (entry_unlink() clears the slot its key names).
 */
static void file_remember(struct vigil_entry *e, const struct vigil_key *key,
			  u64 stamp)
{
	if (!(key->fast & VIGIL_FAST_FILE)) {
		vigil_fast_remember(e);
		return;
	}
	if (e->key.fast != key->fast || !stamp)
		return;
	if (READ_ONCE(e->stamp) != stamp)
		WRITE_ONCE(e->stamp, stamp);
	vigil_fast_remember(e);
}

/**
 * vigil_observe_file - count a repeat of a file access cheaply
 * @cred: the credentials of the subject
 * @op: the operation
 * @access: its access bits
 * @path: the file, by its own name (not a name in a folder, an O_TMPFILE
 *	file nor an internal one: the caller's)
 *
 * The file fast path: the subject's cache slot for (dentry, mount, op,
 * access) names the tuple the last such access hit; it is counted as
 * vigil_observe() would count it when its key is this access's, checked
 * exactly (vigil_file_fast_match()): the mount, the inode's and its
 * folder's ids, the name's bytes, op, access, generation, namespace, uid
 * key, not dead, and no folder moved nor mount changed since its moved
 * number was found (file_stamp()). Builds, hashes and looks up nothing;
 * never sleeps, takes no lock. A task with no subject and a subject
 * observed with no block of its own are done here too, as
 * vigil_observe_fast() does them.
 *
 * Return: true when done; false when vigil_observe() must be called.
 */
bool vigil_observe_file(const struct cred *cred, enum vigil_op op,
			u64 access, const struct path *path)
{
	struct vigil_subject *subj = vigil_subject_of(cred);
	const struct dentry *d = path->dentry;
	u32 gen, uid_key = vigil_uid_key(cred->uid);
	struct vigil_entry *e;
	unsigned int mode;
	bool hit = false;
	u64 fast, stamp;

	/*
	 * A task with no subject is not observed (vigil_observe(), which
	 * counts an access outside task context as skipped).
	 */
	if (unlikely(!subj))
		return in_task();
	rcu_read_lock();
	mode = vigil_fast_mode_of(rcu_dereference(vigil_policy_current), subj,
				  uid_key, vigil_mode_get(), &gen);
	if (unlikely(mode == VIGIL_MODE_OFF))
		goto out;
	/* Hooks in task context only, as vigil_observe_fast(). */
	if (unlikely(mode == VIGIL_FAST_UNNAMED)) {
		vigil_count_unnamed(subj, op);
		hit = true;
		goto out;
	}
	if (d == path->mnt->mnt_root)
		goto out;
	fast = file_fast_key(d, path->mnt, op, access);
	e = READ_ONCE(*vigil_fast_slot_of(subj, fast));
	if (!e)
		goto out;
	/* The stamp before the names: a move after it changes it. */
	stamp = file_stamp();
	{
		const struct dentry *parent = READ_ONCE(d->d_parent);
		/*
		 * Initialised in one go, so that the compiler keeps it in
		 * registers: a probe on the stack is cleared first
		 * (CONFIG_INIT_STACK_ALL_ZERO: a "rep stos", slow under
		 * emulation).
		 */
		const struct vigil_file_probe p = {
			.fast = fast,
			.stamp = stamp,
			.mnt = path->mnt,
			.obj_a = inode_id_peek(d_backing_inode(d)),
			.obj_b = inode_id_peek(d_backing_inode(parent)),
			.name = READ_ONCE(d->d_name.name),
			.access = access,
			.gen = gen,
			.uid_key = uid_key,
			.op = op,
			.nsx = !vigil_mntns_initial(),
		};

		if (!vigil_file_fast_match(e, &p))
			goto out;
	}
	this_cpu_inc(vigil_stats.hook[op]);
	vigil_subject_event(subj);
	vigil_entry_touch(e);
	vigil_count_repeat(subj, e->verdict);
	hit = true;
out:
	rcu_read_unlock();
	return hit;
}

/**
 * vigil_observe - account one access
 * @cred: the credentials of the subject
 * @acc: the access: operation, access bits, object, audit data
 *
 * Called from every hook (behind the vigil_active static key). Runs in any
 * task context, possibly atomic; accesses from interrupts are only counted.
 */
void vigil_observe(const struct cred *cred, struct vigil_access *acc)
{
	const struct vigil_policy_subject *ps;
	struct vigil_loaded_policy *lp;
	struct vigil_subject *subj;
	struct vigil_key key = { 0 };
	struct vigil_entry *e = NULL;
	enum vigil_verdict verdict;
	enum vigil_mode mode;
	const char *obj;
	bool emit = false, foreign = false, held = false;
	u32 mntns = 0, uid_key;
	u64 mntns_id = 0;
	char *buf = NULL;
	size_t len;
	u64 stamp = 0;
	u32 hash;
	u64 seq;
	int rc;

	if (unlikely(!in_task())) {
		vigil_stat_inc(VIGIL_STAT_SKIPPED_ATOMIC);
		return;
	}
	subj = vigil_subject_of(cred);
	if (!subj)
		return;	/* kernel threads and tasks that never exec'd */
	this_cpu_inc(vigil_stats.hook[acc->op]);

	rcu_read_lock();
	uid_key = vigil_uid_key(cred->uid);
	mode = subject_mode(subj, uid_key, &lp, &ps);
	if (mode == VIGIL_MODE_OFF)
		goto out;
	vigil_subject_event(subj);
	if (mode == VIGIL_MODE_OBSERVE && !ps) {
		/* Observed, but no policy names it: nothing would deny. */
		vigil_stat_inc(VIGIL_STAT_ALLOWED);
		goto out;
	}

	key.subj = subj;
	key.op = acc->op;
	key.access = acc->access;
	key.gen = mode == VIGIL_MODE_OBSERVE ? lp->gen : 0;
	key.nsx = !vigil_mntns_initial();
	key.uid_key = uid_key;
	key.fast = acc->fast;
	if (acc->path) {
		file_key(acc, &key, &stamp);
		obj = NULL;
		len = 0;
	} else {
		key.by_name = 1;
		/* A memfd made by another program is another object. */
		key.obj_a = acc->creator ? (u64)acc->creator->id + 1 : 0;
		/* Another network namespace's abstract unix name too. */
		key.obj_b = acc->netns;
		obj = acc->target;
		len = acc->target_len;
	}
	hash = vigil_key_hash(&key, obj, len);
	rc = vigil_table_hit(&vigil_table, &key, hash, obj, len, &e);
	if (rc >= 0) {
		account_repeat(subj, rc);
		file_remember(e, &key, stamp);
		goto out;
	}

	/*
	 * A first sighting: now, and only now, resolve the path, in this
	 * CPU's buffer; the record, which may wait for audit, has a copy of
	 * its length (a small allocation, not PATH_MAX bytes).
	 */
	if (acc->path) {
		obj = file_object(acc, vigil_scratch_get(), &foreign);
		len = strlen(obj);
		buf = kmemdup_nul(obj, len, GFP_ATOMIC | __GFP_NOWARN);
		vigil_scratch_put();
		if (!buf) {
			vigil_stat_inc(VIGIL_STAT_NOMEM);
			goto out;
		}
		obj = buf;
	}
	/*
	 * Names from another mount namespace are marked with its id: the
	 * subject's, or for a task that left the initial one after its exec
	 * (or reached a foreign object) the task's own, where that can be
	 * read (task_lock: not from capable, signal or ptrace hooks).
	 */
	mntns = subj->mntns;
	mntns_id = subj->mntns_id;
	if (!mntns && (key.nsx || foreign))
		mntns = acc->path || acc->may_sleep ?
			vigil_mntns_current(&mntns_id) : 1;
	if (mode == VIGIL_MODE_OBSERVE)
		verdict = vigil_policy_allows(ps, vigil_op_class(acc->op),
					      acc->access, obj, len) ?
			  VIGIL_VERDICT_ALLOW : VIGIL_VERDICT_DENY;
	else
		verdict = VIGIL_VERDICT_LEARN;

	rc = vigil_table_insert(&vigil_table, &key, hash, obj, len, cred->uid,
				mntns, mntns_id, verdict, &seq, &held, &e);
	if (rc == -EEXIST) {
		account_repeat(subj, verdict);
		goto out;
	}
	if (rc) {
		/* -ENOSPC: refused, counted in table.full and uid.N.dropped. */
		if (rc == -ENOMEM)
			vigil_stat_inc(VIGIL_STAT_NOMEM);
		goto out;
	}
	file_remember(e, &key, stamp);
	if (verdict == VIGIL_VERDICT_ALLOW) {
		vigil_stat_inc(VIGIL_STAT_ALLOWED);
		goto out;
	}
	if (verdict == VIGIL_VERDICT_DENY) {
		vigil_stat_inc(VIGIL_STAT_WOULD_DENY);
		atomic64_inc(&subj->would_deny);
	}
	atomic64_inc(&subj->first_sightings);
	/* Over its person's rate: kept in the table, recorded later. */
	if (held)
		vigil_stat_inc(VIGIL_STAT_HELD);
	else
		emit = true;
out:
	rcu_read_unlock();
	if (held)
		vigil_release_kick();
	/*
	 * Outside the RCU section, so the record may wait for audit: subj
	 * lives as long as cred, obj is buf or the caller's target.
	 */
	if (emit && !vigil_record(subj, cred, verdict, acc, obj, len, mntns,
				  mntns_id, seq)) {
		/* Outside RCU the name may be gone: match without it. */
		key.name = NULL;
		key.namelen = 0;
		vigil_table_pin(&vigil_table, &key, hash, obj, len);
	}
	kfree(buf);
}
