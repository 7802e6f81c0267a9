// SPDX-License-Identifier: GPL-2.0-only
/* vigil: LSM registration. */

#include <linux/init.h>
#include <linux/log2.h>
#include <linux/lsm_hooks.h>
#include <linux/minmax.h>

#include "hooks.h"
#include "vigil_limits.h"
#include "subject.h"
#include "table.h"
#include "vigil.h"

/*
 * Hash buckets for the table: one per 256 bytes of vigil.table_kb (a tuple
 * takes about 150 plus its path), 2^10..2^20. Sized at boot: a later
 * table_kb write bounds memory, not buckets.
 */
static unsigned int table_hash_bits(void)
{
	return clamp_t(unsigned int, ilog2(vigil_table_kb * 1024 / 256),
		       VIGIL_TABLE_HASH_BITS_MIN, VIGIL_TABLE_HASH_BITS_MAX);
}

bool vigil_enabled __ro_after_init;

#ifdef VIGIL_HAS_LSM_ID
const struct lsm_id vigil_lsmid = {
	.name = "vigil",
	.id = LSM_ID_VIGIL,
};
#endif

struct lsm_blob_sizes vigil_blob_sizes __ro_after_init = {
	.lbs_cred = sizeof(struct vigil_cred),
	.lbs_inode = sizeof(struct vigil_inode),
	.lbs_task = sizeof(struct vigil_task),
};

static int __init vigil_init(void)
{
	int rc;

	rc = vigil_table_init(&vigil_table, table_hash_bits(),
			      vigil_table_kb * 1024);
	if (rc)
		return rc;
	rc = vigil_subject_hooks_init();
	if (rc)
		return rc;
	vigil_fs_hooks_init();
	vigil_net_hooks_init();
	vigil_task_hooks_init();
	vigil_enabled = true;
	pr_info("vigil: initialized, mode %s\n",
		vigil_mode_name(vigil_mode_get()));
	return 0;
}

DEFINE_LSM(vigil) = {
	.name = "vigil",
	.init = vigil_init,
	.blobs = &vigil_blob_sizes,
};
