/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil analyzer: SELinux's side of "vigil trial --to selinux". */
#ifndef VIGIL_TRIAL_SELINUX_H
#define VIGIL_TRIAL_SELINUX_H

#include <stdbool.h>
#include <stddef.h>

/* 0 when SELinux is enabled with a policy loaded, else -ENOENT (said). */
int selinux_trial_available(void);

/*
 * Install the compiled modules (semodule -i, one transaction), then
 * label the programs and the existing files each module's .fc (beside its
 * .pp) names with their file contexts (restorecon -F).
 */
int selinux_trial_load(char *const *pps, size_t n, char *const *exes,
		       size_t nexes);

/* Remove the modules (semodule -r; pps: their .pp files, beside their
 * .fc), then give the programs and those files back the policy's own
 * labels (restorecon -F). */
int selinux_trial_unload(char *const *mods, char *const *pps, size_t n,
			 char *const *exes, size_t nexes);

/* One AVC record's fields (pointers into a copy the caller frees with
 * selinux_avc_free). */
struct selinux_avc {
	char *buf;
	const char *perms;	/* "read open" */
	const char *stype, *ttype, *tclass;
	const char *object;	/* path=, name= or NULL */
	bool denied, permissive;
};
/* 0, or -EINVAL when text is not an AVC record with scontext, tcontext
 * and tclass. */
int selinux_avc_parse(const char *text, struct selinux_avc *a);
void selinux_avc_free(struct selinux_avc *a);

#endif
