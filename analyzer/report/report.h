/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: what the files of vigil report share: the aggregated
 * window (report.c scans it), its charts (report_charts.c) and its
 * outputs (report_out.c).
 */
#ifndef VIGIL_ANALYZER_REPORT_H
#define VIGIL_ANALYZER_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "intern.h"
#include "nodes.h"
#include "record.h"
#include "report_time.h"	/* report_iso, report_converged, ... */

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

struct vigil_store;

/* report_hosts.c: per host, over several (issue 28). */
struct host_row {
	long long records, denied, tuples, first_ms, last_ms, last_new_ms;
	long long deviate;	/* accesses fewer than half its peers made */
};
struct report_hosts {
	bool on;		/* several hosts selected */
	struct host_row *row;	/* by host index of report.nodes */
	/* (object, op access) x (exe, host) learned; (exe, host) */
	struct pairset pairs, exe_pairs;
	uint32_t *exe_hosts;	/* by exe id: hosts that ran it */
	size_t exe_cap;
	char *last_node;
	long last_host;
};

struct report {
	struct vigil_store *store;
	struct vigil_nodes nodes;	/* the hosts, those selected */
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
	/* AppArmor's records of the window (of the named subjects' profiles
	 * and their children's) and the most frequent distinct ones */
	struct aa_tally aa;
	struct top_row top_aa[TOP_N];
	size_t ntop_aa;
	struct top_row top_aa_opt[TOP_N];	/* the optional checks */
	size_t ntop_aa_opt;
	bool whole;		/* no --since, --until, --subject, --checkpoint */
	bool span;		/* --checkpoint: the records after a cut-off */
	char *first_node;	/* whole: the first record's node */
	bool nodes_differ;
	char *key;		/* scratch for "op access" */
	size_t key_cap;
	struct report_hosts hosts;
};

/* report.c */
/* Scan the window of r (store, subjects, since_ms, until_ms set): 0 or
 * -errno (said). report_free frees what it made. */
int report_load(struct report *r);
void report_free(struct report *r);

/* report_hosts.c */
int report_hosts_init(struct report *r);
int report_hosts_row(struct report *r, const char *node, long long t,
		     uint32_t xid, uint32_t oid, uint32_t aid, bool denied);
int report_hosts_end(struct report *r);
void report_hosts_free(struct report *r);
void report_hosts_text(struct report *r, FILE *f);
void report_hosts_html(struct report *r, FILE *f);
/* "hosts":[...], (with its comma) when per host: 0 or -ENOMEM */
int report_hosts_json(struct report *r, FILE *f);

/* report_charts.c: the data files and gnuplot charts of the HTML page in
 * dir. 0 or -errno (said). */
int report_charts(struct report *r, const char *dir);
/* The folder of the gnuplot scripts ($VIGIL_REPORTS_DIR, beside the
 * binary, or the data folder it was built for). */
const char *report_scripts_dir(void);

/* report_out.c */
int report_out_html(struct report *r, const char *dir);
void report_out_text(struct report *r, FILE *f);
/* 0, or -ENOMEM */
int report_out_json(struct report *r, FILE *f);

#endif /* VIGIL_ANALYZER_REPORT_H */
