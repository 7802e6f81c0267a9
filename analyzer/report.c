// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: vigil report: what was learned and what would be denied,
 * from the database, as an HTML page with gnuplot charts, text or JSON.
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

#include "vigil.h"

#define TOP_N 10
#define CURVE_SUBJECTS 6
#define BUCKETS 40
#define CURVE_POINTS 2000

struct subj_row {
	char *exe;
	long long learned, denied, records;
	long long first_ms, last_ms, last_new_ms;
};

struct top_row {
	char *name;
	long long n;
};

struct report {
	sqlite3 *db;
	char *where;		/* " AND ..." restricting records */
	char *const *subjects;
	size_t nsubjects;
	long long since_ms, until_ms;
	struct subj_row *subj;
	size_t nsubj;
	struct top_row top_subj[TOP_N], top_obj[TOP_N];
	size_t ntop_subj, ntop_obj;
	long long records, learned, denied, first_ms, last_ms;
	long long snap_tuples, snap_missing;
	bool have_snap;
	long long seq_gaps;	/* -1: not computable (several boots) */
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
		p_err("report: %s", sqlite3_errmsg(r->db));
		return -EIO;
	}
	bind_where(r, *st, 1);
	return 0;
}

static char *dup_col(sqlite3_stmt *st, int c)
{
	const unsigned char *s = sqlite3_column_text(st, c);

	return strdup(s ? (const char *)s : "?");
}

static int load_tops(struct report *r, const char *col, struct top_row *t,
		     size_t *n)
{
	char fmt[512];
	sqlite3_stmt *st;
	int rc;

	snprintf(fmt, sizeof(fmt), "SELECT coalesce(%s, '?'), count(*) FROM "
		 "records WHERE 1 %%s GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT %d",
		 col, TOP_N);
	rc = prepare(r, fmt, &st);
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *n < TOP_N) {
		t[*n].name = dup_col(st, 0);
		t[*n].n = sqlite3_column_int64(st, 1);
		(*n)++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -EIO;
}

static int load(struct report *r)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	rc = prepare(r, "SELECT exe, "
		     "count(DISTINCT CASE WHEN verdict = 'learned' THEN op || ' ' || access || ' ' || coalesce(object, '?') END), "
		     "count(DISTINCT CASE WHEN verdict = 'would-deny' THEN op || ' ' || access || ' ' || coalesce(object, '?') END), "
		     "count(*), min(time_ms), max(time_ms), "
		     "max(CASE WHEN verdict = 'learned' THEN time_ms END) "
		     "FROM records WHERE exe IS NOT NULL %s GROUP BY exe "
		     "ORDER BY count(*) DESC, exe", &st);
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct subj_row *s;

		if (r->nsubj == cap) {
			cap = cap ? 2 * cap : 16;
			s = realloc(r->subj, cap * sizeof(*s));
			if (!s) {
				sqlite3_finalize(st);
				return -ENOMEM;
			}
			r->subj = s;
		}
		s = &r->subj[r->nsubj++];
		s->exe = dup_col(st, 0);
		s->learned = sqlite3_column_int64(st, 1);
		s->denied = sqlite3_column_int64(st, 2);
		s->records = sqlite3_column_int64(st, 3);
		s->first_ms = sqlite3_column_int64(st, 4);
		s->last_ms = sqlite3_column_int64(st, 5);
		s->last_new_ms = sqlite3_column_type(st, 6) == SQLITE_NULL ?
				 -1 : sqlite3_column_int64(st, 6);
		r->records += s->records;
		r->learned += s->learned;
		r->denied += s->denied;
		if (r->nsubj == 1 || s->first_ms < r->first_ms)
			r->first_ms = s->first_ms;
		if (s->last_ms > r->last_ms)
			r->last_ms = s->last_ms;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -EIO;
	/* All records, also those without an executable (kernel threads). */
	rc = prepare(r, "SELECT count(*) FROM records WHERE 1 %s", &st);
	if (rc)
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW)
		r->records = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	rc = load_tops(r, "exe", r->top_subj, &r->ntop_subj);
	if (!rc)
		rc = load_tops(r, "object", r->top_obj, &r->ntop_obj);
	if (rc)
		return rc;

	/* Loss: the latest snapshot's unmatched tuples, and seq gaps. */
	if (sqlite3_prepare_v2(r->db, "SELECT tuples, missing FROM snapshots "
			       "ORDER BY id DESC LIMIT 1", -1, &st, NULL) ==
	    SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW) {
			r->have_snap = true;
			r->snap_tuples = sqlite3_column_int64(st, 0);
			r->snap_missing = sqlite3_column_int64(st, 1);
		}
		sqlite3_finalize(st);
	}
	r->seq_gaps = -1;
	if (sqlite3_prepare_v2(r->db, "SELECT count(*), count(DISTINCT seq), "
			       "coalesce(max(seq), 0), count(DISTINCT node) "
			       "FROM records", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_int64(st, 0) == sqlite3_column_int64(st, 1) &&
		    sqlite3_column_int64(st, 3) <= 1)
			r->seq_gaps = sqlite3_column_int64(st, 2) -
				      sqlite3_column_int64(st, 1);
		sqlite3_finalize(st);
	}
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

static int write_series(struct report *r, const char *path, const char *verdict,
			long long bucket_ms)
{
	long long counts[BUCKETS + 1] = { 0 };
	sqlite3_stmt *st;
	FILE *f;
	int rc, i;

	rc = prepare(r, "SELECT time_ms, verdict FROM records WHERE 1 %s", &st);
	if (rc)
		return rc;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 1);
		long long t = sqlite3_column_int64(st, 0) - r->first_ms;

		if (verdict && (!v || strcmp(v, verdict)))
			continue;
		i = (int)(t / bucket_ms);
		counts[i < 0 ? 0 : i > BUCKETS ? BUCKETS : i]++;
	}
	sqlite3_finalize(st);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	/* Only the buckets the window covers, so the x axis fits it. */
	for (i = 0; i <= BUCKETS &&
	     (long long)i * bucket_ms <= r->last_ms - r->first_ms; i++)
		fprintf(f, "%.3f %lld\n", i * bucket_ms / 1000.0, counts[i]);
	return fclose(f) ? -errno : 0;
}

static int write_curves(struct report *r, const char *path, char *titles,
			size_t tsize, int *nblocks)
{
	sqlite3_stmt *st = NULL;
	size_t k, tl = 0;
	FILE *f;
	int rc;

	f = fopen(path, "w");
	if (!f)
		return -errno;
	titles[0] = '\0';
	*nblocks = 0;
	for (k = 0; k < r->nsubj && *nblocks < CURVE_SUBJECTS; k++) {
		long long n = 0, x = 0, last_x, step;
		bool held = false;
		const char *base;
		char *p;

		if (!r->subj[k].learned)
			continue;
		rc = prepare(r, "SELECT time_ms FROM records WHERE verdict = "
			     "'learned' AND exe = ?99 %s ORDER BY time_ms", &st);
		if (rc)
			goto out;
		sqlite3_bind_text(st, 99, r->subj[k].exe, -1, SQLITE_STATIC);
		fprintf(f, "%s0 0\n", *nblocks ? "\n\n" : "");
		/* At most about CURVE_POINTS points a curve: a point when x
		 * has moved by 1/CURVE_POINTS of the window since the last
		 * one (the count there is exact), and the last sighting. */
		last_x = -1;
		step = (r->last_ms - r->first_ms) / CURVE_POINTS;
		while (sqlite3_step(st) == SQLITE_ROW) {
			x = sqlite3_column_int64(st, 0) - r->first_ms;
			n++;
			if (last_x < 0 || x - last_x >= step) {
				fprintf(f, "%.3f %lld\n", x / 1000.0, n);
				last_x = x;
				held = false;
			} else {
				held = true;
			}
		}
		if (held)
			fprintf(f, "%.3f %lld\n", x / 1000.0, n);
		fprintf(f, "%.3f %lld\n", (r->last_ms - r->first_ms) / 1000.0,
			n);
		sqlite3_finalize(st);
		st = NULL;
		/* gnuplot's word() splits on spaces: the legend uses the
		 * basename with spaces and quotes replaced. */
		base = strrchr(r->subj[k].exe, '/');
		base = base ? base + 1 : r->subj[k].exe;
		tl += snprintf(titles + tl, tl < tsize ? tsize - tl : 0, "%s%s",
			       *nblocks ? " " : "", base);
		for (p = titles; tl < tsize && *p; p++)
			if (*p == '"' || *p == '\'' || *p == '\\')
				*p = '_';
		(*nblocks)++;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	if (fclose(f) && !rc)
		rc = -errno;
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

static const char *reports_dir(void)
{
	static char buf[PATH_MAX + 16];
	const char *env = getenv("VIGIL_REPORTS_DIR");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, sizeof(buf), "%s/../reports", exe);
			if (!access(buf, R_OK))
				return buf;
		}
	}
	return "/usr/local/share/vigil/reports";
}

/* Run gnuplot on reports/SCRIPT with -e VARS; the SVG must appear. */
static int gnuplot(const char *script, const char *vars, const char *svg)
{
	char gp[2 * PATH_MAX + 64];
	struct stat sb;
	pid_t pid;
	int st;

	snprintf(gp, sizeof(gp), "%s/%s", reports_dir(), script);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		setenv("LC_ALL", "C", 1);
		execlp("gnuplot", "gnuplot", "-e", vars, gp, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -errno;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		p_err("report: gnuplot %s failed (exit %d)%s", gp,
		      WIFEXITED(st) ? WEXITSTATUS(st) : -1,
		      WIFEXITED(st) && WEXITSTATUS(st) == 127 ?
		      ": install gnuplot-nox" : "");
		return -EIO;
	}
	if (stat(svg, &sb) || !sb.st_size) {
		p_err("report: gnuplot wrote no %s", svg);
		return -EIO;
	}
	return 0;
}

static int charts(struct report *r, const char *dir)
{
	char data[PATH_MAX], svg[PATH_MAX], vars[3 * PATH_MAX + 1024];
	char titles[1024];
	long long span = r->last_ms - r->first_ms, bucket;
	static const struct {
		const char *name, *verdict, *title, *ylabel;
	} series[] = {
		{ "records", NULL, "Records over time (first sightings and would-be denials)", "records" },
		{ "denials", "would-deny", "Would-be denials over time (observe mode)", "would-be denials" },
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
	rc = gnuplot("discovery.gp", vars, svg);
	if (rc)
		return rc;

	for (i = 0; i < ARRAY_SIZE(series); i++) {
		snprintf(data, sizeof(data), "%s/data/%s.dat", dir,
			 series[i].name);
		snprintf(svg, sizeof(svg), "%s/%s.svg", dir, series[i].name);
		rc = write_series(r, data, series[i].verdict, bucket);
		if (rc)
			return rc;
		snprintf(vars, sizeof(vars), "datafile='%s'; outfile='%s'; "
			 "title_text='%s'; ylabel_text='%s per %.0f s'", data,
			 svg, series[i].title, series[i].ylabel, bucket / 1000.0);
		rc = gnuplot("timeline.gp", vars, svg);
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
	rc = gnuplot("bars.gp", vars, svg);
	if (rc)
		return rc;
	snprintf(data, sizeof(data), "%s/data/top-objects.dat", dir);
	snprintf(svg, sizeof(svg), "%s/top-objects.svg", dir);
	rc = write_tops(r->top_obj, r->ntop_obj, data);
	if (rc)
		return rc;
	snprintf(vars, sizeof(vars), "datafile='%s'; outfile='%s'; "
		 "title_text='Top objects'; ylabel_text='records'", data, svg);
	return gnuplot("bars.gp", vars, svg);
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
	char snap[128] = "no kernel snapshot (run vigil snapshot)";
	char gaps[64] = "n/a (records of several boots)";

	if (r->have_snap)
		snprintf(snap, sizeof(snap), "%lld of %lld kernel tuples have "
			 "no record", r->snap_missing, r->snap_tuples);
	if (r->seq_gaps >= 0)
		snprintf(gaps, sizeof(gaps), "%lld", r->seq_gaps);
	snprintf(buf, size, "lost records: %s; seq gaps: %s", snap, gaps);
}

static int out_html(struct report *r, const char *dir)
{
	char path[PATH_MAX], a[32], b[32], c[32], loss[256];
	bool lost = (r->have_snap && r->snap_missing) || r->seq_gaps > 0;
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

static void out_text(struct report *r, FILE *f)
{
	char a[32], b[32], loss[256];
	size_t i;

	fprintf(f, "vigil report: %s .. %s\n", iso(r->first_ms, a, sizeof(a)),
		iso(r->last_ms, b, sizeof(b)));
	fprintf(f, "%lld records, %zu subjects, %lld learned, %lld would-deny\n",
		r->records, r->nsubj, r->learned, r->denied);
	loss_line(r, loss, sizeof(loss));
	fprintf(f, "%.79s\n\n", loss);
	fprintf(f, "%-36s %7s %7s %7s %-16s\n", "subject", "records", "learned",
		"denied", "learning");
	for (i = 0; i < r->nsubj; i++) {
		const struct subj_row *s = &r->subj[i];
		size_t l = strlen(s->exe);

		fprintf(f, "%-36.36s %7lld %7lld %7lld %-16s\n",
			l > 36 ? s->exe + l - 36 : s->exe, s->records,
			s->learned, s->denied,
			converged(s, r->last_ms) ? "converged" : "still learning");
	}
	fputs("\ntop objects:\n", f);
	for (i = 0; i < r->ntop_obj; i++) {
		size_t l = strlen(r->top_obj[i].name);

		fprintf(f, "  %-66.66s %9lld\n", l > 66 ?
			r->top_obj[i].name + l - 66 : r->top_obj[i].name,
			r->top_obj[i].n);
	}
}

static void out_json(struct report *r, FILE *f)
{
	size_t i;

	fprintf(f, "{\"version\":1,\"first_ms\":%lld,\"last_ms\":%lld,"
		"\"records\":%lld,\"learned\":%lld,\"would_deny\":%lld,",
		r->first_ms, r->last_ms, r->records, r->learned, r->denied);
	if (r->have_snap)
		fprintf(f, "\"snapshot\":{\"tuples\":%lld,\"missing\":%lld},",
			r->snap_tuples, r->snap_missing);
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
	return 0;
}

static void report_free(struct report *r)
{
	size_t i;

	for (i = 0; i < r->nsubj; i++)
		free(r->subj[i].exe);
	free(r->subj);
	for (i = 0; i < r->ntop_subj; i++)
		free(r->top_subj[i].name);
	for (i = 0; i < r->ntop_obj; i++)
		free(r->top_obj[i].name);
	free(r->where);
}

int do_report(int argc, char **argv)
{
	static const char usage[] = "report [--db PATH] [--subject EXE]... "
		"[--since T] [--until T] [-o DIR] [--format html|text|json]";
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "subject", required_argument, NULL, 's' },
		{ "since", required_argument, NULL, 'S' },
		{ "until", required_argument, NULL, 'U' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report r = { .since_ms = LLONG_MIN, .until_ms = LLONG_MAX };
	const char *dir = "vigil-report", *format = "html";
	struct vigil_store *store = NULL;
	char **subjects;
	size_t i, len;
	int c, rc, ret = EXIT_USAGE;

	subjects = calloc(argc + 1, sizeof(*subjects));
	if (!subjects)
		return EXIT_USAGE;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			vigil_db_opt = optarg;
			break;
		case 's':
			subjects[r.nsubjects++] = optarg;
			break;
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
		case 'h':
			printf("usage: %s %s\n", progname, usage);
			ret = EXIT_OK;
			goto out;
		default:
			fprintf(stderr, "usage: %s %s\n", progname, usage);
			goto out;
		}
	}
	if (optind != argc || (strcmp(format, "html") && strcmp(format, "text") &&
			       strcmp(format, "json"))) {
		fprintf(stderr, "usage: %s %s\n", progname, usage);
		goto out;
	}
	r.subjects = subjects;
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
	if (open_store_existing(vigil_db_path(), &store))
		goto out;
	r.db = vigil_store_sqlite(store);
	if (isatty(2))
		fprintf(stderr, "vigil report: reading %s...\r", vigil_db_path());
	rc = load(&r);
	if (rc)
		goto out;
	if (!strcmp(format, "text")) {
		out_text(&r, stdout);
	} else if (!strcmp(format, "json")) {
		out_json(&r, stdout);
	} else {
		if (mkdir(dir, 0755) && errno != EEXIST) {
			p_err("-o %s: %s", dir, strerror(errno));
			goto out;
		}
		if (isatty(2))
			fprintf(stderr, "vigil report: drawing charts...     \r");
		rc = charts(&r, dir);
		if (!rc)
			rc = out_html(&r, dir);
		if (rc) {
			if (rc != -EIO)
				p_err("report: %s: %s", dir, strerror(-rc));
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
	free(subjects);
	return ret;
}
