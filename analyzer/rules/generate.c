// SPDX-License-Identifier: GPL-2.0-only
/* vigil analyzer: "vigil generate", a candidate policy from observations. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "vigil.h"
#include "util.h"
#include "verb_store.h"
#include "nodes.h"
#include "store.h"
#include "timearg.h"
#include "rules.h"
#include "blast.h"
#include "policy_write.h"
#include "policy.h"
#include "update.h"
#include "candidate.h"

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static int make_text(const struct vigil_ruleset *rs, const char *db,
		     const struct vigil_rules_opts *ro, bool compact,
		     char **ret, size_t *ret_len)
{
	FILE *f = open_memstream(ret, ret_len);
	int rc;

	if (!f)
		return -ENOMEM;
	rc = vigil_policy_write(f, rs, db, ro->strict, compact);
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (rc) {
		free(*ret);
		*ret = NULL;
	}
	return rc;
}

/*
 * generate --update FILE: the four observation sets of update.h, the merge,
 * the result parsed and written (to out, else over FILE). An exit status.
 */
/* A time in seconds as a JSON value: "ISO" or null (unknown). */
static void json_time(FILE *f, const char *key, int64_t t)
{
	char b[32];

	fprintf(f, ",\"%s\":", key);
	if (t)
		fprintf(f, "\"%s\"", vigil_time_iso(t, b, sizeof(b)));
	else
		fputs("null", f);
}

static void json_uids(FILE *f, const char *key, const uint32_t *v, size_t n)
{
	fprintf(f, ",\"%s\":[", key);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%u", i ? "," : "", (unsigned int)v[i]);
	fputc(']', f);
}

/* ,"KEY":"VALUE" (a name: escaped), or ,"KEY":null. */
static int json_str(FILE *f, const char *key, const char *s)
{
	fputc(',', f);
	return esc_json_member(f, key, s);
}

/*
 * generate --format json: the rules with their evidence and the policy
 * text (docs/generate.md), as one object in a new string. 0 or -ENOMEM.
 */
static int rules_json(const struct vigil_ruleset *rs, const char *policy,
		      char **ret, size_t *ret_len)
{
	FILE *f = open_memstream(ret, ret_len);
	char acc[1024];
	int rc = 0;

	if (!f)
		return -ENOMEM;
	fputs("{\"version\":1", f);
	rc = json_str(f, "made_from", rs->made_from);
	json_time(f, "first", rs->first);
	json_time(f, "last", rs->last);
	fprintf(f, ",\"records\":%llu,\"tuples\":%llu,\"skipped\":%llu,"
		"\"flagged\":%llu,\"subjects\":[",
		(unsigned long long)rs->records,
		(unsigned long long)rs->tuples,
		(unsigned long long)rs->skipped,
		(unsigned long long)rs->flagged);
	for (size_t i = 0; !rc && i < rs->nsubjects; i++) {
		const struct vigil_subject_rules *sr = &rs->subjects[i];

		fputs(i ? ",{" : "{", f);
		rc = esc_json_member(f, "exe", sr->exe);
		rc = rc ? rc : json_str(f, "via", sr->via);
		fprintf(f, ",\"events\":%llu", (unsigned long long)sr->events);
		json_time(f, "first", sr->first);
		json_time(f, "last", sr->last);
		json_uids(f, "ran_as", sr->service_uids, sr->nservice_uids);
		fputs(",\"rules\":[", f);
		for (size_t j = 0; !rc && j < sr->nrules; j++) {
			const struct vigil_rule *r = &sr->rules[j];

			vigil_access_format(r->class, r->access, acc,
					    sizeof(acc));
			fprintf(f, "%s{\"class\":\"%s\",\"access\":\"%s\"",
				j ? "," : "", vigil_class_name(r->class), acc);
			rc = json_str(f, "glob", r->glob);
			fprintf(f, ",\"generalised\":%s",
				r->generalised ? "true" : "false");
			rc = rc ? rc : json_str(f, "why", r->why);
			rc = rc ? rc : json_str(f, "blast", r->blast);
			rc = rc ? rc : json_str(f, "sensitive", r->sensitive);
			fprintf(f, ",\"count\":%llu,\"distinct\":%u",
				(unsigned long long)r->count, r->distinct);
			json_time(f, "first", r->first);
			json_time(f, "last", r->last);
			json_uids(f, "uids", r->uids.v, r->uids.n);
			fprintf(f, ",\"uids_more\":%s,\"flag\":%s,"
				"\"examples\":[", r->uids.more ? "true" : "false",
				vigil_rule_flagged(r) ? "true" : "false");
			/* each {"object":NAME} (and "object_hex" when the
			 * name is not UTF-8: its exact bytes) */
			for (unsigned int k = 0; !rc && k < r->nexamples; k++) {
				fputs(k ? ",{" : "{", f);
				rc = esc_json_member(f, "object",
						     r->examples[k]);
				fputc('}', f);
			}
			fputs("]}", f);
		}
		fputs("]}", f);
	}
	fputs("]", f);
	rc = rc ? rc : json_str(f, "policy", policy);
	fputs("}\n", f);
	if (fclose(f))
		rc = -ENOMEM;
	if (rc) {
		free(*ret);
		*ret = NULL;
	}
	return rc;
}

static int generate_update(struct vigil_store *store, const char *db,
			   const char *file, const char *out,
			   const struct vigil_rules_opts *ro,
			   const struct verb_opts *vo, bool json)
{
	struct vigil_ruleset known = { 0 }, fresh = { 0 }, learned = { 0 },
			     gen = { 0 };
	struct vigil_update_in in = { &known, &fresh, &learned, &gen, 0,
				      NULL, NULL };
	struct vigil_update_json uj = { 0 };
	struct vigil_update_stats st;
	struct vigil_store_aa_wd aa = { 0 };
	bool aa_view = false;
	struct vigil_policy_error perr = { 0 };
	struct vigil_policy *pol = NULL;
	struct vigil_rules_opts o;
	int64_t from = 0, to = 0;
	long long known_from = 0, known_until, fresh_since;
	char *text = NULL, *res = NULL, err[512] = "";
	size_t len, res_len = 0;
	int rc, ret = EXIT_USAGE;

	if (candidate_read(file, &text, &len, &pol))
		goto out;
	if (!vigil_update_window(text, len, &from, &to))
		known_from = (long long)from * 1000;
	if (ro->since_ms) {
		fresh_since = ro->since_ms;
	} else if (to) {
		fresh_since = ((long long)to + 1) * 1000;
	} else {
		p_err("%s: no '# observed from A to B' header line: say since "
		      "when with --since TIME", file);
		goto out;
	}
	known_until = fresh_since - 1;
	o = *ro;
	o.strict = true;
	o.by_via = true;
	o.missing_ok = true;
	o.check = false;
	o.since_ms = known_from;
	o.until_ms = known_until;
	o.no_would_deny = true;
	rc = vigil_rules_load_opts(store, vo->subjects, vo->nsubjects, &o,
				   &known, err, sizeof(err));
	if (!rc) {
		o.since_ms = fresh_since;
		o.until_ms = 0;
		rc = vigil_rules_load_opts(store, vo->subjects, vo->nsubjects,
					   &o, &learned, err, sizeof(err));
	}
	/* an AppArmor trial's ALLOWED records are would-deny records too */
	if (!rc) {
		rc = vigil_store_apparmor_wd_begin(store, fresh_since, &aa);
		aa_view = true;
	}
	if (!rc) {
		o.check = true;
		o.no_would_deny = false;
		rc = vigil_rules_load_opts(store, vo->subjects, vo->nsubjects,
					   &o, &fresh, err, sizeof(err));
	}
	if (!rc) {
		o.strict = ro->strict;
		o.since_ms = known_from;
		rc = vigil_rules_load_opts(store, vo->subjects, vo->nsubjects,
					   &o, &gen, err, sizeof(err));
	}
	if (aa_view) {
		int rc2 = vigil_store_apparmor_wd_end(store);

		aa_view = false;
		if (!rc)
			rc = rc2;
	}
	if (rc) {
		if (err[0])
			p_err("%s", err);
		else
			p_err("%s: %s", db, rc == -EIO ?
			      vigil_store_errmsg(store) : strerror(-rc));
		goto out;
	}
	in.last = known.last > fresh.last ? known.last : fresh.last;
	if (json) {	/* the changes, as the update makes them */
		if (vigil_update_json_begin(&uj)) {
			p_err("out of memory");
			goto out;
		}
		in.change = vigil_update_json_change;
		in.ctx = &uj;
	}
	rc = vigil_update_text(text, len, &in, &res, &res_len, &st, err,
			       sizeof(err));
	if (rc) {
		p_err("%s: %s", file, err[0] ? err : strerror(-rc));
		goto out;
	}
	vigil_policy_free(pol);
	pol = NULL;
	rc = vigil_policy_parse(res, res_len, &pol, &perr);
	if (rc) {
		p_err("the updated policy %s: line %u: %s", rc == -E2BIG ||
		      !strncmp(perr.msg, "too many ", 9) ||
		      !strncmp(perr.msg, "policy too large", 16) ?
		      "exceeds the kernel's limits" : "does not parse (a bug)",
		      perr.line, perr.msg[0] ? perr.msg : strerror(-rc));
		goto out;
	}
	if (out && !strcmp(out, "-")) {
		if (fwrite(res, 1, res_len, stdout) != res_len ||
		    fflush(stdout)) {
			p_err("stdout: %s", strerror(errno));
			goto out;
		}
	} else {
		rc = write_file_atomic(out ? out : file, res, res_len);
		if (rc) {
			p_err("%s: %s", out ? out : file, strerror(-rc));
			goto out;
		}
	}
	if (json) {	/* once the candidate is written */
		const size_t aac[3] = { aa.merged, aa.optional, aa.skipped };

		if (vigil_update_json_end(&uj, stdout, file, out ? out : file,
					  &st, aac, res)) {
			p_err("out of memory");
			goto out;
		}
		if (fflush(stdout)) {
			p_err("stdout: %s", strerror(errno));
			goto out;
		}
	}
	fprintf(stderr, "vigil: generate: --update %s: %zu rule%s added, %zu "
		"proposed from a trial's would-deny, %zu left out by hand "
		"(marked), %zu sensitive would-deny never proposed, %zu new "
		"access%s a marker names, %zu kept literal (a glob would "
		"admit a marked one)", file, st.added,
		plural(st.added), st.proposed, st.left_out, st.sensitive,
		st.kept_out, st.kept_out == 1 ? "" : "es", st.literal);
	if (aa.merged || aa.optional || aa.skipped)
		fprintf(stderr, "; AppArmor's trial: %zu ALLOWED record%s read "
			"as would-deny, %zu optional check%s and %zu other "
			"record%s (other profiles, peers not named, no vigil "
			"rule) not merged",
			aa.merged, plural(aa.merged), aa.optional,
			plural(aa.optional), aa.skipped, plural(aa.skipped));
	if (st.unnamed && vo->nsubjects)
		fprintf(stderr, "; %zu access%s of programs no block selects "
			"(not merged: generate them with --subject)",
			st.unnamed, st.unnamed == 1 ? "" : "es");
	fputc('\n', stderr);
	ret = EXIT_OK;
out:
	vigil_update_json_free(&uj);
	vigil_policy_free(pol);
	vigil_ruleset_free(&known);
	vigil_ruleset_free(&fresh);
	vigil_ruleset_free(&learned);
	vigil_ruleset_free(&gen);
	free(text);
	free(res);
	return ret;
}

/* --min-hosts N|P%: 0, or -EINVAL after saying why. */
static int parse_min_hosts(const char *arg, struct vigil_rules_opts *ro)
{
	size_t len = strlen(arg);
	bool pct = len && arg[len - 1] == '%';
	char num[16];
	uint64_t v;

	if (len - pct < sizeof(num)) {
		memcpy(num, arg, len - pct);
		num[len - pct] = '\0';
		if (!parse_u64(num, pct ? 100 : UINT32_MAX, &v) && v) {
			ro->min_hosts = (unsigned int)v;
			ro->min_hosts_pct = pct;
			return 0;
		}
	}
	p_err("--min-hosts: '%s' is neither a number of hosts (1 or more) "
	      "nor a percentage (1%% to 100%%)", arg);
	return -EINVAL;
}

/* What do_generate was asked, from its options. */
struct gen {
	struct vigil_rules_opts ro;
	const char *out, *boot, *update, *format;
	bool children, json;
	size_t scoped, unscoped;	/* --children: the blocks loaded */
};

/* A step of do_generate done: go on to the next (else its exit status). */
#define GEN_NEXT (-1)

/* getopt_long value of --netns all (no letter of its own). */
#define GEN_OPT_NETNS 0x200

static const struct option gen_opts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "subject", required_argument, NULL, 's' },
	{ "strict", no_argument, NULL, 'S' },
	{ "mntns", required_argument, NULL, 'n' },
	{ "netns", required_argument, NULL, GEN_OPT_NETNS },
	{ "output", required_argument, NULL, 'o' },
	{ "include-would-deny", no_argument, NULL, 'W' },
	{ "since", required_argument, NULL, 'F' },
	{ "until", required_argument, NULL, 'U' },
	{ "boot", required_argument, NULL, 'b' },
	{ "broad", no_argument, NULL, 'B' },
	{ "sensitive", required_argument, NULL, 'E' },
	{ "root", required_argument, NULL, 'R' },
	{ "children", no_argument, NULL, 'C' },
	{ "uid", required_argument, NULL, 'u' },
	{ "update", required_argument, NULL, 'P' },
	{ "min-hosts", required_argument, NULL, 'H' },
	{ "node", required_argument, NULL, VERB_OPT_NODE },
	{ "all-nodes", no_argument, NULL, VERB_OPT_ALL_NODES },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char gen_usage[] =
	"generate [--db PATH] [--subject EXE]... [--strict] [-o FILE]\n"
	"         [--format text|json]\n"
	"         [--since TIME] [--until TIME] [--boot N|list]\n"
	"         [--include-would-deny]\n"
	"         [--sensitive FILE] [--broad] [--root DIR]\n"
	"         [--mntns N[:ID]|all] [--netns all] [--children]\n"
	"         [--uid UID[,UID...]]\n"
	"         [--update CANDIDATE [--since TIME]]\n"
	"         [--node HOST]... [--all-nodes] [--min-hosts N|P%]\n"
	"  Print a candidate policy made from the observations (all\n"
	"  subjects, or those named), generalised by explained\n"
	"  heuristics unless --strict; -o writes FILE atomically.\n"
	"  Would-deny records (a trial's) become rules only with\n"
	"  --include-would-deny. --since/--until: only records of that\n"
	"  window (ISO 8601 or now, recent, today, yesterday,\n"
	"  this-week, week-ago, this-month, this-year, boot).\n"
	"  --boot N: only the records of one boot\n"
	"  (1 the oldest, 0 the latest, -1 the one before; list: the\n"
	"  boots the records show). A glob never admits a sensitive object\n"
	"  that was not observed (built-in list, " VIGIL_SENSITIVE_CONF "\n"
	"  and --sensitive FILE|-: one glob a line), nor, without\n"
	"  --broad, more existing objects than its bound; --root: the\n"
	"  file system to look at (default /). Only the initial mount\n"
	"  namespace's observations unless --mntns names another (its\n"
	"  mntns= number, and :ID its mntnsid= when several namespaces\n"
	"  had that number) or all. Abstract unix names of another\n"
	"  network namespace (netns=) are not the host's: left out\n"
	"  unless --netns all. --children: also what the named\n"
	"  subjects ran, at any depth, each a block 'subject CHILD\n"
	"  via SUBJECT' with only what it did under SUBJECT (its\n"
	"  records' via=; records without via= give a plain block of\n"
	"  all it did). Each rule's comment lists the uids it was seen\n"
	"  under; --uid (numbers or user names): only observations\n"
	"  under these uids. A rule seen only under uids the subject\n"
	"  never ran as (its system uids, else its busiest uid; with\n"
	"  --uid, those) is marked FLAG. --update CANDIDATE: merge\n"
	"  what was observed since CANDIDATE was made (its header's\n"
	"  window; or since --since) into it, in place (or -o),\n"
	"  keeping its lines: the rules it lacks are added with\n"
	"  their evidence, a trial's would-deny proposed (never on a\n"
	"  sensitive object), and what it left out of its own window\n"
	"  marked '# vigil: left out:', never added back. See\n"
	"  docs/generate.md.\n"
	"  --node HOST (repeatable, globs) or --all-nodes: which hosts'\n"
	"  records (node=) to read; one of them is needed when the\n"
	"  database holds several (docs/fleet.md). Over\n"
	"  several hosts, one policy from all they did, each rule\n"
	"  saying on how many of the hosts that ran its subject it\n"
	"  was seen; --min-hosts: leave out (listed in comments) the\n"
	"  rules fewer hosts did.\n"
	"  --format json: the rules with their evidence, and the\n"
	"  policy text, as one JSON object (--boot list too; with\n"
	"  --update: the changes made, to standard output).";

/*
 * --mntns N (the number mntns= shows) or N:ID (and the unique id mntnsid=
 * shows, for a number two namespaces had): 0 or -1.
 */
static int mntns_arg(const char *arg, struct vigil_rules_opts *ro)
{
	const char *colon = strchr(arg, ':');
	char num[16];
	uint64_t v, id = 0;
	size_t n = colon ? (size_t)(colon - arg) : strlen(arg);

	if (n >= sizeof(num))
		return -1;
	memcpy(num, arg, n);
	num[n] = '\0';
	if (parse_u64(num, UINT32_MAX, &v) ||
	    (colon && (!v || parse_u64(colon + 1, INT64_MAX, &id))))
		return -1;
	ro->mntns = (int64_t)v;
	ro->mntnsid_set = colon != NULL;
	ro->mntnsid = id;
	return 0;
}

/* The options, checked against each other: GEN_NEXT or the exit status. */
static int gen_options(int argc, char **argv, struct verb_opts *vo,
		       struct gen *g)
{
	long long ms;
	int c;

	optind = 1;
	while ((c = verb_getopt(argc, argv, "+o:h", gen_opts, vo)) > 0) {
		switch (c) {
		case 'S':
			g->ro.strict = true;
			break;
		case 'n':
			if (!strcmp(optarg, "all")) {
				g->ro.mntns = -1;
			} else if (mntns_arg(optarg, &g->ro)) {
				p_err("--mntns: '%s' is not a namespace id "
				      "(N or N:ID) or 'all'", optarg);
				return EXIT_USAGE;
			}
			break;
		case GEN_OPT_NETNS:
			if (strcmp(optarg, "all")) {
				p_err("--netns: '%s': only 'all' is known",
				      optarg);
				return EXIT_USAGE;
			}
			g->ro.netns_all = true;
			break;
		case 'o':
			g->out = optarg;
			break;
		case 'W':
			g->ro.no_would_deny = false;
			break;
		case 'F':
		case 'U':
			if (report_parse_time(optarg, &ms) || ms <= 0) {
				p_err("--%s: cannot read '%s' (ISO 8601 or now, "
				      "recent, today, yesterday, this-week, "
				      "week-ago, this-month, this-year, boot)",
				      c == 'F' ? "since" : "until", optarg);
				return EXIT_USAGE;
			}
			*(c == 'F' ? &g->ro.since_ms : &g->ro.until_ms) = ms;
			break;
		case 'b':
			g->boot = optarg;
			break;
		case 'B':
			g->ro.broad = true;
			break;
		case 'E':
			g->ro.sensitive_file = optarg;
			break;
		case 'R':
			g->ro.root = optarg;
			break;
		case 'C':
			g->children = true;
			break;
		case 'P':
			g->update = optarg;
			break;
		case 'H':
			if (parse_min_hosts(optarg, &g->ro))
				return EXIT_USAGE;
			break;
		case 'f':
			g->format = optarg;
			break;
		}
	}
	if (c < 0)
		return c == VERB_GETOPT_HELP ? EXIT_OK : EXIT_USAGE;
	if (optind != argc) {
		verb_usage_error(vo);
		return EXIT_USAGE;
	}
	if (strcmp(g->format, "text") && strcmp(g->format, "json")) {
		p_err("--format %s: unknown format (text or json)", g->format);
		return EXIT_USAGE;
	}
	g->json = !strcmp(g->format, "json");
	if (g->json && g->update && g->out && !strcmp(g->out, "-")) {
		p_err("--update: --format json writes the JSON to standard "
		      "output: -o - does not apply (the candidate is "
		      "rewritten, or -o FILE)");
		return EXIT_USAGE;
	}
	if (g->ro.since_ms && g->ro.until_ms &&
	    g->ro.since_ms > g->ro.until_ms) {
		p_err("--since is after --until: the window is empty");
		return EXIT_USAGE;
	}
	if (g->boot && (g->ro.since_ms || g->ro.until_ms)) {
		p_err("--boot and --since/--until exclude each other");
		return EXIT_USAGE;
	}
	if (g->update && (g->boot || g->children || g->ro.until_ms)) {
		p_err("--update: --%s does not apply (the candidate's blocks "
		      "say what to merge, its header since when)",
		      g->boot ? "boot" : g->children ? "children" : "until");
		return EXIT_USAGE;
	}
	return GEN_NEXT;
}

/*
 * What to read: the boot's window (--boot), the subjects named, the hosts
 * (several: one policy, each rule saying on how many), the sensitive
 * list, the uids. GEN_NEXT or the exit status.
 */
static int gen_select(struct vigil_store *store, const char *db,
		      const struct verb_opts *vo, struct vigil_nodes *nodes,
		      struct gen *g)
{
	int rc;

	if (g->boot) {
		rc = boot_window(store, db, g->boot, g->json, &g->ro.since_ms,
				 &g->ro.until_ms);
		if (rc == BOOT_LISTED)
			return EXIT_OK;
		if (rc)
			return EXIT_USAGE;
		if (g->ro.until_ms == INT64_MAX)	/* the latest boot */
			g->ro.until_ms = 0;
	}
	if (verb_subjects_known(store, db, vo->subjects, vo->nsubjects))
		return EXIT_USAGE;
	/* several hosts: one policy, each rule saying on how many */
	if (nodes->nselected > 1)
		g->ro.nodes = nodes;
	else if (g->ro.min_hosts) {
		p_err("--min-hosts: only one host is read (%s): choose several "
		      "with --node or --all-nodes", nodes->nselected ?
		      "the database holds one" : "none selected");
		return EXIT_USAGE;
	}
	if (!g->ro.sensitive_file && !access(VIGIL_SENSITIVE_CONF, F_OK))
		g->ro.sensitive_file = VIGIL_SENSITIVE_CONF;
	g->ro.uids = vo->uids;
	g->ro.nuids = vo->nuids;
	return GEN_NEXT;
}

/* The rules (with --children, of what ran under the named subjects too):
 * GEN_NEXT or the exit status (no matches: EXIT_FINDING, as ausearch). */
static int gen_load(struct vigil_store *store, const char *db,
		    const struct verb_opts *vo, struct gen *g,
		    struct vigil_ruleset *rs)
{
	char err[512] = "";
	int rc;

	if (g->children && vo->nsubjects)
		rc = vigil_rules_load_children(store, vo->subjects,
					       vo->nsubjects, &g->ro, rs,
					       &g->scoped, &g->unscoped, err,
					       sizeof(err));
	else
		rc = vigil_rules_load_opts(store, vo->subjects, vo->nsubjects,
					   &g->ro, rs, err, sizeof(err));
	if (!rc)
		return GEN_NEXT;
	if (err[0])
		p_err("%s", err);
	else
		p_err("%s: %s", db, rc == -EIO ?
		      vigil_store_errmsg(store) : strerror(-rc));
	if (rc == -ENODATA)	/* no matches, as ausearch */
		return EXIT_FINDING;
	return EXIT_USAGE;
}

/*
 * The header line saying what the rules were made from (records, window,
 * the machine's checks, uids, --children's blocks), as rs->made_from; the
 * caller frees *made_from. 0 or -ENOMEM (said).
 */
static int gen_made_from(const struct gen *g, const struct verb_opts *vo,
			 struct vigil_ruleset *rs, char **made_from)
{
	const struct vigil_rules_opts *ro = &g->ro;
	char t1[32], t2[32];
	size_t i;

	if (asprintf(made_from, "made from: %s records%s%s%s%s; "
		     "globs checked against %s (sensitive list%s%s, "
		     "blast bound%s)",
		     ro->no_would_deny ? "learned" :
			     "learned and would-deny",
		     ro->since_ms ? ", since " : "",
		     ro->since_ms ? vigil_time_iso(ro->since_ms / 1000,
						   t1, sizeof(t1)) : "",
		     ro->until_ms ? ", until " : "",
		     ro->until_ms ? vigil_time_iso(ro->until_ms / 1000,
						   t2, sizeof(t2)) : "",
		     ro->root && *ro->root ? ro->root : "/",
		     ro->sensitive_file ? " + " : "",
		     ro->sensitive_file ? ro->sensitive_file : "",
		     ro->broad ? " off: --broad" : "") < 0) {
		*made_from = NULL;
		p_err("out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < vo->nuids; i++) {
		char *m;

		if (asprintf(&m, "%s%s%u", *made_from,
			     i ? "," : "; only uids ",
			     (unsigned int)vo->uids[i]) < 0) {
			p_err("out of memory");
			return -ENOMEM;
		}
		free(*made_from);
		*made_from = m;
	}
	if (g->children && vo->nsubjects) {
		char *m;

		if (asprintf(&m, "%s\n# --children: %zu block%s of "
			     "what ran under a named subject (via=, "
			     "any depth), each 'via' it; %zu child "
			     "block%s from records without via= (a "
			     "kernel before exec-chain scoping): all "
			     "it did, whoever ran it", *made_from,
			     g->scoped, g->scoped == 1 ? "" : "s",
			     g->unscoped, g->unscoped == 1 ? "" : "s") < 0) {
			p_err("out of memory");
			return -ENOMEM;
		}
		free(*made_from);
		*made_from = m;
	}
	rs->made_from = *made_from;
	return 0;
}

/*
 * The policy text of rs (compact when the full one is over the kernel's
 * limit), parsed as the kernel will parse it: 0, or -1 after saying why.
 */
static int gen_policy(const struct vigil_ruleset *rs, const char *db,
		      const struct vigil_rules_opts *ro, char **text,
		      size_t *len)
{
	struct vigil_policy_error perr = { 0 };
	struct vigil_policy *pol = NULL;
	int rc;

	rc = make_text(rs, db, ro, false, text, len);
	if (!rc && *len > VIGIL_POLICY_MAX_BYTES) {
		free(*text);
		*text = NULL;
		rc = make_text(rs, db, ro, true, text, len);
	}
	if (rc) {
		p_err("cannot write the policy: %s", strerror(-rc));
		goto fail;
	}
	/* What we print must parse: the kernel will be given it. */
	rc = vigil_policy_parse(*text, *len, &pol, &perr);
	if (rc == -E2BIG || (rc && (!strncmp(perr.msg, "too many ", 9) ||
				    !strncmp(perr.msg, "policy too large", 16)))) {
		p_err("the candidate policy exceeds the kernel's limits (%s): "
		      "generate it for fewer subjects (--subject)",
		      rc == -E2BIG ? "1 MiB of text" : perr.msg);
		goto fail;
	}
	if (rc) {
		p_err("generated policy does not parse: line %u: %s (a bug; "
		      "please report it)", perr.line,
		      perr.msg[0] ? perr.msg : strerror(-rc));
		goto fail;
	}
	vigil_policy_free(pol);
	return 0;
fail:
	vigil_policy_free(pol);
	return -1;
}

/* The policy (or with --format json the rules and it) to -o FILE,
 * atomically, or to stdout: 0, or -1 after saying why. */
static int gen_write(const struct gen *g, const struct vigil_ruleset *rs,
		     char **text, size_t *len)
{
	int rc;

	if (g->json) {
		char *j = NULL;
		size_t jlen = 0;

		rc = rules_json(rs, *text, &j, &jlen);
		if (rc) {
			p_err("cannot write the JSON: %s", strerror(-rc));
			return -1;
		}
		free(*text);
		*text = j;
		*len = jlen;
	}
	if (g->out) {
		rc = write_file_atomic(g->out, *text, *len);
		if (rc) {
			p_err("%s: %s", g->out, strerror(-rc));
			return -1;
		}
	} else if (fwrite(*text, 1, *len, stdout) != *len || fflush(stdout)) {
		p_err("stdout: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* What the admin should know of the rules written. */
static void gen_warn(const struct vigil_ruleset *rs,
		     const struct verb_opts *vo)
{
	if (!rs->nsubjects)
		p_warn("nothing observed%s: the policy names no subject",
		       vo->nsubjects || vo->nuids ?
		       " for these subjects and uids" :
		       "");
	if (rs->flagged)
		p_warn("%llu rule%s seen only under uids the subject never "
		       "ran as: marked '# FLAG' (review them)",
		       (unsigned long long)rs->flagged, plural(rs->flagged));
}

int do_generate(int argc, char **argv)
{
	struct gen g = {
		.ro = { .no_would_deny = true, .check = true },
		.format = "text",
	};
	struct vigil_ruleset rs = { 0 };
	struct vigil_store *store = NULL;
	struct verb_opts vo;
	struct vigil_nodes nodes = { 0 };
	char *text = NULL, *made_from = NULL;
	const char *db;
	size_t len = 0;
	int ret;

	if (verb_opts_init(&vo, gen_usage, argc))
		return EXIT_USAGE;
	ret = gen_options(argc, argv, &vo, &g);
	if (ret != GEN_NEXT)
		goto out;
	ret = EXIT_USAGE;
	db = vigil_db_path();
	if (open_store_existing(db, &store) ||
	    verb_nodes(store, db, &vo, false, &nodes))
		goto out;
	if (g.update) {
		if (!g.ro.sensitive_file && !access(VIGIL_SENSITIVE_CONF, F_OK))
			g.ro.sensitive_file = VIGIL_SENSITIVE_CONF;
		g.ro.uids = vo.uids;
		g.ro.nuids = vo.nuids;
		ret = generate_update(store, db, g.update, g.out, &g.ro, &vo,
				      g.json);
		goto out;
	}
	ret = gen_select(store, db, &vo, &nodes, &g);
	if (ret == GEN_NEXT)
		ret = gen_load(store, db, &vo, &g, &rs);
	if (ret != GEN_NEXT)
		goto out;
	ret = EXIT_USAGE;
	if (gen_made_from(&g, &vo, &rs, &made_from) ||
	    gen_policy(&rs, db, &g.ro, &text, &len) ||
	    gen_write(&g, &rs, &text, &len))
		goto out;
	gen_warn(&rs, &vo);
	ret = EXIT_OK;
out:
	free(made_from);
	free(text);
	vigil_ruleset_free(&rs);
	vigil_store_close(store);
	vigil_nodes_free(&nodes);
	verb_opts_free(&vo);
	return ret;
}
