// SPDX-License-Identifier: GPL-2.0-only
/* vigil analyzer: export to selinux (stub). */
#include <errno.h>

#include "export.h"

int export_selinux(const struct vigil_ruleset *rs, const char *dir,
	      const struct export_opts *o, struct export_files *out)
{
	(void)rs;
	(void)dir;
	(void)o;
	(void)out;
	return -ENOSYS;
}
