// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil: paths as the initial mount namespace sees them, so that neither a
 * chroot nor a private mount namespace (unshare -rm, a container) can make
 * an object look like another: a path is resolved from the initial root,
 * and one that cannot be reached from it is resolved inside its own
 * namespace and marked with the acting task's namespace id.
 */

#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fs_struct.h>
#include <linux/init_task.h>
#include <linux/local_lock.h>
#include <linux/mount.h>
#include <linux/path.h>
#include <linux/nsproxy.h>
#include <linux/percpu.h>
#include <linux/proc_ns.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>

/*
 * struct mnt_namespace, whose seq is the only id of a mount namespace that
 * is never reused in a boot (the inode number is: an IDA hands the next
 * namespace the number just freed). It is private to fs/ on 6.1 and 6.12
 * and no accessor exports it to modules; 6.12's fs/nsfs.c reads it from
 * here for NS_GET_MNTNS_ID and statmount()'s mnt_ns_id.
 */
#include "../../fs/mount.h"
#include "path.h"
#include "vigil.h"

/*
 * Where a name is resolved: a path walk needs PATH_MAX bytes, and a hook
 * that may not sleep (most of them) could only get them as a GFP_ATOMIC
 * 4 KiB allocation on every first sighting, and a unix connect or
 * datagram send on every one (a syslog() call). Each CPU has one; the
 * local lock keeps the task on it (preemption off, except on PREEMPT_RT).
 */
struct vigil_scratch {
	local_lock_t lock;
	char buf[VIGIL_SCRATCH_SIZE];
};

static DEFINE_PER_CPU(struct vigil_scratch, vigil_scratch) = {
	.lock = INIT_LOCAL_LOCK(lock),
};

/**
 * vigil_scratch_get - this CPU's VIGIL_SCRATCH_SIZE bytes for a name
 *
 * Never sleeps, and the caller must not until vigil_scratch_put(): the
 * buffer is this CPU's. Not from interrupts, and never nested.
 *
 * Return: the buffer.
 */
char *vigil_scratch_get(void)
{
	local_lock(&vigil_scratch.lock);
	return this_cpu_ptr(&vigil_scratch)->buf;
}

void vigil_scratch_put(void)
{
	local_unlock(&vigil_scratch.lock);
}

/* The root of the initial mount namespace, as kernel threads see it. */
static void initial_root(struct path *root)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&init_fs.seq);
		*root = init_fs.root;
	} while (read_seqcount_retry(&init_fs.seq, seq));
}

/**
 * vigil_path_resolve - the name of @path for records and policies
 * @path: the object
 * @buf: PATH_MAX bytes
 * @ret_foreign: set when @path cannot be reached from the initial root
 *
 * Never sleeps. Like d_path(), an unlinked object ends in " (deleted)".
 *
 * Return: the path, inside @buf, or "?" when it cannot be named.
 */
const char *vigil_path_resolve(const struct path *path, char *buf,
			       bool *ret_foreign)
{
	static const char deleted[] = " (deleted)";
	struct path root;
	char *p;
	size_t len;

	*ret_foreign = false;
	rcu_read_lock();
	initial_root(&root);
	/* Mounts and dentries are freed after a grace period. */
	p = __d_path(path, &root, buf, PATH_MAX - sizeof(deleted));
	rcu_read_unlock();
	if (!p) {
		/* Another namespace's: its own namespace's view. */
		*ret_foreign = true;
		p = d_absolute_path(path, buf, PATH_MAX - sizeof(deleted));
		/* Detached or internal (memfd): its name in its mount. */
		if (IS_ERR(p)) {
			p = d_path(path, buf, PATH_MAX);
			return IS_ERR(p) ? "?" : p;
		}
	}
	if (IS_ERR(p))
		return "?";
	if (d_unlinked(path->dentry)) {
		/* p ends at buf + PATH_MAX - sizeof(deleted) - 1. */
		len = strlen(p);
		memcpy(p + len, deleted, sizeof(deleted));
	}
	return p;
}

/**
 * vigil_mntns_current - the ids of the current task's mount namespace
 * @ret_id: set to its unique id: its seq, never reused in a boot (6.12's
 *          NS_GET_MNTNS_ID), or 0 when the task has none
 *
 * The inode number /proc/PID/ns/mnt shows, which a namespace made after
 * this one dies may get again; @ret_id tells the two apart. Takes
 * task_lock(current): only from hooks that cannot run under it (file and
 * exec hooks, socket hooks).
 *
 * Return: the inode number, or 1 when the task has no namespace any more
 * (exiting).
 */
u32 vigil_mntns_current(u64 *ret_id)
{
	struct ns_common *ns;
	u32 inum;

	*ret_id = 0;
	ns = mntns_operations.get(current);
	if (!ns)
		return 1;
	inum = ns->inum;
	*ret_id = container_of(ns, struct mnt_namespace, ns)->seq;
	/* current's nsproxy holds a reference: this one is never the last. */
	mntns_operations.put(ns);
	return inum;
}

/* @path's mount is on @dentry's file system and reaches it from its root. */
static bool mount_reaches(const struct path *path, const struct dentry *dentry)
{
	return path->mnt && path->mnt->mnt_sb == dentry->d_sb &&
	       is_subdir((struct dentry *)dentry, path->mnt->mnt_root);
}

/**
 * vigil_dentry_mount - a path for a dentry a hook gave without its mount
 * @dentry: the object (6.1's xattr hooks give no mount)
 * @ret_path: set to @dentry on a mount that reaches it, with references
 *
 * A mount of @dentry's file system whose root it is under: the initial
 * root's, else the current task's root's or working folder's. The name
 * it gives is a true name of the file, though maybe not the one the task
 * used (another mount of the same file system). May sleep (dput/mntput).
 *
 * Return: true when one was found (path_put() it), else false.
 */
bool vigil_dentry_mount(const struct dentry *dentry, struct path *ret_path)
{
	struct path cand[3];
	int i, n = 0;
	bool found = false;

	get_fs_root(&init_fs, &cand[n++]);
	if (current->fs) {
		get_fs_root(current->fs, &cand[n++]);
		get_fs_pwd(current->fs, &cand[n++]);
	}
	for (i = 0; i < n; i++) {
		if (!found && mount_reaches(&cand[i], dentry)) {
			ret_path->mnt = mntget(cand[i].mnt);
			ret_path->dentry = dget((struct dentry *)dentry);
			found = true;
		}
		path_put(&cand[i]);
	}
	return found;
}
