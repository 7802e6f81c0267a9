// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the boots of the machine, told apart in its records
 * (for generate --boot and report --boot). Records carry no boot id; a
 * boot ends where both counters the kernel restarts at boot go back: the
 * audit serial and vigil's own record number, after a pause of at least
 * a second (a reboot takes longer). In one boot the serial grows with the
 * event time (both are taken together), so neither goes back between two
 * records a second apart. Library-like: reports errors, never logs.
 */
#include <errno.h>
#include <stdlib.h>

#include "store_int.h"
#include "store.h"

/* The shortest pause between the last record of a boot and the next. */
#define BOOT_GAP_MS 1000

static int boots_push(struct vigil_store_boot **v, size_t *n, size_t *cap)
{
	struct vigil_store_boot *p;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		p = realloc(*v, *cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		*v = p;
	}
	(*v)[(*n)++] = (struct vigil_store_boot){ 0 };
	return 0;
}

int vigil_store_boots(struct vigil_store *s, struct vigil_store_boot **ret,
		      size_t *nret)
{
	static const char nodes_sql[] =
		"SELECT count(DISTINCT node) FROM records";
	/* The records' unique index gives this order without a sort. */
	static const char rec_sql[] =
		"SELECT time_ms, serial, seq FROM records "
		"ORDER BY node, time_ms, serial, seq";
	struct vigil_store_boot *v = NULL, *b = NULL;
	int64_t t, serial, seq, max_serial = 0, max_seq = 0;
	size_t n = 0, cap = 0;
	sqlite3_stmt *st = NULL;
	int rc = -EIO, step;

	if (sqlite3_prepare_v2(s->db, nodes_sql, -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW)
		goto out;
	if (sqlite3_column_int64(st, 0) > 1) {
		rc = -EXDEV;
		goto out;
	}
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(s->db, rec_sql, -1, &st, NULL) != SQLITE_OK)
		goto out;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		t = sqlite3_column_int64(st, 0);
		serial = sqlite3_column_int64(st, 1);
		seq = sqlite3_column_int64(st, 2);
		if (!b || (serial < max_serial && seq < max_seq &&
			   t - b->last_ms >= BOOT_GAP_MS)) {
			rc = boots_push(&v, &n, &cap);
			if (rc)
				goto out;
			b = &v[n - 1];
			b->first_ms = t;
			max_serial = 0;
			max_seq = 0;
		}
		b->last_ms = t;
		b->records++;
		if (serial > max_serial)
			max_serial = serial;
		if (seq > max_seq)
			max_seq = seq;
	}
	rc = step == SQLITE_DONE ? 0 : -EIO;
out:
	sqlite3_finalize(st);
	if (rc) {
		free(v);
		return rc;
	}
	*ret = v;
	*nret = n;
	return 0;
}
