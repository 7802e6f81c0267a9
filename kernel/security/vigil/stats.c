// SPDX-License-Identifier: GPL-2.0-only
/* vigil: per-CPU counters behind the stats file. */

#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/percpu.h>

#include "stats.h"
#include "vigil.h"

DEFINE_PER_CPU(struct vigil_pcpu_stats, vigil_stats);

static const char *const stat_names[] = {
	[VIGIL_STAT_EMITTED] = "records.emitted",
	[VIGIL_STAT_LOST] = "records.lost",
	[VIGIL_STAT_SUPPRESSED] = "records.suppressed",
	[VIGIL_STAT_WOULD_DENY] = "events.would_deny",
	[VIGIL_STAT_ALLOWED] = "events.allowed",
	[VIGIL_STAT_NOMEM] = "events.nomem",
	[VIGIL_STAT_SKIPPED_ATOMIC] = "events.skipped_irq",
	[VIGIL_STAT_HELD] = "records.held",
};

static_assert(ARRAY_SIZE(stat_names) == VIGIL_STAT_COUNT);

const char *vigil_stat_name(enum vigil_stat s)
{
	return s < VIGIL_STAT_COUNT ? stat_names[s] : "?";
}

u64 vigil_stat_sum(enum vigil_stat s)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(vigil_stats, cpu).stat[s];
	return sum;
}

u64 vigil_hook_sum(enum vigil_op op)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(vigil_stats, cpu).hook[op];
	return sum;
}
