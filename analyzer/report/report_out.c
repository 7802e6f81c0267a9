// SPDX-License-Identifier: GPL-2.0-only
/* vigil analyzer: vigil report's outputs: the HTML page, text and JSON. */
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

/* ---- output --------------------------------------------------------------- */

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

/* The fields of an AppArmor key (report.h): VERDICT, PROFILE, OPERATION,
 * OBJECT, MASK, pointing into buf (a copy of it). */
static void aa_fields(const char *key, char *buf, size_t size,
		      const char *v[5])
{
	char *p = buf;
	int i;

	snprintf(buf, size, "%s", key);
	for (i = 0; i < 5; i++) {
		v[i] = p ? p : "";
		p = p ? strchr(p, '\t') : NULL;
		if (p)
			*p++ = '\0';
	}
}

static const char aa_intro[] =
	"AppArmor in the window: %lld ALLOWED (complain mode: what it would "
	"have denied), %lld DENIED";

int report_out_html(struct report *r, const char *dir)
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
		"would-be denials.</p>\n", report_iso(r->first_ms, a, sizeof(a)),
		report_iso(r->last_ms, b, sizeof(b)), r->records, r->nsubj,
		r->learned, r->denied);
	loss_line(r, loss, sizeof(loss));
	fprintf(f, "<p class=\"%s\">", lost ? "warn" : "ok");
	esc_html(f, loss);
	fputs("</p>\n<h2>Subjects</h2>\n<table id=\"subjects-table\"><tr><th>executable"
	      "</th><th>records</th><th>learned</th><th>would-deny</th>"
	      "<th>first</th><th>last new access</th><th>learning</th></tr>\n", f);
	for (i = 0; i < r->nsubj; i++) {
		const struct subj_row *s = &r->subj[i];
		bool conv = report_converged(s, r->last_ms);

		fputs("<tr><td>", f);
		esc_html(f, s->exe);
		fprintf(f, "</td><td class=\"n\">%lld</td><td class=\"n\">%lld"
			"</td><td class=\"n\">%lld</td><td>%s</td><td>%s</td>"
			"<td class=\"%s\">%s (quiet %.0f s)</td></tr>\n",
			s->records, s->learned, s->denied,
			report_iso(s->first_ms, a, sizeof(a)),
			report_iso(s->last_new_ms, c, sizeof(c)), conv ? "ok" : "no",
			conv ? "converged" : "still learning",
			s->last_new_ms < 0 ? 0.0 :
			(r->last_ms - s->last_new_ms) / 1000.0);
	}
	fputs("</table>\n<p>Learning has converged for a subject when no new "
	      "access was learned for at least half of the time it was "
	      "observed.</p>\n", f);
	report_hosts_html(r, f);
	fputs("<h2>Discovery curve</h2><img src=\"discovery.svg\" alt=\"discovery curve\">\n"
	      "<h2>Records over time</h2><img src=\"records.svg\" alt=\"records over time\">\n"
	      "<h2>Would-be denials over time</h2><img src=\"denials.svg\" alt=\"would-be denials\">\n"
	      "<h2>Top subjects</h2><img src=\"top-subjects.svg\" alt=\"top subjects\">\n"
	      "<table id=\"top-subjects\"><tr><th>executable</th><th>records</th></tr>\n", f);
	for (i = 0; i < r->ntop_subj; i++) {
		fputs("<tr><td>", f);
		esc_html(f, r->top_subj[i].name);
		fprintf(f, "</td><td class=\"n\">%lld</td></tr>\n", r->top_subj[i].n);
	}
	fputs("</table>\n<h2>Top objects</h2><img src=\"top-objects.svg\" alt=\"top objects\">\n"
	      "<table id=\"top-objects\"><tr><th>object</th><th>records</th></tr>\n", f);
	for (i = 0; i < r->ntop_obj; i++) {
		fputs("<tr><td>", f);
		esc_html(f, r->top_obj[i].name);
		fprintf(f, "</td><td class=\"n\">%lld</td></tr>\n", r->top_obj[i].n);
	}
	fputs("</table>\n", f);
	if (r->aa.allowed || r->aa.denied || r->aa.optional) {
		fputs("<h2>AppArmor</h2>\n<p id=\"apparmor\">", f);
		fprintf(f, aa_intro, r->aa.allowed, r->aa.denied);
		fputs(".</p>\n<table id=\"apparmor-top\"><tr><th>verdict</th>"
		      "<th>profile</th><th>operation</th><th>object</th>"
		      "<th>mask</th><th>records</th></tr>\n", f);
		for (i = 0; i < r->ntop_aa; i++) {
			const char *v[5];
			char buf[1024];
			int k;

			aa_fields(r->top_aa[i].name, buf, sizeof(buf), v);
			fputs("<tr>", f);
			for (k = 0; k < 5; k++) {
				fputs("<td>", f);
				esc_html(f, v[k]);
				fputs("</td>", f);
			}
			fprintf(f, "<td class=\"n\">%lld</td></tr>\n",
				r->top_aa[i].n);
		}
		fputs("</table>\n", f);
	}
	if (r->aa.optional) {
		/* apart: not would-be denials (aa_optional) */
		fprintf(f, "<p id=\"apparmor-optional\">%s.</p>\n"
			"<table id=\"apparmor-optional-top\"><tr>"
			"<th>profile</th><th>operation</th><th>object</th>"
			"<th>records</th></tr>\n", aa_optional_heading);
		for (i = 0; i < r->ntop_aa_opt; i++) {
			const char *v[5];
			char buf[1024];
			int k;

			aa_fields(r->top_aa_opt[i].name, buf, sizeof(buf), v);
			fputs("<tr>", f);
			for (k = 1; k < 4; k++) {
				fputs("<td>", f);
				esc_html(f, v[k]);
				fputs("</td>", f);
			}
			fprintf(f, "<td class=\"n\">%lld</td></tr>\n",
				r->top_aa_opt[i].n);
		}
		fputs("</table>\n", f);
	}
	fprintf(f, "<p>Generated by vigil %s.</p>\n</body></html>\n",
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

/*
 * A name in width columns, as terminal text (escape.h): its end, with
 * "..." where its start was cut (between characters; a column each).
 */
static void put_tail(FILE *f, const char *s, int width)
{
	char *e = esc_text_dup(s);
	size_t cols = 0, skip, n;
	const char *p;

	if (!e) {
		fputs("(out of memory)", f);
		return;
	}
	/* the escaped form is printable UTF-8 throughout */
	for (p = e; *p; p += n, cols++)
		n = esc_printable(p, strlen(p));
	p = e;
	if (cols > (size_t)width) {
		for (skip = cols - (width - 3); skip; skip--)
			p += esc_printable(p, strlen(p));
		fputs("...", f);
		cols = width;
	}
	fputs(p, f);
	for (; cols < (size_t)width; cols++)
		fputc(' ', f);
	free(e);
}

static void report_aa_text(const struct report *r, FILE *f);
static void report_aa_optional_text(const struct report *r, FILE *f);

void report_out_text(struct report *r, FILE *f)
{
	char a[32], b[32], loss[768];
	size_t i;

	fprintf(f, "vigil report: %s .. %s\n", report_iso(r->first_ms, a, sizeof(a)),
		report_iso(r->last_ms, b, sizeof(b)));
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
			report_converged(s, r->last_ms) ? "converged" : "still learning");
	}
	fputs("\ntop objects:\n", f);
	for (i = 0; i < r->ntop_obj; i++) {
		fputs("  ", f);
		put_tail(f, r->top_obj[i].name, 66);
		fprintf(f, " %9lld\n", r->top_obj[i].n);
	}
	report_hosts_text(r, f);
	if (r->aa.allowed || r->aa.denied)
		report_aa_text(r, f);
	if (r->aa.optional)
		report_aa_optional_text(r, f);
}

/* AppArmor's ALLOWED and DENIED records: the most frequent. */
static void report_aa_text(const struct report *r, FILE *f)
{
	size_t i;

	fputc('\n', f);
	fprintf(f, aa_intro, r->aa.allowed, r->aa.denied);
	fputs(":\n", f);
	for (i = 0; i < r->ntop_aa; i++) {
		const char *v[5];
		char buf[1024], line[1200];

		aa_fields(r->top_aa[i].name, buf, sizeof(buf), v);
		snprintf(line, sizeof(line), "%s %s: %s %s%s%s%s", v[0], v[1],
			 v[2], v[3], *v[4] ? " (" : "", v[4], *v[4] ? ")" : "");
		fputs("  ", f);
		put_tail(f, line, 66);
		fprintf(f, " %9lld\n", r->top_aa[i].n);
	}
}

/* AppArmor's optional checks, apart: not would-be denials (aa_optional):
 * the heading, then the most frequent, as trial --report lists them. */
static void report_aa_optional_text(const struct report *r, FILE *f)
{
	char head[512];
	size_t i;

	snprintf(head, sizeof(head), "%s:", aa_optional_heading);
	fputc('\n', f);
	put_wrapped(f, head);
	for (i = 0; i < r->ntop_aa_opt; i++) {
		const char *v[5];
		char buf[1024], line[1200];

		aa_fields(r->top_aa_opt[i].name, buf, sizeof(buf), v);
		snprintf(line, sizeof(line), "%s: %s %s", v[1], v[2], v[3]);
		fputs("  ", f);
		put_tail(f, line, 66);
		fprintf(f, " %9lld\n", r->top_aa_opt[i].n);
	}
}

int report_out_json(struct report *r, FILE *f)
{
	int rc = 0;
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
	rc = report_hosts_json(r, f);
	fputs("\"subjects\":[", f);
	for (i = 0; i < r->nsubj; i++) {
		const struct subj_row *s = &r->subj[i];

		fputs(i ? ",{" : "{", f);
		rc = rc ? rc : esc_json_member(f, "exe", s->exe);
		fprintf(f, ",\"records\":%lld,\"learned\":%lld,\"would_deny\":%lld,"
			"\"first_ms\":%lld,\"last_ms\":%lld,\"last_new_ms\":%lld,"
			"\"converged\":%s}", s->records, s->learned, s->denied,
			s->first_ms, s->last_ms, s->last_new_ms,
			report_converged(s, r->last_ms) ? "true" : "false");
	}
	fputs("],\"top_objects\":[", f);
	for (i = 0; i < r->ntop_obj; i++) {
		fputs(i ? ",{" : "{", f);
		rc = rc ? rc : esc_json_member(f, "object", r->top_obj[i].name);
		fprintf(f, ",\"records\":%lld}", r->top_obj[i].n);
	}
	fprintf(f, "],\"apparmor\":{\"allowed\":%lld,\"denied\":%lld,"
		"\"optional\":%lld,\"top\":[", r->aa.allowed, r->aa.denied,
		r->aa.optional);
	for (i = 0; i < r->ntop_aa; i++) {
		static const char *const names[5] = {
			"verdict", "profile", "operation", "object", "mask",
		};
		const char *v[5];
		char buf[1024];
		int k;

		aa_fields(r->top_aa[i].name, buf, sizeof(buf), v);
		fputs(i ? ",{" : "{", f);
		for (k = 0; k < 5; k++) {
			rc = rc ? rc : esc_json_member(f, names[k], v[k]);
			fputc(',', f);
		}
		fprintf(f, "\"records\":%lld}", r->top_aa[i].n);
	}
	/* apart: not would-be denials (aa_optional) */
	fputs("],\"optional_checks\":[", f);
	for (i = 0; i < r->ntop_aa_opt; i++) {
		static const char *const names[3] = {
			"profile", "operation", "object",
		};
		const char *v[5];
		char buf[1024];
		int k;

		aa_fields(r->top_aa_opt[i].name, buf, sizeof(buf), v);
		fputs(i ? ",{" : "{", f);
		for (k = 0; k < 3; k++) {
			rc = rc ? rc : esc_json_member(f, names[k], v[k + 1]);
			fputc(',', f);
		}
		fprintf(f, "\"records\":%lld}", r->top_aa_opt[i].n);
	}
	fputs("]}}\n", f);
	return rc;
}

