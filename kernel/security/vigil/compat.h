/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil: what differs between the kernels vigil builds into (Debian's
 * 6.1 and 6.12), in one place, so the hooks read the same on both.
 */
#ifndef _SECURITY_VIGIL_COMPAT_H
#define _SECURITY_VIGIL_COMPAT_H

#include <linux/lsm_hooks.h>
#include <linux/security.h>

/*
 * LSM ids (uapi/linux/lsm.h, included by lsm_hooks.h) came with Linux
 * 6.8, and with them the changes below.
 */
#ifdef LSM_ID_UNDEF

/*
 * An LSM registers its hooks under its struct lsm_id, which names it in
 * lsm_list_modules(2) (setup.c defines vigil's, LSM_ID_VIGIL).
 */
#define VIGIL_HAS_LSM_ID
extern const struct lsm_id vigil_lsmid;
#define VIGIL_LSM_ID (&vigil_lsmid)

/* bprm_committing_creds takes a const binprm. */
#define vigil_committing_bprm const struct linux_binprm

/*
 * Truncating an open file (ftruncate(2), open(O_TRUNC)) calls the
 * file_truncate hook (since 6.2); path_truncate is left to truncate(2).
 */
#define VIGIL_HAS_FILE_TRUNCATE

/*
 * The xattr hooks take the mount's idmap, and the LSM layer makes the
 * capability checks itself (inode_xattr_skipcap) before calling them.
 */
#define vigil_xattr_idmap struct mnt_idmap

static inline int vigil_setxattr_cap(struct mnt_idmap *idmap,
				     struct dentry *dentry, const char *name,
				     const void *value, size_t size, int flags)
{
	return 0;
}

static inline int vigil_removexattr_cap(struct mnt_idmap *idmap,
					struct dentry *dentry,
					const char *name)
{
	return 0;
}

#else /* Linux 6.1 */

#define VIGIL_LSM_ID "vigil"
#define vigil_committing_bprm struct linux_binprm

/*
 * security_inode_setxattr() and _removexattr() leave the capability check
 * (CAP_SYS_ADMIN for security.* and trusted.*) to the modules that have
 * these hooks, as SELinux and Smack do it: vigil returns its result, so it
 * denies exactly what the kernel without vigil denies.
 */
#define vigil_xattr_idmap struct user_namespace

static inline int vigil_setxattr_cap(struct user_namespace *mnt_userns,
				     struct dentry *dentry, const char *name,
				     const void *value, size_t size, int flags)
{
	return cap_inode_setxattr(dentry, name, value, size, flags);
}

static inline int vigil_removexattr_cap(struct user_namespace *mnt_userns,
					struct dentry *dentry,
					const char *name)
{
	return cap_inode_removexattr(mnt_userns, dentry, name);
}

#endif

#endif /* _SECURITY_VIGIL_COMPAT_H */
