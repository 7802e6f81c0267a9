// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: "vigil ingest", audit logs into the database.
 *
 * Lines are read here (bounded), each record is handed to auparse alone
 * (AUSOURCE_BUFFER, one record at a time) and events are grouped by their
 * (node, time, serial) key here, so auparse's own event assembly, slow on
 * bursty logs, never runs. Each batch of rows is committed together with
 * the position reached in the file.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vigil.h"
#include "util.h"
#include "record.h"
#include "store.h"
#include "ingest.h"

#define DEFAULT_LOG "/var/log/audit/audit.log"
#define AUDITD_CONF "/etc/audit/auditd.conf"
#define CP_MAX (64 * 1024) /* a checkpoint file's size */
#define MAX_ROTATED 99
#define MAX_LINE (64 * 1024) /* auditd writes at most ~9 KiB a record */
#define READ_BUF (1024 * 1024)
#define HEAD_MAX 4096
#define MAX_RUN (1024 * 1024) /* bytes without a newline: not a text log */
#define MAX_JUNK 10000 /* lines in a row that are no record (streams) */
#define DEFAULT_BATCH 20000 /* lines per transaction */

static const char ingest_usage[] =
	"ingest [--db PATH] [--checkpoint FILE] [FILE...|-]\n"
	"  Store the vigil records of audit logs (default: auditd's\n"
	"  log_file of " AUDITD_CONF ", else " DEFAULT_LOG ",\n"
	"  its rotations LOG.N ... LOG.1 first). --checkpoint FILE: skip\n"
	"  the events older than the newest one of each node a previous\n"
	"  run with FILE stored, and store the newest of this run.";

/* ---- bounded line reader ---- */

enum {
	LINE_TOO_LONG = 1,
	LINE_NO_NEWLINE = 2,
	LINE_ENDLESS = 4,
};

struct line_reader {
	int fd;
	char *buf;
	size_t pos, end;
	bool eof;
	bool bounded; /* a stream: stop past MAX_RUN without a newline */
	uint64_t next_off; /* file offset after the last line returned */
};

/*
 * Next line, without its newline, writable, with one spare byte after it.
 * Lines longer than MAX_LINE are consumed whole and returned truncated
 * with LINE_TOO_LONG; in a stream (bounded), past MAX_RUN bytes without a
 * newline (/dev/zero) the reader stops there: LINE_ENDLESS, and the input
 * is read no further (a regular file is finite: read to its end). Return 1, 0 at the end, or -errno.
 */
static int lr_next(struct line_reader *lr, char **ret_line, size_t *ret_len,
		   unsigned int *ret_flags)
{
	unsigned int flags = 0;
	size_t scanned = 0;
	uint64_t dropped = 0;

	for (;;) {
		char *nl = memchr(lr->buf + lr->pos + scanned, '\n',
				  lr->end - lr->pos - scanned);
		size_t have;
		ssize_t n;

		if (nl) {
			size_t len = nl - (lr->buf + lr->pos);

			if (len + dropped > MAX_LINE)
				flags |= LINE_TOO_LONG;
			*ret_line = lr->buf + lr->pos;
			*ret_len = len;
			*ret_flags = flags;
			lr->pos += len + 1;
			lr->next_off += dropped + len + 1;
			return 1;
		}
		have = lr->end - lr->pos;
		if (lr->bounded && have + dropped >= MAX_RUN) {
			*ret_line = lr->buf + lr->pos;
			*ret_len = have < 256 ? have : 256;
			*ret_flags = flags | LINE_TOO_LONG | LINE_ENDLESS;
			return 1;
		}
		if (have >= MAX_LINE) {
			/* keep a prefix for the message, drop the rest */
			flags |= LINE_TOO_LONG;
			dropped += have - 256;
			lr->end = lr->pos + 256;
			have = 256;
		}
		scanned = have;
		if (lr->eof) {
			if (!have && !(flags & LINE_TOO_LONG))
				return 0;
			*ret_line = lr->buf + lr->pos;
			*ret_len = have;
			*ret_flags = flags | LINE_NO_NEWLINE;
			lr->pos = lr->end;
			lr->next_off += dropped + have;
			return 1;
		}
		if (lr->pos) {
			memmove(lr->buf, lr->buf + lr->pos, have);
			lr->pos = 0;
			lr->end = have;
		}
		do {
			n = read(lr->fd, lr->buf + lr->end, READ_BUF - lr->end);
		} while (n < 0 && errno == EINTR);
		if (n < 0)
			return -errno;
		if (n == 0)
			lr->eof = true;
		lr->end += n;
	}
}

/* Read until the buffer holds need bytes or the input ends. 0 or -errno. */
static int lr_fill(struct line_reader *lr, size_t need)
{
	while (!lr->eof && lr->end - lr->pos < need) {
		ssize_t n = read(lr->fd, lr->buf + lr->end, READ_BUF - lr->end);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			lr->eof = true;
		lr->end += n;
	}
	return 0;
}

/* ---- compressed inputs ---- */

struct compressed {
	const char *kind, *magic, *cat;
	size_t len;
};

static const struct compressed compressed_kinds[] = {
	{ "gzip", "\x1f\x8b", "zcat", 2 },
	{ "xz", "\xfd" "7zXZ\0", "xzcat", 6 },
	{ "zstd", "\x28\xb5\x2f\xfd", "zstdcat", 4 },
	{ "bzip2", "BZh", "bzcat", 3 },
};

/* The kind of compressed data that head (n bytes) starts, or NULL. */
static const struct compressed *compressed_kind(const void *head, size_t n)
{
	for (size_t i = 0; i < sizeof(compressed_kinds) /
				   sizeof(compressed_kinds[0]); i++) {
		const struct compressed *c = &compressed_kinds[i];

		if (n >= c->len && !memcmp(head, c->magic, c->len))
			return c;
	}
	return NULL;
}

/* s as one shell word: itself when it has only safe bytes, else quoted
 * '...' (each ' as '\''). A new string, or NULL. */
static char *sh_word(const char *s)
{
	size_t n = 3;
	char *w, *o;
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "abcdefghijklmnopqrstuvwxyz"
				   "0123456789._/+-,:=@%";

	if (*s && strspn(s, safe) == strlen(s))
		return strdup(s);
	for (const char *p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	w = o = malloc(n);
	if (!w)
		return NULL;
	*o++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return w;
}

/* Say that name holds compressed data c, and how to read it. */
static void report_compressed(const char *name, const struct compressed *c)
{
	char *f = sh_word(name), *db = NULL;

	if (f && name[0] == '-' && name[1]) {
		/* not an option to the decompressor */
		char *g = NULL;

		if (asprintf(&g, "./%s", f) < 0)
			g = NULL;
		free(f);
		f = g;
	}
	if (vigil_db_opt)
		db = sh_word(vigil_db_opt);
	if (!strcmp(name, "-"))
		p_err("%s: compressed (%s): not read; to read it: "
		      "... | %s | vigil%s%s ingest -",
		      name, c->kind, c->cat, db ? " --db " : "", db ? db : "");
	else
		p_err("%s: compressed (%s): not read; to read it: "
		      "%s %s | vigil%s%s ingest -",
		      name, c->kind, c->cat, f ? f : name, db ? " --db " : "",
		      db ? db : "");
	free(f);
	free(db);
}

/* ---- per-record handling, shared with the plugin ---- */

void ingest_init(struct ingest *in, struct vigil_store *store)
{
	memset(in, 0, sizeof(*in));
	in->store = store;
}

void ingest_fini(struct ingest *in)
{
	vigil_record_free(&in->rec);
	for (int i = 0; i < INGEST_MAX_LOCATIONS; i++)
		free(in->where[i]);
}

void ingest_malformed(struct ingest *in, const char *file, uint64_t line,
		      const char *reason)
{
	if (in->malformed < INGEST_MAX_LOCATIONS) {
		char *w;

		if (asprintf(&w, "%s:%llu", file, (unsigned long long)line) < 0)
			w = NULL;
		in->where[in->malformed] = w;
		in->why[in->malformed] = reason;
	}
	in->malformed++;
}

/* Count events: a key not among the recent ones starts a new event. */
static void count_event(struct ingest *in, const struct ingest_key *k)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(in->recent); i++) {
		const struct ingest_key *r = &in->recent[i];

		if (r->serial == k->serial && r->time_ms == k->time_ms &&
		    r->node_hash == k->node_hash)
			return;
	}
	in->recent[in->recent_next] = *k;
	in->recent_next = (in->recent_next + 1) % ARRAY_SIZE(in->recent);
	in->events++;
}

int ingest_record(struct ingest *in, auparse_state_t *au, const char *text,
		  size_t len, const char *file, uint64_t line)
{
	const au_event_t *ts = auparse_get_timestamp(au);
	const char *reason = NULL;
	struct ingest_key key;
	enum rec_kind kind;
	int rc;

	if (!ts) {
		ingest_malformed(in, file, line, "record without timestamp");
		return 0;
	}
	if (ts->sec < 0 || ts->sec > 100000000000LL || ts->milli > 999) {
		ingest_malformed(in, file, line, "timestamp out of range");
		return 0;
	}
	if (auparse_get_num_fields(au) <= (ts->host ? 2U : 1U)) {
		ingest_malformed(in, file, line, "record without fields");
		return 0;
	}
	in->records++;
	key.node_hash =
		ts->host ? fnv1a64(ts->host, strlen(ts->host), FNV1A64_INIT) :
			   0;
	key.time_ms = (int64_t)ts->sec * 1000 + ts->milli;
	key.serial = ts->serial;
	count_event(in, &key);

	kind = vigil_record_kind(au);
	switch (kind) {
	case REC_CONTEXT:
		return 0;
	case REC_VIGIL:
		rc = vigil_record_parse(au, &in->rec, &reason);
		if (rc == -EINVAL) {
			in->records--;
			ingest_malformed(in, file, line, reason);
			return 0;
		}
		if (rc)
			return rc;
		rc = vigil_store_add_record(in->store, ts->host, key.time_ms,
					    ts->serial, &in->rec);
		if (rc < 0)
			return rc;
		if (rc)
			in->stored++;
		else
			in->duplicates++;
		return 0;
	default:
		in->foreign[kind]++;
		rc = vigil_store_add_foreign(in->store, ts->host, key.time_ms,
					     ts->serial, vigil_record_type(au),
					     kind, text, len);
		return rc < 0 ? rc : 0;
	}
}

void ingest_summary(const struct ingest *in, const char *verb)
{
	unsigned int shown = in->malformed < INGEST_MAX_LOCATIONS ?
				     in->malformed :
				     INGEST_MAX_LOCATIONS;

	printf("vigil %s: %llu events read, %llu vigil records stored, "
	       "%llu duplicates skipped, foreign records: %llu AppArmor, "
	       "%llu SELinux, %llu Landlock, %llu other; %llu malformed",
	       verb, (unsigned long long)in->events,
	       (unsigned long long)in->stored,
	       (unsigned long long)in->duplicates,
	       (unsigned long long)in->foreign[REC_APPARMOR],
	       (unsigned long long)in->foreign[REC_SELINUX],
	       (unsigned long long)in->foreign[REC_LANDLOCK],
	       (unsigned long long)in->foreign[REC_FOREIGN_OTHER],
	       (unsigned long long)in->malformed);
	for (unsigned int i = 0; i < shown; i++)
		printf("%s%s", i ? ", " : " (",
		       in->where[i] ? in->where[i] : "?");
	if (in->malformed > shown)
		printf(", ...");
	printf("%s\n", shown ? ")" : "");
	fflush(stdout);
	for (unsigned int i = 0; i < shown; i++)
		p_err("%s: malformed record: %s",
		      in->where[i] ? in->where[i] : "?", in->why[i]);
}

/* ---- files ---- */

/*
 * The header of every audit record, as the kernel and auditd write it:
 * "[node=N ]type=T msg=audit(SEC.MSEC:SERIAL):" then " fields" or the end.
 * auparse reads much looser headers (no serial, a date, "1e9", a minus)
 * into made-up timestamps, so each line is checked here first.
 */
struct rec_header {
	const char *node, *type;
	size_t node_len, type_len;
	uint64_t sec, serial;
	unsigned int ms;
};

enum header_status {
	HEADER_OK,
	HEADER_NOT_RECORD, /* not "[node=N ]type=T ..." at all */
	HEADER_BAD, /* a record whose msg=audit(...) part is wrong */
};

static enum header_status parse_header(const char *p, size_t len,
				       struct rec_header *h)
{
	const char *end = p + len, *q;
	int digits;

	memset(h, 0, sizeof(*h));
	if (len > 5 && !memcmp(p, "node=", 5)) {
		h->node = p + 5;
		q = memchr(h->node, ' ', end - h->node);
		if (!q || q == h->node)
			return HEADER_NOT_RECORD;
		h->node_len = q - h->node;
		p = q + 1;
	}
	if (end - p < 6 || memcmp(p, "type=", 5) || p[5] == ' ')
		return HEADER_NOT_RECORD;
	h->type = p + 5;
	q = memchr(h->type, ' ', end - h->type);
	if (!q)
		return HEADER_BAD;
	h->type_len = q - h->type;
	p = q + 1;
	if (end - p < 10 || memcmp(p, "msg=audit(", 10))
		return HEADER_BAD;
	p += 10;
	for (digits = 0; p < end && *p >= '0' && *p <= '9'; p++, digits++)
		h->sec = h->sec * 10 + (*p - '0');
	if (!digits || digits > 11 || p >= end || *p++ != '.')
		return HEADER_BAD;
	for (digits = 0; p < end && *p >= '0' && *p <= '9'; p++, digits++)
		h->ms = h->ms * 10 + (*p - '0');
	if (digits != 3 || p >= end || *p++ != ':')
		return HEADER_BAD;
	for (digits = 0; p < end && *p >= '0' && *p <= '9'; p++, digits++)
		h->serial = h->serial * 10 + (*p - '0');
	if (!digits || digits > 19 || end - p < 2 || memcmp(p, "):", 2) ||
	    (end - p > 2 && p[2] != ' '))
		return HEADER_BAD;
	return HEADER_OK;
}

/*
 * The bulk of a log is syscall context (SYSCALL, PATH, CWD, PROCTITLE...)
 * that vigil only counts: those are counted from the header alone and
 * skip auparse. Return true when handled.
 */
static bool context_fast_path(struct ingest *in, const struct rec_header *h)
{
	static const char *const context_types[] = {
		"SYSCALL",  "PATH", "CWD",     "PROCTITLE",  "EXECVE",
		"SOCKADDR", "MMAP", "FD_PAIR", "BPRM_FCAPS", "CAPSET",
	};
	struct ingest_key key;
	bool known = false;

	for (size_t i = 0; i < ARRAY_SIZE(context_types); i++)
		if (strlen(context_types[i]) == h->type_len &&
		    !memcmp(h->type, context_types[i], h->type_len))
			known = true;
	if (!known)
		return false;
	in->records++;
	key.node_hash = h->node ? fnv1a64(h->node, h->node_len, FNV1A64_INIT) :
				  0;
	key.time_ms = (int64_t)h->sec * 1000 + h->ms;
	key.serial = h->serial;
	count_event(in, &key);
	return true;
}

/* ---- --checkpoint FILE ---- */

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
static struct ingest_checkpoint *cp_read(const char *file)
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
static int cp_write(const struct ingest_checkpoint *cp)
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
static bool cp_skip(struct ingest_checkpoint *cp, const struct rec_header *h)
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

static int process_line(struct ingest_run *run, char *buf, size_t len,
			const char *file, uint64_t line)
{
	struct ingest *in = &run->in;
	struct rec_header h;
	char *enriched;

	if (memchr(buf, '\0', len)) {
		ingest_malformed(in, file, line, "NUL byte (binary data)");
		return 0;
	}
	/* ENRICHED logs: interpreted fields follow a 0x1D byte. */
	enriched = memchr(buf, 0x1d, len);
	if (enriched)
		len = enriched - buf;
	while (len && (buf[len - 1] == '\r' || buf[len - 1] == ' '))
		len--;
	if (!len) {
		ingest_malformed(in, file, line, "empty line");
		return 0;
	}
	switch (parse_header(buf, len, &h)) {
	case HEADER_NOT_RECORD:
		/* never to auparse: a line without a single name=value
		 * field makes auparse 3.0.9 leak its field array
		 * (nvlist_clear returns early on an empty list; found by
		 * tests/fuzz/fuzz_ingest) */
		ingest_malformed(in, file, line, "not an audit record");
		return 0;
	case HEADER_BAD:
		ingest_malformed(in, file, line,
				 "bad msg=audit(SEC.MSEC:SERIAL): header");
		return 0;
	case HEADER_OK:
		break;
	}
	if (cp_skip(run->cp, &h))
		return 0;
	if (context_fast_path(in, &h))
		return 0;
	buf[len] = '\n';
	if (auparse_new_buffer(run->au, buf, len + 1) < 0)
		return -ENOMEM;
	if (auparse_next_event(run->au) <= 0) {
		ingest_malformed(in, file, line, "not an audit record");
		return 0;
	}
	buf[len] = '\0';
	return ingest_record(in, run->au, buf, len, file, line);
}

static int save_position(struct ingest_run *run, struct vigil_source *src,
			 bool commit_and_begin)
{
	int rc = 0;

	if (src)
		rc = vigil_store_put_source(run->in.store, src);
	if (!rc)
		rc = vigil_store_commit(run->in.store);
	if (!rc && commit_and_begin)
		rc = vigil_store_begin(run->in.store);
	return rc;
}

/*
 * Progress on a terminal, for a regular file: "NAME: X of Y MiB (P%)",
 * at most 5 times a second, erased when the file is done.
 */
struct progress {
	bool on;
	long long last_ns;
	uint64_t total;
	const char *name;
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void progress_show(struct progress *pg, uint64_t done)
{
	long long t = now_ns();

	if (!pg->on || (pg->last_ns && t - pg->last_ns < 200000000LL))
		return;
	pg->last_ns = t;
	fprintf(stderr, "\r%s: %s: %s: %.1f of %.1f MiB (%u%%)   ", progname,
		vigil_verb ? vigil_verb : "ingest", shown(pg->name),
		done / 1048576.0, pg->total / 1048576.0,
		pg->total ? (unsigned int)(done * 100 / pg->total) : 100);
}

static void progress_end(struct progress *pg)
{
	if (pg->on && pg->last_ns)
		fputs("\r\033[K", stderr);
}

/*
 * Ingest fd, named name. With st (a regular file), resume from the
 * position kept for it and keep the new one. 0, -EBADF (input unreadable,
 * reported), -EIO (db) or -ENOMEM.
 */
static int ingest_fd(struct ingest_run *run, int fd, const char *name,
		     const struct stat *st)
{
	struct line_reader lr = { 0 };
	struct vigil_source src = { 0 }, *srcp = NULL;
	struct progress pg = { 0 };
	const struct compressed *c;
	unsigned int flags = 0;
	uint64_t line = 0, junk = 0;
	bool stopped = false;
	long in_batch = 0;
	size_t len = 0;
	char *buf = NULL;
	int rc;

	if (!run->readbuf) {
		run->readbuf = malloc(READ_BUF + 1);
		if (!run->readbuf)
			return -ENOMEM;
	}
	lr.fd = fd;
	lr.buf = run->readbuf;
	if (st) {
		char head[HEAD_MAX];
		ssize_t hl = pread(fd, head, sizeof(head), 0);
		struct vigil_source old;
		off_t start = 0;

		if (hl < 0) {
			p_err("%s: %s", name, strerror(errno));
			rc = -EBADF;
			goto out;
		}
		c = compressed_kind(head, hl > 0 ? (size_t)hl : 0);
		if (c) {
			report_compressed(name, c);
			rc = -EBADF;
			goto out;
		}
		src.dev = (int64_t)st->st_dev;
		src.ino = (int64_t)st->st_ino;
		src.path = name;
		src.head_len = hl;
		src.head_hash = fnv1a64(head, hl, FNV1A64_INIT);
		srcp = &src;
		rc = vigil_store_get_source(run->in.store, src.dev, src.ino,
					    &old);
		if (rc == -EIO)
			goto out;
		if (!rc) {
			if (old.head_len <= hl &&
			    fnv1a64(head, old.head_len, FNV1A64_INIT) ==
				    old.head_hash &&
			    old.offset <= st->st_size) {
				start = old.offset;
				line = old.line;
			} else {
				p_warn("%s: changed since it was last read "
				       "(truncated or replaced): reading it "
				       "from the start",
				       name);
			}
		}
		if (start && lseek(fd, start, SEEK_SET) != start) {
			p_err("%s: %s", name, strerror(errno));
			rc = -EBADF;
			goto out;
		}
		lr.next_off = start;
		src.offset = start;
		src.line = line;
		pg.on = isatty(STDERR_FILENO);
		pg.total = (uint64_t)st->st_size;
		pg.name = name;
	} else {
		lr.bounded = true;
		rc = lr_fill(&lr, 6);
		if (rc) {
			p_err("%s: %s", name, strerror(-rc));
			rc = -EBADF;
			goto out;
		}
		c = compressed_kind(lr.buf, lr.end);
		if (c) {
			report_compressed(name, c);
			rc = -EBADF;
			goto out;
		}
	}
	rc = vigil_store_begin(run->in.store);
	if (rc)
		goto out;
	while ((rc = lr_next(&lr, &buf, &len, &flags)) > 0) {
		line++;
		if ((flags & LINE_NO_NEWLINE) && srcp) {
			/* maybe being written: read it again next time */
			ingest_malformed(&run->in, name, line,
					 "incomplete last line (no newline), "
					 "left for the next run");
			line--;
			break;
		}
		if (flags & LINE_ENDLESS) {
			p_err("%s:%llu: more than %d MiB without a newline: "
			      "not a text audit log (binary data, or an "
			      "endless input?); stopped reading it there",
			      name, (unsigned long long)line,
			      MAX_RUN / (1024 * 1024));
			stopped = true;
			rc = 0;
			break;
		}
		if (flags & LINE_TOO_LONG) {
			ingest_malformed(&run->in, name, line,
					 "line longer than 65536 bytes");
			rc = 0;
		} else {
			uint64_t bad = run->in.malformed;

			rc = process_line(run, buf, len, name, line);
			junk = run->in.malformed > bad ? junk + 1 : 0;
		}
		if (rc < 0)
			goto out_rollback;
		if (!srcp && junk >= MAX_JUNK) {
			p_err("%s:%llu: %d lines in a row that are no audit "
			      "record: not an audit log (or an endless "
			      "input?); stopped reading it there",
			      name, (unsigned long long)line, MAX_JUNK);
			stopped = true;
		}
		run->in.lines++;
		src.offset = (int64_t)lr.next_off;
		src.line = (int64_t)line;
		if (run->crash_after &&
		    ++run->lines_total >= (uint64_t)run->crash_after)
			raise(SIGKILL);
		if (pg.on && !(line & 4095))
			progress_show(&pg, lr.next_off);
		if (stopped)
			break;
		if (++in_batch >= run->batch) {
			in_batch = 0;
			rc = save_position(run, srcp, true);
			if (rc)
				goto out_rollback;
		}
	}
	if (stopped) {
		/* bounded (reported): keep what was read */
		if (save_position(run, srcp, false))
			goto out_db;
		rc = -EBADF;
		goto out;
	}
	if (rc < 0) {
		p_err("%s: %s", name, strerror(-rc));
		/* keep what was read */
		if (save_position(run, srcp, false))
			goto out_db;
		rc = -EBADF;
		goto out;
	}
	rc = save_position(run, srcp, false);
	if (rc)
		goto out_rollback;
	run->inputs_read++;
	goto out;
out_rollback:
	vigil_store_rollback(run->in.store);
out_db:
	if (rc != -ENOMEM)
		rc = -EIO;
out:
	progress_end(&pg);
	return rc;
}

int ingest_stream(struct ingest_run *run, int fd, const char *name)
{
	return ingest_fd(run, fd, name, NULL);
}

/* Ingest one input: a path, or "-" for standard input. */
static int ingest_file(struct ingest_run *run, const char *path)
{
	bool is_stdin = !strcmp(path, "-");
	struct stat st;
	int fd, rc;

	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		p_err("%s: %s", path, strerror(errno));
		if (fd > STDIN_FILENO)
			close(fd);
		return -EBADF;
	}
	if (S_ISDIR(st.st_mode)) {
		p_err("%s: is a folder", path);
		rc = -EBADF;
	} else {
		rc = ingest_fd(run, fd, path, S_ISREG(st.st_mode) ? &st : NULL);
	}
	if (!is_stdin)
		close(fd);
	return rc;
}

int ingest_run_init(struct ingest_run *run, struct vigil_store *store)
{
	memset(run, 0, sizeof(*run));
	run->batch = DEFAULT_BATCH;
	run->au = auparse_init(AUSOURCE_BUFFER, "");
	if (!run->au)
		return -ENOMEM;
	ingest_init(&run->in, store);
	return 0;
}

void ingest_run_fini(struct ingest_run *run)
{
	ingest_checkpoint_free(run->cp);
	run->cp = NULL;
	ingest_fini(&run->in);
	if (run->au)
		auparse_destroy(run->au);
	run->au = NULL;
	free(run->readbuf);
	run->readbuf = NULL;
}

static long env_long(const char *name, long def)
{
	const char *v = getenv(name);
	uint64_t n;

	if (!v || parse_u64(v, 1000000000, &n) || !n)
		return def;
	return (long)n;
}

/*
 * auditd's log file: log_file of auditd.conf ($VIGIL_AUDITD_CONF, else
 * AUDITD_CONF; "key = value" lines, '#' comments, as auditd reads it),
 * else DEFAULT_LOG. A new string, or NULL.
 */
static char *auditd_log_file(void)
{
	const char *conf = getenv("VIGIL_AUDITD_CONF");
	char *text = NULL, *line, *next, *log = NULL;
	unsigned int lineno = 0;
	int rc;

	if (!conf || !*conf)
		conf = AUDITD_CONF;
	rc = read_file(conf, 1 << 20, &text, NULL);
	if (rc) {
		if (rc != -ENOENT)
			p_warn("%s: %s: reading %s", conf, strerror(-rc),
			       DEFAULT_LOG);
		return strdup(DEFAULT_LOG);
	}
	for (line = text; line && *line && !log; line = next) {
		char *k, *v, *e;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		for (k = line; isspace((unsigned char)*k); k++)
			;
		if (strncmp(k, "log_file", 8))
			continue;
		for (v = k + 8; *v == ' ' || *v == '\t'; v++)
			;
		if (*v++ != '=')
			continue;
		for (; *v == ' ' || *v == '\t'; v++)
			;
		for (e = v + strlen(v); e > v && isspace((unsigned char)e[-1]);
		     e--)
			;
		*e = '\0';
		if (*v != '/') {
			p_warn("%s:%u: log_file %s is not an absolute path: "
			       "reading %s", conf, lineno, v, DEFAULT_LOG);
			break;
		}
		log = strdup(v);
	}
	free(text);
	return log ? log : strdup(DEFAULT_LOG);
}

/* The default inputs: LOG.N (oldest first) then LOG, auditd's log_file. */
static char **default_inputs(int *ret_count)
{
	char **list = calloc(MAX_ROTATED + 2, sizeof(*list));
	char *log = auditd_log_file();
	int n = 0;

	if (!list || !log) {
		free(list);
		free(log);
		return NULL;
	}
	for (int i = MAX_ROTATED; i >= 1; i--) {
		char *p;

		if (asprintf(&p, "%s.%d", log, i) < 0)
			continue;
		if (access(p, F_OK) == 0)
			list[n++] = p;
		else
			free(p);
	}
	list[n++] = log;
	*ret_count = n;
	return list;
}

/*
 * Can input be opened as a file to read (standard input always can)? A
 * regular file holding compressed data cannot: -EILSEQ, and *ret_c (when
 * not NULL) says which kind.
 */
static int try_input(const char *input, const struct compressed **ret_c)
{
	struct stat sb;
	int fd, rc = 0;

	if (!strcmp(input, "-"))
		return 0;
	fd = open(input, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb)) {
		rc = -errno;
	} else if (S_ISDIR(sb.st_mode)) {
		rc = -EISDIR;
	} else if (S_ISREG(sb.st_mode)) {
		char head[8];
		ssize_t n = pread(fd, head, sizeof(head), 0);
		const struct compressed *c =
			n > 0 ? compressed_kind(head, (size_t)n) : NULL;

		if (c) {
			if (ret_c)
				*ret_c = c;
			rc = -EILSEQ;
		}
	}
	close(fd);
	return rc;
}

static bool any_readable(char **inputs, int n)
{
	for (int i = 0; i < n; i++)
		if (!try_input(inputs[i], NULL))
			return true;
	return false;
}

static void report_unreadable(const char *input)
{
	const struct compressed *c = NULL;
	int rc = try_input(input, &c);

	if (rc == -EISDIR)
		p_err("%s: is a folder", input);
	else if (rc == -EILSEQ && c)
		report_compressed(input, c);
	else if (rc)
		p_err("%s: %s", input, strerror(-rc));
}

int do_ingest(int argc, char **argv)
{
	struct ingest_run run = { 0 };
	struct vigil_store *store = NULL;
	char **inputs, **defaults = NULL;
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "checkpoint", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *checkpoint = NULL;
	struct ingest_checkpoint *cp = NULL;
	int ninputs, first, ret = EXIT_USAGE, rc, c;
	char err[256];

	struct verb_opts vo;

	if (verb_opts_init(&vo, ingest_usage, argc))
		return EXIT_USAGE;
	optind = 1;
	while ((c = verb_getopt(argc, argv, "+h", opts, &vo)) > 0)
		if (c == 'c')
			checkpoint = optarg;
	verb_opts_free(&vo);
	if (c < 0)
		return c == VERB_GETOPT_HELP ? EXIT_OK : EXIT_USAGE;
	first = optind;
	if (first < argc) {
		inputs = argv + first;
		ninputs = argc - first;
	} else {
		defaults = default_inputs(&ninputs);
		if (!defaults)
			return EXIT_USAGE;
		inputs = defaults;
	}
	/* Nothing readable: say why, and make no database. */
	if (!any_readable(inputs, ninputs)) {
		for (int i = 0; i < ninputs; i++)
			report_unreadable(inputs[i]);
		p_err("nothing to read: no database written");
		goto out;
	}
	/* a bad checkpoint file: said before a database is made */
	if (checkpoint) {
		cp = cp_read(checkpoint);
		if (!cp)
			goto out;
	}
	if (vigil_store_open(vigil_db_path(), &store, err, sizeof(err))) {
		p_err("--db %s: %s", shown(vigil_db_path()), err);
		goto out;
	}
	if (ingest_run_init(&run, store)) {
		p_err("auparse_init: %s", strerror(errno));
		goto out;
	}
	run.cp = cp;
	cp = NULL;
	run.batch = env_long("VIGIL_INGEST_BATCH", DEFAULT_BATCH);
	run.crash_after = env_long("VIGIL_TEST_CRASH_AFTER", 0);
	for (int i = 0; i < ninputs; i++) {
		rc = ingest_file(&run, inputs[i]);
		if (rc == -EBADF) {
			run.inputs_failed++;
			continue;
		}
		if (rc) {
			p_err("%s: %s", vigil_db_path(),
			      rc == -ENOMEM ? "out of memory" :
					      vigil_store_errmsg(store));
			p_err("stopped in %s: the batch being written was "
			      "rolled back; the database holds every batch "
			      "committed before it and the next run resumes "
			      "from there",
			      inputs[i]);
			goto out_fini;
		}
	}
	ingest_summary(&run.in, "ingest");
	/* 2 when nothing could be read, 1 for malformed records or
	 * unreadable inputs, else 0. */
	if (!run.inputs_read || (!run.in.records && run.in.malformed))
		ret = EXIT_USAGE;
	else if (run.inputs_failed || run.in.malformed)
		ret = EXIT_FINDING;
	else
		ret = EXIT_OK;
	/* every batch committed: the next run may skip what this one read */
	if (run.cp && cp_write(run.cp))
		ret = EXIT_USAGE;
out_fini:
	ingest_run_fini(&run);
out:
	ingest_checkpoint_free(cp);
	vigil_store_close(store);
	if (defaults) {
		for (int i = 0; i < ninputs; i++)
			free(defaults[i]);
		free(defaults);
	}
	return ret;
}
