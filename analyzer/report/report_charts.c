// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: vigil report's charts: the data files of the scanned
 * window and the gnuplot processes that draw them (reports/NAME.gp).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "report.h"
#include "vigil.h"
#include "util.h"

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

	report_sort_ll(t, n);
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

static int write_curves(struct report *r, const char *path,
			char *titles[CURVE_SUBJECTS], int *nblocks)
{
	const struct subj_row *pick[CURVE_SUBJECTS];
	long long *times[CURVE_SUBJECTS] = { NULL };
	size_t len[CURVE_SUBJECTS] = { 0 }, k;
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
	for (c = 0; c < n; c++) {
		const char *base = strrchr(pick[c]->exe, '/');

		write_curve(r, f, times[c], len[c], !c);
		/* the legend: the basename, a label (gp_label) */
		titles[c] = esc_text_dup(base ? base + 1 : pick[c]->exe);
		if (!titles[c])
			rc = -ENOMEM;
	}
	*nblocks = n;
	if (fclose(f) && !rc)
		rc = -errno;
out:
	for (c = 0; c < CURVE_SUBJECTS; c++)
		free(times[c]);
	return rc;
}

/*
 * A label in a gnuplot data file: the terminal text's form (escape.h), in
 * double quotes, where gnuplot reads backslash escapes and ends the string
 * at any '"': a backslash is doubled, a double quote written as \x22
 * (doubled: \\x22). The charts draw with enhanced text off, so _ ^ { } @
 * & ~ are themselves.
 */
static void gp_data_label(FILE *f, const char *s)
{
	char *e = esc_text_dup(s);
	const char *p;

	fputc('"', f);
	for (p = e ? e : "(out of memory)"; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '"')
			fputs("\\\\x22", f);
		else
			fputc(*p, f);
	}
	fputc('"', f);
	free(e);
}

static int write_tops(const struct top_row *t, size_t n, const char *path)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f)
		return -errno;
	for (i = 0; i < n; i++) {
		/* Labels: the last 30 bytes of the name (whole characters). */
		const char *s = t[i].name;
		size_t l = strlen(s);

		if (l > 30)
			for (s += l - 30; (*s & 0xc0) == 0x80; s++)
				;
		fprintf(f, "%zu %lld ", i, t[i].n);
		gp_data_label(f, s);
		fputc('\n', f);
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
const char *report_scripts_dir(void)
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

/*
 * Start gnuplot -c reports/SCRIPT ARGS... to write SVG: each argument is
 * ARGn there, a string as is (never parsed as gnuplot code).
 */
static int gnuplot(struct plots *p, const char *script,
		   const char *const *args, size_t nargs, const char *svg)
{
	char gp[2 * PATH_MAX + 64];
	const char *argv[16];
	pid_t pid;
	size_t i;

	if (p->n == ARRAY_SIZE(p->run) || nargs > 9)
		return -E2BIG;
	snprintf(gp, sizeof(gp), "%s/%s", report_scripts_dir(), script);
	argv[0] = "gnuplot";
	argv[1] = "-c";
	argv[2] = gp;
	for (i = 0; i < nargs; i++)
		argv[3 + i] = args[i];
	argv[3 + i] = NULL;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		setenv("LC_ALL", "C", 1);
		execvp("gnuplot", (char *const *)argv);
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
			      report_scripts_dir(), p->run[i].script,
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

/* One bar chart of top rows: DIR/data/NAME.dat drawn into DIR/NAME.svg. */
static int bars_chart(struct plots *p, const char *dir, const char *name,
		      const char *title, const struct top_row *t, size_t n)
{
	char data[PATH_MAX], svg[PATH_MAX];
	const char *args[4] = { data, svg, title, "records" };
	int rc;

	snprintf(data, sizeof(data), "%s/data/%s.dat", dir, name);
	snprintf(svg, sizeof(svg), "%s/%s.svg", dir, name);
	rc = write_tops(t, n, data);
	if (rc)
		return rc;
	return gnuplot(p, "bars.gp", args, 4, svg);
}

/* Write the data files and start gnuplot on each. */
static int draw(struct report *r, const char *dir, struct plots *p)
{
	char data[PATH_MAX], svg[PATH_MAX], ylabel[128];
	char *titles[CURVE_SUBJECTS] = { NULL };
	const char *args[2 + CURVE_SUBJECTS] = { data, svg };
	long long span = r->last_ms - r->first_ms, bucket;
	static const struct {
		const char *name;
		bool denied_only;
		const char *title, *ylabel;
	} series[] = {
		{ "records", false, "Records over time (first sightings and would-be denials)", "records" },
		{ "denials", true, "Would-be denials over time (observe mode)", "would-be denials" },
	};
	int rc, nblocks = 0, c;
	size_t i;

	snprintf(data, sizeof(data), "%s/data", dir);
	if (mkdir(data, 0755) && errno != EEXIST)
		return -errno;
	bucket = span / BUCKETS + 1;
	if (bucket < 1000)
		bucket = 1000;

	snprintf(data, sizeof(data), "%s/data/discovery.dat", dir);
	snprintf(svg, sizeof(svg), "%s/discovery.svg", dir);
	rc = write_curves(r, data, titles, &nblocks);
	if (!rc && !nblocks) {
		FILE *f = fopen(data, "w");

		if (f) {
			fputs("0 0\n", f);
			fclose(f);
		}
		args[2] = "(nothing learned)";
		nblocks = 1;
	} else {
		for (c = 0; c < nblocks; c++)
			args[2 + c] = titles[c];
	}
	if (!rc)
		rc = gnuplot(p, "discovery.gp", args, 2 + nblocks, svg);
	for (c = 0; c < CURVE_SUBJECTS; c++)
		free(titles[c]);
	if (rc)
		return rc;

	for (i = 0; i < ARRAY_SIZE(series); i++) {
		const char *sargs[4] = { data, svg, series[i].title, ylabel };

		snprintf(data, sizeof(data), "%s/data/%s.dat", dir,
			 series[i].name);
		snprintf(svg, sizeof(svg), "%s/%s.svg", dir, series[i].name);
		rc = write_series(r, data, series[i].denied_only, bucket);
		if (rc)
			return rc;
		snprintf(ylabel, sizeof(ylabel), "%s per %.0f s",
			 series[i].ylabel, bucket / 1000.0);
		rc = gnuplot(p, "timeline.gp", sargs, 4, svg);
		if (rc)
			return rc;
	}

	rc = bars_chart(p, dir, "top-subjects", "Top subjects", r->top_subj,
			r->ntop_subj);
	if (rc)
		return rc;
	return bars_chart(p, dir, "top-objects", "Top objects", r->top_obj,
			  r->ntop_obj);
}

int report_charts(struct report *r, const char *dir)
{
	struct plots plots = { .n = 0 };
	int rc = draw(r, dir, &plots), wrc = gnuplot_wait(&plots);

	return rc ? rc : wrc;
}

