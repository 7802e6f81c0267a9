// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: "vigil ingest" on an untrusted audit log. The input is
 * the log; it goes through the analyzer's own path (bounded line reader,
 * header check, auparse, vigil record parser, SQLite store) into an
 * in-memory database, emptied after each input. Checks, beyond ASan/UBSan and leaks: the
 * ingest never fails on bad input (only on a database or memory error),
 * every line is accounted for exactly (lines read = the input's lines =
 * records + malformed lines), and the records table holds exactly the
 * rows the counters say were stored. The database and the run (its
 * auparse state and read buffer) are made once, the counters reset and
 * the tables emptied for each input: a fresh database costs 15 ms under
 * ASan, a fresh 1 MiB read buffer as much in page faults.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store.h"
#include "ingest.h"

static int log_fd = -1;
static struct vigil_store *store;
static struct ingest_run run;

static void exec_sql(const char *sql)
{
	if (sqlite3_exec(vigil_store_sqlite(store), sql, NULL, NULL, NULL) !=
	    SQLITE_OK)
		abort();
}

static int64_t count_rows(const char *sql)
{
	sqlite3_stmt *st;
	int64_t n = -1;

	if (sqlite3_prepare_v2(vigil_store_sqlite(store), sql, -1, &st,
			       NULL) != SQLITE_OK)
		abort();
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* The lines of data as the ingest's reader splits them: at each '\n'. */
static uint64_t count_lines(const uint8_t *data, size_t size)
{
	uint64_t n = 0;

	for (size_t i = 0; i < size; i++)
		n += data[i] == '\n';
	return n + (size && data[size - 1] != '\n');
}

static uint64_t foreign_total(const struct ingest *in)
{
	uint64_t n = 0;

	for (size_t k = 0; k < sizeof(in->foreign) / sizeof(in->foreign[0]);
	     k++)
		n += in->foreign[k];
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	int rc;

	if (log_fd < 0) {
		log_fd = memfd_create("fuzz-audit-log", MFD_CLOEXEC);
		if (log_fd < 0)
			abort();
		if (vigil_store_open(":memory:", &store, err, sizeof(err))) {
			fprintf(stderr, "fuzz_ingest: %s\n", err);
			abort();
		}
		if (ingest_run_init(&run, store))
			abort();
		run.batch = 7; /* exercise the batch commits */
	}
	if (ftruncate(log_fd, 0) ||
	    (size && pwrite(log_fd, data, size, 0) != (ssize_t)size) ||
	    lseek(log_fd, 0, SEEK_SET) != 0)
		abort();
	ingest_init(&run.in, store);
	rc = ingest_stream(&run, log_fd, "fuzz");
	if (rc) {
		fprintf(stderr, "fuzz_ingest: ingest failed: %d (%s)\n", rc,
			vigil_store_errmsg(store));
		abort();
	}
	/*
	 * Every line is read (the input's newlines, plus a last line
	 * without one), and each is exactly one audit record or one
	 * malformed line; a record is stored, a duplicate, foreign or
	 * context, never two of those.
	 */
	if (run.in.lines != count_lines(data, size) ||
	    run.in.records + run.in.malformed != run.in.lines ||
	    run.in.stored + run.in.duplicates + foreign_total(&run.in) >
		    run.in.records)
		abort();
	if (count_rows("SELECT count(*) FROM records") !=
	    (int64_t)run.in.stored)
		abort();
	ingest_fini(&run.in);
	exec_sql("DELETE FROM records; DELETE FROM foreign_records; "
		 "DELETE FROM sources");
	return 0;
}
