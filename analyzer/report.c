// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: vigil report: what was learned and what would be denied,
 * from the database, as an HTML page with gnuplot charts, text or JSON.
 *
 * Everything the report shows comes from one scan of the window's records,
 * aggregated here with hash tables (intern.h): SQL's GROUP BY and
 * count(DISTINCT) sort, and cost several times the scan on a large table.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "intern.h"
#include "rules.h"
#include "vigil.h"

#define TOP_N 10
#define CURVE_SUBJECTS 6
#define BUCKETS 40
#define CURVE_POINTS 2000
#define NO_EXE UINT32_MAX

struct subj_row {
	const char *exe;	/* in report.exes */
	uint32_t id;		/* its id there */
	long long learned, denied, records;
	long long first_ms, last_ms, last_new_ms;	/* last_new_ms -1: none */
};

struct top_row {
	const char *name;	/* in report.exes or report.objects */
	long long n;
};

/* The window's records in scan order: what the charts are drawn from. */
struct rows {
	long long *time_ms;
	uint32_t *exe;		/* id in report.exes, NO_EXE for none */
	unsigned char *denied;	/* verdict would-deny */
	long long *seq;		/* only when the window is the whole table */
	size_t n, cap, hint;	/* table_alloc'ed; hint: max(id) */
};

struct report {
	sqlite3 *db;
	char *where;		/* " AND ..." restricting records */
	char *const *subjects;
	size_t nsubjects;
	long long since_ms, until_ms;
	struct subj_row *subj;	/* by id while scanning, then sorted */
	size_t nsubj, subj_cap;
	struct top_row top_subj[TOP_N], top_obj[TOP_N];
	size_t ntop_subj, ntop_obj;
	long long records, learned, denied, first_ms, last_ms;
	long long snap_tuples, snap_missing;
	/* of the missing: seq at or below the last ingested (lost), above
	 * it (not ingested yet) */
	long long snap_lost, snap_later, max_seq;
	bool have_snap;
	/* audit's own lost counter at the snapshot, -1: not read */
	long long audit_lost;
	long long seq_gaps;	/* -1: not computable (several boots) */

	struct strtab exes, objects, opaccs;	/* opaccs: "op access" */
	long long *obj_records;			/* by object id */
	size_t obj_cap;
	long long null_exe_records;		/* exe IS NULL */
	struct pairset tuples;	/* (object, op access) x (exe, verdict) */
	/*
	 * Random-name patterns seen ("EXE\x1fOP ACCESS\x1fPATTERN"), each
	 * with the object id of its first sighting: a later name that
	 * generate folds into that rule is no new access (convergence).
	 */
	struct strtab rpat;
	uint32_t *rpat_first;
	size_t rpat_cap;
	struct rows rows;
	bool whole;		/* no --since, --until or --subject */
	char *first_node;	/* whole: the first record's node */
	bool nodes_differ;
	char *key;		/* scratch for "op access" */
	size_t key_cap;
};

/* Bind the window and the subjects to the ? of r->where, from index i. */
static int bind_where(const struct report *r, sqlite3_stmt *st, int i)
{
	size_t k;

	sqlite3_bind_int64(st, i++, r->since_ms);
	sqlite3_bind_int64(st, i++, r->until_ms);
	for (k = 0; k < r->nsubjects; k++)
		sqlite3_bind_text(st, i++, r->subjects[k], -1, SQLITE_STATIC);
	return i;
}

static int prepare(const struct report *r, const char *fmt, sqlite3_stmt **st)
{
	char sql[2048];

	snprintf(sql, sizeof(sql), fmt, r->where);
	if (sqlite3_prepare_v2(r->db, sql, -1, st, NULL) != SQLITE_OK) {
		p_err("%s", sqlite3_errmsg(r->db));
		return -EIO;
	}
	bind_where(r, *st, 1);
	return 0;
}

static const char *col_text(sqlite3_stmt *st, int c)
{
	return (const char *)sqlite3_column_text(st, c);
}

static void rows_free(struct rows *w)
{
	table_free(w->time_ms, w->cap * sizeof(*w->time_ms));
	table_free(w->exe, w->cap * sizeof(*w->exe));
	table_free(w->denied, w->cap);
	table_free(w->seq, w->cap * sizeof(*w->seq));
}

/* The arrays grow by doubling from the first capacity, an upper bound of
 * the rows (max(id)): mapped, so the part never written costs nothing.
 * All or nothing: on failure the old arrays stay as they were. */
static int rows_grow(struct report *r)
{
	struct rows *w = &r->rows;
	size_t cap = w->cap ? 2 * w->cap : w->hint > 1024 ? w->hint : 1024;
	long long *tm = table_alloc(cap * sizeof(*tm));
	uint32_t *ex = table_alloc(cap * sizeof(*ex));
	unsigned char *dn = table_alloc(cap);
	long long *sq = r->whole ? table_alloc(cap * sizeof(*sq)) : NULL;

	if (!tm || !ex || !dn || (r->whole && !sq)) {
		table_free(tm, cap * sizeof(*tm));
		table_free(ex, cap * sizeof(*ex));
		table_free(dn, cap);
		table_free(sq, cap * sizeof(*sq));
		return -ENOMEM;
	}
	if (w->n) {
		memcpy(tm, w->time_ms, w->n * sizeof(*tm));
		memcpy(ex, w->exe, w->n * sizeof(*ex));
		memcpy(dn, w->denied, w->n);
		if (sq)
			memcpy(sq, w->seq, w->n * sizeof(*sq));
	}
	rows_free(w);
	w->time_ms = tm;
	w->exe = ex;
	w->denied = dn;
	w->seq = sq;
	w->cap = cap;
	return 0;
}

static int rows_append(struct report *r, long long t, uint32_t exe,
		       bool denied, long long seq)
{
	struct rows *w = &r->rows;

	if (w->n == w->cap && rows_grow(r))
		return -ENOMEM;
	w->time_ms[w->n] = t;
	w->exe[w->n] = exe;
	w->denied[w->n] = denied;
	if (r->whole)
		w->seq[w->n] = seq;
	w->n++;
	return 0;
}

/*
 * Whether the object oid, sighted by exe with op and access aid, is
 * a new name of a random-name rule generate makes (rules.c: the same
 * pattern as an earlier sighting, different in at least half of its random
 * bytes): 1, 0 (a new access), -ENOMEM.
 */
static int random_variant(struct report *r, const char *exe, uint32_t oid,
			  uint32_t aid)
{
	const char *obj = r->objects.names[oid];
	char *pat, *k;
	uint32_t pid;
	int rc;

	pat = vigil_random_pattern(obj, &rc);
	if (!pat)
		return rc;
	if (asprintf(&k, "%s\x1f%s\x1f%s", exe, r->opaccs.names[aid],
		     pat) < 0) {
		free(pat);
		return -ENOMEM;
	}
	rc = strtab_intern(&r->rpat, k, strlen(k), &pid);
	free(k);
	if (rc > 0) {
		void *p = r->rpat_first;

		if (grow_array(&p, &r->rpat_cap, pid + 1,
			       sizeof(*r->rpat_first))) {
			rc = -ENOMEM;
		} else {
			r->rpat_first = p;
			r->rpat_first[pid] = oid;
			rc = 0;
		}
	} else if (!rc) {
		rc = vigil_random_variant(pat,
					  r->objects.names[r->rpat_first[pid]],
					  obj);
	}
	free(pat);
	return rc;
}

static int scan_exe(struct report *r, const char *exe, uint32_t oid,
		    const char *op, const char *access, bool denied,
		    long long t, uint32_t *ret_id)
{
	size_t lo = strlen(op), la = strlen(access);
	struct subj_row *s;
	uint32_t id, aid;
	int rc;

	rc = strtab_intern(&r->exes, exe, strlen(exe), &id);
	if (rc < 0)
		return rc;
	if (rc) {
		void *p = r->subj;

		if (grow_array(&p, &r->subj_cap, id + 1, sizeof(*s)))
			return -ENOMEM;
		r->subj = p;
		r->subj[id] = (struct subj_row){
			.exe = r->exes.names[id], .id = id,
			.first_ms = t, .last_ms = t, .last_new_ms = LLONG_MIN,
		};
		r->nsubj = id + 1;
	}
	s = &r->subj[id];
	s->records++;
	if (t < s->first_ms)
		s->first_ms = t;
	if (t > s->last_ms)
		s->last_ms = t;

	/* Distinct accesses: (exe, verdict, op access, object). */
	if (lo + la + 2 > r->key_cap) {
		char *k = realloc(r->key, lo + la + 64);

		if (!k)
			return -ENOMEM;
		r->key = k;
		r->key_cap = lo + la + 64;
	}
	memcpy(r->key, op, lo);
	r->key[lo] = ' ';
	memcpy(r->key + lo + 1, access, la);
	rc = strtab_intern(&r->opaccs, r->key, lo + 1 + la, &aid);
	if (rc < 0)
		return rc;
	rc = pairset_add(&r->tuples, (uint64_t)oid << 32 | aid,
			 ((uint64_t)id << 1 | denied) + 1);
	if (rc < 0)
		return rc;
	if (rc)
		(*(denied ? &s->denied : &s->learned))++;
	if (!denied) {
		rc = random_variant(r, exe, oid, aid);
		if (rc < 0)
			return rc;
		if (!rc && t > s->last_new_ms)
			s->last_new_ms = t;
	}
	*ret_id = id;
	return 0;
}

static int scan_row(struct report *r, sqlite3_stmt *st)
{
	const char *exe = col_text(st, 0), *verdict = col_text(st, 1);
	const char *op = col_text(st, 2), *access = col_text(st, 3);
	const char *object = col_text(st, 4), *node;
	long long t = sqlite3_column_int64(st, 5);
	bool denied = verdict && !strcmp(verdict, "would-deny");
	uint32_t oid, xid = NO_EXE;
	int rc;

	if (!object)
		object = "?";
	rc = strtab_intern(&r->objects, object, strlen(object), &oid);
	if (rc < 0)
		return rc;
	if (rc) {
		void *p = r->obj_records;

		if (grow_array(&p, &r->obj_cap, oid + 1,
			       sizeof(*r->obj_records)))
			return -ENOMEM;
		r->obj_records = p;
		r->obj_records[oid] = 0;
	}
	r->obj_records[oid]++;
	if (exe) {
		rc = scan_exe(r, exe, oid, op ? op : "", access ? access : "",
			      denied, t, &xid);
		if (rc)
			return rc;
	} else {
		r->null_exe_records++;
	}
	if (r->whole) {
		node = col_text(st, 7);
		node = node ? node : "";
		if (!r->first_node) {
			r->first_node = strdup(node);
			if (!r->first_node)
				return -ENOMEM;
		} else if (!r->nodes_differ && strcmp(node, r->first_node)) {
			r->nodes_differ = true;
		}
	}
	return rows_append(r, t, xid, denied, sqlite3_column_int64(st, 6));
}

/* Ranked by records, then name (SQL's ORDER BY n DESC, name). */
static bool ranks_before(long long n, const char *name, const struct top_row *t)
{
	return n > t->n || (n == t->n && strcmp(name, t->name) < 0);
}

static void top_offer(struct top_row *t, size_t *nt, const char *name,
		      long long n)
{
	size_t i;

	if (*nt == TOP_N && !ranks_before(n, name, &t[TOP_N - 1]))
		return;
	i = *nt < TOP_N ? (*nt)++ : TOP_N - 1;
	for (; i > 0 && ranks_before(n, name, &t[i - 1]); i--)
		t[i] = t[i - 1];
	t[i] = (struct top_row){ .name = name, .n = n };
}

static int cmp_subj(const void *a, const void *b)
{
	const struct subj_row *x = a, *y = b;

	if (x->records != y->records)
		return x->records > y->records ? -1 : 1;
	return strcmp(x->exe, y->exe);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static bool sorted_ll(const long long *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] < v[i - 1])
			return false;
	return true;
}

/* Seq gaps of the whole table: max(seq) - distinct seqs, when no seq
 * repeats and all records come from one node (one boot). */
static int seq_gaps_sql(struct report *r)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(r->db, "SELECT count(*), count(DISTINCT seq), "
			       "coalesce(max(seq), 0), count(DISTINCT node) "
			       "FROM records", -1, &st, NULL) != SQLITE_OK) {
		p_err("%s", sqlite3_errmsg(r->db));
		return -EIO;
	}
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_int64(st, 0) == sqlite3_column_int64(st, 1) &&
	    sqlite3_column_int64(st, 3) <= 1)
		r->seq_gaps = sqlite3_column_int64(st, 2) -
			      sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	return 0;
}

static void seq_gaps_scanned(struct report *r)
{
	long long *seq = r->rows.seq;
	size_t n = r->rows.n, i, distinct = n ? 1 : 0;

	if (r->nodes_differ)
		return;
	if (!sorted_ll(seq, n))
		qsort(seq, n, sizeof(*seq), cmp_ll);
	for (i = 1; i < n; i++)
		distinct += seq[i] != seq[i - 1];
	if (distinct == n)
		r->seq_gaps = (n ? seq[n - 1] : 0) - (long long)distinct;
}

static int load(struct report *r)
{
	sqlite3_stmt *st;
	long long q;
	size_t i;
	int rc;

	r->whole = r->since_ms == LLONG_MIN && r->until_ms == LLONG_MAX &&
		   !r->nsubjects;
	if (sqlite3_prepare_v2(r->db, "SELECT coalesce(max(id), 0) FROM records",
			       -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_int64(st, 0) > 0)
			r->rows.hint = (size_t)sqlite3_column_int64(st, 0) + 1;
		sqlite3_finalize(st);
	}
	rc = prepare(r, "SELECT exe, verdict, op, access, object, time_ms, "
		     "seq, node FROM records WHERE 1 %s", &st);
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rc = scan_row(r, st);
		if (rc) {
			sqlite3_finalize(st);
			p_err("%s", strerror(-rc));
			return rc;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		p_err("%s", sqlite3_errmsg(r->db));
		return -EIO;
	}
	r->records = (long long)r->rows.n;

	for (i = 0; i < r->nsubj; i++) {
		struct subj_row *s = &r->subj[i];

		if (s->last_new_ms == LLONG_MIN)
			s->last_new_ms = -1;
		r->learned += s->learned;
		r->denied += s->denied;
		if (!i || s->first_ms < r->first_ms)
			r->first_ms = s->first_ms;
		if (!i || s->last_ms > r->last_ms)
			r->last_ms = s->last_ms;
		/* Records without an executable count as '?'. */
		q = s->records;
		if (!strcmp(s->exe, "?"))
			q += r->null_exe_records;
		top_offer(r->top_subj, &r->ntop_subj, s->exe, q);
	}
	if (r->null_exe_records && strtab_find(&r->exes, "?", 1) < 0)
		top_offer(r->top_subj, &r->ntop_subj, "?", r->null_exe_records);
	for (i = 0; i < r->objects.n; i++)
		top_offer(r->top_obj, &r->ntop_obj, r->objects.names[i],
			  r->obj_records[i]);
	if (r->nsubj > 1)
		qsort(r->subj, r->nsubj, sizeof(*r->subj), cmp_subj);

	/* Loss: the latest snapshot's unmatched tuples, and seq gaps. A
	 * tuple without a record whose seq is above the last one ingested
	 * was only not ingested yet; at or below it, its record was lost. */
	r->audit_lost = -1;
	if (sqlite3_prepare_v2(r->db, "SELECT tuples, missing, "
			       "(SELECT coalesce(max(seq), 0) FROM records), "
			       "coalesce(audit_lost, -1) "
			       "FROM snapshots ORDER BY id DESC LIMIT 1", -1,
			       &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW) {
			r->have_snap = true;
			r->snap_tuples = sqlite3_column_int64(st, 0);
			r->snap_missing = sqlite3_column_int64(st, 1);
			r->max_seq = sqlite3_column_int64(st, 2);
			r->audit_lost = sqlite3_column_int64(st, 3);
		}
		sqlite3_finalize(st);
	}
	if (r->have_snap && r->snap_missing) {
		if (sqlite3_prepare_v2(r->db, "SELECT coalesce(sum(t.seq > ?1), 0) "
				       "FROM kernel_tuples t WHERE t.snapshot = "
				       "(SELECT max(id) FROM snapshots) AND "
				       "t.verdict != 'allowed' AND NOT EXISTS "
				       "(SELECT 1 FROM records r WHERE "
				       "r.verdict = t.verdict AND r.op = t.op AND "
				       "r.access = t.access AND r.uid = t.uid AND "
				       "r.exe IS t.exe AND r.object IS t.object)",
				       -1, &st, NULL) != SQLITE_OK) {
			p_err("%s", sqlite3_errmsg(r->db));
			return -EIO;
		}
		sqlite3_bind_int64(st, 1, r->max_seq);
		if (sqlite3_step(st) == SQLITE_ROW)
			r->snap_later = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		r->snap_lost = r->snap_missing - r->snap_later;
	}
	r->seq_gaps = -1;
	if (!r->whole)
		return seq_gaps_sql(r);
	seq_gaps_scanned(r);
	return 0;
}

/* Converged: no new access for at least half of the subject's span. */
static bool converged(const struct subj_row *s, long long end_ms)
{
	long long span = end_ms - s->first_ms;

	if (s->last_new_ms < 0 || span <= 0)
		return false;
	return (end_ms - s->last_new_ms) * 2 >= span;
}

static const char *iso(long long ms, char *buf, size_t size)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	if (ms <= 0 || !gmtime_r(&t, &tm) ||
	    !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "-");
	return buf;
}

/* ---- data files and charts ---------------------------------------------- */

static int write_series(struct report *r, const char *path, bool denied_only,
			long long bucket_ms)
{
	long long counts[BUCKETS + 1] = { 0 };
	const struct rows *w = &r->rows;
	size_t k;
	FILE *f;
	int i;

	for (k = 0; k < w->n; k++) {
		long long t = w->time_ms[k] - r->first_ms;

		if (denied_only && !w->denied[k])
			continue;
		i = t < 0 ? 0 : t / bucket_ms > BUCKETS ? BUCKETS :
		    (int)(t / bucket_ms);
		counts[i]++;
	}
	f = fopen(path, "w");
	if (!f)
		return -errno;
	/* Only the buckets the window covers, so the x axis fits it. */
	for (i = 0; i <= BUCKETS &&
	     (long long)i * bucket_ms <= r->last_ms - r->first_ms; i++)
		fprintf(f, "%.3f %lld\n", i * bucket_ms / 1000.0, counts[i]);
	return fclose(f) ? -errno : 0;
}

/* One discovery curve: the learned records of a subject, times sorted. At
 * most about CURVE_POINTS points: a point when x has moved by
 * 1/CURVE_POINTS of the window since the last one (the count there is
 * exact), and the last sighting. */
static void write_curve(const struct report *r, FILE *f, long long *t,
			size_t n, bool first)
{
	long long x = 0, last_x = -1, step = (r->last_ms - r->first_ms) /
					     CURVE_POINTS;
	bool held = false;
	size_t k;

	if (!sorted_ll(t, n))
		qsort(t, n, sizeof(*t), cmp_ll);
	fprintf(f, "%s0 0\n", first ? "" : "\n\n");
	for (k = 0; k < n; k++) {
		x = t[k] - r->first_ms;
		if (last_x < 0 || x - last_x >= step) {
			fprintf(f, "%.3f %lld\n", x / 1000.0, (long long)k + 1);
			last_x = x;
			held = false;
		} else {
			held = true;
		}
	}
	if (held)
		fprintf(f, "%.3f %lld\n", x / 1000.0, (long long)n);
	fprintf(f, "%.3f %lld\n", (r->last_ms - r->first_ms) / 1000.0,
		(long long)n);
}

static int write_curves(struct report *r, const char *path, char *titles,
			size_t tsize, int *nblocks)
{
	const struct subj_row *pick[CURVE_SUBJECTS];
	long long *times[CURVE_SUBJECTS] = { NULL };
	size_t len[CURVE_SUBJECTS] = { 0 }, k, tl = 0;
	int n = 0, c, rc = 0;
	FILE *f;

	/* The busiest subjects that learned something. */
	for (k = 0; k < r->nsubj && n < CURVE_SUBJECTS; k++) {
		if (!r->subj[k].learned)
			continue;
		times[n] = malloc(r->subj[k].records * sizeof(**times));
		if (!times[n]) {
			rc = -ENOMEM;
			goto out;
		}
		pick[n++] = &r->subj[k];
	}
	for (k = 0; k < r->rows.n; k++) {
		if (r->rows.exe[k] == NO_EXE || r->rows.denied[k])
			continue;
		for (c = 0; c < n; c++)
			if (pick[c]->id == r->rows.exe[k])
				times[c][len[c]++] = r->rows.time_ms[k];
	}
	f = fopen(path, "w");
	if (!f) {
		rc = -errno;
		goto out;
	}
	titles[0] = '\0';
	for (c = 0; c < n; c++) {
		const char *base = strrchr(pick[c]->exe, '/');
		char *p;

		write_curve(r, f, times[c], len[c], !c);
		/* gnuplot's word() splits on spaces: the legend uses the
		 * basename with spaces and quotes replaced. */
		base = base ? base + 1 : pick[c]->exe;
		tl += snprintf(titles + tl, tl < tsize ? tsize - tl : 0, "%s%s",
			       c ? " " : "", base);
		for (p = titles; tl < tsize && *p; p++)
			if (*p == '"' || *p == '\'' || *p == '\\')
				*p = '_';
	}
	*nblocks = n;
	if (fclose(f))
		rc = -errno;
out:
	for (c = 0; c < CURVE_SUBJECTS; c++)
		free(times[c]);
	return rc;
}

static int write_tops(const struct top_row *t, size_t n, const char *path)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f)
		return -errno;
	for (i = 0; i < n; i++) {
		const char *s = strrchr(t[i].name, '/');
		char label[40];
		size_t j;

		/* Labels: the last 30 bytes of the name, quotes removed. */
		s = strlen(t[i].name) > 30 ? t[i].name + strlen(t[i].name) - 30 :
		    t[i].name;
		snprintf(label, sizeof(label), "%s", s);
		for (j = 0; label[j]; j++)
			if (label[j] == '"' || label[j] == '\\' ||
			    (unsigned char)label[j] < 0x20)
				label[j] = '_';
		fprintf(f, "%zu %lld \"%s\"\n", i, t[i].n, label);
	}
	if (!n)
		fprintf(f, "0 0 \"(none)\"\n");
	return fclose(f) ? -errno : 0;
}

#ifndef VIGIL_DATADIR
#define VIGIL_DATADIR "/usr/local/share/vigil"
#endif

/*
 * The gnuplot scripts: $VIGIL_REPORTS_DIR, else beside the binary (the
 * source tree's analyzer/../reports, an installed PREFIX/sbin/../share/
 * vigil/reports, wherever PREFIX and DESTDIR put it), else the DATADIR
 * vigil was built for. The first holding timeline.gp wins.
 */
static const char *reports_dir(void)
{
	static char buf[PATH_MAX + 32];
	static const char *const rel[] = { "../reports",
					   "../share/vigil/reports" };
	const char *env = getenv("VIGIL_REPORTS_DIR");
	char exe[PATH_MAX], gp[PATH_MAX + 64];
	ssize_t n;
	char *slash;
	size_t i;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			for (i = 0; i < ARRAY_SIZE(rel); i++) {
				snprintf(buf, sizeof(buf), "%s/%s", exe, rel[i]);
				snprintf(gp, sizeof(gp), "%s/timeline.gp", buf);
				if (!access(gp, R_OK))
					return buf;
			}
		}
	}
	return VIGIL_DATADIR "/reports";
}

/* The charts' gnuplot runs, started together and waited for together. */
struct plots {
	struct {
		pid_t pid;
		char script[64], svg[PATH_MAX];
	} run[8];
	size_t n;
};

/* Start gnuplot on reports/SCRIPT with -e VARS, to write SVG. */
static int gnuplot(struct plots *p, const char *script, const char *vars,
		   const char *svg)
{
	char gp[2 * PATH_MAX + 64];
	pid_t pid;

	if (p->n == ARRAY_SIZE(p->run))
		return -E2BIG;
	snprintf(gp, sizeof(gp), "%s/%s", reports_dir(), script);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		setenv("LC_ALL", "C", 1);
		execlp("gnuplot", "gnuplot", "-e", vars, gp, (char *)NULL);
		_exit(127);
	}
	p->run[p->n].pid = pid;
	snprintf(p->run[p->n].script, sizeof(p->run[p->n].script), "%s",
		 script);
	snprintf(p->run[p->n].svg, sizeof(p->run[p->n].svg), "%s", svg);
	p->n++;
	return 0;
}

/* Wait for every run started; each must exit 0 having written its SVG. */
static int gnuplot_wait(struct plots *p)
{
	struct stat sb;
	int rc = 0, st;
	size_t i;

	for (i = 0; i < p->n; i++) {
		if (waitpid(p->run[i].pid, &st, 0) < 0) {
			rc = rc ? rc : -errno;
			continue;
		}
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			p_err("gnuplot %s/%s failed (exit %d)%s",
			      reports_dir(), p->run[i].script,
			      WIFEXITED(st) ? WEXITSTATUS(st) : -1,
			      WIFEXITED(st) && WEXITSTATUS(st) == 127 ?
			      ": install gnuplot-nox" : "");
			rc = -EIO;
		} else if (stat(p->run[i].svg, &sb) || !sb.st_size) {
			p_err("gnuplot wrote no %s", p->run[i].svg);
			rc = -EIO;
		}
	}
	p->n = 0;
	return rc;
}

/* Write the data files and start gnuplot on each. */
static int draw(struct report *r, const char *dir, struct plots *p)
{
	char data[PATH_MAX], svg[PATH_MAX], vars[3 * PATH_MAX + 1024];
	char titles[1024];
	long long span = r->last_ms - r->first_ms, bucket;
	static const struct {
		const char *name;
		bool denied_only;
		const char *title, *ylabel;
	} series[] = {
		{ "records", false, "Records over time (first sightings and would-be denials)", "records" },
		{ "denials", true, "Would-be denials over time (observe mode)", "would-be denials" },
	};
	int rc, nblocks = 0;
	size_t i;

	snprintf(data, sizeof(data), "%s/data", dir);
	if (mkdir(data, 0755) && errno != EEXIST)
		return -errno;
	bucket = span / BUCKETS + 1;
	if (bucket < 1000)
		bucket = 1000;

	snprintf(data, sizeof(data), "%s/data/discovery.dat", dir);
	snprintf(svg, sizeof(svg), "%s/discovery.svg", dir);
	rc = write_curves(r, data, titles, sizeof(titles), &nblocks);
	if (rc)
		return rc;
	if (!nblocks) {
		FILE *f = fopen(data, "w");

		if (f) {
			fputs("0 0\n", f);
			fclose(f);
		}
		snprintf(titles, sizeof(titles), "(nothing-learned)");
		nblocks = 1;
	}
	snprintf(vars, sizeof(vars), "datafile='%s'; outfile='%s'; "
		 "titles='%s'; nblocks=%d", data, svg, titles, nblocks);
	rc = gnuplot(p, "discovery.gp", vars, svg);
	if (rc)
		return rc;

	for (i = 0; i < ARRAY_SIZE(series); i++) {
		snprintf(data, sizeof(data), "%s/data/%s.dat", dir,
			 series[i].name);
		snprintf(svg, sizeof(svg), "%s/%s.svg", dir, series[i].name);
		rc = write_series(r, data, series[i].denied_only, bucket);
		if (rc)
			return rc;
		snprintf(vars, sizeof(vars), "datafile='%s'; outfile='%s'; "
			 "title_text='%s'; ylabel_text='%s per %.0f s'", data,
			 svg, series[i].title, series[i].ylabel, bucket / 1000.0);
		rc = gnuplot(p, "timeline.gp", vars, svg);
		if (rc)
			return rc;
	}

	snprintf(data, sizeof(data), "%s/data/top-subjects.dat", dir);
	snprintf(svg, sizeof(svg), "%s/top-subjects.svg", dir);
	rc = write_tops(r->top_subj, r->ntop_subj, data);
	if (rc)
		return rc;
	snprintf(vars, sizeof(vars), "datafile='%s'; outfile='%s'; "
		 "title_text='Top subjects'; ylabel_text='records'", data, svg);
	rc = gnuplot(p, "bars.gp", vars, svg);
	if (rc)
		return rc;
	snprintf(data, sizeof(data), "%s/data/top-objects.dat", dir);
	snprintf(svg, sizeof(svg), "%s/top-objects.svg", dir);
	rc = write_tops(r->top_obj, r->ntop_obj, data);
	if (rc)
		return rc;
	snprintf(vars, sizeof(vars), "datafile='%s'; outfile='%s'; "
		 "title_text='Top objects'; ylabel_text='records'", data, svg);
	return gnuplot(p, "bars.gp", vars, svg);
}


static int charts(struct report *r, const char *dir)
{
	struct plots plots = { .n = 0 };
	int rc = draw(r, dir, &plots), wrc = gnuplot_wait(&plots);

	return rc ? rc : wrc;
}

/* ---- output --------------------------------------------------------------- */

static void html_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if ((unsigned char)*s < 0x20)
				fprintf(f, "\\x%02X", (unsigned char)*s);
			else
				fputc(*s, f);
		}
	}
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void loss_line(const struct report *r, char *buf, size_t size)
{
	char snap[256] = "no kernel snapshot (run vigil snapshot)";
	char gaps[64] = "n/a (records of several boots)";
	char audit[128] = "";

	if (r->have_snap && !r->snap_missing)
		snprintf(snap, sizeof(snap), "none of %lld kernel tuples",
			 r->snap_tuples);
	else if (r->have_snap)
		snprintf(snap, sizeof(snap), "%lld of %lld kernel tuples "
			 "(seq at or below the last ingested, %lld), and %lld "
			 "not ingested yet (seq above it: run vigil ingest)",
			 r->snap_lost, r->snap_tuples, r->max_seq,
			 r->snap_later);
	if (r->seq_gaps >= 0)
		snprintf(gaps, sizeof(gaps), "%lld", r->seq_gaps);
	if (r->have_snap && r->audit_lost >= 0)
		snprintf(audit, sizeof(audit), "; audit's own lost counter at "
			 "the snapshot: %lld since boot (every program's "
			 "records)", r->audit_lost);
	else if (r->have_snap)
		snprintf(audit, sizeof(audit), "; audit's own lost counter: "
			 "not read by the snapshot");
	snprintf(buf, size, "lost records: %s; seq gaps: %s%s", snap, gaps,
		 audit);
}

static int out_html(struct report *r, const char *dir)
{
	char path[PATH_MAX], a[32], b[32], c[32], loss[768];
	bool lost = (r->have_snap && (r->snap_lost || r->audit_lost > 0)) ||
		    r->seq_gaps > 0;
	size_t i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/index.html", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>vigil report</title><style>"
	      "body{font-family:sans-serif;margin:2em;max-width:1000px;color:#222}"
	      "table{border-collapse:collapse;margin:1em 0}"
	      "td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}"
	      "td.n{text-align:right;font-variant-numeric:tabular-nums}"
	      ".warn{background:#fce94f;padding:.6em;border:2px solid #c4a000}"
	      ".ok{color:#4e9a06}.no{color:#a40000}img{max-width:100%}"
	      "</style></head><body>\n<h1>vigil report</h1>\n", f);
	fprintf(f, "<p>Observed from <b>%s</b> to <b>%s</b>: <b id=\"records\">%lld</b> "
		"records, <b id=\"subjects\">%zu</b> subjects, <b id=\"learned\">%lld</b> "
		"distinct accesses learned, <b id=\"denied\">%lld</b> distinct "
		"would-be denials.</p>\n", iso(r->first_ms, a, sizeof(a)),
		iso(r->last_ms, b, sizeof(b)), r->records, r->nsubj,
		r->learned, r->denied);
	loss_line(r, loss, sizeof(loss));
	fprintf(f, "<p class=\"%s\">", lost ? "warn" : "ok");
	html_esc(f, loss);
	fputs("</p>\n<h2>Subjects</h2>\n<table id=\"subjects-table\"><tr><th>executable"
	      "</th><th>records</th><th>learned</th><th>would-deny</th>"
	      "<th>first</th><th>last new access</th><th>learning</th></tr>\n", f);
	for (i = 0; i < r->nsubj; i++) {
		const struct subj_row *s = &r->subj[i];
		bool conv = converged(s, r->last_ms);

		fputs("<tr><td>", f);
		html_esc(f, s->exe);
		fprintf(f, "</td><td class=\"n\">%lld</td><td class=\"n\">%lld"
			"</td><td class=\"n\">%lld</td><td>%s</td><td>%s</td>"
			"<td class=\"%s\">%s (quiet %.0f s)</td></tr>\n",
			s->records, s->learned, s->denied,
			iso(s->first_ms, a, sizeof(a)),
			iso(s->last_new_ms, c, sizeof(c)), conv ? "ok" : "no",
			conv ? "converged" : "still learning",
			s->last_new_ms < 0 ? 0.0 :
			(r->last_ms - s->last_new_ms) / 1000.0);
	}
	fputs("</table>\n<p>Learning has converged for a subject when no new "
	      "access was learned for at least half of the time it was "
	      "observed.</p>\n", f);
	fputs("<h2>Discovery curve</h2><img src=\"discovery.svg\" alt=\"discovery curve\">\n"
	      "<h2>Records over time</h2><img src=\"records.svg\" alt=\"records over time\">\n"
	      "<h2>Would-be denials over time</h2><img src=\"denials.svg\" alt=\"would-be denials\">\n"
	      "<h2>Top subjects</h2><img src=\"top-subjects.svg\" alt=\"top subjects\">\n"
	      "<table id=\"top-subjects\"><tr><th>executable</th><th>records</th></tr>\n", f);
	for (i = 0; i < r->ntop_subj; i++) {
		fputs("<tr><td>", f);
		html_esc(f, r->top_subj[i].name);
		fprintf(f, "</td><td class=\"n\">%lld</td></tr>\n", r->top_subj[i].n);
	}
	fputs("</table>\n<h2>Top objects</h2><img src=\"top-objects.svg\" alt=\"top objects\">\n"
	      "<table id=\"top-objects\"><tr><th>object</th><th>records</th></tr>\n", f);
	for (i = 0; i < r->ntop_obj; i++) {
		fputs("<tr><td>", f);
		html_esc(f, r->top_obj[i].name);
		fprintf(f, "</td><td class=\"n\">%lld</td></tr>\n", r->top_obj[i].n);
	}
	fprintf(f, "</table>\n<p>Generated by vigil %s.</p>\n</body></html>\n",
		VIGIL_VERSION);
	return fclose(f) ? -errno : 0;
}

/* Text wrapped at spaces to 79 columns, continuation lines indented:
 * no sentence is cut. */
static void put_wrapped(FILE *f, const char *s)
{
	size_t col = 0, w;

	while (*s) {
		while (*s == ' ')
			s++;
		w = strcspn(s, " ");
		if (!w)
			break;
		if (col && col + 1 + w > 79) {
			fputs("\n  ", f);
			col = 2;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, w, f);
		col += w;
		s += w;
	}
	fputc('\n', f);
}

/* A name in width columns: its end, with "..." where its start was cut. */
static void put_tail(FILE *f, const char *s, int width)
{
	size_t l = strlen(s);

	if (l > (size_t)width)
		fprintf(f, "...%-*s", width - 3, s + l - (width - 3));
	else
		fprintf(f, "%-*s", width, s);
}

static void out_text(struct report *r, FILE *f)
{
	char a[32], b[32], loss[768];
	size_t i;

	fprintf(f, "vigil report: %s .. %s\n", iso(r->first_ms, a, sizeof(a)),
		iso(r->last_ms, b, sizeof(b)));
	fprintf(f, "%lld records, %zu subjects, %lld learned, %lld would-deny\n",
		r->records, r->nsubj, r->learned, r->denied);
	loss_line(r, loss, sizeof(loss));
	put_wrapped(f, loss);
	fprintf(f, "\n%-36s %7s %7s %7s %-16s\n", "subject", "records",
		"learned", "denied", "learning");
	for (i = 0; i < r->nsubj; i++) {
		const struct subj_row *s = &r->subj[i];

		put_tail(f, s->exe, 36);
		fprintf(f, " %7lld %7lld %7lld %-16s\n", s->records,
			s->learned, s->denied,
			converged(s, r->last_ms) ? "converged" : "still learning");
	}
	fputs("\ntop objects:\n", f);
	for (i = 0; i < r->ntop_obj; i++) {
		fputs("  ", f);
		put_tail(f, r->top_obj[i].name, 66);
		fprintf(f, " %9lld\n", r->top_obj[i].n);
	}
}

static void out_json(struct report *r, FILE *f)
{
	size_t i;

	fprintf(f, "{\"version\":1,\"first_ms\":%lld,\"last_ms\":%lld,"
		"\"records\":%lld,\"learned\":%lld,\"would_deny\":%lld,",
		r->first_ms, r->last_ms, r->records, r->learned, r->denied);
	if (r->have_snap)
		fprintf(f, "\"snapshot\":{\"tuples\":%lld,\"missing\":%lld,"
			"\"lost\":%lld,\"not_ingested\":%lld,"
			"\"last_ingested_seq\":%lld,", r->snap_tuples,
			r->snap_missing, r->snap_lost, r->snap_later,
			r->max_seq);
	if (r->have_snap && r->audit_lost >= 0)
		fprintf(f, "\"audit_lost\":%lld},", r->audit_lost);
	else if (r->have_snap)
		fputs("\"audit_lost\":null},", f);
	else
		fputs("\"snapshot\":null,", f);
	if (r->seq_gaps >= 0)
		fprintf(f, "\"seq_gaps\":%lld,", r->seq_gaps);
	else
		fputs("\"seq_gaps\":null,", f);
	fputs("\"subjects\":[", f);
	for (i = 0; i < r->nsubj; i++) {
		const struct subj_row *s = &r->subj[i];

		fprintf(f, "%s{\"exe\":", i ? "," : "");
		json_str(f, s->exe);
		fprintf(f, ",\"records\":%lld,\"learned\":%lld,\"would_deny\":%lld,"
			"\"first_ms\":%lld,\"last_ms\":%lld,\"last_new_ms\":%lld,"
			"\"converged\":%s}", s->records, s->learned, s->denied,
			s->first_ms, s->last_ms, s->last_new_ms,
			converged(s, r->last_ms) ? "true" : "false");
	}
	fputs("],\"top_objects\":[", f);
	for (i = 0; i < r->ntop_obj; i++) {
		fprintf(f, "%s{\"object\":", i ? "," : "");
		json_str(f, r->top_obj[i].name);
		fprintf(f, ",\"records\":%lld}", r->top_obj[i].n);
	}
	fputs("]}\n", f);
}

/* ---- time arguments -------------------------------------------------------- */

/*
 * ISO 8601 (UTC: 2026-12-03, 2026-12-03T08:00, 2026-12-03T08:00:00Z) or
 * audit's words now, recent, today, yesterday, this-week, boot; words in
 * local time like ausearch, but independent of the locale.
 */
int report_parse_time(const char *s, long long *ret_ms)
{
	time_t now = time(NULL);
	struct tm tm = { 0 };
	int y, mo, d, h = 0, mi = 0, se = 0, n = 0;
	char z = 0;

	if (!strcmp(s, "now")) {
		*ret_ms = (long long)now * 1000;
		return 0;
	}
	if (!strcmp(s, "recent")) {
		*ret_ms = ((long long)now - 600) * 1000;
		return 0;
	}
	if (!strcmp(s, "boot")) {
		double up = 0;
		FILE *f = fopen("/proc/uptime", "r");

		if (!f || fscanf(f, "%lf", &up) != 1) {
			if (f)
				fclose(f);
			return -EINVAL;
		}
		fclose(f);
		*ret_ms = ((long long)now - (long long)up) * 1000;
		return 0;
	}
	if (!strcmp(s, "today") || !strcmp(s, "yesterday") ||
	    !strcmp(s, "this-week")) {
		localtime_r(&now, &tm);
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		if (!strcmp(s, "yesterday"))
			tm.tm_mday -= 1;
		else if (!strcmp(s, "this-week"))
			tm.tm_mday -= (tm.tm_wday + 6) % 7;	/* Monday */
		tm.tm_isdst = -1;
		*ret_ms = (long long)mktime(&tm) * 1000;
		return 0;
	}
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3)
		return -EINVAL;
	if (s[n] == 'T' || s[n] == ' ') {
		int m = 0;

		if (sscanf(s + n + 1, "%2d:%2d%n", &h, &mi, &m) != 2)
			return -EINVAL;
		n += 1 + m;
		if (s[n] == ':') {
			if (sscanf(s + n + 1, "%2d%n", &se, &m) != 1)
				return -EINVAL;
			n += 1 + m;
		}
	}
	if (s[n] == 'Z')
		z = s[n++];
	if (s[n] || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
	    mi > 59 || se > 60)
		return -EINVAL;
	(void)z;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = se;
	*ret_ms = (long long)timegm(&tm) * 1000;
	/* timegm() moves 2026-02-30 to March 2: a day the month lacks is
	 * refused */
	if (tm.tm_mday != d || tm.tm_mon != mo - 1)
		return -EINVAL;
	return 0;
}

static void report_free(struct report *r)
{
	free(r->subj);
	free(r->obj_records);
	strtab_free(&r->exes);
	strtab_free(&r->objects);
	strtab_free(&r->opaccs);
	strtab_free(&r->rpat);
	free(r->rpat_first);
	pairset_free(&r->tuples);
	rows_free(&r->rows);
	free(r->first_node);
	free(r->key);
	free(r->where);
}

int do_report(int argc, char **argv)
{
	static const char usage[] = "report [--db PATH] [--subject EXE]... "
		"[--since T] [--until T]\n"
		"       [--format html|text|json] [-o DIR|FILE]\n"
		"  What was learned and what would be denied, per subject,\n"
		"  with the loss counters. html: a page with charts in DIR\n"
		"  (default vigil-report); text, json: to standard output,\n"
		"  or to FILE with -o. T: ISO 8601 (UTC), now, recent,\n"
		"  today, yesterday, this-week or boot.";
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "subject", required_argument, NULL, 's' },
		{ "since", required_argument, NULL, 'S' },
		{ "until", required_argument, NULL, 'U' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report r = { .since_ms = LLONG_MIN, .until_ms = LLONG_MAX };
	const char *dir = NULL, *format = "html";
	struct vigil_store *store = NULL;
	struct verb_opts vo;
	size_t i, len;
	int c, rc, ret = EXIT_USAGE;

	if (verb_opts_init(&vo, usage, argc))
		return EXIT_USAGE;
	optind = 1;
	while ((c = verb_getopt(argc, argv, "o:h", opts, &vo)) > 0) {
		switch (c) {
		case 'S':
		case 'U':
			if (report_parse_time(optarg, c == 'S' ? &r.since_ms :
					      &r.until_ms)) {
				p_err("--%s: cannot read '%s' (ISO 8601 or now, "
				      "recent, today, yesterday, this-week, boot)",
				      c == 'S' ? "since" : "until", optarg);
				goto out;
			}
			break;
		case 'o':
			dir = optarg;
			break;
		case 'f':
			format = optarg;
			break;
		}
	}
	if (c < 0) {
		ret = c == VERB_GETOPT_HELP ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (optind != argc) {
		verb_usage_error(&vo);
		goto out;
	}
	r.nsubjects = vo.nsubjects;
	if (strcmp(format, "html") && strcmp(format, "text") &&
	    strcmp(format, "json")) {
		p_err("--format %s: unknown format (html, text or json)",
		      format);
		goto out;
	}
	if (r.since_ms > r.until_ms) {
		p_err("--since is after --until: the window is empty");
		goto out;
	}
	r.subjects = vo.subjects;
	len = 64 + r.nsubjects * 2;
	r.where = malloc(len);
	if (!r.where)
		goto out;
	strcpy(r.where, " AND time_ms BETWEEN ?1 AND ?2");
	if (r.nsubjects) {
		strcat(r.where, " AND exe IN (");
		for (i = 0; i < r.nsubjects; i++)
			strcat(r.where, i ? ",?" : "?");
		strcat(r.where, ")");
	}
	if (open_store_existing(vigil_db_path(), &store) ||
	    verb_subjects_known(store, vigil_db_path(), vo.subjects,
				vo.nsubjects))
		goto out;
	r.db = vigil_store_sqlite(store);
	if (isatty(2))
		fprintf(stderr, "%s: report: reading %s...\r", progname,
			vigil_db_path());
	rc = load(&r);
	if (rc)
		goto out;
	if (strcmp(format, "html")) {
		char *text = NULL;
		size_t tlen = 0;
		FILE *f = dir ? open_memstream(&text, &tlen) : stdout;

		if (!f) {
			p_err("%s", strerror(errno));
			goto out;
		}
		if (isatty(2))
			fputs("                                       \r", stderr);
		if (!strcmp(format, "text"))
			out_text(&r, f);
		else
			out_json(&r, f);
		if (dir) {
			rc = fclose(f) ? -ENOMEM : 0;
			if (!rc)
				rc = write_file_atomic(dir, text, tlen);
			free(text);
			if (rc) {
				p_err("-o %s: %s", dir, strerror(-rc));
				goto out;
			}
		}
	} else {
		char gp[PATH_MAX + 64];

		if (!dir)
			dir = "vigil-report";
		/* no folder made when the charts cannot be drawn */
		snprintf(gp, sizeof(gp), "%s/timeline.gp", reports_dir());
		if (access(gp, R_OK)) {
			p_err("%s: %s: the gnuplot scripts are missing (set "
			      "VIGIL_REPORTS_DIR, or reinstall vigil)", gp,
			      strerror(errno));
			goto out;
		}
		if (mkdir(dir, 0755) && errno != EEXIST) {
			p_err("-o %s: %s", dir, strerror(errno));
			goto out;
		}
		if (isatty(2))
			fprintf(stderr, "%s: report: drawing charts...     \r",
				progname);
		rc = charts(&r, dir);
		if (!rc)
			rc = out_html(&r, dir);
		if (rc) {
			if (rc != -EIO)
				p_err("-o %s: %s", dir, strerror(-rc));
			goto out;
		}
		if (isatty(2))
			fputs("                                       \r", stderr);
		printf("%s/index.html\n", dir);
	}
	ret = fflush(stdout) ? EXIT_USAGE : EXIT_OK;
out:
	report_free(&r);
	vigil_store_close(store);
	verb_opts_free(&vo);
	return ret;
}
