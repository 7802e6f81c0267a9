// SPDX-License-Identifier: GPL-2.0-only
/* vigil: LSM registration. */

#include <linux/init.h>
#include <linux/lsm_hooks.h>

#include "vigil.h"

#define TABLE_HASH_BITS 12

bool vigil_enabled __ro_after_init;

struct lsm_blob_sizes vigil_blob_sizes __ro_after_init = {
	.lbs_cred = sizeof(struct vigil_cred),
};

static int __init vigil_init(void)
{
	int rc;

	rc = vigil_table_init(&vigil_table, TABLE_HASH_BITS,
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
