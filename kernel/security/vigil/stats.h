/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil: per-CPU counters (stats.c). */
#ifndef _SECURITY_VIGIL_STATS_H
#define _SECURITY_VIGIL_STATS_H

#include <linux/percpu.h>
#include <linux/types.h>

#include "ops.h"

/* stats.c */
enum vigil_stat {
	VIGIL_STAT_EMITTED,
	VIGIL_STAT_LOST,
	VIGIL_STAT_SUPPRESSED,
	VIGIL_STAT_WOULD_DENY,
	VIGIL_STAT_ALLOWED,
	VIGIL_STAT_NOMEM,
	VIGIL_STAT_SKIPPED_ATOMIC,
	VIGIL_STAT_HELD,
	VIGIL_STAT_COUNT,
};

struct vigil_pcpu_stats {
	u64 hook[VIGIL_OP_COUNT];
	u64 stat[VIGIL_STAT_COUNT];
};

DECLARE_PER_CPU(struct vigil_pcpu_stats, vigil_stats);

static inline void vigil_stat_inc(enum vigil_stat s)
{
	this_cpu_inc(vigil_stats.stat[s]);
}

u64 vigil_stat_sum(enum vigil_stat s);
u64 vigil_hook_sum(enum vigil_op op);
const char *vigil_stat_name(enum vigil_stat s);

#endif /* _SECURITY_VIGIL_STATS_H */
