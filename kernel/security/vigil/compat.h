/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil: what differs between the kernels vigil builds into (Debian's
 * 6.1 and 6.12), in one place, so the hooks read the same on both.
 */
#ifndef _SECURITY_VIGIL_COMPAT_H
#define _SECURITY_VIGIL_COMPAT_H

#include <linux/lsm_hooks.h>

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

#else /* Linux 6.1 */

#define VIGIL_LSM_ID "vigil"
#define vigil_committing_bprm struct linux_binprm

#endif

#endif /* _SECURITY_VIGIL_COMPAT_H */
