// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: ingest --checkpoint FILE: the newest event of each node
 * a run stored, read before a run (older events skipped) and written
 * after it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ingest.h"
#include "ingest_int.h"

#define CP_MAX (64 * 1024) /* a checkpoint file's size */

struct cp_node {
	char *node;		/* "-": records without node= */
	int64_t old_t, t;	/* time in ms: the file's, this run's newest */
	uint64_t old_serial, serial;
	bool old;		/* the file had this node */
};

struct ingest_checkpoint {
	const char *file;
	struct cp_node *v;
	size_t n, cap;
};

/* A node name the file can hold: printable ASCII, no space. */
static bool cp_name_ok(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] <= ' ' || s[i] > '~')
			return false;
	return true;
}

static struct cp_node *cp_find(struct ingest_checkpoint *cp, const char *s,
			       size_t len, bool add)
{
	struct cp_node *n;

	for (size_t i = 0; i < cp->n; i++)
		if (strlen(cp->v[i].node) == len &&
		    !memcmp(cp->v[i].node, s, len))
			return &cp->v[i];
	if (!add || cp->n >= 4096 ||
	    grow_array((void **)&cp->v, &cp->cap, cp->n + 1, sizeof(*n)))
		return NULL;
	n = &cp->v[cp->n];
	memset(n, 0, sizeof(*n));
	n->node = strndup(s, len);
	if (!n->node)
		return NULL;
	cp->n++;
	return n;
}

void ingest_checkpoint_free(struct ingest_checkpoint *cp)
{
	if (!cp)
		return;
	for (size_t i = 0; i < cp->n; i++)
		free(cp->v[i].node);
	free(cp->v);
	free(cp);
}

/*
 * Read FILE ("NODE TIME_MS SERIAL" lines, '#' comments; missing: empty).
 * NULL after saying why.
 */
struct ingest_checkpoint *ingest_cp_read(const char *file)
{
	struct ingest_checkpoint *cp = calloc(1, sizeof(*cp));
	char *text = NULL, *line, *next;
	unsigned int lineno = 0;
	int rc;

	if (!cp) {
		p_err("out of memory");
		return NULL;
	}
	cp->file = file;
	rc = read_file(file, CP_MAX, &text, NULL);
	if (rc == -ENOENT)
		return cp;
	if (rc) {
		p_err("--checkpoint %s: %s", file, strerror(-rc));
		goto fail;
	}
	for (line = text; line && *line; line = next) {
		char node[256], rest;
		long long t;
		unsigned long long serial;
		struct cp_node *n;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (!*line || *line == '#')
			continue;
		if (sscanf(line, "%255s %lld %llu %c", node, &t, &serial,
			   &rest) != 3 || t < 0 ||
		    !cp_name_ok(node, strlen(node))) {
			p_err("--checkpoint %s:%u: not 'NODE TIME_MS SERIAL'",
			      file, lineno);
			goto fail;
		}
		n = cp_find(cp, node, strlen(node), true);
		if (!n) {
			p_err("out of memory");
			goto fail;
		}
		n->old = true;
		n->old_t = n->t = t;
		n->old_serial = n->serial = serial;
	}
	free(text);
	return cp;
fail:
	free(text);
	ingest_checkpoint_free(cp);
	return NULL;
}

/* Write the newest event of each node, atomically. 0 or -errno (said). */
int ingest_cp_write(const struct ingest_checkpoint *cp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f)
		return -ENOMEM;
	fputs("# vigil ingest --checkpoint: NODE TIME_MS SERIAL, the newest "
	      "event ingested of each node (-: records without node=)\n", f);
	for (size_t i = 0; i < cp->n; i++)
		fprintf(f, "%s %lld %llu\n", cp->v[i].node,
			(long long)cp->v[i].t,
			(unsigned long long)cp->v[i].serial);
	if (fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	rc = write_file_atomic(cp->file, text, len);
	if (rc)
		p_err("--checkpoint %s: %s", cp->file, strerror(-rc));
	free(text);
	return rc;
}

/*
 * Whether the record of header h is older than the checkpoint of its
 * node (then it is skipped: ingested by an earlier run); else the node's
 * newest event is kept for the next checkpoint. An event of the
 * checkpoint's own key is read again (the database drops it if stored).
 */
bool ingest_cp_skip(struct ingest_checkpoint *cp,
		    const struct rec_header *h)
{
	const char *name = h->node ? h->node : "-";
	size_t len = h->node ? h->node_len : 1;
	int64_t t = (int64_t)h->sec * 1000 + h->ms;
	struct cp_node *n;

	if (!cp || !cp_name_ok(name, len))
		return false;
	n = cp_find(cp, name, len, true);
	if (!n)
		return false;	/* out of room: read, not kept */
	if (n->old && (t < n->old_t ||
		       (t == n->old_t && h->serial < n->old_serial)))
		return true;
	if (t > n->t || (t == n->t && h->serial > n->serial) ||
	    (!n->old && !n->t)) {
		n->t = t;
		n->serial = h->serial;
	}
	return false;
}
