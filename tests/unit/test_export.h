/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the export tests share (test_export*.c, one file per target and
 * test_export.c for the driver): a rule set like a learned workload, a
 * temporary folder, the targets' tools, a shell command's output. Include
 * after <cmocka.h>, "export.h" and "test_files.h".
 */
#ifndef VIGIL_TEST_EXPORT_H
#define VIGIL_TEST_EXPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "export.h"
#include "rules.h"

#define T0 1796284356

/* ---- a rule set like a learned workload ---- */

__attribute__((unused))
static struct vigil_subject_rules *add_subject(struct vigil_ruleset *rs,
					       const char *exe)
{
	struct vigil_subject_rules *sr;

	rs->subjects = realloc(rs->subjects,
			       (rs->nsubjects + 1) * sizeof(*rs->subjects));
	assert_non_null(rs->subjects);
	sr = &rs->subjects[rs->nsubjects++];
	memset(sr, 0, sizeof(*sr));
	sr->exe = strdup(exe);
	sr->first = T0;
	sr->last = T0 + 60;
	return sr;
}

__attribute__((unused))
static void add_rule(struct vigil_subject_rules *sr, enum vigil_class class,
		     uint64_t access, const char *object, bool generalised)
{
	struct vigil_rule *r;

	sr->rules = realloc(sr->rules, (sr->nrules + 1) * sizeof(*sr->rules));
	assert_non_null(sr->rules);
	r = &sr->rules[sr->nrules++];
	memset(r, 0, sizeof(*r));
	r->class = class;
	r->access = access;
	r->object = strdup(object);
	r->generalised = generalised;
	r->glob = vigil_glob_escape_dup(object, strlen(object), generalised);
	if (!strncmp(object, "**", 2)) {
		/* not a path: "**" then the name, as rules.c writes it */
		char *e = vigil_glob_escape_dup(object + 2, strlen(object) - 2,
						false);

		free(r->glob);
		assert_true(asprintf(&r->glob, "**%s", e) > 0);
		free(e);
		r->generalised = true;
		r->heuristics = VIGIL_HEUR_RELATIVE;
	}
	if (generalised) {
		r->why_mem = strdup("versioned library");
		r->why = r->why_mem;
	}
	r->count = 3;
	r->first = T0;
	r->last = T0 + 10;
	r->distinct = 1;
	r->examples = calloc(1, sizeof(char *));
	r->examples[0] = strdup(object);
	r->nexamples = 1;
	sr->events += r->count;
}

__attribute__((unused))
static void add_child(struct vigil_subject_rules *sr, const char *exe)
{
	sr->children = realloc(sr->children,
			       (sr->nchildren + 1) * sizeof(char *));
	sr->children[sr->nchildren++] = strdup(exe);
}

#define F(x) VIGIL_FILE_##x

/* /usr/bin/demo and the child it runs, /usr/bin/demo-helper. */
__attribute__((unused))
static void workload(struct vigil_ruleset *rs)
{
	struct vigil_subject_rules *sr;

	memset(rs, 0, sizeof(*rs));
	rs->first = T0;
	rs->last = T0 + 60;
	rs->records = 42;
	rs->tuples = 30;
	sr = add_subject(rs, "/usr/bin/demo");
	add_child(sr, "/usr/bin/demo-helper");
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/etc/hostname", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/etc/demo/a b\"c#d", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/etc/demo/new\nline", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/etc/demo/star*{x,y}?", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W), "/var/lib/demo/**", true);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W) | F(C) | F(D) | F(T),
		 "/tmp/demo-work/out.txt", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(C) | F(D), "/tmp/demo-work/sub",
		 false);
	add_rule(sr, VIGIL_CLASS_FILE, F(A) | F(K), "/var/log/demo.log",
		 false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(M),
		 "/usr/lib/x86_64-linux-gnu/libc.so*", true);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(M),
		 "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(X), "/usr/bin/demo-helper", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R) | F(W) | F(I), "/dev/tty", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(I), "/dev/null", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "**anon_inode:[eventfd]", false);
	add_rule(sr, VIGIL_CLASS_CAP, VIGIL_CAP_USE, "net_bind_service", false);
	add_rule(sr, VIGIL_CLASS_NET,
		 VIGIL_NET_SOCKET | VIGIL_NET_BIND | VIGIL_NET_LISTEN |
			 VIGIL_NET_ACCEPT,
		 "inet:stream:8080", false);
	add_rule(sr, VIGIL_CLASS_NET,
		 VIGIL_NET_SOCKET | VIGIL_NET_BIND,
		 "unix:stream:/tmp/demo-work/demo.sock", false);
	add_rule(sr, VIGIL_CLASS_NET, VIGIL_NET_SOCKET | VIGIL_NET_CONNECT,
		 "unix:stream:/run/demo.sock", false);
	add_rule(sr, VIGIL_CLASS_SIGNAL, 1ULL << (15 - 1),
		 "/usr/bin/demo-helper", false);
	add_rule(sr, VIGIL_CLASS_PTRACE, VIGIL_PTRACE_READ, "/usr/bin/other",
		 false);
	add_rule(sr, VIGIL_CLASS_MOUNT, VIGIL_MOUNT_MOUNT | VIGIL_MOUNT_UMOUNT,
		 "/mnt/demo", false);
	add_rule(sr, VIGIL_CLASS_MODULE, VIGIL_MODULE_LOAD,
		 "/lib/modules/demo.ko", false);
	sr = add_subject(rs, "/usr/bin/demo-helper");
	add_rule(sr, VIGIL_CLASS_FILE, F(R), "/etc/passwd", false);
	add_rule(sr, VIGIL_CLASS_FILE, F(W) | F(C), "/tmp/demo-helper.log",
		 false);
	rs->nsubjects = 2;
}

/* ---- helpers ---- */

struct tdir {
	char path[64];
};

__attribute__((unused))
static void tdir_make(struct tdir *d)
{
	strcpy(d->path, "/tmp/vigil-export.XXXXXX");
	assert_non_null(mkdtemp(d->path));
}

__attribute__((unused))
static void tdir_rm(struct tdir *d)
{
	char cmd[128];

	if (getenv("VIGIL_TEST_KEEP")) {
		fprintf(stderr, "kept %s\n", d->path);
		return;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->path);
	assert_int_equal(system(cmd), 0);
}

__attribute__((unused))
static bool have(const char *tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

__attribute__((unused))
static void need(const char *tool, const char *package)
{
	if (!have(tool))
		fail_msg("%s not found: install the Debian package %s "
			 "(scripts/install-deps)", tool, package);
}

/* Run a shell command; its exit status, its output in *out. */
__attribute__((unused))
static int sh(char **out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int sh(char **out, const char *fmt, ...)
{
	char cmd[4096], tmp[] = "/tmp/vigil-sh.XXXXXX", full[4200];
	va_list ap;
	int fd, st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);
	snprintf(full, sizeof(full), "(%s) > %s 2>&1", cmd, tmp);
	st = system(full);
	if (out)
		*out = slurp(tmp);
	unlink(tmp);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

__attribute__((unused))
static bool contains(const char *text, const char *line)
{
	if (!strstr(text, line)) {
		print_error("missing: %s\n--- in:\n%s\n", line, text);
		return false;
	}
	return true;
}

__attribute__((unused))
static void check_header(const char *text, const char *cmt)
{
	char want[128];

	snprintf(want, sizeof(want), "%s generated by vigil ", cmt);
	assert_true(!strncmp(text, cmt, strlen(cmt)));
	assert_true(contains(text, want));
	assert_true(contains(text, "observed from 2026-12-03T"));
	assert_true(contains(text, "42 records"));
	assert_true(contains(text, "/usr/bin/demo"));
}

static const struct export_opts opts = { .db = "test.db" };

#endif /* VIGIL_TEST_EXPORT_H */
