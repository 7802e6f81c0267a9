// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the TOMOYO side of "vigil trial --to tomoyo". The
 * candidate's TOMOYO export is loaded with tomoyo-loadpolicy (package
 * tomoyo-tools), its domains in TOMOYO's permissive profile 2; what
 * TOMOYO would have refused is its audit log's "granted=no" entries
 * (/sys/kernel/security/tomoyo/audit). Reading that file consumes it,
 * so every read is appended to DIR/tomoyo-audit.log first and the
 * report is made from that copy: a second report sees the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vigil.h"
#include "util.h"
#include "trial_tomoyo.h"

#define TOMOYO_FS "/sys/kernel/security/tomoyo"
#define TOMOYO_LOADER "tomoyo-loadpolicy"

/* tomoyo-loadpolicy OPT with text on its standard input; 0 when it
 * exits 0. */
static int loadpolicy(const char *opt, const char *text, size_t len)
{
	int fd[2], st;
	pid_t pid;
	ssize_t w;
	size_t off = 0;
	int rc = 0;

	if (pipe2(fd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(fd[0]);
		close(fd[1]);
		return rc;
	}
	if (!pid) {
		if (dup2(fd[0], STDIN_FILENO) < 0)
			_exit(127);
		execlp(TOMOYO_LOADER, TOMOYO_LOADER, opt, (char *)NULL);
		p_err("%s: %s (package tomoyo-tools)", TOMOYO_LOADER,
		      strerror(errno));
		_exit(127);
	}
	close(fd[0]);
	while (off < len) {
		w = write(fd[1], text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			rc = -errno;
			break;
		}
		off += w;
	}
	close(fd[1]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!rc && !(WIFEXITED(st) && !WEXITSTATUS(st)))
		rc = -EIO;
	return rc;
}

/* The lines of text that begin with prefix, each without its newline. */
static int lines_with(const char *text, const char *prefix, char ***ret_v,
		      size_t *ret_n)
{
	const char *p = text, *nl;
	size_t plen = strlen(prefix);
	char **v = NULL, **nv;
	size_t n = 0;

	for (; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		if (strncmp(p, prefix, plen))
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv)
			goto nomem;
		v = nv;
		v[n] = nl ? strndup(p, nl - p) : strdup(p);
		if (!v[n])
			goto nomem;
		n++;
	}
	*ret_v = v;
	*ret_n = n;
	return 0;
nomem:
	while (n)
		free(v[--n]);
	free(v);
	return -ENOMEM;
}

/* text with every "use_profile N" line made "use_profile profile". */
static char *with_profile(const char *text, int profile)
{
	char *buf = NULL;
	size_t len = 0;
	const char *p = text, *nl;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		if (!strncmp(p, "use_profile ", 12))
			fprintf(f, "use_profile %d\n", profile);
		else
			fprintf(f, "%.*s\n", (int)(nl ? nl - p : (long)strlen(p)),
				p);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int tomoyo_trial_available(void)
{
	if (access(TOMOYO_FS "/domain_policy", W_OK)) {
		p_err("trial --to tomoyo: %s: %s (TOMOYO is not active in this "
		      "kernel: CONFIG_SECURITY_TOMOYO and tomoyo in lsm=)",
		      TOMOYO_FS "/domain_policy", strerror(errno));
		return -ENOENT;
	}
	return 0;
}

int tomoyo_trial_load(const char *domain_file, const char *exception_file,
		      int profile, char ***ret_domains, size_t *ret_n)
{
	char *dom = NULL, *exc = NULL, *loaded = NULL, *mine = NULL;
	size_t dlen, elen, llen, i, n = 0;
	char **domains = NULL;
	int rc;

	rc = read_file(domain_file, 64 << 20, &dom, &dlen);
	if (!rc)
		rc = read_file(exception_file, 64 << 20, &exc, &elen);
	if (rc)
		goto out;
	rc = lines_with(dom, "<kernel>", &domains, &n);
	if (rc)
		goto out;
	if (!n) {
		p_err("%s: no TOMOYO domain in it", domain_file);
		rc = -EINVAL;
		goto out;
	}
	mine = with_profile(dom, profile);
	if (!mine) {
		rc = -ENOMEM;
		goto out;
	}
	/* the domains first: initialize_domain sends the programs into
	 * them at their next exec */
	rc = loadpolicy("-d", mine, strlen(mine));
	if (!rc)
		rc = loadpolicy("-e", exc, elen);
	if (rc) {
		p_err("%s could not load the TOMOYO policy of %s",
		      TOMOYO_LOADER, domain_file);
		goto out;
	}
	/* TOMOYO refuses a line it cannot parse without the loader saying
	 * so: every domain must now be there */
	rc = read_file(TOMOYO_FS "/domain_policy", 256 << 20, &loaded, &llen);
	for (i = 0; !rc && i < n; i++) {
		char *want;

		if (asprintf(&want, "\n%s\nuse_profile %d\n", domains[i],
			     profile) < 0) {
			rc = -ENOMEM;
			break;
		}
		if (!strstr(loaded, want)) {
			p_err("TOMOYO did not take the domain '%s' of %s",
			      domains[i], domain_file);
			rc = -EINVAL;
		}
		free(want);
	}
out:
	if (rc) {
		while (n)
			free(domains[--n]);
		free(domains);
	} else {
		*ret_domains = domains;
		*ret_n = n;
	}
	free(loaded);
	free(mine);
	free(dom);
	free(exc);
	return rc;
}

int tomoyo_trial_unload(char *const *domains, size_t n,
			const char *exception_file)
{
	char *text = NULL, *exc = NULL, **lines = NULL;
	size_t len = 0, elen, i, nl = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f)
		return -ENOMEM;
	/* profile 0: the domains stay (a running program may be in one)
	 * but TOMOYO checks nothing in them */
	for (i = 0; i < n; i++)
		fprintf(f, "%s\nuse_profile 0\n", domains[i]);
	if (fclose(f))
		return -ENOMEM;
	rc = loadpolicy("-d", text, len);
	if (rc)
		goto out;
	rc = read_file(exception_file, 64 << 20, &exc, &elen);
	if (!rc)
		rc = lines_with(exc, "initialize_domain ", &lines, &nl);
	if (rc)
		goto out;
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	if (!f) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nl; i++)
		fprintf(f, "delete %s\n", lines[i]);
	if (fclose(f)) {
		rc = -ENOMEM;
		goto out;
	}
	rc = loadpolicy("-e", text, len);
out:
	for (i = 0; i < nl; i++)
		free(lines[i]);
	free(lines);
	free(exc);
	free(text);
	return rc;
}

int tomoyo_trial_drain(const char *dir)
{
	char buf[65536], *path;
	int in, out, rc = 0;
	ssize_t r;

	if (asprintf(&path, "%s/%s", dir, TOMOYO_TRIAL_LOG) < 0)
		return -ENOMEM;
	out = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (out < 0) {
		rc = -errno;
		p_err("%s: %s", path, strerror(errno));
		free(path);
		return rc;
	}
	/* non-blocking: the file waits for new entries otherwise */
	in = open(TOMOYO_FS "/audit", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (in < 0) {
		rc = -errno;
		p_err("%s: %s", TOMOYO_FS "/audit", strerror(errno));
		goto out;
	}
	while ((r = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, r) != r) {
			rc = -errno;
			p_err("%s: %s", path, strerror(errno));
			break;
		}
	}
	if (r < 0 && errno != EAGAIN && !rc) {
		rc = -errno;
		p_err("%s: %s", TOMOYO_FS "/audit", strerror(errno));
	}
	close(in);
out:
	if (close(out) && !rc) {
		rc = -errno;
		p_err("%s: %s", path, strerror(errno));
	}
	free(path);
	return rc;
}

int tomoyo_trial_rejects(const char *dir, tomoyo_reject_fn fn, void *ctx)
{
	char *path, *text = NULL, *p, *nl, *domain, *acl;
	size_t len;
	int rc;

	if (asprintf(&path, "%s/%s", dir, TOMOYO_TRIAL_LOG) < 0)
		return -ENOMEM;
	rc = read_file(path, 256 << 20, &text, &len);
	if (rc == -ENOENT) {
		rc = 0;
		goto out;
	}
	if (rc) {
		p_err("%s: %s", path, strerror(-rc));
		goto out;
	}
	/* TOMOYO ends each entry with a NUL: a line break like the others */
	for (p = text; p < text + len; p++)
		if (!*p)
			*p = '\n';
	/* an entry: "#DATE# profile=N mode=M granted=no ..." then its
	 * domain line, then its rule line */
	for (p = text; !rc && p && *p; p = nl) {
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = '\0';
		if (p[0] != '#' || !strstr(p, " granted=no "))
			continue;
		domain = nl;
		if (!domain)
			break;
		nl = strchr(domain, '\n');
		if (!nl)
			break;
		*nl++ = '\0';
		acl = nl;
		nl = strchr(acl, '\n');
		if (nl)
			*nl++ = '\0';
		rc = fn(ctx, domain, acl);
	}
out:
	free(text);
	free(path);
	return rc;
}
