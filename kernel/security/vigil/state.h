/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil: the loaded candidate policy (state.c). */
#ifndef _SECURITY_VIGIL_STATE_H
#define _SECURITY_VIGIL_STATE_H

#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#include "subject.h"

/* state.c: the loaded candidate policy, published with RCU. */
struct vigil_policy;
struct vigil_policy_subject;
struct vigil_loaded_policy {
	struct vigil_policy *policy;
	u32 gen;
	bool has_modes;
};

extern struct vigil_loaded_policy __rcu *vigil_policy_current;
extern struct mutex vigil_state_lock;
const struct vigil_policy_subject *
vigil_policy_block(struct vigil_loaded_policy *lp, struct vigil_subject *subj,
		   enum vigil_uclass uclass);
int vigil_policy_replace(const char *text, size_t len, char *err,
			 size_t errsize);
void vigil_active_update(void);
u32 vigil_policy_gen(void);

#endif /* _SECURITY_VIGIL_STATE_H */
