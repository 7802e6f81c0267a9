/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: nodes.c: the hosts of the database and the ones a verb
 * reads (--node HOST, repeatable, globs; --all-nodes), docs/fleet.md.
 */
#ifndef VIGIL_ANALYZER_NODES_H
#define VIGIL_ANALYZER_NODES_H

#include <stdbool.h>
#include <stddef.h>

struct vigil_store;
struct verb_opts;

/*
 * The hosts: their names, sorted, each once. A record without node= is
 * the local host's (local, the name the database keeps), as is one whose
 * node= is that name. stored: the node values of the database, sorted
 * (strcmp), host[i] the host stored[i] is.
 */
struct vigil_nodes {
	char *local;
	char **names;
	size_t n;
	char **stored;
	size_t *host;
	size_t nstored;
	bool *selected;		/* per host */
	size_t nselected;
	size_t local_host;	/* its index; n when it has no data */
};

/* Read the hosts of the database: 0, -EIO or -ENOMEM. */
int vigil_nodes_load(struct vigil_store *s, struct vigil_nodes *ret);
/* The host a stored node value is, or -1. */
long vigil_nodes_host(const struct vigil_nodes *n, const char *stored);
/*
 * Select the hosts matching one of globs (fnmatch(3) on the host's name),
 * all of them with all, or by default the only one. 0; -EINVAL (a glob
 * matches no host), -EDOM (several hosts and no choice), -ENOMEM: err says
 * which (each host name escaped as terminal text).
 */
int vigil_nodes_select(struct vigil_nodes *n, char *const *globs,
		       size_t nglobs, bool all, char *err, size_t errlen);
/* Make the store read the selected hosts only: 0, -EIO, -ENOMEM. */
int vigil_nodes_apply(struct vigil_store *s, const struct vigil_nodes *n);
void vigil_nodes_free(struct vigil_nodes *n);
/* Read the local host's records only (trial: its own machine's). */
int vigil_nodes_local(struct vigil_store *s);

/*
 * For a verb: load, select by its --node/--all-nodes (vo) and apply; the
 * problem said (p_err) and -errno when it fails. default_all: neither
 * option reads every host (evidence only). ret may be NULL.
 */
int verb_nodes(struct vigil_store *s, const char *db,
	       const struct verb_opts *vo, bool default_all,
	       struct vigil_nodes *ret);

#endif /* VIGIL_ANALYZER_NODES_H */
