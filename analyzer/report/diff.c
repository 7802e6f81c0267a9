// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: "vigil diff", observations against a policy: what they
 * need that the policy lacks, what the policy allows that was never used.
 * The shared parser validates the policy and decides what it allows; the
 * rules themselves are listed by re-reading its text (the parser keeps no
 * line numbers), each rule's glob compiled with match.h. After them,
 * AppArmor's ALLOWED and DENIED records for the compared subjects'
 * profiles: what the target's own trial says this policy still lacks.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rules_block.h"
#include "escape.h"
#include "vigil.h"
#include "util.h"
#include "verb_store.h"
#include "nodes.h"
#include "intern.h"
#include "record.h"
#include "store.h"
#include "rules.h"
#include "ptext.h"
#include "policy.h"
#include "candidate.h"
#include "checkpoint.h"


static void put_access(FILE *f, enum vigil_class class, uint64_t access)
{
	char acc[1024];

	vigil_access_format(class, access, acc, sizeof(acc));
	fputs(acc, f);
}

static void put_subject(FILE *f, const char *exe, const char *chain,
			const struct vigil_policy_subject *ps)
{
	char *e = vigil_glob_escape_dup(exe, strlen(exe), false);
	char *c = chain ? vigil_glob_escape_dup(chain, strlen(chain), false) :
			  NULL;

	fprintf(f, "subject %s {%s%s%s\n", e ? e : "?",
		ps ? "" : "\t# not named by the policy",
		chain ? (ps ? "\t# run via " : ", run via ") : "",
		chain ? (c ? c : "?") : "");
	free(e);
	free(c);
}

/*
 * "; lacked for uid class user": which uid classes'
 * blocks lack it, when the candidate has blocks for some classes only.
 */
static void put_missing_classes(FILE *f, const struct rule_blocks *rb)
{
	char names[32];
	unsigned int v, lacking = 0;

	for (v = 0; v < rb->n; v++)
		if (rb->v[v].miss)
			lacking |= rb->v[v].uclasses;
	fprintf(f, "; lacked for uid class %s",
		rules_uclasses_name(lacking, names, sizeof(names)));
}

/* Compare; print the sections; return the number of differences. */
/* "; on 2 hosts: a, b" (the first five named), as terminal text. */
static void put_hosts(FILE *f, const struct vigil_ruleset *rs,
		      const struct vigil_rule *r)
{
	unsigned int shown = 0;
	size_t h;

	fprintf(f, "; on %u host%s", r->nhosts, r->nhosts == 1 ? "" : "s");
	for (h = 0; h < rs->nodes->n; h++) {
		if (!(r->hosts[h / 64] >> (h % 64) & 1))
			continue;
		if (shown == 5) {
			fputs(", ...", f);
			break;
		}
		fputs(shown++ ? ", " : ": ", f);
		esc_text(f, rs->nodes->names[h]);
	}
}

/* A JSON string member of an access: ,"KEY":"ACCESS". */
static void json_access(FILE *f, const char *key, enum vigil_class class,
			uint64_t access)
{
	fprintf(f, ",\"%s\":\"", key);
	put_access(f, class, access);	/* letters and words only */
	fputc('"', f);
}

/* One missing rule as a JSON object (diff --format json). */
static int json_missing(FILE *f, const struct vigil_ruleset *rs,
			const struct vigil_subject_rules *sr,
			const struct vigil_policy_subject *ps,
			const struct vigil_rule *r, uint64_t miss, bool first)
{
	char t1[32], t2[32];
	unsigned int shown = 0;
	int rc;

	fputs(first ? "{" : ",{", f);
	rc = esc_json_member(f, "exe", sr->exe);
	fputc(',', f);
	rc = rc ? rc : esc_json_member(f, "via", sr->chain);
	fprintf(f, ",\"in_policy\":%s,\"class\":\"%s\"", ps ? "true" : "false",
		vigil_class_name(r->class));
	json_access(f, "access", r->class, miss);
	fputc(',', f);
	rc = rc ? rc : esc_json_member(f, "object", r->glob);
	fprintf(f, ",\"count\":%llu,\"first\":\"%s\",\"last\":\"%s\","
		"\"uids\":[", (unsigned long long)r->count,
		vigil_time_iso(r->first, t1, sizeof(t1)),
		vigil_time_iso(r->last, t2, sizeof(t2)));
	for (unsigned int u = 0; u < r->uids.n; u++)
		fprintf(f, "%s%u", u ? "," : "", (unsigned int)r->uids.v[u]);
	fprintf(f, "],\"uids_more\":%s,\"hosts\":[",
		r->uids.more ? "true" : "false");
	if (rs->nodes && rs->nhosts > 1 && r->hosts) {
		for (size_t h = 0; !rc && h < rs->nodes->n; h++) {
			if (!(r->hosts[h / 64] >> (h % 64) & 1))
				continue;
			json_t *j = json_string(rs->nodes->names[h]);

			/* a host name not UTF-8 is left out of JSON */
			if (!j)
				continue;
			fputs(shown++ ? "," : "", f);
			rc = json_dumpf(j, f, JSON_ENCODE_ANY |
					JSON_ENSURE_ASCII) ? -ENOMEM : 0;
			json_decref(j);
		}
	}
	fputs("],\"flag\":", f);
	if (vigil_rule_flagged(r))
		fprintf(f, "\"%s\"", vigil_uid_class(r->uids.v[0]));
	else
		fputs("null", f);
	fputc('}', f);
	return rc;
}

/* One rule never used as a JSON object. */
static int json_unused(FILE *f, const struct ptext *pt,
		       const struct prule *pr, const char *file, bool first)
{
	int rc;

	fputs(first ? "{" : ",{", f);
	rc = esc_json_member(f, "file", file);
	fprintf(f, ",\"line\":%u,", pr->line);
	rc = rc ? rc : esc_json_member(f, "rule", pr->text);
	fputc(',', f);
	rc = rc ? rc : esc_json_member(f, "subject",
				       pt->blocks[pr->block].src);
	json_access(f, "unused_access", pr->class, pr->access & ~pr->used);
	fprintf(f, ",\"partly_used\":%s}", pr->used ? "true" : "false");
	return rc;
}

/*
 * Compare; print the sections (json: the "missing" and "unused" members
 * of diff --format json); the numbers of differences in *ret_miss and
 * *ret_unused; unused false: no rule judged unused (--checkpoint: the
 * records since a cut-off cannot tell). 0, -EINVAL (the two readings
 * disagree) or -ENOMEM.
 */
static int compare(const struct vigil_ruleset *rs,
		   const struct vigil_policy *pol, struct ptext *pt,
		   const char *file, bool filtered, bool unused, bool json,
		   FILE *f, size_t *ret_miss, size_t *ret_unused)
{
	size_t nmiss = 0, nunused = 0, i, j, k;
	int rc = 0, scoped = rules_policy_scoped(pol);
	char t1[32], t2[32];

	if (json)
		fputs("\"missing\":[", f);

	for (i = 0; i < rs->nsubjects; i++) {
		const struct vigil_subject_rules *sr = &rs->subjects[i];
		const struct vigil_policy_subject *ps;
		struct subject_blocks sb;
		bool opened = false;

		/* the blocks of the task's uid classes and via= */
		if (rules_subject_blocks(pol, pt, sr, &sb))
			return -EINVAL;
		for (j = 0; j < sr->nrules; j++) {
			const struct vigil_rule *r = &sr->rules[j];
			const char *obj = r->examples[0];
			struct rule_blocks rb;
			uint64_t miss;
			unsigned int v;

			rules_blocks_of(&sb, r, &rb);
			ps = NULL;
			for (v = 0; v < rb.n; v++) {
				long b = rb.v[v].b;

				if (rb.v[v].miss && !ps)
					ps = rb.v[v].ps;
				if (b < 0)
					continue;
				pt->blocks[b].relevant = true;
				for (k = 0; k < pt->blocks[b].nrules; k++) {
					struct prule *pr = &pt->rules[
						pt->blocks[b].first_rule + k];

					if (pr->class != r->class ||
					    !ptext_exercised(r->class,
							     pr->access,
							     r->access) ||
					    !vigil_glob_match(pr->glob, obj,
							      strlen(obj)))
						continue;
					pr->used |= ptext_exercised(r->class,
								    pr->access,
								    r->access);
				}
			}
			miss = rb.miss;
			if (!miss)
				continue;
			if (json) {
				rc = json_missing(f, rs, sr, ps, r, miss,
						  !nmiss);
				if (rc)
					return rc;
				nmiss++;
				continue;
			}
			if (!nmiss)
				fprintf(f, "needed but missing:\n");
			if (!opened) {
				put_subject(f, sr->exe, sr->chain, ps);
				opened = true;
			}
			fprintf(f, "\t%s ", vigil_class_name(r->class));
			put_access(f, r->class, miss);
			fprintf(f, " %s\t# count %llu, first %s, last %s",
				r->glob, (unsigned long long)r->count,
				vigil_time_iso(r->first, t1, sizeof(t1)),
				vigil_time_iso(r->last, t2, sizeof(t2)));
			for (unsigned int u = 0; u < r->uids.n; u++)
				fprintf(f, "%s%u", u ? ", " : r->uids.n > 1 ?
					"; uids " : "; uid ",
					(unsigned int)r->uids.v[u]);
			fputs(r->uids.more ? ", ..." : "", f);
			if (rs->nodes && rs->nhosts > 1 && r->hosts)
				put_hosts(f, rs, r);
			if (vigil_rule_flagged(r))
				fprintf(f, "; FLAG: class %s, never a uid "
					"this subject ran as",
					vigil_uid_class(r->uids.v[0]));
			if (scoped)
				put_missing_classes(f, &rb);
			fputc('\n', f);
			nmiss++;
		}
		if (opened)
			fprintf(f, "}\n");
	}
	if (json)
		fputs("],\"unused\":[", f);
	for (k = 0; unused && k < pt->nrules; k++) {
		const struct prule *pr = &pt->rules[k];

		if (filtered && !pt->blocks[pr->block].relevant)
			continue;
		if (pr->used == pr->access)
			continue;
		if (json) {
			rc = json_unused(f, pt, pr, file, !nunused);
			if (rc)
				return rc;
			nunused++;
			continue;
		}
		if (!nunused)
			fprintf(f, "allowed but never used:\n");
		/* the candidate's text as written, as terminal text */
		esc_text(f, file);
		fprintf(f, ":%u: ", pr->line);
		esc_text(f, pr->text);
		fputs("\t# subject ", f);
		esc_text(f, pt->blocks[pr->block].src);
		if (pr->used) {
			fprintf(f, ", unused: ");
			put_access(f, pr->class, pr->access & ~pr->used);
		}
		fputc('\n', f);
		nunused++;
	}
	if (json)
		fputs("]", f);
	*ret_miss = nmiss;
	*ret_unused = nunused;
	return 0;
}

/* AppArmor's records (whole database) of the compared subjects. */
struct aa_diff {
	const struct vigil_ruleset *rs;
	struct aa_tally t;
};

/* The record's profile is a compared subject's (or a child's). */
static bool aa_ours(void *ctx, const char *prof)
{
	const struct aa_diff *a = ctx;
	size_t i;

	for (i = 0; i < a->rs->nsubjects; i++)
		if (aa_profile_of(prof, a->rs->subjects[i].exe))
			return true;
	return false;
}

static int aa_diff_one(void *ctx, const char *text)
{
	struct aa_diff *a = ctx;

	return aa_tally_add(&a->t, text, aa_ours, a);
}

static void aa_diff_lines(FILE *f, struct aa_tally *t, bool opt);

/* Print the AppArmor section (nothing when there is no record), in the
 * order first seen; the optional checks apart, after it. 0 or -errno
 * (-EIO: the store's message). */
static int aa_diff_print(struct vigil_store *store, struct aa_diff *a,
			 bool json, FILE *f)
{
	static const char *const field[] = { "verdict", "profile",
					     "operation", "object", "mask" };
	size_t i;
	int rc;

	rc = vigil_store_apparmor_window(store, INT64_MIN, INT64_MAX,
					 aa_diff_one, a);
	if (rc)
		return rc;
	if (json) {
		/* "apparmor":{"allowed":N,"denied":N,"optional":N,
		 * "records":[...],"optional_checks":[...]} */
		fprintf(f, ",\"apparmor\":{\"allowed\":%lld,\"denied\":%lld,"
			"\"optional\":%lld,\"records\":[", a->t.allowed,
			a->t.denied, a->t.optional);
		for (int opt = 0; opt < 2 && !rc; opt++) {
			bool first = true;

			if (opt)
				fputs("],\"optional_checks\":[", f);
			for (i = 0; !rc && i < a->t.keys.n; i++) {
				const char *p = a->t.keys.names[i];

				if (aa_tally_optional(&a->t, i) != opt)
					continue;
				fputs(first ? "{" : ",{", f);
				first = false;
				/* an optional check: no verdict, no mask */
				for (int k = 0; !rc && k < 5; k++) {
					size_t n = p ? strcspn(p, "\t") : 0;
					char *v = strndup(p ? p : "", n);

					if (!v)
						return -ENOMEM;
					bool put = !opt || (k && k < 4);

					if (put && k > opt)
						fputc(',', f);
					if (put)
						rc = esc_json_member(f, field[k],
								     v);
					free(v);
					p = p && p[n] ? p + n + 1 : NULL;
				}
				fprintf(f, ",\"count\":%lld}", a->t.count[i]);
			}
		}
		fputs("]}", f);
		return rc;
	}
	if (a->t.allowed || a->t.denied)
		fprintf(f, "AppArmor (whole database): %lld ALLOWED (complain "
			"mode: what it would have denied), %lld DENIED:\n",
			a->t.allowed, a->t.denied);
	aa_diff_lines(f, &a->t, false);
	if (a->t.optional)
		fprintf(f, "%s:\n", aa_optional_heading);
	aa_diff_lines(f, &a->t, true);
	return 0;
}

/* The text lines of the keys that are (opt) optional checks or not. */
static void aa_diff_lines(FILE *f, struct aa_tally *t, bool opt)
{
	size_t i;

	for (i = 0; i < t->keys.n; i++) {
		const char *v[5];
		char *p = t->keys.names[i];
		int k;

		if (aa_tally_optional(t, i) != opt)
			continue;

		/* the key's fields, cut in place (it is not looked up again) */
		for (k = 0; k < 5; k++) {
			v[k] = p ? p : "";
			p = p ? strchr(p, '\t') : NULL;
			if (p)
				*p++ = '\0';
		}
		/* names from the records, as terminal text; an optional
		 * check without its verdict word, as trial --report */
		for (k = opt; k < 4; k++) {
			fputs(k == opt ? "\t" : k == 2 ? ": " : " ", f);
			esc_text(f, v[k]);
		}
		if (*v[4]) {
			fputs(" (", f);
			esc_text(f, v[4]);
			fputc(')', f);
		}
		fprintf(f, "\t# count %lld\n", t->count[i]);
	}
}

int do_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "subject", required_argument, NULL, 's' },
		{ "uid", required_argument, NULL, 'u' },
		{ "node", required_argument, NULL, VERB_OPT_NODE },
		{ "all-nodes", no_argument, NULL, VERB_OPT_ALL_NODES },
		{ "format", required_argument, NULL, 'f' },
		{ "checkpoint", required_argument, NULL, VERB_OPT_CHECKPOINT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char usage[] =
		"diff [--db PATH] [--subject EXE]... [--uid UID[,UID...]]\n"
		"     [--node HOST]... [--all-nodes] [--format text|json]\n"
		"     [--checkpoint FILE] POLICY|-\n"
		"  Compare the observations with POLICY: what they need that\n"
		"  it lacks, what it allows that was never used (exit 1 when\n"
		"  they differ, 0 when they agree). Then AppArmor's ALLOWED\n"
		"  (complain mode) and DENIED records for the compared\n"
		"  subjects' profiles (EXE or EXE//CHILD), whole database:\n"
		"  any of them also means exit 1, the target would deny what\n"
		"  the trial did. --uid: only observations under these uids\n"
		"  (numbers or user names; AppArmor's records are not\n"
		"  filtered by uid).\n"
		"  --node HOST (repeatable, globs) or --all-nodes: which hosts'\n"
		"  records (node=) to read; one of them is needed when the\n"
		"  database holds several (docs/fleet.md). Over\n"
		"  several hosts, each missing access names the hosts that\n"
		"  did it. --format json: one object (docs/analyzer.md).\n"
		"  --checkpoint FILE: only the records newer than the cut-off\n"
		"  FILE holds, per host (missing: all), as ausearch\n"
		"  --checkpoint; FILE then holds the newest record read.\n"
		"  Then only what the new records need is judged (and the\n"
		"  AppArmor records among them): a rule they did not use is\n"
		"  not called unused.";
	const char *format = "text";
	bool json;
	struct vigil_ruleset rs = { 0 };
	struct vigil_policy *pol = NULL;
	struct vigil_store *store = NULL;
	struct ptext pt = { 0 };
	struct aa_diff aa = { .rs = &rs };
	const char *file, *db;
	char *text = NULL, err[512] = "";
	size_t len, nmiss = 0, nunused = 0;
	unsigned int line = 0;
	/* by_via: a block "via" an ancestor applies to the observations
	 * of the tasks run under it only */
	struct vigil_rules_opts ro = { .strict = true, .by_via = true };
	struct verb_opts vo;
	struct vigil_nodes nodes = { 0 };
	struct verb_checkpoint *cp = NULL;
	int c, rc, ret = EXIT_USAGE;

	if (verb_opts_init(&vo, usage, argc))
		return EXIT_USAGE;
	optind = 1;
	while ((c = verb_getopt(argc, argv, "+h", opts, &vo)) > 0)
		if (c == 'f')
			format = optarg;
	if (c < 0) {
		ret = c == VERB_GETOPT_HELP ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (optind + 1 != argc) {
		verb_usage_error(&vo);
		goto out;
	}
	if (strcmp(format, "text") && strcmp(format, "json")) {
		p_err("--format %s: unknown format (text or json)", format);
		goto out;
	}
	json = !strcmp(format, "json");
	file = argv[optind];
	if (candidate_read(file, &text, &len, &pol))
		goto out;
	rc = ptext_read(text, len, &pt, &line);
	if (rc) {
		p_err("%s:%u: %s", file, line,
		      rc == -ENOMEM ? "out of memory" :
				      "cannot list this rule (a bug)");
		goto out;
	}
	db = vigil_db_path();
	if (open_store_existing(db, &store) ||
	    verb_nodes(store, db, &vo, false, &nodes) ||
	    verb_subjects_known(store, db, vo.subjects, vo.nsubjects) ||
	    verb_checkpoint_begin(store, db, vo.checkpoint, INT64_MAX, &cp))
		goto out;
	ro.uids = vo.uids;
	ro.nuids = vo.nuids;
	if (nodes.nselected > 1)
		ro.nodes = &nodes;
	rc = vigil_rules_load_opts(store, vo.subjects, vo.nsubjects, &ro, &rs,
				   err, sizeof(err));
	if (rc) {
		if (err[0])
			p_err("%s", err);
		else
			p_err("%s: %s", db, rc == -EIO ?
			      vigil_store_errmsg(store) : strerror(-rc));
		if (rc == -ENODATA) {	/* no matches, as ausearch */
			ret = EXIT_FINDING;
			/* nothing new: the cut-off stays as it was */
			if (verb_checkpoint_commit(cp))
				ret = EXIT_USAGE;
		}
		goto out;
	}
	if (json) {
		fputs("{\"version\":1,", stdout);
		if (esc_json_member(stdout, "candidate", file)) {
			p_err("out of memory");
			goto out;
		}
		fputc(',', stdout);
	}
	rc = compare(&rs, pol, &pt, file, vo.nsubjects > 0,
		     verb_checkpoint_whole(cp), json, stdout, &nmiss, &nunused);
	if (rc) {
		p_err("%s: %s", file, rc == -ENOMEM ? "out of memory" :
		      "the parser and the rule listing disagree (a bug)");
		goto out;
	}
	rc = aa_diff_print(store, &aa, json, stdout);
	if (rc) {
		p_err("%s: %s", db,
		      rc == -EIO ? vigil_store_errmsg(store) : strerror(-rc));
		goto out;
	}
	if (json)
		printf(",\"missing_count\":%zu,\"unused_count\":%zu}\n", nmiss,
		       nunused);
	else if (!verb_checkpoint_whole(cp))
		printf("%zu needed but missing since the checkpoint", nmiss);
	else
		printf("%zu needed but missing, %zu allowed but never used",
		       nmiss, nunused);
	if (!json && (aa.t.allowed || aa.t.denied))
		printf(", %lld AppArmor records", aa.t.allowed + aa.t.denied);
	if (!json && aa.t.optional)	/* as trial --report, no difference */
		printf("; %lld optional check%s apart", aa.t.optional,
		       aa.t.optional == 1 ? "" : "s");
	if (!json)
		putchar('\n');
	if (fflush(stdout)) {
		p_err("stdout: %s", strerror(errno));
		goto out;
	}
	ret = nmiss || nunused || aa.t.allowed || aa.t.denied ? EXIT_FINDING :
							       EXIT_OK;
	if (verb_checkpoint_commit(cp))
		ret = EXIT_USAGE;
out:
	verb_checkpoint_free(cp);
	aa_tally_free(&aa.t);
	ptext_free(&pt);
	vigil_policy_free(pol);
	vigil_ruleset_free(&rs);
	vigil_store_close(store);
	vigil_nodes_free(&nodes);
	free(text);
	verb_opts_free(&vo);
	return ret;
}
