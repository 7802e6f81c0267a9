/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil analyzer: ingest.c: audit records into the store, for vigil
 * ingest and vigil plugin. */
#ifndef VIGIL_ANALYZER_INGEST_H
#define VIGIL_ANALYZER_INGEST_H

#include <stdint.h>

#include <auparse.h>

#include "record.h"	/* struct vigil_record, enum rec_kind */

struct vigil_store;

/* The per-record handling shared by ingest and plugin. */
#define INGEST_MAX_LOCATIONS 5
struct ingest {
	struct vigil_store *store;
	struct vigil_record rec;
	/* counters of this run */
	uint64_t lines, records, events, stored, duplicates, malformed;
	uint64_t foreign[REC_FOREIGN_OTHER + 1];
	/* the first malformed records: "file:line" and why */
	char *where[INGEST_MAX_LOCATIONS];
	const char *why[INGEST_MAX_LOCATIONS];
	/* recent event keys, to count events in interleaved logs */
	struct ingest_key {
		uint64_t node_hash, serial;
		int64_t time_ms;
	} recent[16];
	unsigned int recent_next;
};

void ingest_init(struct ingest *in, struct vigil_store *store);
void ingest_fini(struct ingest *in);
void ingest_malformed(struct ingest *in, const char *file, uint64_t line,
		      const char *reason);
/*
 * Handle the current record of au, read from file:line, whose raw text
 * (without ENRICHED part) is text[0..len). 0, or -EIO/-ENOMEM (fatal).
 */
int ingest_record(struct ingest *in, auparse_state_t *au, const char *text,
		  size_t len, const char *file, uint64_t line);
/* Print the summary line (stdout) and the malformed locations (stderr). */
void ingest_summary(const struct ingest *in, const char *verb);

/* One "vigil ingest" over any number of inputs. */
struct ingest_checkpoint;

struct ingest_run {
	struct ingest in;
	struct ingest_checkpoint *cp; /* --checkpoint FILE, or NULL */
	auparse_state_t *au;
	char *readbuf; /* the line reader's buffer, kept across inputs */
	long batch; /* lines per transaction */
	long crash_after; /* test hook: SIGKILL after this many lines */
	uint64_t lines_total;
	unsigned int inputs_failed, inputs_read;
};

/* 0, or -ENOMEM. */
int ingest_run_init(struct ingest_run *run, struct vigil_store *store);
void ingest_run_fini(struct ingest_run *run);
/*
 * Ingest everything readable from fd, named name in messages, as a stream:
 * no position is kept, a last line without newline is read too (the fuzz
 * target's entry). 0, -EBADF (read error, reported), -EIO or -ENOMEM.
 */
int ingest_stream(struct ingest_run *run, int fd, const char *name);
void ingest_checkpoint_free(struct ingest_checkpoint *cp);

#endif /* VIGIL_ANALYZER_INGEST_H */
