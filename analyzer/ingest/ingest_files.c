// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: ingest's run over its inputs: each file or stream read
 * line by line (bounded), each record to ingest_record.c, a batch of rows
 * committed together with the position reached in the file, progress on
 * a terminal.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "ingest_int.h"

#define HEAD_MAX 4096
#define MAX_JUNK 10000 /* lines in a row that are no record (streams) */

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
	switch (ingest_parse_header(buf, len, &h)) {
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
	if (ingest_cp_skip(run->cp, &h))
		return 0;
	if (ingest_context_fast_path(in, &h))
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
		c = ingest_compressed_kind(head, hl > 0 ? (size_t)hl : 0);
		if (c) {
			ingest_report_compressed(name, c);
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
		rc = ingest_lr_fill(&lr, 6);
		if (rc) {
			p_err("%s: %s", name, strerror(-rc));
			rc = -EBADF;
			goto out;
		}
		c = ingest_compressed_kind(lr.buf, lr.end);
		if (c) {
			ingest_report_compressed(name, c);
			rc = -EBADF;
			goto out;
		}
	}
	rc = vigil_store_begin(run->in.store);
	if (rc)
		goto out;
	while ((rc = ingest_lr_next(&lr, &buf, &len, &flags)) > 0) {
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
int ingest_file(struct ingest_run *run, const char *path)
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
