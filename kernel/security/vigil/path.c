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
#include <linux/nsproxy.h>
#include <linux/proc_ns.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "vigil.h"

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

/* Is the current task in the initial mount namespace? Never sleeps. */
bool vigil_mntns_initial(void)
{
	const struct nsproxy *ns = current->nsproxy;

	return ns && ns->mnt_ns == init_nsproxy.mnt_ns;
}

/**
 * vigil_mntns_current - the id of the current task's mount namespace
 *
 * The inode number /proc/PID/ns/mnt shows. Takes task_lock(current): only
 * from hooks that cannot run under it (file and exec hooks, socket hooks).
 *
 * Return: the id, or 1 when the task has no namespace any more (exiting).
 */
u32 vigil_mntns_current(void)
{
	struct ns_common *ns;
	u32 inum;

	ns = mntns_operations.get(current);
	if (!ns)
		return 1;
	inum = ns->inum;
	/* current's nsproxy holds a reference: this one is never the last. */
	mntns_operations.put(ns);
	return inum;
}
