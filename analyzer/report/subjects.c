// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: "vigil subjects": every subject observed, with its
 * counts (report's scan), its runs and uids (one query), and whether
 * learning has converged; a program seen in one run only is "seen once":
 * too little to say.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "report.h"
#include "store.h"
#include "util.h"
#include "verb_store.h"
#include "nodes.h"
#include "vigil.h"
#include "checkpoint.h"

struct runs {
	const struct report *r;
	long long *runs;	/* by id in r->exes */
	char **uids;
};

static int runs_one(void *ctx, const struct vigil_store_subject_runs *sr)
{
	struct runs *x = ctx;
	long long id = strtab_find(&x->r->exes, sr->exe, strlen(sr->exe));

	if (id < 0)	/* not a named subject */
		return 0;
	x->runs[id] = sr->runs;
	x->uids[id] = strdup(sr->uids);
	return x->uids[id] ? 0 : -ENOMEM;
}

static const char *learning(const struct report *r, const struct runs *x,
			    const struct subj_row *s)
{
	if (x->runs[s->id] <= 1)
		return "seen once";
	return report_converged(s, r->last_ms) ? "converged" :
						"still learning";
}

static void put_text(const struct report *r, const struct runs *x, FILE *f)
{
	char a[32], b[32];
	size_t i;

	fprintf(f, "%-14s %7s %7s %7s %5s %-20s %-20s %-11s %s\n", "learning",
		"records", "learned", "denied", "runs", "first", "last",
		"uids", "subject");
	for (i = 0; i < r->nsubj; i++) {
		const struct subj_row *s = &r->subj[i];

		fprintf(f, "%-14s %7lld %7lld %7lld %5lld %-20s %-20s %-11s ",
			learning(r, x, s), s->records, s->learned, s->denied,
			x->runs[s->id], report_iso(s->first_ms, a, sizeof(a)),
			report_iso(s->last_ms, b, sizeof(b)),
			x->uids[s->id] ? x->uids[s->id] : "");
		esc_text(f, s->exe);
		fputc('\n', f);
	}
}

static int put_json(const struct report *r, const struct runs *x, FILE *f)
{
	size_t i;
	int rc = 0;

	fputs("{\"version\":1,\"subjects\":[", f);
	for (i = 0; !rc && i < r->nsubj; i++) {
		const struct subj_row *s = &r->subj[i];
		const char *u = x->uids[s->id] ? x->uids[s->id] : "";
		size_t ul = strcspn(u, ".");

		fputs(i ? ",{" : "{", f);
		rc = esc_json_member(f, "exe", s->exe);
		/* the uids: numbers, ",..." when there were more than 64 */
		fprintf(f, ",\"records\":%lld,\"learned\":%lld,"
			"\"would_deny\":%lld,\"runs\":%lld,\"uids\":[%.*s],"
			"\"uids_complete\":%s,\"first_ms\":%lld,\"last_ms\":%lld,"
			"\"last_new_ms\":%lld,\"learning\":\"%s\"}",
			s->records, s->learned, s->denied, x->runs[s->id],
			(int)(ul && u[ul] ? ul - 1 : ul), u,
			u[ul] ? "false" : "true", s->first_ms, s->last_ms,
			s->last_new_ms, learning(r, x, s));
	}
	fputs("]}\n", f);
	return rc;
}

int do_subjects(int argc, char **argv)
{
	static const char usage[] = "subjects [--db PATH] [--subject EXE]... "
		"[--format text|json]\n"
		"         [--node HOST]... [--all-nodes] [--checkpoint FILE]\n"
		"  Every subject observed: its records, distinct accesses\n"
		"  learned and would-be denials, runs (processes), uids,\n"
		"  first and last record, and learning: converged (nothing\n"
		"  new for half its span), still learning, or seen once (one\n"
		"  run: too little to say). Busiest first. Exit 1 when no\n"
		"  subject matches.\n"
		"  --node HOST (repeatable, globs) or --all-nodes: which hosts'\n"
		"  records (node=) to read; one of them is needed when the\n"
		"  database holds several (docs/fleet.md).\n"
		"  --checkpoint FILE: only the records newer than the cut-off\n"
		"  FILE holds, per host (missing: all), as ausearch\n"
		"  --checkpoint; FILE then holds the newest record read. The\n"
		"  counts are then those of the new records.";
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "subject", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "node", required_argument, NULL, VERB_OPT_NODE },
		{ "all-nodes", no_argument, NULL, VERB_OPT_ALL_NODES },
		{ "checkpoint", required_argument, NULL, VERB_OPT_CHECKPOINT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report r = { .since_ms = LLONG_MIN, .until_ms = LLONG_MAX };
	struct vigil_store *store = NULL;
	struct verb_checkpoint *cp = NULL;
	struct runs x = { .r = &r };
	const char *format = "text";
	struct verb_opts vo;
	int c, rc, ret = EXIT_USAGE;
	size_t i;

	if (verb_opts_init(&vo, usage, argc))
		return EXIT_USAGE;
	optind = 1;
	while ((c = verb_getopt(argc, argv, "h", opts, &vo)) > 0)
		if (c == 'f')
			format = optarg;
	if (c < 0) {
		ret = c == VERB_GETOPT_HELP ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (optind != argc) {
		verb_usage_error(&vo);
		goto out;
	}
	if (strcmp(format, "text") && strcmp(format, "json")) {
		p_err("--format %s: unknown format (text or json)", format);
		goto out;
	}
	if (open_store_existing(vigil_db_path(), &store) ||
	    verb_nodes(store, vigil_db_path(), &vo, false, NULL) ||
	    verb_subjects_known(store, vigil_db_path(), vo.subjects,
				vo.nsubjects) ||
	    verb_checkpoint_begin(store, vigil_db_path(), vo.checkpoint,
				  INT64_MAX, &cp))
		goto out;
	r.store = store;
	r.span = !verb_checkpoint_whole(cp);
	r.subjects = vo.subjects;
	r.nsubjects = vo.nsubjects;
	if (report_load(&r))
		goto out;
	x.runs = calloc(r.exes.n + 1, sizeof(*x.runs));
	x.uids = calloc(r.exes.n + 1, sizeof(*x.uids));
	if (!x.runs || !x.uids) {
		p_err("out of memory");
		goto out;
	}
	rc = vigil_store_subject_runs(store, runs_one, &x);
	if (rc) {
		p_err("%s", rc == -EIO ? vigil_store_errmsg(store) :
		      strerror(-rc));
		goto out;
	}
	if (!strcmp(format, "json")) {
		if (put_json(&r, &x, stdout)) {
			p_err("out of memory");
			goto out;
		}
	} else if (r.nsubj) {
		put_text(&r, &x, stdout);
	}
	ret = fflush(stdout) ? EXIT_USAGE : EXIT_OK;
	if (!ret && !r.nsubj) {
		p_err(!verb_checkpoint_whole(cp) ?
		      "no matches: no record since the checkpoint" :
		      "no matches: no subject observed");
		ret = EXIT_FINDING;
	}
	if (ret != EXIT_USAGE && verb_checkpoint_commit(cp))
		ret = EXIT_USAGE;
out:
	verb_checkpoint_free(cp);
	if (x.uids)
		for (i = 0; i < r.exes.n; i++)
			free(x.uids[i]);
	free(x.uids);
	free(x.runs);
	report_free(&r);
	vigil_store_close(store);
	verb_opts_free(&vo);
	return ret;
}
