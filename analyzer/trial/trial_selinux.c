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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int selinux_trial_load(char *const *pps, size_t n, char *const *exes,
		       size_t nexes)
{
	int rc = run_each("semodule", "-i", pps, n, "policycoreutils");

	if (rc) {
		p_err("semodule -i could not install the modules");
		return rc;
	}
	if (nexes) {
		char **v = calloc(nexes + 1, sizeof(*v));

		if (!v)
			return -ENOMEM;
		v[0] = "-F";
		memcpy(v + 1, exes, nexes * sizeof(*v));
		rc = run_each("restorecon", NULL, v, nexes + 1,
			      "policycoreutils");
		free(v);
	}
	if (rc)
		p_err("restorecon could not label the programs");
	return rc;
}

int selinux_trial_unload(char *const *mods, size_t n, char *const *exes,
			 size_t nexes)
{
	char **v;
	int rc = run_each("semodule", "-r", mods, n, "policycoreutils");

	if (rc) {
		p_err("semodule -r could not remove the modules");
		return rc;
	}
	if (!nexes)
		return 0;
	v = calloc(nexes + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	v[0] = "-F";
	memcpy(v + 1, exes, nexes * sizeof(*v));
	rc = run_each("restorecon", NULL, v, nexes + 1, "policycoreutils");
	free(v);
	if (rc)
		p_err("restorecon could not relabel the programs");
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
