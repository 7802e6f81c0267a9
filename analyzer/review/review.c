// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: "vigil review CANDIDATE", what aa-logprof is to
 * AppArmor users: the accesses observed (learned, and the would-be
 * denials of vigil's trials) that the candidate does not allow, asked
 * about in groups (one question per proposed glob or folder), the
 * riskiest first; each answer allows them as seen, allows the glob, or
 * leaves them out (remembered in the candidate as a comment, so no later
 * review asks again). The candidate is rewritten atomically with every
 * hand edit kept: the additions go before each block's closing "}", new
 * blocks at the end. --bound FILE: the most a program may get; what lies
 * beyond it is a finding, never a question. docs/review.md.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blast.h"
#include "candidate.h"
#include "escape.h"
#include "policy.h"
#include "ptext.h"
#include "record.h"
#include "review_int.h"
#include "rules.h"
#include "store.h"
#include "util.h"
#include "verb_store.h"
#include "vigil.h"

/* ---- the verb ---- */

static void review_free(struct review *rv)
{
	for (size_t i = 0; i < rv->nq; i++) {
		free(rv->q[i].items);
		free(rv->q[i].folder);
		free(rv->q[i].glob);
		free(rv->q[i].glob_note);
	}
	free(rv->q);
	free(rv->items);
	free(rv->findings);
	blast_free(rv->blast);
	vigil_ruleset_free(&rv->strict);
	vigil_ruleset_free(&rv->gen);
	review_left_out_free(rv);
	ptext_free(&rv->pt);
	vigil_policy_free(rv->pol);
	vigil_policy_free(rv->bound);
	strtab_free(&rv->aa);
	free(rv->text);
}

/* One of AppArmor's records read as a would-be denial: keep its key. */
static int aa_row(void *ctx, const char *exe, const char *op,
		  const char *object)
{
	struct review *rv = ctx;
	int o = vigil_op_from_name(op, strlen(op));
	uint32_t id;
	size_t len;
	char *k;
	int rc;

	if (o < 0)
		return 0;
	k = review_aa_key(exe, vigil_op_class((enum vigil_op)o), object,
			  &len);
	if (!k)
		return -ENOMEM;
	rc = strtab_intern(&rv->aa, k, len, &id);
	free(k);
	return rc < 0 ? rc : 0;
}

int do_review(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "subject", required_argument, NULL, 's' },
		{ "uid", required_argument, NULL, 'u' },
		{ "answers", required_argument, NULL, 'a' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "bound", required_argument, NULL, 'b' },
		{ "sensitive", required_argument, NULL, 'E' },
		{ "root", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char usage[] =
		"review [--db PATH] [--subject EXE]... [--uid UID[,UID...]]\n"
		"       [--answers FILE|-] [-n|--dry-run] [--bound FILE]\n"
		"       [--sensitive FILE] [--root DIR] CANDIDATE\n"
		"  Ask about what CANDIDATE lacks (accesses observed since,\n"
		"  would-be denials of its trial), one question per proposed\n"
		"  glob or folder, the riskiest first: allow as seen, allow\n"
		"  the glob (with its blast radius), leave out (remembered in\n"
		"  CANDIDATE), evidence, skip. Then CANDIDATE is rewritten\n"
		"  atomically, every hand edit kept. --answers: one answer a\n"
		"  line (a g l e s f q; empty: the default) instead of the\n"
		"  terminal. --dry-run: print the questions, write nothing.\n"
		"  --bound FILE: a candidate of the most a program may get:\n"
		"  nothing beyond it is asked, it is listed as a finding.\n"
		"  Exit 1 when something stays unanswered or beyond the\n"
		"  bound. See docs/review.md.";
	struct review rv = { 0 };
	struct vigil_store *store = NULL;
	struct verb_opts vo;
	struct edits ed = { 0 };
	struct answers ans = { 0 };
	struct vigil_rules_opts so = { .strict = true, .by_via = true };
	struct vigil_rules_opts go = { .check = true };
	struct vigil_store_aa_wd aa = { 0 };
	const char *db, *answers = NULL, *bound = NULL;
	char err[512] = "", *btext = NULL, *out = NULL;
	size_t blen, outlen = 0, na = 0, ng = 0, nl = 0, nrules = 0, i;
	unsigned int line = 0;
	bool dry = false, quit = false;
	int c, rc, rc2, ret = EXIT_USAGE;

	if (verb_opts_init(&vo, usage, argc))
		return EXIT_USAGE;
	optind = 1;
	while ((c = verb_getopt(argc, argv, "+nh", opts, &vo)) > 0) {
		switch (c) {
		case 'a':
			answers = optarg;
			break;
		case 'n':
			dry = true;
			break;
		case 'b':
			bound = optarg;
			break;
		case 'E':
			go.sensitive_file = optarg;
			break;
		case 'R':
			go.root = optarg;
			break;
		}
	}
	if (c < 0) {
		ret = c == VERB_GETOPT_HELP ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (optind + 1 != argc) {
		verb_usage_error(&vo);
		goto out;
	}
	rv.file = argv[optind];
	if (!strcmp(rv.file, "-")) {
		p_err("CANDIDATE: a file (review rewrites it), not -");
		goto out;
	}
	if (!dry && !answers && !isatty(STDIN_FILENO)) {
		p_err("standard input is not a terminal: give --answers "
		      "FILE|- or --dry-run");
		goto out;
	}
	if (candidate_read(rv.file, &rv.text, &rv.len, &rv.pol))
		goto out;
	rc = ptext_read(rv.text, rv.len, &rv.pt, &line);
	if (rc) {
		p_err("%s:%u: %s", shown(rv.file), line,
		      rc == -ENOMEM ? "out of memory" :
				      "cannot list this rule (a bug)");
		goto out;
	}
	if (review_left_out_read(&rv))
		goto out;
	if (bound && candidate_read(bound, &btext, &blen, &rv.bound))
		goto out;
	if (!go.sensitive_file && !access(VIGIL_SENSITIVE_CONF, F_OK))
		go.sensitive_file = VIGIL_SENSITIVE_CONF;
	rc = blast_new(go.root, go.sensitive_file, false, &rv.blast, err,
		       sizeof(err));
	if (rc) {
		p_err("%s", err[0] ? err : strerror(-rc));
		goto out;
	}
	db = vigil_db_path();
	if (open_store_existing(db, &store) ||
	    verb_subjects_known(store, db, vo.subjects, vo.nsubjects))
		goto out;
	so.uids = go.uids = vo.uids;
	so.nuids = go.nuids = vo.nuids;
	/* an AppArmor complain trial's ALLOWED records are would-be
	 * denials too, read as generate --update reads them */
	rc = vigil_store_apparmor_wd_begin(store, 0, &aa);
	if (!rc)
		rc = vigil_rules_load_opts(store, vo.subjects, vo.nsubjects,
					   &so, &rv.strict, err, sizeof(err));
	if (!rc)
		rc = vigil_rules_load_opts(store, vo.subjects, vo.nsubjects,
					   &go, &rv.gen, err, sizeof(err));
	if (!rc)
		rc = vigil_store_apparmor_wd_rows(store, aa_row, &rv);
	rc2 = vigil_store_apparmor_wd_end(store);
	if (!rc)
		rc = rc2;
	if (rc) {
		if (err[0])
			p_err("%s", err);
		else
			p_err("%s: %s", shown(db), rc == -EIO ?
			      vigil_store_errmsg(store) : strerror(-rc));
		if (rc == -ENODATA)	/* no matches, as ausearch */
			ret = EXIT_FINDING;
		goto out;
	}
	if (review_plan(&rv))
		goto nomem;

	printf("%s: %zu question%s about %zu access%s it lacks", shown(rv.file),
	       rv.nq, rv.nq == 1 ? "" : "s", rv.nitems,
	       rv.nitems == 1 ? "" : "es");
	if (rv.left_earlier)
		printf(", %zu left out earlier", rv.left_earlier);
	if (rv.bound)
		printf(", %zu beyond the bound", rv.nfindings);
	if (aa.merged || aa.optional || aa.skipped)
		printf("; AppArmor's trial: %zu ALLOWED record%s read as "
		       "would-be denials, %zu optional check%s and %zu other "
		       "record%s not asked about", aa.merged,
		       aa.merged == 1 ? "" : "s", aa.optional,
		       aa.optional == 1 ? "" : "s", aa.skipped,
		       aa.skipped == 1 ? "" : "s");
	putchar('\n');
	if (dry || !rv.nq) {
		for (i = 0; i < rv.nq; i++)
			review_put_question(stdout, &rv, &rv.q[i], i, rv.nq);
		review_put_findings(stdout, &rv);
		if (fflush(stdout)) {
			p_err("stdout: %s", strerror(errno));
			goto out;
		}
		ret = rv.nq || rv.nfindings ? EXIT_FINDING : EXIT_OK;
		goto out;
	}

	if (answers && strcmp(answers, "-")) {
		ans.in = fopen(answers, "re");
		if (!ans.in) {
			p_err("--answers %s: %s", shown(answers),
			      strerror(errno));
			goto out;
		}
		ans.name = answers;
	} else {
		ans.in = stdin;
		ans.name = answers ? "(stdin)" : NULL;
	}
	for (i = 0; i < rv.nq && !quit; i++) {
		struct question *q = &rv.q[i];

		review_put_question(stdout, &rv, q, i, rv.nq);
		for (;;) {
			review_put_prompt(stdout, q);
			if (!ans.name)
				fflush(stdout);
			c = review_next_answer(&ans, q);
			if (c < 0)
				goto out;
			if (!c) {
				if (ans.name) {
					p_err("%s: the answers end before "
					      "question %zu of %zu: nothing "
					      "written", shown(ans.name), i + 1,
					      rv.nq);
					goto out;
				}
				putchar('\n');
				c = 'q';
			}
			if (c == 'e') {
				review_put_evidence(stdout, &rv, q);
				continue;
			}
			break;
		}
		if (c == 'q') {
			printf("quit: nothing written\n");
			ret = EXIT_FINDING;
			goto out;
		}
		if (c == 'f') {
			quit = true;
			break;
		}
		q->answer = (char)c;
		na += c == 'a';
		ng += c == 'g';
		nl += c == 'l';
		nrules += c == 'g' ? 1 : c == 'a' ? q->nitems : 0;
	}
	review_put_findings(stdout, &rv);
	if (na + ng + nl) {
		if (review_make_edits(&rv, &ed) ||
		    review_apply_edits(&rv, &ed, &out, &outlen))
			goto nomem;
		if (review_write_candidate(&rv, out, outlen))
			goto out;
	}
	printf("%zu allowed as seen, %zu as a glob (%zu rule%s added), %zu "
	       "left out, %zu skipped: %s%s\n", na, ng, nrules,
	       nrules == 1 ? "" : "s", nl, rv.nq - na - ng - nl,
	       na + ng + nl ? "written to " : "nothing written",
	       na + ng + nl ? shown(rv.file) : "");
	if (fflush(stdout)) {
		p_err("stdout: %s", strerror(errno));
		goto out;
	}
	ret = rv.nq - na - ng - nl || rv.nfindings ? EXIT_FINDING : EXIT_OK;
	goto out;
nomem:
	p_err("out of memory");
out:
	if (ans.in && ans.in != stdin)
		fclose(ans.in);
	free(ans.buf);
	review_edits_free(&ed, rv.pt.nblocks);
	free(out);
	free(btext);
	review_free(&rv);
	vigil_store_close(store);
	verb_opts_free(&vo);
	return ret;
}

