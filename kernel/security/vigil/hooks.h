/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil: the hooks (hooks_*.c). */
#ifndef _SECURITY_VIGIL_HOOKS_H
#define _SECURITY_VIGIL_HOOKS_H

#include <linux/cred.h>
#include <linux/init.h>

/* hooks_*.c */
void vigil_inherited_files(const struct cred *cred);
void __init vigil_fs_hooks_init(void);
void __init vigil_net_hooks_init(void);
void __init vigil_task_hooks_init(void);

#endif /* _SECURITY_VIGIL_HOOKS_H */
