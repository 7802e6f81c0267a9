// SPDX-License-Identifier: GPL-2.0-only
/* vigil: the global mode (off, learn, observe) and its names. */

#include <linux/build_bug.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "vigil.h"

static const char *const mode_names[] = {
	[VIGIL_MODE_OFF] = "off",
	[VIGIL_MODE_LEARN] = "learn",
	[VIGIL_MODE_OBSERVE] = "observe",
};

static_assert(ARRAY_SIZE(mode_names) == VIGIL_MODE_COUNT);

static const char *const verdict_names[] = {
	[VIGIL_VERDICT_LEARN] = VIGIL_VERDICT_LEARNED,
	[VIGIL_VERDICT_DENY] = VIGIL_VERDICT_WOULD_DENY,
	[VIGIL_VERDICT_ALLOW] = "allowed",
};

static_assert(ARRAY_SIZE(verdict_names) == VIGIL_VERDICT_COUNT);

/* Read by every hook (vigil_mode_get(), inline): written by the mode file. */
enum vigil_mode vigil_global_mode __read_mostly = VIGIL_MODE_OFF;

const char *vigil_verdict_name(enum vigil_verdict verdict)
{
	if (verdict >= VIGIL_VERDICT_COUNT)
		return "?";
	return verdict_names[verdict];
}

static const char *const uclass_names[] = {
	[VIGIL_UCLASS_ROOT] = "root",
	[VIGIL_UCLASS_SYSTEM] = "system",
	[VIGIL_UCLASS_USER] = "user",
};

const char *vigil_uclass_name(enum vigil_uclass c)
{
	if (c >= ARRAY_SIZE(uclass_names))
		return "?";
	return uclass_names[c];
}

const char *vigil_mode_name(enum vigil_mode mode)
{
	if (mode >= VIGIL_MODE_COUNT)
		return "?";
	return mode_names[mode];
}

/**
 * vigil_mode_parse - parse a mode name
 * @buf: the name, not necessarily NUL-terminated
 * @len: its length; one trailing newline is accepted
 * @ret_mode: set to the mode on success
 *
 * Return: 0 on success, -EINVAL if @buf names no mode.
 */
int vigil_mode_parse(const char *buf, size_t len, enum vigil_mode *ret_mode)
{
	enum vigil_mode m;

	if (len && buf[len - 1] == '\n')
		len--;
	for (m = 0; m < VIGIL_MODE_COUNT; m++) {
		if (strlen(mode_names[m]) == len &&
		    !memcmp(mode_names[m], buf, len)) {
			*ret_mode = m;
			return 0;
		}
	}
	return -EINVAL;
}

void vigil_mode_set(enum vigil_mode mode)
{
	WRITE_ONCE(vigil_global_mode, mode);
}

static int __init vigil_mode_setup(char *str)
{
	enum vigil_mode m;

	if (vigil_mode_parse(str, strlen(str), &m))
		pr_warn("vigil: unknown vigil.mode=%s, keeping %s\n", str,
			vigil_mode_name(vigil_global_mode));
	else
		vigil_global_mode = m;
	return 1;
}
__setup("vigil.mode=", vigil_mode_setup);
