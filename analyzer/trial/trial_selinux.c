// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the SELinux side of "vigil trial --to selinux". The
 * candidate's SELinux export, each module with its domain declared
 * permissive ("permissive DOMAIN;"), is installed with semodule
 * (policycoreutils) and the programs labelled with their modules' file
 * contexts (restorecon), so that running one enters its domain; what
 * SELinux would have refused is the AVC records of those domains
 * ("avc:  denied ... permissive=1"), which vigil ingest stores with the
 * other foreign records.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <selinux/selinux.h>

#include "vigil.h"
#include "util.h"
#include "trial_selinux.h"

int selinux_trial_available(void)
{
	if (is_selinux_enabled() > 0)
		return 0;
	p_err("SELinux is not enabled with a policy loaded here: boot with "
	      "it (lsm=...,selinux; tests/vm/run --selinux, docs/export.md)");
	return -ENOENT;
}

/* prog with opt (when not NULL) before each of v[]; 0 when it exits 0. */
static int run_each(const char *prog, const char *opt, char *const *v,
		    size_t n, const char *pkg)
{
	char **argv = calloc(2 * n + 2, sizeof(*argv));
	pid_t pid;
	size_t i, k = 0;
	int st;

	if (!argv)
		return -ENOMEM;
	argv[k++] = (char *)prog;
	for (i = 0; i < n; i++) {
		if (opt)
			argv[k++] = (char *)opt;
		argv[k++] = v[i];
	}
	pid = fork();
	if (pid < 0) {
		free(argv);
		return -errno;
	}
	if (!pid) {
		execvp(prog, argv);
		p_err("%s: %s (package %s)", prog, strerror(errno), pkg);
		_exit(127);
	}
	free(argv);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO;
}

/*
 * A path of a module's .fc, its regular expression undone: vigil's export
 * writes literal paths with every byte but letters, digits, '/', '_' and
 * '-' escaped ("\\." or "\\xHH"). NULL for any other expression.
 */
static char *fc_literal(const char *re, size_t len)
{
	char *out = malloc(len + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < len; i++) {
		if (re[i] != '\\') {
			if (strchr(".*+?[](){}|^$", re[i]))
				goto not_literal;
			*o++ = re[i];
		} else if (i + 1 < len && re[i + 1] == '.') {
			*o++ = '.';
			i++;
		} else if (i + 3 < len && re[i + 1] == 'x' &&
			   sscanf(re + i + 2, "%2hhx", (unsigned char *)o) == 1) {
			o++;
			i += 3;
		} else {
			goto not_literal;
		}
	}
	*o = '\0';
	return out;
not_literal:
	free(out);
	return NULL;
}

/*
 * The folder of a tree entry of a module's .fc, "DIR(/.*)?" or
 * "DIR(/[^/]*)?" (vigil's export writes those for the trees a program
 * writes, DIR escaped as a literal path), or NULL.
 */
static char *fc_tree(const char *re, size_t len)
{
	static const char *const tails[] = { "(/.*)?", "(/[^/]*)?" };
	size_t i, n;

	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		n = strlen(tails[i]);
		if (len > n && !memcmp(re + len - n, tails[i], n))
			return fc_literal(re, len - n);
	}
	return NULL;
}

/* The options restorecon gets before the paths. */
#define RESTORECON_OPTS 2

/*
 * What restorecon labels for a trial (-R -F, then the paths): the
 * programs, each existing file the modules' .fc files name (beside each
 * .pp: the files a program writes get its module's private types; without
 * relabelling, those made while learning keep their old types and the
 * trial reports AVCs enforcement after restorecon never gives) and the
 * folder of each tree they name that exists here (a real folder, not a
 * link: restorecon -R labels it and what is in it). At unload the same
 * paths get back the types of the policy without the modules.
 */
static int label_list(char *const *pps, size_t n, char *const *exes,
		      size_t nexes, char ***out, size_t *nout)
{
	char **v = calloc(nexes + RESTORECON_OPTS + 1, sizeof(*v)), *line = NULL;
	size_t i, k = 0, cap = nexes + RESTORECON_OPTS + 1, lcap = 0;
	struct stat st;

	if (!v)
		return -ENOMEM;
	v[k++] = strdup("-R");
	v[k++] = strdup("-F");
	for (i = 0; i < nexes; i++)
		v[k++] = strdup(exes[i]);
	for (i = 0; i < n; i++) {
		size_t plen = strlen(pps[i]);
		char *fc = strdup(pps[i]);
		FILE *f;

		if (!fc)
			goto nomem;
		if (plen > 3 && !strcmp(fc + plen - 3, ".pp"))
			strcpy(fc + plen - 3, ".fc");
		f = fopen(fc, "r");
		free(fc);
		if (!f)
			continue;	/* a module without file contexts */
		while (getline(&line, &lcap, f) > 0) {
			size_t len = strcspn(line, "\t \n");
			char *path;
			bool tree;

			if (line[0] != '/')
				continue;
			/* a file, or a tree's folder */
			path = fc_literal(line, len);
			tree = !path;
			if (tree)
				path = fc_tree(line, len);
			if (!path || lstat(path, &st) ||
			    !(tree ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode))) {
				free(path);
				continue;
			}
			if (k + 1 >= cap) {
				char **nv = realloc(v, 2 * cap * sizeof(*v));

				if (!nv) {
					free(path);
					fclose(f);
					goto nomem;
				}
				v = nv;
				cap *= 2;
			}
			v[k++] = path;
		}
		fclose(f);
	}
	free(line);
	for (i = 0; i < k; i++)
		if (!v[i])
			goto nomem;
	*out = v;
	*nout = k;
	return 0;
nomem:
	free(line);
	for (i = 0; i < k; i++)
		free(v[i]);
	free(v);
	return -ENOMEM;
}

/*
 * The labels the trial changes, kept beside the modules (DIR/selinux-labels:
 * "CONTEXT\0PATH\0" records; paths may hold any byte but NUL) so that
 * --stop gives each file back its own. restorecon alone cannot: the
 * reference policy has no context for /tmp/.* ("<<none>>"), where a file
 * keeps the type of a removed module.
 */
static char *labels_file(char *const *pps, size_t n)
{
	const char *slash;
	char *f;

	if (!n)
		return NULL;
	slash = strrchr(pps[0], '/');
	if (!slash)
		return strdup("selinux-labels");
	if (asprintf(&f, "%.*s/selinux-labels", (int)(slash - pps[0]),
		     pps[0]) < 0)
		return NULL;
	return f;
}

/* One record of the labels file: path's label now (none: nothing). */
static FILE *labels_out;

static void label_save(const char *path)
{
	char *ctx = NULL;

	if (lgetfilecon(path, &ctx) < 0)
		return;
	fprintf(labels_out, "%s%c%s%c", ctx, 0, path, 0);
	freecon(ctx);
}

static int label_save_walk(const char *path, const struct stat *st, int type,
			   struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	label_save(path);
	return 0;
}

/* The labels of v's paths (after restorecon's options), and of what is
 * in each folder (a tree: restorecon -R relabels all of it). */
static int labels_save(const char *file, char *const *v, size_t k)
{
	struct stat st;
	size_t i;
	int rc = 0;

	labels_out = fopen(file, "w");
	if (!labels_out)
		return -errno;
	for (i = RESTORECON_OPTS; i < k && !rc; i++) {
		if (!lstat(v[i], &st) && S_ISDIR(st.st_mode)) {
			if (nftw(v[i], label_save_walk, 16, FTW_PHYS) < 0)
				rc = -errno;
		} else {
			label_save(v[i]);
		}
	}
	if (fclose(labels_out) && !rc)
		rc = -errno;
	labels_out = NULL;
	return rc;
}

static int labels_restore(const char *file)
{
	FILE *f = fopen(file, "r");
	char *ctx = NULL, *path = NULL;
	size_t c1 = 0, c2 = 0;
	int rc = 0;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (getdelim(&ctx, &c1, 0, f) > 0 && getdelim(&path, &c2, 0, f) > 0) {
		if (lsetfilecon(path, ctx) < 0 && errno != ENOENT) {
			p_err("%s: cannot give back its label: %s",
			      shown(path), strerror(errno));
			rc = -EIO;
		}
	}
	free(ctx);
	free(path);
	fclose(f);
	if (!rc)
		(void)unlink(file);
	return rc;
}

static int relabel(char *const *pps, size_t n, char *const *exes,
		   size_t nexes, bool save)
{
	char **v, *file = labels_file(pps, n);
	size_t k, i;
	int rc = file ? label_list(pps, n, exes, nexes, &v, &k) : -ENOMEM;

	if (rc) {
		free(file);
		return rc;
	}
	if (save)
		rc = labels_save(file, v, k);
	if (!rc && k > RESTORECON_OPTS)
		rc = run_each("restorecon", NULL, v, k, "policycoreutils");
	if (!rc && !save)
		rc = labels_restore(file);
	for (i = 0; i < k; i++)
		free(v[i]);
	free(v);
	free(file);
	return rc;
}

int selinux_trial_load(char *const *pps, size_t n, char *const *exes,
		       size_t nexes)
{
	int rc = run_each("semodule", "-i", pps, n, "policycoreutils");

	if (rc) {
		p_err("semodule -i could not install the modules");
		return rc;
	}
	rc = relabel(pps, n, exes, nexes, true);
	if (rc)
		p_err("restorecon could not label the programs and their files");
	return rc;
}

int selinux_trial_unload(char *const *mods, char *const *pps, size_t n,
			 char *const *exes, size_t nexes)
{
	int rc = run_each("semodule", "-r", mods, n, "policycoreutils");

	if (rc) {
		p_err("semodule -r could not remove the modules");
		return rc;
	}
	rc = relabel(pps, n, exes, nexes, false);
	if (rc)
		p_err("could not give the programs and their files back "
		      "their labels");
	return rc;
}

/* The type of a "user:role:type:level" context, cut in place. */
static const char *ctx_type(char *ctx)
{
	char *t = strchr(ctx, ':');

	t = t ? strchr(t + 1, ':') : NULL;
	if (!t)
		return NULL;
	t++;
	ctx = strchr(t, ':');
	if (ctx)
		*ctx = '\0';
	return t;
}

/* The value starting at p (quotes dropped), cut in place. */
static char *val(char *p)
{
	char *e;

	if (*p == '"') {
		p++;
		e = strchr(p, '"');
	} else {
		e = p + strcspn(p, " \x1d\n");
	}
	if (e)
		*e = '\0';
	return p;
}

int selinux_avc_parse(const char *text, struct selinux_avc *a)
{
	char *b, *open, *close, *sc, *tc, *cls, *obj, *perm, *cut;

	memset(a, 0, sizeof(*a));
	a->buf = b = strdup(text);
	if (!b)
		return -ENOMEM;
	cut = strchr(b, '\x1d');	/* auditd's ENRICHED part */
	if (cut)
		*cut = '\0';
	if (!strstr(b, "avc:"))
		goto bad;
	a->denied = strstr(b, "avc:  denied") != NULL;
	open = strchr(b, '{');
	close = open ? strchr(open, '}') : NULL;
	if (!close)
		goto bad;
	/* every field found before any is cut */
	sc = strstr(close, " scontext=");
	tc = strstr(close, " tcontext=");
	cls = strstr(close, " tclass=");
	obj = strstr(close, " path=");
	if (!obj)
		obj = strstr(close, " name=");
	perm = strstr(close, " permissive=");
	if (!sc || !tc || !cls)
		goto bad;
	a->permissive = perm && perm[12] == '1';
	*close = '\0';
	a->perms = open + 1;
	while (*a->perms == ' ')
		a->perms++;
	if (close > open + 1 && close[-1] == ' ')
		close[-1] = '\0';
	a->tclass = val(cls + 8);
	a->object = obj ? val(obj + 6) : NULL;
	a->stype = ctx_type(val(sc + 10));
	a->ttype = ctx_type(val(tc + 10));
	if (!a->stype || !a->ttype || !*a->tclass)
		goto bad;
	return 0;
bad:
	selinux_avc_free(a);
	return -EINVAL;
}

void selinux_avc_free(struct selinux_avc *a)
{
	free(a->buf);
	memset(a, 0, sizeof(*a));
}
