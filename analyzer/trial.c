// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: "vigil trial", a candidate's export tried in the
 * target's own permissive mode (AppArmor complain mode, TOMOYO's
 * permissive profile, SELinux permissive domains), its would-be denials
 * (AppArmor's ALLOWED records, TOMOYO's granted=no audit entries,
 * SELinux's AVC denials) reported beside vigil's own.
 *
 *   vigil trial --to apparmor [-o DIR] [--subject EXE]... CANDIDATE
 *       export CANDIDATE into DIR, load the profiles of its subjects that
 *       no other subject runs in complain mode, note the start in
 *       DIR/trial.state
 *   vigil trial --to tomoyo [-o DIR] [--subject EXE]... CANDIDATE
 *       export CANDIDATE into DIR, load its domains in profile 2
 *       (trial_tomoyo.c)
 *   vigil trial --to selinux [-o DIR] [--subject EXE]... CANDIDATE
 *       export CANDIDATE into DIR with each domain permissive, install
 *       the modules and label the programs (trial_selinux.c)
 *   vigil trial --report DIR      what both would have denied since then
 *   vigil trial --stop DIR        the same, then unload the profiles
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "escape.h"
#include "vigil.h"
#include "util.h"
#include "nodes.h"
#include "record.h"
#include "store.h"
#include "export.h"
#include "export/driver.h"
#include "rules.h"
#include "match.h"
#include "trial_tomoyo.h"
#include "trial_selinux.h"

#define STATE_FILE "trial.state"

/* Run apparmor_parser with args and files; 0 when it exits 0. */
static int parser_run(const char *args, char *const *files, size_t n)
{
	char **argv = calloc(n + 3, sizeof(*argv));
	pid_t pid;
	size_t i;
	int st;

	if (!argv)
		return -ENOMEM;
	argv[0] = "apparmor_parser";
	argv[1] = (char *)args;
	for (i = 0; i < n; i++)
		argv[2 + i] = files[i];
	pid = fork();
	if (pid < 0) {
		free(argv);
		return -errno;
	}
	if (!pid) {
		execvp(argv[0], argv);
		p_err("apparmor_parser: %s (package apparmor)",
		      strerror(errno));
		_exit(127);
	}
	free(argv);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO;
}

struct state {
	long long start_ms;
	char *candidate;
	char **names, **files, **exes;	/* loaded profiles */
	size_t n;
	char **subj;		/* the subjects running under them */
	size_t nsubj;
	/* TOMOYO: the profiles are its domains ("<kernel> EXE"), FILE
	 * their domain policy; its exception policy */
	bool tomoyo;
	char *exception;
	/* SELinux: the profiles are the domains, FILE their module (.pp) */
	bool selinux;
};

static void state_free(struct state *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->names[i]);
		free(s->files[i]);
		free(s->exes[i]);
	}
	for (i = 0; i < s->nsubj; i++)
		free(s->subj[i]);
	free(s->subj);
	free(s->names);
	free(s->files);
	free(s->exes);
	free(s->candidate);
	free(s->exception);
	memset(s, 0, sizeof(*s));
}

/*
 * A name in the state file: escaped as in a policy (vigil_glob_escape:
 * no tab, no newline, no control byte is left), so a path cannot add a
 * line. 0 or -ENOMEM.
 */
static int state_put(FILE *f, const char *s)
{
	char *e = vigil_glob_escape_dup(s, strlen(s), false);

	if (!e)
		return -ENOMEM;
	fputs(e, f);
	free(e);
	return 0;
}

/* Read one back (*ret malloc'd): 0, -EINVAL (not one), -ENOMEM. */
static int state_get(const char *s, char **ret)
{
	struct vigil_glob *g = NULL;
	const char *lit;
	char why[128];
	size_t len;

	*ret = NULL;
	if (vigil_glob_compile(s, strlen(s), &g, why, sizeof(why)))
		return -EINVAL;
	lit = vigil_glob_literal(g, &len);
	if (lit)
		*ret = strndup(lit, len);
	vigil_glob_free(g);
	if (!lit)
		return -EINVAL;
	return *ret ? 0 : -ENOMEM;
}

/*
 * "start MS", "candidate PATH", "profile NAME\tFILE\tEXE" lines, then a
 * "subject EXE" line for each subject running under those profiles.
 */
static int state_read(const char *dir, struct state *s)
{
	char *path, *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int rc = 0;

	if (asprintf(&path, "%s/%s", dir, STATE_FILE) < 0)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f) {
		rc = -errno;
		p_err("%s: %s (no trial started in %s)", path, strerror(errno),
		      dir);
		free(path);
		return rc;
	}
	while (!rc && (len = getline(&line, &cap, f)) > 0) {
		char *t1, *t2;

		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (!strncmp(line, "start ", 6)) {
			s->start_ms = strtoll(line + 6, NULL, 10);
		} else if (!strncmp(line, "subject ", 8)) {
			char **v = realloc(s->subj,
					   (s->nsubj + 1) * sizeof(*v));

			if (!v) {
				rc = -ENOMEM;
				break;
			}
			s->subj = v;
			rc = state_get(line + 8, &s->subj[s->nsubj]);
			if (rc)
				break;
			s->nsubj++;
		} else if (!strcmp(line, "target tomoyo")) {
			s->tomoyo = true;
		} else if (!strcmp(line, "target selinux")) {
			s->selinux = true;
		} else if (!strncmp(line, "exception ", 10)) {
			free(s->exception);
			s->exception = NULL;
			rc = state_get(line + 10, &s->exception);
		} else if (!strncmp(line, "candidate ", 10)) {
			free(s->candidate);
			s->candidate = NULL;
			rc = state_get(line + 10, &s->candidate);
		} else if (!strncmp(line, "profile ", 8) &&
			   (t1 = strchr(line + 8, '\t')) &&
			   (t2 = strchr(t1 + 1, '\t'))) {
			*t1 = *t2 = '\0';
			s->names = realloc(s->names,
					   (s->n + 1) * sizeof(*s->names));
			s->files = realloc(s->files,
					   (s->n + 1) * sizeof(*s->files));
			s->exes = realloc(s->exes, (s->n + 1) * sizeof(*s->exes));
			if (!s->names || !s->files || !s->exes) {
				rc = -ENOMEM;
				break;
			}
			s->names[s->n] = strdup(line + 8);
			s->files[s->n] = s->exes[s->n] = NULL;
			rc = state_get(t1 + 1, &s->files[s->n]);
			if (!rc)
				rc = state_get(t2 + 1, &s->exes[s->n]);
			s->n++;
			if (!rc && !s->names[s->n - 1])
				rc = -ENOMEM;
		}
	}
	free(line);
	fclose(f);
	if (rc == -EINVAL || (!rc && (!s->start_ms || !s->n || !s->nsubj ||
				      (s->tomoyo && !s->exception)))) {
		p_err("%s: not a trial state file", path);
		rc = -EINVAL;
	}
	free(path);
	return rc;
}

static bool loaded(const struct state *s, const char *profile)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], profile))
			return true;
	return false;
}

/* What the report's sections count while the store walks the rows. */
struct trial_seen {
	const struct state *s;
	struct export_notes notes;	/* the target's, each once */
	bool header;			/* the target's section started */
	size_t naa, nwd;
	struct export_notes opt;	/* AppArmor's optional checks */
};

/* The target's name in the report. */
static const char *target_name(const struct state *s)
{
	return s->tomoyo ? "TOMOYO" : s->selinux ? "SELinux" : "AppArmor";
}

static void aa_header(struct trial_seen *t)
{
	if (!t->header)
		printf("%s would have denied:\n", t->s->tomoyo ?
		       "TOMOYO (permissive profile 2)" : t->s->selinux ?
		       "SELinux (permissive domains)" :
		       "AppArmor (complain mode)");
	t->header = true;
}

/* One AVC denial: listed once when its source domain is the trial's. */
static int se_row(void *ctx, const char *text)
{
	struct trial_seen *t = ctx;
	size_t before = t->notes.n;
	struct selinux_avc a;
	int rc;

	aa_header(t);
	rc = selinux_avc_parse(text, &a);
	if (rc)
		return rc == -EINVAL ? 0 : rc;
	if (a.denied && loaded(t->s, a.stype))
		rc = note_add(&t->notes, "%s: { %s } %s%s%s:%s", a.stype,
			      a.perms, a.object ? a.object : "",
			      a.object ? " " : "", a.ttype, a.tclass);
	if (!rc && t->notes.n > before) {
		putchar('\t');
		esc_text(stdout, t->notes.v[before]);
		putchar('\n');
		t->naa++;
	}
	selinux_avc_free(&a);
	return rc;
}

/* One TOMOYO reject: listed once when its domain is one of the trial's.
 * TOMOYO writes names in its word form: printable ASCII only. */
static int tomoyo_row(void *ctx, const char *domain, const char *rule)
{
	struct trial_seen *t = ctx;
	size_t before = t->notes.n;
	int rc;

	aa_header(t);
	if (!loaded(t->s, domain))
		return 0;
	rc = note_add(&t->notes, "%s: %s", domain, rule);
	if (!rc && t->notes.n > before) {
		putchar('\t');
		esc_text(stdout, t->notes.v[before]);
		putchar('\n');
		t->naa++;
	}
	return rc;
}

/* One ALLOWED record: listed once when its profile is one of the trial's. */
static int aa_row(void *ctx, const char *text)
{
	struct trial_seen *t = ctx;
	size_t before = t->notes.n;
	struct aa_fields f;
	const char *obj;
	int rc = 0;

	aa_fields_parse(&f, text);
	aa_header(t);
	if (f.profile && loaded(t->s, f.profile) && aa_optional(&f)) {
		/* not a would-be denial: listed apart, after vigil's */
		obj = aa_fields_object(&f);
		rc = note_add(&t->opt, "%s: %s %s", f.profile,
			      f.op ? f.op : "?", obj ? obj : "");
	} else if (f.profile && loaded(t->s, f.profile)) {
		obj = aa_fields_object(&f);
		rc = note_add(&t->notes, "%s: %s %s%s%s%s%s", f.profile,
			      f.op ? f.op : "?", obj ? obj : "",
			      f.mask ? " (" : "", f.mask ? f.mask : "",
			      f.mask ? ")" : "", "");
		if (!rc && t->notes.n > before) {
			putchar('\t');
			esc_text(stdout, t->notes.v[before]);
			putchar('\n');
			t->naa++;
		}
	}
	aa_fields_free(&f);
	return rc;
}

static int wd_row(void *ctx, const struct vigil_store_denial *d)
{
	struct trial_seen *t = ctx;

	/* names from the records, as terminal text */
	putchar('\t');
	esc_text(stdout, d->exe);
	fputs(": ", stdout);
	esc_text(stdout, d->op);
	putchar(' ');
	esc_text(stdout, d->access);
	putchar(' ');
	esc_text(stdout, d->object);
	printf(" (%lld)\n", d->count);
	t->nwd++;
	return 0;
}

/* Both sections; *ret_n: the would-be denials of both. */
static int trial_report(const char *dir, struct state *s, size_t *ret_n)
{
	struct vigil_store *store = NULL;
	struct trial_seen t = { .s = s };
	const char *db = vigil_db_path();
	size_t i;
	int rc;

	if (s->tomoyo) {
		rc = tomoyo_trial_drain(dir);
		if (!rc)
			rc = tomoyo_trial_rejects(dir, tomoyo_row, &t);
		if (rc)
			goto out;
	}
	if (open_store_existing(db, &store)) {
		rc = -ENOENT;
		goto out;
	}
	/* the trial ran here: this machine's records only (docs/fleet.md) */
	rc = vigil_nodes_local(store);
	if (rc)
		goto out;
	if (s->selinux)
		rc = vigil_store_selinux_denied(store, s->start_ms, se_row,
						&t);
	else if (!s->tomoyo)
		rc = vigil_store_apparmor_allowed(store, s->start_ms, aa_row,
						  &t);
	if (rc)
		goto out;
	aa_header(&t);
	printf("vigil (observe mode) would have denied:\n");
	for (i = 0; !rc && i < s->nsubj; i++)
		rc = vigil_store_would_deny(store, s->start_ms, s->subj[i],
					    wd_row, &t);
	if (rc)
		goto out;
	if (t.opt.n) {
		printf("AppArmor's optional checks (made without auditing: "
		       "enforced, AppArmor denies them with no record and the "
		       "kernel takes its fallback; vigil records none; not "
		       "would-be denials):\n");
		for (i = 0; i < t.opt.n; i++) {
			putchar('\t');
			esc_text(stdout, t.opt.v[i]);
			putchar('\n');
		}
	}
	printf("%zu %s, %zu vigil would-be denials since the trial "
	       "started (run vigil ingest first)", t.naa, target_name(s),
	       t.nwd);
	if (t.opt.n)
		printf("; %zu optional check%s apart", t.opt.n,
		       t.opt.n == 1 ? "" : "s");
	putchar('\n');
	*ret_n = t.naa + t.nwd;
out:
	if (rc == -EIO)
		p_err("%s: %s", db, vigil_store_errmsg(store));
	notes_free(&t.notes);
	notes_free(&t.opt);
	vigil_store_close(store);
	return rc;
}

/*
 * What every target's trial starts with: the candidate as a rule set (its
 * subjects, or those named), DIR made, the target's export written there.
 */
static int trial_export(const struct export_target *target, const char *dir,
			const char *cand, char **subjects, size_t nsubjects,
			struct export_opts *eo, struct vigil_ruleset *rs,
			struct export_files *files)
{
	int rc = export_load_candidate(cand, subjects, nsubjects, eo, rs);

	if (rc)
		return rc;
	if (!rs->nsubjects) {
		p_err("%s: the candidate names no subject", cand);
		return -EINVAL;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		rc = -errno;
		p_err("-o %s: %s", dir, strerror(errno));
		return rc;
	}
	rc = export_run(target, rs, dir, eo, files);
	if (rc)
		p_err("export to %s in %s: %s", target->name, dir,
		      strerror(-rc));
	return rc;
}

/* The state file's first lines: when the trial started, the candidate. */
static int state_begin(FILE *f, const struct timeval *tv, const char *cand)
{
	int rc;

	fprintf(f, "start %lld\ncandidate ",
		(long long)tv->tv_sec * 1000 + tv->tv_usec / 1000);
	rc = state_put(f, cand);
	fputc('\n', f);
	return rc;
}

/* Close the state text f (all of *text) and write it as DIR's state
 * file at once; then tell the user what follows (stop: what --stop does). */
static int state_commit(const char *dir, FILE *f, char **text, size_t *len,
			const char *stop)
{
	char *path;
	int rc;

	if (fclose(f))
		return -ENOMEM;
	if (asprintf(&path, "%s/%s", dir, STATE_FILE) < 0)
		return -ENOMEM;
	rc = write_file_atomic(path, *text, *len);
	if (rc)
		p_err("%s: %s", path, strerror(-rc));
	else
		printf("run the workload, then: vigil ingest; vigil trial "
		       "--report %s (--stop %s %s)\n", dir, dir, stop);
	free(path);
	return rc;
}

static int trial_start(const char *dir, const char *cand, char **subjects,
		       size_t nsubjects)
{
	struct export_opts eo = { .candidate = cand };
	struct export_files files = { 0 };
	struct vigil_ruleset rs = { 0 };
	char **load = NULL, *text = NULL;
	size_t i, j, n = 0, len = 0, fi;
	struct timeval tv;
	bool *reach = NULL, *sub = NULL;
	FILE *f = NULL;
	int rc;

	rc = trial_export(&export_apparmor, dir, cand, subjects, nsubjects,
			  &eo, &rs, &files);
	if (rc)
		goto out;
	rc = export_reach(&rs, &reach);
	load = calloc(rs.nsubjects + 1, sizeof(*load));
	sub = calloc(rs.nsubjects + 1, sizeof(*sub));
	f = open_memstream(&text, &len);
	if (rc || !load || !sub || !f) {
		rc = rc ? rc : -ENOMEM;
		goto out;
	}
	gettimeofday(&tv, NULL);
	rc = state_begin(f, &tv, cand);
	if (rc)
		goto out;
	/* only the subjects no other one runs: a child runs under its
	 * parent's profile (ix); its own profile would confine it for the
	 * whole system */
	for (i = 0, fi = 0; i < rs.nsubjects; i++) {
		const char *prof;
		char *name;

		/* a via block has no profile: it is in its parent's */
		if (rs.subjects[i].via)
			continue;
		prof = fi < files.n ? files.paths[fi] : "?";
		fi++;
		for (j = 0; j < rs.nsubjects; j++)
			if (j != i && reach[j * rs.nsubjects + i] &&
			    !reach[i * rs.nsubjects + j])
				break;
		if (j < rs.nsubjects && !nsubjects)
			continue;
		name = aa_profile_name(rs.subjects[i].exe);
		if (!name) {
			rc = -ENOMEM;
			goto out;
		}
		fprintf(f, "profile %s\t", name);
		rc = state_put(f, prof);
		fputc('\t', f);
		rc = rc ? rc : state_put(f, rs.subjects[i].exe);
		fputc('\n', f);
		printf("complain: %s (", name);
		esc_text(stdout, rs.subjects[i].exe);
		puts(")");
		load[n++] = (char *)prof;
		free(name);
		if (rc)
			goto out;
		for (j = 0; j < rs.nsubjects; j++)
			if (reach[i * rs.nsubjects + j])
				sub[j] = true;
	}
	for (j = 0; !rc && j < rs.nsubjects; j++) {
		if (!sub[j])
			continue;
		fputs("subject ", f);
		rc = state_put(f, rs.subjects[j].exe);
		fputc('\n', f);
	}
	if (rc)
		goto out;
	rc = parser_run("-Cr", load, n);
	if (rc) {
		p_err("apparmor_parser -C -r could not load the profiles");
		goto out;
	}
	rc = state_commit(dir, f, &text, &len, "unloads them");
	f = NULL;
out:
	if (f)
		fclose(f);
	free(text);
	free(load);
	free(sub);
	free(reach);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	return rc;
}

/*
 * TOMOYO: every subject of the export is a domain of its own (its
 * initialize_domain line), so every one is loaded, in profile 2.
 */
static int trial_start_tomoyo(const char *dir, const char *cand,
			      char **subjects, size_t nsubjects)
{
	struct export_opts eo = { .candidate = cand };
	struct export_files files = { 0 };
	struct vigil_ruleset rs = { 0 };
	char **domains = NULL, *text = NULL, *path = NULL;
	size_t i, nd = 0, len = 0;
	struct timeval tv;
	FILE *f = NULL;
	int rc;

	rc = tomoyo_trial_available();
	if (rc)
		return rc;
	rc = trial_export(&export_tomoyo, dir, cand, subjects, nsubjects, &eo,
			  &rs, &files);
	if (!rc && files.n != 2) {
		rc = -EINVAL;
		p_err("export to tomoyo in %s: not 2 files", dir);
	}
	if (rc)
		goto out;
	/* the start before the load: nothing TOMOYO logs is missed */
	gettimeofday(&tv, NULL);
	rc = tomoyo_trial_load(files.paths[0], files.paths[1],
			       TOMOYO_PROFILE_PERMISSIVE, &domains, &nd);
	if (rc)
		goto out;
	/* what TOMOYO logged before the trial is not the trial's */
	if (asprintf(&path, "%s/%s", dir, TOMOYO_TRIAL_LOG) < 0) {
		rc = -ENOMEM;
		goto out;
	}
	if (unlink(path) && errno != ENOENT) {
		rc = -errno;
		p_err("%s: %s", path, strerror(errno));
		goto out;
	}
	rc = tomoyo_trial_drain(dir);
	if (!rc && unlink(path))
		rc = -errno;
	free(path);
	path = NULL;
	f = rc ? NULL : open_memstream(&text, &len);
	if (!f) {
		rc = rc ? rc : -ENOMEM;
		goto out;
	}
	/* names as state_put writes them (the domains are TOMOYO words:
	 * printable ASCII, no tab) */
	rc = state_begin(f, &tv, cand);
	fputs("target tomoyo\nexception ", f);
	rc = rc ? rc : state_put(f, files.paths[1]);
	fputc('\n', f);
	for (i = 0; !rc && i < nd; i++) {
		fprintf(f, "profile %s\t", domains[i]);
		rc = state_put(f, files.paths[0]);
		fputc('\t', f);
		rc = rc ? rc : state_put(f, domains[i] + strlen("<kernel> "));
		fputc('\n', f);
		printf("permissive: %s\n", domains[i]);
	}
	for (i = 0; !rc && i < rs.nsubjects; i++) {
		fputs("subject ", f);
		rc = state_put(f, rs.subjects[i].exe);
		fputc('\n', f);
	}
	if (rc)
		goto out;
	rc = state_commit(dir, f, &text, &len, "gives the domains profile 0");
	f = NULL;
out:
	if (f)
		fclose(f);
	for (i = 0; i < nd; i++)
		free(domains[i]);
	free(domains);
	free(path);
	free(text);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	return rc;
}

/*
 * SELinux: every subject but those folded into another (via) has a module
 * of its own, its domain declared permissive for the trial; they are
 * installed in one semodule transaction and the programs labelled.
 */
static int trial_start_selinux(const char *dir, const char *cand,
			       char **subjects, size_t nsubjects)
{
	struct export_opts eo = { .candidate = cand,
				  .selinux_permissive = true };
	struct export_files files = { 0 };
	struct vigil_ruleset rs = { 0 };
	char **pps = NULL, **exes = NULL, *text = NULL, *mod = NULL;
	size_t i, k, n = 0, len = 0;
	struct timeval tv;
	FILE *f = NULL;
	int rc;

	rc = selinux_trial_available();
	if (rc)
		return rc;
	rc = trial_export(&export_selinux, dir, cand, subjects, nsubjects, &eo,
			  &rs, &files);
	if (rc)
		goto out;
	pps = calloc(rs.nsubjects + 1, sizeof(*pps));
	exes = calloc(rs.nsubjects + 1, sizeof(*exes));
	f = open_memstream(&text, &len);
	if (!pps || !exes || !f) {
		rc = -ENOMEM;
		goto out;
	}
	/* the start before the install: no AVC of the trial is missed */
	gettimeofday(&tv, NULL);
	rc = state_begin(f, &tv, cand);
	fputs("target selinux\n", f);
	for (i = 0; !rc && i < rs.nsubjects; i++) {
		const char *pp = NULL, *base;

		if (rs.subjects[i].via)
			continue;
		free(mod);
		mod = export_selinux_module(rs.subjects[i].exe);
		if (!mod) {
			rc = -ENOMEM;
			break;
		}
		for (k = 0; k < files.n && !pp; k++) {
			base = strrchr(files.paths[k], '/');
			base = base ? base + 1 : files.paths[k];
			if (!strncmp(base, mod, strlen(mod)) &&
			    !strcmp(base + strlen(mod), ".pp"))
				pp = files.paths[k];
		}
		if (!pp) {
			p_err("%s/%s.pp: not built (checkmodule and "
			      "semodule_package: packages checkpolicy, "
			      "semodule-utils)", dir, mod);
			rc = -ENOENT;
			break;
		}
		/* domain names are letters, digits and '_' */
		fprintf(f, "profile %s_t\t", mod);
		rc = state_put(f, pp);
		fputc('\t', f);
		rc = rc ? rc : state_put(f, rs.subjects[i].exe);
		fputc('\n', f);
		printf("permissive: %s_t (", mod);
		esc_text(stdout, rs.subjects[i].exe);
		puts(")");
		pps[n] = (char *)pp;
		exes[n++] = rs.subjects[i].exe;
	}
	for (i = 0; !rc && i < rs.nsubjects; i++) {
		fputs("subject ", f);
		rc = state_put(f, rs.subjects[i].exe);
		fputc('\n', f);
	}
	if (!rc)
		rc = selinux_trial_load(pps, n, exes, n);
	if (rc)
		goto out;
	rc = state_commit(dir, f, &text, &len, "removes the modules");
	f = NULL;
out:
	if (f)
		fclose(f);
	free(mod);
	free(pps);
	free(exes);
	free(text);
	export_files_free(&files);
	vigil_ruleset_free(&rs);
	return rc;
}

/* --stop of an SELinux trial: the modules (the .pp names) removed, the
 * programs relabelled. */
static int trial_stop_selinux(const struct state *s)
{
	char **mods = calloc(s->n + 1, sizeof(*mods));
	size_t i;
	int rc = 0;

	if (!mods)
		return -ENOMEM;
	for (i = 0; i < s->n && !rc; i++) {
		const char *base = strrchr(s->files[i], '/');
		size_t blen;

		base = base ? base + 1 : s->files[i];
		blen = strlen(base);
		if (blen > 3 && !strcmp(base + blen - 3, ".pp"))
			blen -= 3;
		mods[i] = strndup(base, blen);
		if (!mods[i])
			rc = -ENOMEM;
	}
	if (!rc)
		rc = selinux_trial_unload(mods, s->n, s->exes, s->n);
	for (i = 0; i < s->n; i++)
		free(mods[i]);
	free(mods);
	return rc;
}

int do_trial(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "to", required_argument, NULL, 't' },
		{ "subject", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "report", required_argument, NULL, 'r' },
		{ "stop", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char usage[] =
		"trial --to apparmor|tomoyo|selinux [-o DIR] [--subject EXE]...\n"
		"       CANDIDATE\n"
		"       trial --report DIR | --stop DIR\n"
		"  Export CANDIDATE to AppArmor in DIR (default: trial-TARGET)\n"
		"  and load, in complain mode, the profiles of the subjects no\n"
		"  other one runs (or those named); or to TOMOYO, its domains\n"
		"  in the permissive profile 2 (tomoyo-loadpolicy); or to\n"
		"  SELinux, its modules with each domain permissive (semodule\n"
		"  -i, restorecon). After the workload and vigil ingest,\n"
		"  --report lists what the target (AppArmor's ALLOWED records,\n"
		"  TOMOYO's granted=no audit, SELinux's AVC denials) and vigil\n"
		"  (would-deny) would have denied since; --stop reports, then\n"
		"  unloads the profiles (TOMOYO: profile 0; SELinux: semodule\n"
		"  -r). Exit 1 when something would have been denied.";
	const char *dir = NULL, *to = NULL, *report = NULL;
	struct state s = { 0 };
	struct verb_opts vo;
	size_t n = 0;
	bool stop = false;
	int c, rc, ret = EXIT_USAGE;

	if (verb_opts_init(&vo, usage, argc))
		return EXIT_USAGE;
	optind = 1;
	while ((c = verb_getopt(argc, argv, "+o:h", opts, &vo)) > 0) {
		switch (c) {
		case 't':
			to = optarg;
			break;
		case 'o':
			dir = optarg;
			break;
		case 'S':
			stop = true;
			/* fall through */
		case 'r':
			report = optarg;
			break;
		}
	}
	if (c < 0) {
		ret = c == VERB_GETOPT_HELP ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (report) {
		if (optind != argc || to) {
			verb_usage_error(&vo);
			goto out;
		}
		if (state_read(report, &s))
			goto out;
		rc = trial_report(report, &s, &n);
		if (rc)
			goto out;
		if (stop && s.selinux) {
			rc = trial_stop_selinux(&s);
			if (rc)
				goto out;
			printf("removed %zu module%s\n", s.n,
			       s.n == 1 ? "" : "s");
		} else if (stop && s.tomoyo) {
			rc = tomoyo_trial_unload(s.names, s.n, s.exception);
			if (rc) {
				p_err("tomoyo-loadpolicy could not give the "
				      "domains profile 0");
				goto out;
			}
			printf("%zu domain%s in profile 0\n", s.n,
			       s.n == 1 ? "" : "s");
		} else if (stop) {
			rc = parser_run("-R", s.files, s.n);
			if (rc) {
				p_err("apparmor_parser -R could not unload "
				      "the profiles");
				goto out;
			}
			printf("unloaded %zu profile%s\n", s.n,
			       s.n == 1 ? "" : "s");
		}
		ret = n ? EXIT_FINDING : EXIT_OK;
		goto out;
	}
	if (optind + 1 != argc || !to) {
		if (!to)
			p_err("trial: --to apparmor|tomoyo|selinux is required");
		verb_usage_error(&vo);
		goto out;
	}
	if (!strcmp(to, "selinux")) {
		if (!trial_start_selinux(dir ? dir : "trial-selinux",
					 argv[optind], vo.subjects,
					 vo.nsubjects))
			ret = EXIT_OK;
		goto out;
	}
	if (!strcmp(to, "tomoyo")) {
		if (!trial_start_tomoyo(dir ? dir : "trial-tomoyo",
					argv[optind], vo.subjects,
					vo.nsubjects))
			ret = EXIT_OK;
		goto out;
	}
	if (strcmp(to, "apparmor")) {
		p_err("trial --to %s: only apparmor, tomoyo and selinux can "
		      "be trialed (Landlock and systemd have no permissive "
		      "mode)", to);
		goto out;
	}
	if (!trial_start(dir ? dir : "trial-apparmor", argv[optind],
			 vo.subjects, vo.nsubjects))
		ret = EXIT_OK;
out:
	state_free(&s);
	verb_opts_free(&vo);
	return ret;
}
