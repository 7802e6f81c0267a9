/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil: what every file of the LSM shares: modes, verdicts, uid classes
 * and whether the hooks are active. The rest is split by concern:
 * subject.h, state.h, person.h, table.h, stats.h, path.h, access.h (the
 * hooks' entry point and its inline fast path), hooks.h; vigil_limits.h and
 * bounds.h.
 */
#ifndef _SECURITY_VIGIL_VIGIL_H
#define _SECURITY_VIGIL_VIGIL_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/limits.h>
#include <linux/lsm_hooks.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include "compat.h"
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
	VIGIL_UCLASS_COUNT
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
	/* Without a branch: the fast path's (access.h) every access. */
	BUILD_BUG_ON(VIGIL_UCLASS_ROOT != 0 || VIGIL_UCLASS_SYSTEM != 1 ||
		     VIGIL_UCLASS_USER != 2);
	return (uid_key != 0) + (uid_key == VIGIL_UID_KEY_USERS);
}

const char *vigil_uclass_name(enum vigil_uclass c);

static inline bool vigil_should_observe(void)
{
	return static_branch_unlikely(&vigil_active);
}

#endif /* _SECURITY_VIGIL_VIGIL_H */
