/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil: names as the initial mount namespace sees them (path.c). */
#ifndef _SECURITY_VIGIL_PATH_H
#define _SECURITY_VIGIL_PATH_H

#include <linux/dcache.h>
#include <linux/nsproxy.h>
#include <linux/path.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "vigil_limits.h"

/* path.c: names as the initial mount namespace sees them. */
const char *vigil_path_resolve(const struct path *path, char *buf,
			       bool *ret_foreign);
char *vigil_scratch_get(void);
void vigil_scratch_put(void);
bool vigil_dentry_mount(const struct dentry *dentry, struct path *ret_path);
u32 vigil_mntns_current(u64 *ret_id);

/* Is the current task in the initial mount namespace? Never sleeps. */
static inline bool vigil_mntns_initial(void)
{
	const struct nsproxy *ns = current->nsproxy;

	return likely(ns == &init_nsproxy) ||
	       (ns && ns->mnt_ns == init_nsproxy.mnt_ns);
}

#endif /* _SECURITY_VIGIL_PATH_H */
