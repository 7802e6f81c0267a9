/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: verb_store.c: the verbs' way into the database (it says
 * what went wrong; store.c, a library, does not).
 */
#ifndef VIGIL_ANALYZER_VERB_STORE_H
#define VIGIL_ANALYZER_VERB_STORE_H

#include <stddef.h>

struct vigil_store;

/* Open an existing database read-only (never create one, never write to
 * it); logs and returns -errno. */
int open_store_existing(const char *path, struct vigil_store **ret);
/*
 * Every named subject was observed in store (named db): 0, or -ENOENT /
 * -EINVAL / -EIO after saying so. A name without '/' is a basename (as
 * ausearch -x): the one executable observed under it replaces it in the
 * array; several are listed (-EINVAL).
 */
int verb_subjects_known(struct vigil_store *store, const char *db,
			char *const *subjects, size_t n);

#endif /* VIGIL_ANALYZER_VERB_STORE_H */
