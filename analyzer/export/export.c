// SPDX-License-Identifier: GPL-2.0-only
/* vigil analyzer: "vigil export": the verb and the candidate it reads. */
#include <errno.h>
#include <sys/stat.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vigil.h"
#include "util.h"
#include "verb_store.h"
#include "ptext.h"
#include "nodes.h"
#include "store.h"
#include "export.h"
#include "blast.h"
#include "policy.h"
#include "candidate.h"

/* ---- the verb ---- */

static void via_evidence_free(struct vigil_via_evidence *ev)
{
	size_t i;

	for (i = 0; i < ev->n; i++) {
		free(ev->via[i]);
		vigil_ruleset_free(&ev->rs[i]);
	}
	free(ev->via);
	free(ev->rs);
	memset(ev, 0, sizeof(*ev));
}

/*
 * For each distinct literal via of pol's blocks, the observations of the
 * tasks run under it (strict, as the plain blocks' evidence): 0, -EIO,
 * -ENOMEM.
 */
static int via_evidence_load(struct vigil_store *store,
			     const struct vigil_policy *pol,
			     struct vigil_via_evidence *ev)
{
	unsigned int i, n = vigil_policy_nr_subjects(pol);
	size_t k, len;
	int rc;

	for (i = 0; i < n; i++) {
		const struct vigil_glob *vg = vigil_policy_subject_via(
			vigil_policy_subject_at(pol, i));
		struct vigil_rules_opts o = { .strict = true };
		const char *lit = vg ? vigil_glob_literal(vg, &len) : NULL;
		char *v;

		if (!lit)
			continue;
		v = strndup(lit, len);
		if (!v)
			return -ENOMEM;
		for (k = 0; k < ev->n && strcmp(ev->via[k], v); k++)
			;
		if (k < ev->n) {
			free(v);
			continue;
		}
		if (!(ev->n & 7)) {
			char **nv = realloc(ev->via, (ev->n + 8) * sizeof(*nv));
			struct vigil_ruleset *nr;

			if (nv)
				ev->via = nv;
			nr = nv ? realloc(ev->rs, (ev->n + 8) * sizeof(*nr)) :
				  NULL;
			if (!nr) {
				free(v);
				return -ENOMEM;
			}
			ev->rs = nr;
		}
		o.via = v;
		memset(&ev->rs[ev->n], 0, sizeof(ev->rs[ev->n]));
		rc = vigil_rules_load_opts(store, NULL, 0, &o, &ev->rs[ev->n],
					   NULL, 0);
		if (rc) {
			free(v);
			return rc;
		}
		ev->via[ev->n++] = v;
	}
	return 0;
}

/*
 * The line of each subject block of text (already accepted by the
 * parser, which keeps no line numbers): the lines whose first word is
 * "subject", in order. NULL when out of memory.
 */
static unsigned int *block_lines(const char *text, size_t len)
{
	unsigned int *v = NULL, line = 0;
	size_t pos = 0, n = 0, cap = 0;

	while (pos < len) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - s) : len - pos;

		pos += l + (nl ? 1 : 0);
		line++;
		while (l && (*s == ' ' || *s == '\t')) {
			s++;
			l--;
		}
		if (l < 8 || memcmp(s, "subject", 7) ||
		    (s[7] != ' ' && s[7] != '\t'))
			continue;
		if (grow_array((void **)&v, &cap, n + 1, sizeof(*v))) {
			free(v);
			return NULL;
		}
		v[n++] = line;
	}
	if (!v)
		v = calloc(1, sizeof(*v));
	return v;
}

int export_load_candidate(const char *file, char *const *subjects,
			  size_t nsubjects, struct export_opts *eo,
			  struct vigil_ruleset *rs)
{
	struct vigil_ruleset obs = { 0 };
	struct vigil_via_evidence ev = { 0 };
	struct vigil_policy *pol = NULL;
	struct vigil_store *store = NULL;
	char *text = NULL, err[512] = "";
	const char *db = vigil_db_path();
	unsigned int *lines = NULL;
	size_t len;
	int rc;

	if (candidate_read(file, &text, &len, &pol))
		return -EINVAL;
	lines = block_lines(text, len);
	/* a repeated block is legal, never used, and not exported: said */
	if (lines && ptext_warn_repeated(file, text, len) == -ENOMEM) {
		free(lines);
		lines = NULL;
	}
	/* one program's blocks for different uid classes: not one profile */
	rc = lines ? ptext_refuse_split(file, text, len, subjects,
					nsubjects) : 0;
	if (rc > 0) {
		free(lines);
		free(text);
		vigil_policy_free(pol);
		return -EINVAL;
	}
	if (rc < 0) {
		free(lines);
		lines = NULL;
	}
	free(text);
	if (!lines) {
		vigil_policy_free(pol);
		p_err("out of memory");
		return -ENOMEM;
	}
	/* Evidence only: a database named must exist, the default may not. */
	eo->db = NULL;
	if (vigil_db_opt || !access(db, F_OK)) {
		rc = open_store_existing(db, &store);
		if (!rc) {
			rc = vigil_rules_load(store, NULL, 0, true, &obs);
			if (!rc)
				rc = via_evidence_load(store, pol, &ev);
			if (rc)
				p_err("%s: %s", db, rc == -EIO ?
				      vigil_store_errmsg(store) :
				      strerror(-rc));
		}
		if (rc)
			goto out;
		eo->db = db;
	}
	rc = vigil_ruleset_from_policy(pol, lines, eo->db ? &obs : NULL,
				       eo->db ? &ev : NULL, subjects,
				       nsubjects, rs, err, sizeof(err));
	if (!rc)
		candidate_warn_unnamed_children(rs, pol, file);
	if (rc == -ENOMEM)
		p_err("out of memory");
	else if (rc)
		p_err("%s: %s", file, err);
out:
	free(lines);
	via_evidence_free(&ev);
	vigil_ruleset_free(&obs);
	vigil_store_close(store);
	vigil_policy_free(pol);
	return rc;
}

/* The shortcut: the rules generate would write, from the database. */
static int load_observed(char *const *subjects, size_t nsubjects,
			 const struct verb_opts *vo, struct export_opts *eo,
			 struct vigil_ruleset *rs)
{
	const uint32_t *uids = vo->uids;
	size_t nuids = vo->nuids;
	struct vigil_store *store = NULL;
	int rc;

	eo->db = vigil_db_path();
	if (open_store_existing(eo->db, &store))
		return -EINVAL;
	rc = verb_nodes(store, eo->db, vo, false, NULL);
	if (rc)
		goto out;
	rc = verb_subjects_known(store, eo->db, subjects, nsubjects);
	if (rc)
		goto out;
	{
		/* what vigil generate makes by default */
		struct vigil_rules_opts ro = {
			.strict = eo->strict, .no_would_deny = true,
			.check = true, .uids = uids, .nuids = nuids,
		};
		char err[512] = "";

		if (!access(VIGIL_SENSITIVE_CONF, F_OK))
			ro.sensitive_file = VIGIL_SENSITIVE_CONF;
		rc = vigil_rules_load_opts(store, subjects, nsubjects, &ro, rs,
					   err, sizeof(err));
		if (rc && err[0])
			p_err("%s", err);
		else if (rc)
			p_err("%s: %s", eo->db, rc == -EIO ?
			      vigil_store_errmsg(store) : strerror(-rc));
	}
out:
	vigil_store_close(store);
	return rc;
}

int do_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "to", required_argument, NULL, 't' },
		{ "subject", required_argument, NULL, 's' },
		{ "strict", no_argument, NULL, 'S' },
		{ "output", required_argument, NULL, 'o' },
		{ "abi", required_argument, NULL, 'A' },
		{ "uid", required_argument, NULL, 'u' },
		{ "node", required_argument, NULL, VERB_OPT_NODE },
		{ "all-nodes", no_argument, NULL, VERB_OPT_ALL_NODES },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char usage[] =
		"export --to apparmor|selinux|landlock|tomoyo|systemd\n"
		"       [--db PATH] [--subject EXE]... [-o DIR] [--abi N]\n"
		"       CANDIDATE\n"
		"  Translate the candidate policy file CANDIDATE (the one\n"
		"  vigil load puts in observe mode, hand edits included) into\n"
		"  policy files of another security module in DIR (default:\n"
		"  the current folder) and print their paths. The database,\n"
		"  when there, only adds evidence comments. --subject: only\n"
		"  these blocks. Each file says at its top what the target\n"
		"  cannot express. --abi: the Landlock ABI to write for\n"
		"  (default: the running kernel's). See docs/export.md.\n"
		"export --to TARGET [--db PATH] [--subject EXE]... [--strict]\n"
		"       [-o DIR] [--abi N] [--uid UID[,UID...]]\n"
		"       [--node HOST]... [--all-nodes]\n"
		"  Shortcut without CANDIDATE: generate from the database (as\n"
		"  vigil generate would, --uid too) and translate that,\n"
		"  unreviewed; --node, --all-nodes: the hosts, as generate\n"
		"  takes them.";
	struct export_opts eo = { 0 };
	struct export_files files = { 0 };
	struct vigil_ruleset rs = { 0 };
	const char *dir = ".", *to = NULL;
	struct verb_opts vo;
	size_t i;
	const struct export_target *t;
	int c, rc, ret = EXIT_USAGE;
	uint64_t abi;

	if (verb_opts_init(&vo, usage, argc))
		return EXIT_USAGE;
	optind = 1;
	while ((c = verb_getopt(argc, argv, "+o:h", opts, &vo)) > 0) {
		switch (c) {
		case 't':
			to = optarg;
			break;
		case 'S':
			eo.strict = true;
			break;
		case 'o':
			dir = optarg;
			break;
		case 'A':
			if (parse_u64(optarg, 64, &abi) || !abi) {
				p_err("--abi: expected a number 1..64, got "
				      "'%s'", optarg);
				goto out;
			}
			eo.landlock_abi = (unsigned int)abi;
			break;
		}
	}
	if (c < 0) {
		ret = c == VERB_GETOPT_HELP ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (optind + 1 < argc || !to) {
		if (!to)
			p_err("--to TARGET is required");
		verb_usage_error(&vo);
		goto out;
	}
	if (optind < argc) {
		eo.candidate = argv[optind];
		if (eo.strict || vo.nuids) {
			p_err("%s applies to the shortcut only "
			      "(a candidate's rules are exported as written)",
			      eo.strict ? "--strict" : "--uid");
			goto out;
		}
	}
	t = export_target_find(to);
	if (!t) {
		p_err("unknown target '%s' (apparmor, selinux, landlock, "
		      "tomoyo or systemd)", to);
		goto out;
	}
	if (eo.candidate && (vo.nnodes || vo.all_nodes)) {
		p_err("--node, --all-nodes: only without CANDIDATE (with one, "
		      "the database only adds evidence, from every host)");
		goto out;
	}
	rc = eo.candidate ?
		export_load_candidate(eo.candidate, vo.subjects, vo.nsubjects,
				      &eo, &rs) :
		load_observed(vo.subjects, vo.nsubjects, &vo,
			      &eo, &rs);
	if (rc)
		goto out;
	if (!rs.nsubjects) {
		p_err("%s: nothing to export", eo.candidate ?
		      "the candidate names no subject" :
		      vo.nsubjects ? "nothing observed for these subjects" :
				  "nothing observed");
		ret = EXIT_FINDING;
		goto out;
	}
	/* Like mkdir -p, for DIR itself (its parent must exist). */
	if (mkdir(dir, 0755) && errno != EEXIST) {
		p_err("-o %s: %s", dir, strerror(errno));
		goto out;
	}
	rc = export_run(t, &rs, dir, &eo, &files);
	for (i = 0; i < files.n; i++)
		printf("%s\n", files.paths[i]);
	if (rc) {
		p_err("export to %s in %s: %s", to, dir, strerror(-rc));
		goto out;
	}
	ret = fflush(stdout) ? EXIT_USAGE : EXIT_OK;
out:
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	verb_opts_free(&vo);
	return ret;
}
