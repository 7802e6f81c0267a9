// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the hosts of the database (node=) and the selection a
 * verb reads: --node HOST (repeatable, globs), --all-nodes, or by
 * default the one host there is (several are an error that names them:
 * mixing hosts' records is a choice, never a surprise). docs/fleet.md.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "nodes.h"
#include "store.h"
#include "util.h"

struct strs {
	char **v;
	size_t n, cap;
};

static int strs_add(void *ctx, const char *s)
{
	struct strs *l = ctx;
	int rc = grow_array((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));

	if (rc)
		return rc;
	l->v[l->n] = strdup(s);
	if (!l->v[l->n])
		return -ENOMEM;
	l->n++;
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void vigil_nodes_free(struct vigil_nodes *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->n; i++)
		free(n->names[i]);
	for (i = 0; i < n->nstored; i++)
		free(n->stored[i]);
	free(n->names);
	free(n->stored);
	free(n->host);
	free(n->selected);
	free(n->local);
	memset(n, 0, sizeof(*n));
}

static size_t name_index(const struct vigil_nodes *n, const char *name)
{
	char *const *p = bsearch(&name, n->names, n->n, sizeof(*n->names),
				 str_cmp);

	return p ? (size_t)(p - n->names) : n->n;
}

int vigil_nodes_load(struct vigil_store *s, struct vigil_nodes *ret)
{
	struct vigil_nodes n = { 0 };
	struct strs st = { 0 }, names = { 0 };
	size_t i, out;
	int rc;

	rc = vigil_store_local_node(s, &n.local);
	if (!rc)
		rc = vigil_store_nodes(s, strs_add, &st);
	if (rc)
		goto fail;
	/* the stored values come sorted: each one's host name */
	for (i = 0; i < st.n && !rc; i++)
		rc = strs_add(&names, st.v[i][0] ? st.v[i] : n.local);
	if (rc)
		goto fail;
	qsort(names.v, names.n, sizeof(*names.v), str_cmp);
	for (i = 0, out = 0; i < names.n; i++) {
		if (out && !strcmp(names.v[out - 1], names.v[i])) {
			free(names.v[i]);
			continue;
		}
		names.v[out++] = names.v[i];
	}
	n.names = names.v;
	n.n = out;
	names.v = NULL;
	n.stored = st.v;
	n.nstored = st.n;
	st.v = NULL;
	n.host = calloc(n.nstored + 1, sizeof(*n.host));
	n.selected = calloc(n.n + 1, sizeof(*n.selected));
	if (!n.host || !n.selected) {
		rc = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < n.nstored; i++)
		n.host[i] = name_index(&n, n.stored[i][0] ? n.stored[i] :
				       n.local);
	n.local_host = name_index(&n, n.local);
	*ret = n;
	return 0;
fail:
	for (i = 0; i < st.n; i++)
		free(st.v[i]);
	free(st.v);
	for (i = 0; i < names.n; i++)
		free(names.v[i]);
	free(names.v);
	vigil_nodes_free(&n);
	return rc;
}

long vigil_nodes_host(const struct vigil_nodes *n, const char *stored)
{
	char *const *p = bsearch(&stored, n->stored, n->nstored,
				 sizeof(*n->stored), str_cmp);

	return p ? (long)n->host[p - n->stored] : -1;
}

/* "a, b, c" (the first max, then "..."), escaped, into err after head. */
static void list_hosts(const struct vigil_nodes *n, const char *head,
		       const char *tail, char *err, size_t errlen)
{
	size_t i, w;

	w = (size_t)snprintf(err, errlen, "%s", head);
	for (i = 0; i < n->n && i < 10 && w < errlen; i++) {
		char *e = esc_text_dup(n->names[i]);

		w += (size_t)snprintf(err + w, errlen - w, "%s%s",
				      i ? ", " : "", e ? e : "?");
		free(e);
	}
	if (n->n > 10 && w < errlen)
		w += (size_t)snprintf(err + w, errlen - w, ", ... (%zu in all)",
				      n->n);
	if (w < errlen)
		snprintf(err + w, errlen - w, "%s", tail);
}

int vigil_nodes_select(struct vigil_nodes *n, char *const *globs,
		       size_t nglobs, bool all, char *err, size_t errlen)
{
	size_t i, g;

	memset(n->selected, 0, n->n * sizeof(*n->selected));
	n->nselected = 0;
	if (nglobs) {
		for (g = 0; g < nglobs; g++) {
			bool hit = false;

			for (i = 0; i < n->n; i++) {
				if (fnmatch(globs[g], n->names[i], 0))
					continue;
				hit = true;
				if (!n->selected[i])
					n->nselected++;
				n->selected[i] = true;
			}
			if (!hit) {
				char *e = esc_text_dup(globs[g]);
				char head[300];

				snprintf(head, sizeof(head), "--node %s: no host "
					 "of the database matches it (%s",
					 e ? e : "?", n->n ? "its hosts: " :
					 "it holds no record");
				free(e);
				list_hosts(n, head, ")", err, errlen);
				return -EINVAL;
			}
		}
		return 0;
	}
	if (n->n > 1 && !all) {
		char head[128];

		snprintf(head, sizeof(head), "the database holds the records "
			 "of %zu hosts (", n->n);
		list_hosts(n, head, "): name the ones to read with --node "
			   "HOST (repeatable, globs) or take them all with "
			   "--all-nodes", err, errlen);
		return -EDOM;
	}
	for (i = 0; i < n->n; i++)
		n->selected[i] = true;
	n->nselected = n->n;
	return 0;
}

static int nodes_apply(struct vigil_store *s, const struct vigil_nodes *n)
{
	char **v;
	size_t i, k = 0;
	int rc;

	bool local = n->local_host < n->n && n->selected[n->local_host];

	v = calloc(n->nstored + 3, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n->nstored; i++)
		if (n->selected[n->host[i]])
			v[k++] = n->stored[i];
	/* foreign records of the local host, vigil's or not */
	if (local) {
		v[k++] = "";
		v[k++] = n->local;
	}
	rc = vigil_store_select_nodes(s, v, k, local);
	free(v);
	return rc;
}

int vigil_nodes_apply(struct vigil_store *s, const struct vigil_nodes *n)
{
	if (n->nselected == n->n)
		return 0;	/* all of them: nothing to filter */
	return nodes_apply(s, n);
}

int vigil_nodes_local(struct vigil_store *s)
{
	struct vigil_nodes n = { 0 };
	size_t i;
	int rc = vigil_nodes_load(s, &n);

	if (rc)
		return rc;
	for (i = 0; i < n.n; i++)
		n.selected[i] = i == n.local_host;
	n.nselected = n.local_host < n.n;
	/* nothing of its own: select nothing rather than all */
	rc = n.nselected == n.n && n.n ? 0 : nodes_apply(s, &n);
	vigil_nodes_free(&n);
	return rc;
}

int verb_nodes(struct vigil_store *s, const char *db,
	       const struct verb_opts *vo, bool default_all,
	       struct vigil_nodes *ret)
{
	struct vigil_nodes n = { 0 };
	char err[1024] = "";
	int rc;

	if (vo->nnodes && vo->all_nodes) {
		p_err("--node and --all-nodes exclude each other");
		return -EINVAL;
	}
	rc = vigil_nodes_load(s, &n);
	if (rc) {
		p_err("%s: %s", db, rc == -EIO ? vigil_store_errmsg(s) :
		      strerror(-rc));
		return rc;
	}
	rc = vigil_nodes_select(&n, vo->nodes, vo->nnodes,
				vo->all_nodes || default_all, err,
				sizeof(err));
	if (rc) {
		p_err("%s", err[0] ? err : strerror(-rc));
		goto out;
	}
	rc = vigil_nodes_apply(s, &n);
	if (rc)
		p_err("%s: %s", db, rc == -EIO ? vigil_store_errmsg(s) :
		      strerror(-rc));
out:
	if (!rc && ret) {
		*ret = n;
		return 0;
	}
	vigil_nodes_free(&n);
	return rc;
}
