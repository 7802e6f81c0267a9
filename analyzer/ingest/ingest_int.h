/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: what the files of vigil ingest share (ingest.c the
 * verb, ingest_files.c its run, ingest_lines.c, ingest_record.c,
 * ingest_checkpoint.c, ingest_compressed.c); ingest.h: what the plugin
 * shares with them.
 */
#ifndef VIGIL_ANALYZER_INGEST_INT_H
#define VIGIL_ANALYZER_INGEST_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ingest.h"

#define MAX_LINE (64 * 1024) /* auditd writes at most ~9 KiB a record */
#define READ_BUF (1024 * 1024)
#define MAX_RUN (1024 * 1024) /* bytes without a newline: not a text log */
#define DEFAULT_BATCH 20000 /* lines per transaction */

/* ingest_lines.c */
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
/* The next line (*ret_flags: LINE_*): 1, 0 at the end, or -errno. */
int ingest_lr_next(struct line_reader *lr, char **ret_line, size_t *ret_len,
		   unsigned int *ret_flags);
/* Read until need bytes are buffered or the input ends: 0 or -errno. */
int ingest_lr_fill(struct line_reader *lr, size_t need);

/* ingest_compressed.c */
struct compressed {
	const char *kind, *magic, *cat;
	size_t len;
};
/* The kind of compressed data that head (n bytes) starts, or NULL. */
const struct compressed *ingest_compressed_kind(const void *head, size_t n);
/* Say that input name is compressed data of kind c, and the command that
 * reads it. */
void ingest_report_compressed(const char *name, const struct compressed *c);

/* ingest_record.c */
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
/* Check the header of the record p[0..len) into *h. */
enum header_status ingest_parse_header(const char *p, size_t len,
				       struct rec_header *h);
/* A record of syscall context counted from its header alone: true when
 * handled (auparse skipped). */
bool ingest_context_fast_path(struct ingest *in,
			      const struct rec_header *h);

/* ingest_checkpoint.c */
/* The checkpoint FILE (empty when it does not exist), or NULL (said). */
struct ingest_checkpoint *ingest_cp_read(const char *file);
/* Write the checkpoint file atomically: 0 or -errno (said). */
int ingest_cp_write(const struct ingest_checkpoint *cp);
/* Whether the event of h is older than the checkpoint's (skip it). */
bool ingest_cp_skip(struct ingest_checkpoint *cp,
		    const struct rec_header *h);

/* ingest_files.c */
/* Ingest one input: a path, or "-" for standard input. */
int ingest_file(struct ingest_run *run, const char *path);

#endif /* VIGIL_ANALYZER_INGEST_INT_H */
