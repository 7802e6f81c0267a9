/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil analyzer: TOMOYO's side of "vigil trial --to tomoyo". */
#ifndef VIGIL_TRIAL_TOMOYO_H
#define VIGIL_TRIAL_TOMOYO_H

#include <stddef.h>

/* TOMOYO's audit entries read during a trial, kept in its folder. */
#define TOMOYO_TRIAL_LOG "tomoyo-audit.log"
/* TOMOYO's standard profiles (tomoyo-tools' init_policy). */
#define TOMOYO_PROFILE_DISABLED 0
#define TOMOYO_PROFILE_PERMISSIVE 2

/* 0 when TOMOYO's policy files can be written, else -ENOENT (said). */
int tomoyo_trial_available(void);

/*
 * Load an export's domain policy (every use_profile line made profile)
 * and its exception policy with tomoyo-loadpolicy, and check that TOMOYO
 * took every domain. *ret_domains: the domain names ("<kernel> EXE").
 */
int tomoyo_trial_load(const char *domain_file, const char *exception_file,
		      int profile, char ***ret_domains, size_t *ret_n);

/* Give the domains profile 0 and delete the exception file's
 * initialize_domain lines. */
int tomoyo_trial_unload(char *const *domains, size_t n,
			const char *exception_file);

/* Append what TOMOYO's audit file holds now to DIR/TOMOYO_TRIAL_LOG. */
int tomoyo_trial_drain(const char *dir);

/* Each "granted=no" entry of DIR/TOMOYO_TRIAL_LOG: fn(ctx, domain, rule). */
typedef int (*tomoyo_reject_fn)(void *ctx, const char *domain,
				const char *rule);
int tomoyo_trial_rejects(const char *dir, tomoyo_reject_fn fn, void *ctx);

#endif
