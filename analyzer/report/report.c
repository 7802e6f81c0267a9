// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: vigil report: what was learned and what would be denied,
 * from the database, as an HTML page with gnuplot charts, text or JSON.
 * This file: the verb and the scan of the window (charts:
 * report_charts.c, outputs: report_out.c).
 *
 * Everything the report shows comes from one scan of the window's records,
 * aggregated here with hash tables (intern.h): SQL's GROUP BY and
 * count(DISTINCT) sort, and cost several times the scan on a large table.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "intern.h"
#include "record.h"
#include "report.h"
#include "rules.h"
#include "vigil.h"
#include "util.h"
#include "verb_store.h"
#include "nodes.h"
#include "store.h"
#include "timearg.h"
#include "checkpoint.h"

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
		    long long t, uint32_t *ret_id, uint32_t *ret_aid)
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
	*ret_aid = aid;
	return 0;
}

static int scan_row(struct report *r, const struct vigil_store_row *row)
{
	const char *exe = row->exe, *verdict = row->verdict;
	const char *op = row->op, *access = row->access;
	const char *object = row->object, *node;
	long long t = row->time_ms;
	bool denied = verdict && !strcmp(verdict, "would-deny");
	uint32_t oid, xid = NO_EXE, aid = 0;
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
			      denied, t, &xid, &aid);
		if (rc)
			return rc;
	} else {
		r->null_exe_records++;
	}
	rc = report_hosts_row(r, row->node, t, xid, oid, aid, denied);
	if (rc)
		return rc;
	if (r->whole) {
		node = row->node;
		node = node ? node : "";
		if (!r->first_node) {
			r->first_node = strdup(node);
			if (!r->first_node)
				return -ENOMEM;
		} else if (!r->nodes_differ && strcmp(node, r->first_node)) {
			r->nodes_differ = true;
		}
	}
	return rows_append(r, t, xid, denied, row->seq);
}

/* scan_row for the store's walk, its error kept apart from the store's. */
struct scan {
	struct report *r;
	int rc;
};

static int scan_one(void *ctx, const struct vigil_store_row *row)
{
	struct scan *sc = ctx;

	sc->rc = scan_row(sc->r, row);
	return sc->rc;
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

/* Seq gaps of the whole table: max(seq) - distinct seqs, when no seq
 * repeats and all records come from one node (one boot). */
static int seq_gaps_sql(struct report *r)
{
	struct vigil_store_seq_counts c;
	int rc = vigil_store_seq_counts(r->store, &c);

	if (rc < 0) {
		p_err("%s", vigil_store_errmsg(r->store));
		return -EIO;
	}
	if (rc && c.records == c.seqs && c.nodes <= 1)
		r->seq_gaps = c.max_seq - c.seqs;
	return 0;
}

static void seq_gaps_scanned(struct report *r)
{
	long long *seq = r->rows.seq;
	size_t n = r->rows.n, i, distinct = n ? 1 : 0;

	if (r->nodes_differ)
		return;
	report_sort_ll(seq, n);
	for (i = 1; i < n; i++)
		distinct += seq[i] != seq[i - 1];
	if (distinct == n)
		r->seq_gaps = (n ? seq[n - 1] : 0) - (long long)distinct;
}

/* An AppArmor record's profile belongs to a named subject: its own
 * profile or one of its children's (PROFILE//CHILD). */
static bool aa_profile_named(const struct report *r, const char *prof)
{
	size_t i;

	if (!r->nsubjects)
		return true;
	for (i = 0; i < r->nsubjects; i++)
		if (aa_profile_of(prof, r->subjects[i]))
			return true;
	return false;
}

static bool aa_keep(void *ctx, const char *prof)
{
	return aa_profile_named(ctx, prof);
}

static int aa_one(void *ctx, const char *text)
{
	struct report *r = ctx;

	return aa_tally_add(&r->aa, text, aa_keep, r);
}

/* AppArmor's records of the window: counts and the most frequent. */
static int load_apparmor(struct report *r)
{
	size_t i;
	int rc;

	rc = vigil_store_apparmor_window(r->store, r->since_ms, r->until_ms,
					 aa_one, r);
	if (rc) {
		p_err("%s", rc == -EIO ? vigil_store_errmsg(r->store) :
		      strerror(-rc));
		return rc;
	}
	for (i = 0; i < r->aa.keys.n; i++) {
		bool opt = aa_tally_optional(&r->aa, i);

		top_offer(opt ? r->top_aa_opt : r->top_aa,
			  opt ? &r->ntop_aa_opt : &r->ntop_aa,
			  r->aa.keys.names[i], r->aa.count[i]);
	}
	return 0;
}

int report_load(struct report *r)
{
	const struct vigil_store_window w = {
		.since_ms = r->since_ms, .until_ms = r->until_ms,
		.subjects = r->subjects, .nsubjects = r->nsubjects,
	};
	struct vigil_store_snapshot snap;
	struct scan sc = { .r = r };
	long long q;
	size_t i;
	int rc;

	r->whole = r->since_ms == LLONG_MIN && r->until_ms == LLONG_MAX &&
		   !r->nsubjects && !r->span;
	if (vigil_store_records_max_id(r->store, &q) > 0 && q > 0)
		r->rows.hint = (size_t)q + 1;
	rc = report_hosts_init(r);
	if (!rc)
		rc = vigil_store_window_records(r->store, &w, scan_one, &sc);
	if (!rc)
		rc = report_hosts_end(r);
	if (rc) {
		p_err("%s", sc.rc || rc != -EIO ? strerror(-rc) :
		      vigil_store_errmsg(r->store));
		return rc;
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
	if (vigil_store_latest_snapshot(r->store, &snap) > 0) {
		r->have_snap = true;
		r->snap_tuples = snap.tuples;
		r->snap_missing = snap.missing;
		r->max_seq = snap.max_seq;
		r->audit_lost = snap.audit_lost;
	}
	if (r->have_snap && r->snap_missing) {
		if (vigil_store_snapshot_unmatched_after(r->store, r->max_seq,
							 &r->snap_later) < 0) {
			p_err("%s", vigil_store_errmsg(r->store));
			return -EIO;
		}
		r->snap_lost = r->snap_missing - r->snap_later;
	}
	rc = load_apparmor(r);
	if (rc)
		return rc;
	r->seq_gaps = -1;
	if (!r->whole)
		return seq_gaps_sql(r);
	seq_gaps_scanned(r);
	return 0;
}

/* dir is a folder with nothing in it (errno set when it is not). */
static bool dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool empty = true;

	if (!d)
		return false;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	errno = empty ? 0 : EEXIST;
	return empty;
}

void report_free(struct report *r)
{
	report_hosts_free(r);
	vigil_nodes_free(&r->nodes);
	free(r->subj);
	free(r->obj_records);
	strtab_free(&r->exes);
	strtab_free(&r->objects);
	strtab_free(&r->opaccs);
	strtab_free(&r->rpat);
	free(r->rpat_first);
	aa_tally_free(&r->aa);
	pairset_free(&r->tuples);
	rows_free(&r->rows);
	free(r->first_node);
	free(r->key);
}

int do_report(int argc, char **argv)
{
	static const char usage[] = "report [--db PATH] [--subject EXE]... "
		"[--since T] [--until T]\n"
		"       [--boot N|list] [--format html|text|json] [-o DIR|FILE]\n"
		"       [--node HOST]... [--all-nodes] [--checkpoint FILE]\n"
		"  What was learned and what would be denied, per subject,\n"
		"  with the loss counters. html: a page with charts in DIR\n"
		"  (default vigil-report); text, json: to standard output,\n"
		"  or to FILE with -o. T: ISO 8601 (UTC, or an offset such as\n"
		"  +01:00), now, recent, today, yesterday, this-week,\n"
		"  week-ago, this-month, this-year or boot. --boot N: the window\n"
		"  of one boot (1 the oldest, 0 the latest, -1 the one\n"
		"  before; list: the boots the records show).\n"
		"  --node HOST (repeatable, globs) or --all-nodes: which hosts'\n"
		"  records (node=) to read; one of them is needed when the\n"
		"  database holds several (docs/fleet.md). Over\n"
		"  several hosts, a section per host: its records, accesses,\n"
		"  when it last learned something new, and how far it\n"
		"  deviates from the fleet.\n"
		"  --checkpoint FILE: only the records newer than the cut-off\n"
		"  FILE holds, per host (missing: all), as ausearch\n"
		"  --checkpoint; FILE then holds the newest record read.";
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "subject", required_argument, NULL, 's' },
		{ "since", required_argument, NULL, 'S' },
		{ "until", required_argument, NULL, 'U' },
		{ "boot", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "node", required_argument, NULL, VERB_OPT_NODE },
		{ "all-nodes", no_argument, NULL, VERB_OPT_ALL_NODES },
		{ "checkpoint", required_argument, NULL, VERB_OPT_CHECKPOINT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report r = { .since_ms = LLONG_MIN, .until_ms = LLONG_MAX };
	const char *dir = NULL, *format = "html", *boot = NULL;
	struct vigil_store *store = NULL;
	struct verb_checkpoint *cp = NULL;
	struct verb_opts vo;
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
				      "recent, today, yesterday, this-week, week-ago, "
				      "this-month, this-year, boot)",
				      c == 'S' ? "since" : "until", optarg);
				goto out;
			}
			break;
		case 'b':
			boot = optarg;
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
	if (boot && (r.since_ms != LLONG_MIN || r.until_ms != LLONG_MAX)) {
		p_err("--boot and --since/--until exclude each other");
		goto out;
	}
	r.subjects = vo.subjects;
	if (open_store_existing(vigil_db_path(), &store) ||
	    verb_nodes(store, vigil_db_path(), &vo, false, &r.nodes))
		goto out;
	if (boot) {
		int64_t since, until;

		rc = boot_window(store, vigil_db_path(), boot,
				 !strcmp(format, "json"), &since, &until);
		if (rc == BOOT_LISTED)
			ret = EXIT_OK;
		if (rc)
			goto out;
		r.since_ms = since;
		r.until_ms = until;
	}
	if (verb_subjects_known(store, vigil_db_path(), vo.subjects,
				vo.nsubjects) ||
	    verb_checkpoint_begin(store, vigil_db_path(), vo.checkpoint,
				  r.until_ms, &cp))
		goto out;
	r.store = store;
	r.span = !verb_checkpoint_whole(cp);
	if (isatty(2))
		fprintf(stderr, "%s: report: reading %s...\r", progname,
			vigil_db_path());
	rc = report_load(&r);
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
		rc = 0;
		if (!strcmp(format, "text"))
			report_out_text(&r, f);
		else
			rc = report_out_json(&r, f);
		if (rc) {
			p_err("%s", strerror(-rc));
			if (dir) {
				fclose(f);
				free(text);
			}
			goto out;
		}
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
		snprintf(gp, sizeof(gp), "%s/timeline.gp", report_scripts_dir());
		if (access(gp, R_OK)) {
			p_err("%s: %s: the gnuplot scripts are missing (set "
			      "VIGIL_REPORTS_DIR, or reinstall vigil)", gp,
			      strerror(errno));
			goto out;
		}
		if (mkdir(dir, 0755) && (errno != EEXIST || !dir_empty(dir))) {
			if (errno == EEXIST)
				p_err("-o %s: exists and is not empty: a report "
				      "never replaces files (remove it or name "
				      "another folder)", dir);
			else
				p_err("-o %s: %s", dir, strerror(errno));
			goto out;
		}
		if (isatty(2))
			fprintf(stderr, "%s: report: drawing charts...     \r",
				progname);
		rc = report_charts(&r, dir);
		if (!rc)
			rc = report_out_html(&r, dir);
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
	if (!ret && verb_checkpoint_commit(cp))
		ret = EXIT_USAGE;
out:
	verb_checkpoint_free(cp);
	report_free(&r);
	vigil_store_close(store);
	verb_opts_free(&vo);
	return ret;
}
