// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: --checkpoint FILE of the verbs that show the database's
 * records (checkpoint.h). FILE holds "NODE TIME_MS SERIAL" lines, the
 * newest record of each host a run read: a record is newer when its time,
 * then its serial, is greater, compared within its host only (two hosts'
 * serials are unrelated). NODE "-" is the records without node=; a byte
 * that is not printable ASCII, a space, a backslash (and a node named "-")
 * is written \ooo, three octal digits.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vigil.h"
#include "util.h"
#include "store.h"
#include "checkpoint.h"

#define CP_MAX_BYTES (1024 * 1024)	/* a checkpoint file's size */
#define CP_MAX_NODES 65536		/* its lines */

struct cp_node {
	char *node;			/* '' : records without node= */
	int64_t old_ms, old_serial;	/* the file's; -1: none */
	int64_t new_ms, new_serial;	/* this run's; -1: none */
};

struct verb_checkpoint {
	const char *file;
	bool whole;		/* no node read has an old cut-off */
	struct cp_node *v;
	size_t n, cap;
};

void verb_checkpoint_free(struct verb_checkpoint *cp)
{
	if (!cp)
		return;
	for (size_t i = 0; i < cp->n; i++)
		free(cp->v[i].node);
	free(cp->v);
	free(cp);
}

static struct cp_node *cp_find(struct verb_checkpoint *cp, const char *node)
{
	for (size_t i = 0; i < cp->n; i++)
		if (!strcmp(cp->v[i].node, node))
			return &cp->v[i];
	return NULL;
}

/* A new node (none of its times yet): NULL when out of memory or room. */
static struct cp_node *cp_add(struct verb_checkpoint *cp, const char *node)
{
	struct cp_node *n;

	if (cp->n >= CP_MAX_NODES ||
	    grow_array((void **)&cp->v, &cp->cap, cp->n + 1, sizeof(*n)))
		return NULL;
	n = &cp->v[cp->n];
	n->node = strdup(node);
	if (!n->node)
		return NULL;
	n->old_ms = n->old_serial = n->new_ms = n->new_serial = -1;
	cp->n++;
	return n;
}

static bool cp_plain(unsigned char c)
{
	return c > ' ' && c <= '~' && c != '\\';
}

/* NODE as the file writes it. */
static void cp_put_node(FILE *f, const char *node)
{
	if (!*node) {
		fputc('-', f);
		return;
	}
	if (!strcmp(node, "-")) {
		fputs("\\055", f);
		return;
	}
	for (const unsigned char *p = (const unsigned char *)node; *p; p++)
		if (cp_plain(*p))
			fputc(*p, f);
		else
			fprintf(f, "\\%03o", *p);
}

/* The file's NODE decoded in place: 0 or -EINVAL. */
static int cp_get_node(char *s)
{
	char *w = s;

	if (!strcmp(s, "-")) {
		*s = '\0';
		return 0;
	}
	for (char *r = s; *r; r++) {
		unsigned int c;

		if (*r != '\\') {
			if (!cp_plain((unsigned char)*r))
				return -EINVAL;
			*w++ = *r;
			continue;
		}
		if (r[1] < '0' || r[1] > '3' || r[2] < '0' || r[2] > '7' ||
		    r[3] < '0' || r[3] > '7')
			return -EINVAL;
		c = (unsigned int)(r[1] - '0') << 6 |
		    (unsigned int)(r[2] - '0') << 3 | (unsigned int)(r[3] - '0');
		if (!c)
			return -EINVAL;
		*w++ = (char)c;
		r += 3;
	}
	*w = '\0';
	return 0;
}

/* A decimal number of 0 to INT64_MAX, the whole of s: 0 or -EINVAL. */
static int cp_get_num(const char *s, int64_t *ret)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > INT64_MAX)
		return -EINVAL;
	*ret = (int64_t)v;
	return 0;
}

/* One line's fields split at blanks, in place: their number (4: more). */
static int cp_split(char *line, char **f)
{
	int n = 0;

	for (char *p = strtok(line, " \t"); p; p = strtok(NULL, " \t")) {
		if (n == 3)
			return 4;
		f[n++] = p;
	}
	return n;
}

/* Whether FILE can be written where it is (said before the run, not
 * after its output): 0 or -errno. */
static int cp_writable(const char *file)
{
	char *copy = strdup(file);
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	if (!strcmp(file, "-"))
		rc = -EINVAL;	/* written after the run: a file */
	else if (access(dirname(copy), W_OK | X_OK))
		rc = -errno;
	free(copy);
	if (rc)
		p_err("--checkpoint %s: %s", file, rc == -EINVAL ?
		      "a file is needed (it is written)" : strerror(-rc));
	return rc;
}

/* FILE's lines into cp: 0 or -errno after saying why. */
static int cp_read(struct verb_checkpoint *cp)
{
	char *text = NULL, *line, *next;
	unsigned int lineno = 0;
	size_t len;
	int rc;

	rc = cp_writable(cp->file);
	if (rc)
		return rc;
	rc = read_file(cp->file, CP_MAX_BYTES, &text, &len);
	if (rc == -ENOENT)
		return 0;	/* the first run */
	if (rc) {
		p_err("--checkpoint %s: %s", cp->file, rc == -EFBIG ?
		      "too large for a checkpoint file" : strerror(-rc));
		return rc;
	}
	if (strlen(text) != len) {
		p_err("--checkpoint %s: not a checkpoint file (a NUL byte)",
		      cp->file);
		rc = -EINVAL;
		goto out;
	}
	for (line = text; line && *line; line = next) {
		const char *why = NULL;
		struct cp_node *n;
		int64_t ms, serial;
		char *f[3];

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (!*line || *line == '#')
			continue;
		if (cp_split(line, f) != 3 || cp_get_num(f[1], &ms) ||
		    cp_get_num(f[2], &serial))
			why = "not 'NODE TIME_MS SERIAL'";
		else if (cp_get_node(f[0]))
			why = "NODE: a byte not printable ASCII or a bad \\ooo";
		else if (cp_find(cp, f[0]))
			why = "NODE twice";
		if (why) {
			p_err("--checkpoint %s:%u: %s", cp->file, lineno, why);
			rc = -EINVAL;
			goto out;
		}
		n = cp_add(cp, f[0]);
		if (!n) {
			p_err("--checkpoint %s:%u: %s", cp->file, lineno,
			      cp->n >= CP_MAX_NODES ? "too many hosts" :
			      "out of memory");
			rc = -ENOMEM;
			goto out;
		}
		n->old_ms = ms;
		n->old_serial = serial;
	}
out:
	free(text);
	return rc;
}

/* This run's cut-off of one node (vigil_store_cuts). */
static int cp_cut_one(void *ctx, const char *node, int64_t time_ms,
		      int64_t serial)
{
	struct verb_checkpoint *cp = ctx;
	struct cp_node *n = cp_find(cp, node);

	if (!n)
		n = cp_add(cp, node);
	if (!n)
		return -ENOMEM;
	n->new_ms = time_ms;
	n->new_serial = serial;
	return 0;
}

/* Whether (a_ms, a_serial) is after (b_ms, b_serial). */
static bool cp_after(int64_t a_ms, int64_t a_serial, int64_t b_ms,
		     int64_t b_serial)
{
	return a_ms > b_ms || (a_ms == b_ms && a_serial > b_serial);
}

int verb_checkpoint_begin(struct vigil_store *s, const char *db,
			  const char *file, int64_t until_ms,
			  struct verb_checkpoint **ret)
{
	struct verb_checkpoint *cp;
	struct vigil_store_span *sp = NULL;
	size_t k = 0;
	int rc;

	*ret = NULL;
	if (!file)
		return 0;
	cp = calloc(1, sizeof(*cp));
	if (!cp) {
		p_err("out of memory");
		return -ENOMEM;
	}
	cp->file = file;
	rc = cp_read(cp);
	if (rc)
		goto fail;
	rc = vigil_store_cuts(s, until_ms, cp_cut_one, cp);
	if (!rc) {
		sp = calloc(cp->n + 1, sizeof(*sp));
		if (!sp)
			rc = -ENOMEM;
	}
	for (size_t i = 0; !rc && i < cp->n; i++) {
		const struct cp_node *n = &cp->v[i];

		/* only the nodes this run reads, each from its old cut-off
		 * (-1: all) up to its new one */
		if (n->new_ms < 0)
			continue;
		sp[k++] = (struct vigil_store_span) {
			.node = n->node,
			.from_ms = n->old_ms, .from_serial = n->old_serial,
			.to_ms = n->new_ms, .to_serial = n->new_serial,
		};
	}
	cp->whole = true;
	for (size_t i = 0; i < k; i++)
		if (sp[i].from_ms >= 0)
			cp->whole = false;
	if (!rc)
		rc = vigil_store_select_span(s, sp, k);
	free(sp);
	if (rc) {
		p_err("%s: %s", db, rc == -EIO ? vigil_store_errmsg(s) :
		      strerror(-rc));
		goto fail;
	}
	*ret = cp;
	return 0;
fail:
	verb_checkpoint_free(cp);
	return rc;
}

bool verb_checkpoint_whole(const struct verb_checkpoint *cp)
{
	return !cp || cp->whole;
}

static int cp_cmp(const void *a, const void *b)
{
	return strcmp(((const struct cp_node *)a)->node,
		      ((const struct cp_node *)b)->node);
}

int verb_checkpoint_commit(const struct verb_checkpoint *cp)
{
	struct cp_node *v;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!cp)
		return 0;
	v = calloc(cp->n + 1, sizeof(*v));
	if (!v) {
		p_err("out of memory");
		return -ENOMEM;
	}
	memcpy(v, cp->v, cp->n * sizeof(*v));
	qsort(v, cp->n, sizeof(*v), cp_cmp);
	f = open_memstream(&text, &len);
	if (!f) {
		free(v);
		p_err("out of memory");
		return -ENOMEM;
	}
	fputs("# vigil --checkpoint: NODE TIME_MS SERIAL, the newest record "
	      "read of each host (-: records without node=)\n", f);
	for (size_t i = 0; i < cp->n; i++) {
		int64_t ms = v[i].old_ms, serial = v[i].old_serial;

		/* never back: a run with --until before the old cut-off */
		if (cp_after(v[i].new_ms, v[i].new_serial, ms, serial)) {
			ms = v[i].new_ms;
			serial = v[i].new_serial;
		}
		cp_put_node(f, v[i].node);
		fprintf(f, " %lld %lld\n", (long long)ms, (long long)serial);
	}
	free(v);
	if (fclose(f)) {
		free(text);
		p_err("out of memory");
		return -ENOMEM;
	}
	rc = write_file_atomic(cp->file, text, len);
	if (rc)
		p_err("--checkpoint %s: %s", cp->file, strerror(-rc));
	free(text);
	return rc;
}
