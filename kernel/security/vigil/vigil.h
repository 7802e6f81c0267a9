/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil: declarations shared by the LSM's files. */
#ifndef _SECURITY_VIGIL_VIGIL_H
#define _SECURITY_VIGIL_VIGIL_H

#include <linux/types.h>

enum vigil_mode {
	VIGIL_MODE_OFF,
	VIGIL_MODE_LEARN,
	VIGIL_MODE_OBSERVE,
	VIGIL_MODE_COUNT,
};

extern bool vigil_enabled;

const char *vigil_mode_name(enum vigil_mode mode);
int vigil_mode_parse(const char *buf, size_t len, enum vigil_mode *ret_mode);
enum vigil_mode vigil_mode_get(void);
void vigil_mode_set(enum vigil_mode mode);
u64 vigil_capable_calls(void);

#endif /* _SECURITY_VIGIL_VIGIL_H */
