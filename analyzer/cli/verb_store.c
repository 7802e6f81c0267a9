// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the verbs' way into the database: open an existing one,
 * check (and resolve) the subjects named on the command line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "util.h"
#include "verb_store.h"

int open_store_existing(const char *path, struct vigil_store **ret)
{
	char err[256] = "";
	int rc;

	rc = vigil_store_open_mode(path, VIGIL_STORE_READ, ret, err,
				   sizeof(err));
	if (rc)
		p_err("--db %s: %s", shown(path), err);
	return rc;
}

/* The full paths --subject NAME was resolved to: freed at exit. */
static char **resolved;
static size_t nresolved;

static void resolved_free(void)
{
	size_t i;

	for (i = 0; i < nresolved; i++)
		free(resolved[i]);
	free(resolved);
}

/*
 * A --subject without a slash is a basename, as ausearch -x takes it: the
 * one executable observed under that name replaces it in subjects[i]; none
 * or several are said. 1 (resolved), 0 (no such name), -errno (said).
 */
static int subject_basename(struct vigil_store *store, const char *db,
			    char **subject)
{
	char **v, **nr, *list = NULL;
	size_t n, i, len = 0;
	FILE *f;
	int rc;

	rc = vigil_store_subjects_named(store, *subject, &v, &n);
	if (rc) {
		p_err("%s: %s", db, rc == -EIO ? vigil_store_errmsg(store) :
		      strerror(-rc));
		return rc;
	}
	if (n == 1) {
		nr = realloc(resolved, (nresolved + 1) * sizeof(*nr));
		if (!nr) {
			rc = -ENOMEM;
		} else {
			if (!resolved)
				atexit(resolved_free);
			resolved = nr;
			resolved[nresolved++] = v[0];
			*subject = v[0];
			free(v);
			return 1;
		}
	} else if (n > 1) {
		f = open_memstream(&list, &len);
		for (i = 0; f && i < n; i++)
			fprintf(f, "%s%s", i ? ", " : "", v[i]);
		if (f && !fclose(f))
			p_err("--subject %s: %zu observed executables are named "
			      "%s: %s (name one)", *subject, n, *subject, list);
		else
			p_err("out of memory");
		free(list);
		rc = -EINVAL;
	}
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return rc;
}

int verb_subjects_known(struct vigil_store *store, const char *db,
			char *const *subjects, size_t n)
{
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		rc = vigil_store_subject_known(store, subjects[i]);
		if (rc < 0) {
			p_err("%s: %s", db, vigil_store_errmsg(store));
			return -EIO;
		}
		/* the array is the verb's own (verb_opts): a name in it
		 * may be replaced by the path it stands for */
		if (!rc && !strchr(subjects[i], '/')) {
			rc = subject_basename(store, db,
					      (char **)&subjects[i]);
			if (rc < 0)
				return rc;
		}
		if (!rc) {
			p_err("subject '%s' was never observed", subjects[i]);
			return -ENOENT;
		}
	}
	return 0;
}
