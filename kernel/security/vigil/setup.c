// SPDX-License-Identifier: GPL-2.0-only
/* vigil: LSM registration. */

#include <linux/init.h>
#include <linux/lsm_hooks.h>
#include <linux/percpu_counter.h>

#include "vigil.h"

bool vigil_enabled __ro_after_init;

static DEFINE_PER_CPU(u64, capable_calls);

u64 vigil_capable_calls(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(capable_calls, cpu);
	return sum;
}

static int vigil_capable(const struct cred *cred, struct user_namespace *ns,
			 int cap, unsigned int opts)
{
	this_cpu_inc(capable_calls);
	return 0;
}

static struct security_hook_list vigil_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(capable, vigil_capable),
};

static int __init vigil_init(void)
{
	security_add_hooks(vigil_hooks, ARRAY_SIZE(vigil_hooks), "vigil");
	vigil_enabled = true;
	pr_info("vigil: initialized, mode %s\n",
		vigil_mode_name(vigil_mode_get()));
	return 0;
}

DEFINE_LSM(vigil) = {
	.name = "vigil",
	.init = vigil_init,
};
