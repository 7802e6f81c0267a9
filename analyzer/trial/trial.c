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

#include <jansson.h>

#include "escape.h"
#include "vigil.h"
#include "util.h"
#include "verb_store.h"
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
	bool json;			/* --format json */
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
	if (t->json)
		return;
	if (!t->header)
		printf("%s would have denied:\n", t->s->tomoyo ?
		       "TOMOYO (permissive profile 2)" : t->s->selinux ?
		       "SELinux (permissive domains)" :
		       "AppArmor (complain mode)");
	t->header = true;
}

/* A new note of the target's: a line (terminal text) or a JSON string. */
static int note_put(struct trial_seen *t, const char *note)
{
	json_t *j;
	char *e;
	int rc;

	t->naa++;
	if (!t->json) {
		putchar('\t');
		esc_text(stdout, note);
		putchar('\n');
		return 0;
	}
	/* the note as terminal text (names from records: \xHH for what is
	 * not printable), then a JSON string */
	e = esc_text_dup(note);
	j = e ? json_string(e) : NULL;
	free(e);
	if (!j)
		return -ENOMEM;
	if (t->naa > 1)
		putchar(',');
	rc = json_dumpf(j, stdout, JSON_ENCODE_ANY) ? -ENOMEM : 0;
	json_decref(j);
	return rc;
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
	if (!rc && t->notes.n > before)
		rc = note_put(t, t->notes.v[before]);
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
	if (!rc && t->notes.n > before)
		rc = note_put(t, t->notes.v[before]);
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
		if (!rc && t->notes.n > before)
			rc = note_put(t, t->notes.v[before]);
	}
	aa_fields_free(&f);
	return rc;
}

static int wd_row(void *ctx, const struct vigil_store_denial *d)
{
	struct trial_seen *t = ctx;
	int rc;

	if (t->json) {
		fputs(t->nwd++ ? ",{" : "{", stdout);
		rc = esc_json_member(stdout, "exe", d->exe);
		putchar(',');
		rc = rc ? rc : esc_json_member(stdout, "op", d->op);
		putchar(',');
		rc = rc ? rc : esc_json_member(stdout, "access", d->access);
		putchar(',');
		rc = rc ? rc : esc_json_member(stdout, "object", d->object);
		printf(",\"count\":%lld}", d->count);
		return rc;
	}
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
static int trial_report(const char *dir, struct state *s, bool json,
			size_t *ret_n)
{
	struct vigil_store *store = NULL;
	struct trial_seen t = { .s = s, .json = json };
	const char *db = vigil_db_path();
	size_t i;
	int rc;

	if (json)
		printf("{\"version\":1,\"target\":\"%s\",\"start_ms\":%lld,"
		       "\"target_denied\":[", target_name(s), s->start_ms);
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
	if (json)
		fputs("],\"vigil_would_deny\":[", stdout);
	else
		printf("vigil (observe mode) would have denied:\n");
	for (i = 0; !rc && i < s->nsubj; i++)
		rc = vigil_store_would_deny(store, s->start_ms, s->subj[i],
					    wd_row, &t);
	if (rc)
		goto out;
	if (json) {
		/* AppArmor's optional checks: not would-be denials */
		fputs("],\"optional_checks\":[", stdout);
		for (i = 0; i < t.opt.n && !rc; i++) {
			fputs(i ? ",{" : "{", stdout);
			rc = esc_json_member(stdout, "check", t.opt.v[i]);
			putchar('}');
		}
		if (rc)
			goto out;
		printf("],\"target_count\":%zu,\"vigil_count\":%zu,"
		       "\"optional_count\":%zu}\n", t.naa, t.nwd, t.opt.n);
	} else {
		if (t.opt.n) {
			printf("%s:\n", aa_optional_heading);
			for (i = 0; i < t.opt.n; i++) {
				putchar('\t');
				esc_text(stdout, t.opt.v[i]);
				putchar('\n');
			}
		}
		printf("%zu %s, %zu vigil would-be denials since the trial "
		       "started (run vigil ingest first)", t.naa,
		       target_name(s), t.nwd);
		if (t.opt.n)
			printf("; %zu optional check%s apart", t.opt.n,
			       t.opt.n == 1 ? "" : "s");
		putchar('\n');
	}
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

/* A trial being started: what its steps share. */
struct trial_start {
	const char *dir, *cand;
	size_t nsubjects;		/* subjects named (--subject) */
	struct vigil_ruleset rs;	/* the candidate's (those named) */
	struct export_files files;	/* the export written in dir */
	FILE *f;			/* the state text */
	/* the subjects listed as running in the trial; NULL: all */
	bool *sub;
	/* what load installs: files (and, SELinux, the programs to label),
	 * pointers into files and rs */
	char **load, **exes;
	size_t nload;
};

/* The operations of a target a candidate can be trialed on. */
struct trial_target {
	const char *to;		/* --to NAME; DIR defaults to trial-NAME */
	const struct export_target *export;
	bool permissive;	/* exported with each domain permissive */
	int (*available)(void);	/* its tools and kernel there; NULL: always */
	/* after the state's first lines: its own lines and profile lines,
	 * and what load installs (TOMOYO: loaded here, its domains named) */
	int (*profiles)(struct trial_start *t);
	/* after the subject lines: the target's permissive load, or NULL */
	int (*load)(struct trial_start *t);
	const char *stop_does;	/* what --stop does, for the user */
	/* --stop: unload, and say what was done */
	int (*stop)(const struct state *s);
};

/*
 * A "profile NAME\tFILE\tEXE" line of the state (NAME, then suffix: a
 * target's word, no tab) and the user's "MODE: NAME" line, "(EXE)" after
 * it when show_exe (as terminal text). 0 or -ENOMEM.
 */
static int state_profile(FILE *f, const char *mode, const char *name,
			 const char *suffix, const char *file, const char *exe,
			 bool show_exe)
{
	int rc;

	fprintf(f, "profile %s%s\t", name, suffix);
	rc = state_put(f, file);
	fputc('\t', f);
	rc = rc ? rc : state_put(f, exe);
	fputc('\n', f);
	printf("%s: %s%s", mode, name, suffix);
	if (show_exe) {
		fputs(" (", stdout);
		esc_text(stdout, exe);
		putchar(')');
	}
	putchar('\n');
	return rc;
}

/*
 * AppArmor: only the subjects no other one runs: a child runs under its
 * parent's profile (ix); its own profile would confine it for the whole
 * system. All those running under them are the trial's subjects.
 */
static int aa_profiles(struct trial_start *t)
{
	const struct vigil_ruleset *rs = &t->rs;
	bool *reach = NULL;
	size_t i, j, fi;
	int rc;

	rc = export_reach(rs, &reach);
	t->load = calloc(rs->nsubjects + 1, sizeof(*t->load));
	t->sub = calloc(rs->nsubjects + 1, sizeof(*t->sub));
	if (rc || !t->load || !t->sub) {
		free(reach);
		return rc ? rc : -ENOMEM;
	}
	for (i = 0, fi = 0; i < rs->nsubjects; i++) {
		const char *prof;
		char *name;

		/* a via block has no profile: it is in its parent's */
		if (rs->subjects[i].via)
			continue;
		prof = fi < t->files.n ? t->files.paths[fi] : "?";
		fi++;
		for (j = 0; j < rs->nsubjects; j++)
			if (j != i && reach[j * rs->nsubjects + i] &&
			    !reach[i * rs->nsubjects + j])
				break;
		if (j < rs->nsubjects && !t->nsubjects)
			continue;
		name = aa_profile_name(rs->subjects[i].exe);
		if (!name) {
			rc = -ENOMEM;
			break;
		}
		rc = state_profile(t->f, "complain", name, "", prof,
				   rs->subjects[i].exe, true);
		t->load[t->nload++] = (char *)prof;
		free(name);
		if (rc)
			break;
		for (j = 0; j < rs->nsubjects; j++)
			if (reach[i * rs->nsubjects + j])
				t->sub[j] = true;
	}
	free(reach);
	return rc;
}

/*
 * -T: never a profile from the parser's cache. The cache is keyed by file
 * name and taken when newer than the file: a profile of the same name
 * compiled after this export was written (an earlier enforce with -W)
 * would be loaded in its place.
 */
static int aa_load(struct trial_start *t)
{
	int rc = parser_run("-CrT", t->load, t->nload);

	if (rc)
		p_err("apparmor_parser -C -r -T could not load the profiles");
	return rc;
}

static int aa_stop(const struct state *s)
{
	if (parser_run("-R", s->files, s->n)) {
		p_err("apparmor_parser -R could not unload the profiles");
		return -EIO;
	}
	printf("unloaded %zu profile%s\n", s->n, s->n == 1 ? "" : "s");
	return 0;
}

/*
 * TOMOYO: every subject of the export is a domain of its own (its
 * initialize_domain line), so every one is loaded, in profile 2.
 */
static int tomoyo_profiles(struct trial_start *t)
{
	char **domains = NULL, *path = NULL;
	size_t i, nd = 0;
	int rc;

	if (t->files.n != 2) {
		p_err("export to tomoyo in %s: not 2 files", t->dir);
		return -EINVAL;
	}
	rc = tomoyo_trial_load(t->files.paths[0], t->files.paths[1],
			       TOMOYO_PROFILE_PERMISSIVE, &domains, &nd);
	if (rc)
		return rc;
	/* what TOMOYO logged before the trial is not the trial's */
	if (asprintf(&path, "%s/%s", t->dir, TOMOYO_TRIAL_LOG) < 0) {
		path = NULL;
		rc = -ENOMEM;
	} else if (unlink(path) && errno != ENOENT) {
		rc = -errno;
		p_err("%s: %s", path, strerror(errno));
	} else {
		rc = tomoyo_trial_drain(t->dir);
		if (!rc && unlink(path))
			rc = -errno;
	}
	free(path);
	/* names as state_put writes them (the domains are TOMOYO words:
	 * printable ASCII, no tab) */
	if (!rc) {
		fputs("target tomoyo\nexception ", t->f);
		rc = state_put(t->f, t->files.paths[1]);
		fputc('\n', t->f);
	}
	for (i = 0; !rc && i < nd; i++)
		rc = state_profile(t->f, "permissive", domains[i], "",
				   t->files.paths[0],
				   domains[i] + strlen("<kernel> "), false);
	for (i = 0; i < nd; i++)
		free(domains[i]);
	free(domains);
	return rc;
}

static int tomoyo_stop(const struct state *s)
{
	if (tomoyo_trial_unload(s->names, s->n, s->exception)) {
		p_err("tomoyo-loadpolicy could not give the domains profile 0");
		return -EIO;
	}
	printf("%zu domain%s in profile 0\n", s->n, s->n == 1 ? "" : "s");
	return 0;
}

/*
 * SELinux: every subject but those folded into another (via) has a module
 * of its own, its domain declared permissive for the trial; they are
 * installed in one semodule transaction and the programs labelled.
 */
static int selinux_profiles(struct trial_start *t)
{
	const struct vigil_ruleset *rs = &t->rs;
	char *mod = NULL;
	size_t i, k;
	int rc = 0;

	t->load = calloc(rs->nsubjects + 1, sizeof(*t->load));
	t->exes = calloc(rs->nsubjects + 1, sizeof(*t->exes));
	if (!t->load || !t->exes)
		return -ENOMEM;
	fputs("target selinux\n", t->f);
	for (i = 0; !rc && i < rs->nsubjects; i++) {
		const char *pp = NULL, *base;

		if (rs->subjects[i].via)
			continue;
		free(mod);
		mod = export_selinux_module(rs->subjects[i].exe);
		if (!mod) {
			rc = -ENOMEM;
			break;
		}
		for (k = 0; k < t->files.n && !pp; k++) {
			base = strrchr(t->files.paths[k], '/');
			base = base ? base + 1 : t->files.paths[k];
			if (!strncmp(base, mod, strlen(mod)) &&
			    !strcmp(base + strlen(mod), ".pp"))
				pp = t->files.paths[k];
		}
		if (!pp) {
			p_err("%s/%s.pp: not built (checkmodule and "
			      "semodule_package: packages checkpolicy, "
			      "semodule-utils)", t->dir, mod);
			rc = -ENOENT;
			break;
		}
		/* domain names are letters, digits and '_' */
		rc = state_profile(t->f, "permissive", mod, "_t", pp,
				   rs->subjects[i].exe, true);
		t->load[t->nload] = (char *)pp;
		t->exes[t->nload++] = rs->subjects[i].exe;
	}
	free(mod);
	return rc;
}

static int selinux_load(struct trial_start *t)
{
	return selinux_trial_load(t->load, t->nload, t->exes, t->nload);
}

/* --stop of an SELinux trial: the modules (the .pp names) removed, the
 * programs relabelled. */
static int selinux_stop(const struct state *s)
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
		rc = selinux_trial_unload(mods, s->files, s->n, s->exes, s->n);
	for (i = 0; i < s->n; i++)
		free(mods[i]);
	free(mods);
	if (!rc)
		printf("removed %zu module%s\n", s->n, s->n == 1 ? "" : "s");
	return rc;
}

static const struct trial_target trial_apparmor = {
	.to = "apparmor", .export = &export_apparmor,
	.profiles = aa_profiles, .load = aa_load,
	.stop_does = "unloads them", .stop = aa_stop,
};
static const struct trial_target trial_tomoyo = {
	.to = "tomoyo", .export = &export_tomoyo,
	.available = tomoyo_trial_available, .profiles = tomoyo_profiles,
	.stop_does = "gives the domains profile 0", .stop = tomoyo_stop,
};
static const struct trial_target trial_selinux = {
	.to = "selinux", .export = &export_selinux, .permissive = true,
	.available = selinux_trial_available, .profiles = selinux_profiles,
	.load = selinux_load,
	.stop_does = "removes the modules", .stop = selinux_stop,
};
static const struct trial_target *const trial_targets[] = {
	&trial_apparmor, &trial_tomoyo, &trial_selinux,
};

/* The target a started trial's state names. */
static const struct trial_target *state_target(const struct state *s)
{
	return s->tomoyo ? &trial_tomoyo :
	       s->selinux ? &trial_selinux : &trial_apparmor;
}

/*
 * Start a trial on target tt: its export in dir, the state's first lines
 * (the start taken before anything is loaded: nothing the target logs of
 * the trial is missed), its profile lines, the subjects, the load, and
 * the state file written at once.
 */
static int trial_start(const struct trial_target *tt, const char *dir,
		       const char *cand, char **subjects, size_t nsubjects)
{
	struct export_opts eo = { .candidate = cand,
				  .selinux_permissive = tt->permissive };
	struct trial_start t = { .dir = dir, .cand = cand,
				 .nsubjects = nsubjects };
	char *text = NULL;
	size_t j, len = 0;
	struct timeval tv;
	int rc;

	if (tt->available) {
		rc = tt->available();
		if (rc)
			return rc;
	}
	rc = trial_export(tt->export, dir, cand, subjects, nsubjects, &eo,
			  &t.rs, &t.files);
	if (rc)
		goto out;
	gettimeofday(&tv, NULL);
	t.f = open_memstream(&text, &len);
	if (!t.f) {
		rc = -ENOMEM;
		goto out;
	}
	rc = state_begin(t.f, &tv, cand);
	if (!rc)
		rc = tt->profiles(&t);
	for (j = 0; !rc && j < t.rs.nsubjects; j++) {
		if (t.sub && !t.sub[j])
			continue;
		fputs("subject ", t.f);
		rc = state_put(t.f, t.rs.subjects[j].exe);
		fputc('\n', t.f);
	}
	if (!rc && tt->load)
		rc = tt->load(&t);
	if (rc)
		goto out;
	rc = state_commit(dir, t.f, &text, &len, tt->stop_does);
	t.f = NULL;
out:
	if (t.f)
		fclose(t.f);
	free(text);
	free(t.load);
	free(t.exes);
	free(t.sub);
	export_files_free(&t.files);
	vigil_ruleset_free(&t.rs);
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
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char usage[] =
		"trial --to apparmor|tomoyo|selinux [-o DIR] [--subject EXE]...\n"
		"       CANDIDATE\n"
		"       trial --report DIR [--format text|json] | --stop DIR\n"
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
		"  -r). Exit 1 when something would have been denied.\n"
		"  --format json: --report's lists as one object.";
	const char *dir = NULL, *to = NULL, *report = NULL, *format = "text";
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
		case 'f':
			format = optarg;
			break;
		}
	}
	if (c < 0) {
		ret = c == VERB_GETOPT_HELP ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (strcmp(format, "text") && strcmp(format, "json")) {
		p_err("--format %s: unknown format (text or json)", format);
		goto out;
	}
	if (!strcmp(format, "json") && (!report || stop)) {
		p_err("--format json: only with --report");
		goto out;
	}
	if (report) {
		if (optind != argc || to) {
			verb_usage_error(&vo);
			goto out;
		}
		if (state_read(report, &s))
			goto out;
		rc = trial_report(report, &s, !strcmp(format, "json"), &n);
		if (rc)
			goto out;
		if (stop && state_target(&s)->stop(&s))
			goto out;
		ret = n ? EXIT_FINDING : EXIT_OK;
		goto out;
	}
	if (optind + 1 != argc || !to) {
		if (!to)
			p_err("trial: --to apparmor|tomoyo|selinux is required");
		verb_usage_error(&vo);
		goto out;
	}
	for (size_t i = 0; i < sizeof(trial_targets) / sizeof(*trial_targets);
	     i++) {
		const struct trial_target *tt = trial_targets[i];
		char *def;

		if (strcmp(to, tt->to))
			continue;
		if (asprintf(&def, "trial-%s", tt->to) < 0) {
			p_err("out of memory");
			goto out;
		}
		if (!trial_start(tt, dir ? dir : def, argv[optind],
				 vo.subjects, vo.nsubjects))
			ret = EXIT_OK;
		free(def);
		goto out;
	}
	p_err("trial --to %s: only apparmor, tomoyo and selinux can be "
	      "trialed (Landlock and systemd have no permissive mode)", to);
out:
	state_free(&s);
	verb_opts_free(&vo);
	return ret;
}
