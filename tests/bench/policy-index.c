// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy-index: the cost of an observe-mode first sighting's policy check
 * (vigil_policy_allows(), the shared kernel source built for userspace)
 * against candidates of 10 and 1,000 rules, with the rule index and with
 * the linear walk it replaced (vigil_policy_allows_linear(), measured in
 * the same run as the baseline). Never fails on timing.
 *
 * The candidates are tests/bench/guest-config's (make bench's observe-10
 * and observe-1000): N - 8 filler rules, each granting r on the whole tree
 * of /opt/filler/K, then the 8 rules the workload needs. The objects are
 * EVALS distinct paths, a fifth each: new files in the benchmark's folder
 * (allowed by the 8th rule from the end), libraries (the tree of
 * /usr/lib), files in /etc, a file
 * under one of the fillers, and a path no rule allows (denied). Two more
 * candidates of 1,000 rules: "1000-distinct", globs with distinct literal
 * stems in one folder ("/usr/lib/libK*.so", as generated policies write
 * versioned libraries), and "1000-shared", the index's worst case: globs
 * that all start with the same literal bytes ("/home/" then a wildcard,
 * then ".cache/K" and the tree below), so they share one key and the
 * denied fifth of the objects (under /home) walks all of them.
 *
 * usage: policy-index [EVALS [RUNS]]   (20000, 9; median of RUNS)
 * Prints "CONFIG MODE ns/eval" lines, then the ratios.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "policy.h"

#define MB "/tmp/mb"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* guest-config's rules(), or n globs of one of the two other shapes. */
static char *candidate(unsigned int n, int shape)
{
	size_t size = 64 + (size_t)n * 64 + 512, len = 0;
	char *t = malloc(size);
	unsigned int i;

	if (!t)
		abort();
	len += snprintf(t + len, size - len, "subject %s/microbench observe {\n", MB);
	if (shape) {
		for (i = 1; i <= n; i++)
			len += snprintf(t + len, size - len, shape == 1 ?
					"\tfile r /usr/lib/lib%u*.so\n" :
					"\tfile r /home/*/.cache/%u/**\n", i);
	} else {
		for (i = 1; i <= n - 8; i++)
			len += snprintf(t + len, size - len,
					"\tfile r /opt/filler/%u/**\n", i);
		len += snprintf(t + len, size - len,
				"\tfile rwcm %s/**\n\tfile rm /usr/lib/**\n"
				"\tfile r /etc/**\n\tfile rx %s/tiny\n"
				"\tcap use sys_admin\n"
				"\tnet socket,bind inet:dgram*\n"
				"\tfile r /proc/**\n\tfile rw /dev/**\n", MB, MB);
	}
	snprintf(t + len, size - len, "}\n");
	return t;
}

static char **objects(unsigned int evals, unsigned int n)
{
	char **o = calloc(evals, sizeof(*o));
	unsigned int i;

	if (!o)
		abort();
	for (i = 0; i < evals; i++) {
		switch (i % 5) {
		case 0:
			asprintf(&o[i], "%s/cold.%u", MB, i);
			break;
		case 1:
			asprintf(&o[i], "/usr/lib/x86_64-linux-gnu/lib%u.so.1", i);
			break;
		case 2:
			asprintf(&o[i], "/etc/conf.d/%u.conf", i);
			break;
		case 3:
			asprintf(&o[i], "/opt/filler/%u/share/%u",
				 n > 8 ? 1 + i % (n - 8) : 1, i);
			break;
		default:
			asprintf(&o[i], "/home/user/%u/.cache", i);
			break;
		}
		if (!o[i])
			abort();
	}
	return o;
}

typedef bool (*allows_fn)(const struct vigil_policy_subject *,
			  enum vigil_class, u64, const char *, size_t);

#define NCONFIGS 4

struct config {
	const char *name;
	unsigned int n;
	int shape;		/* 0: guest-config's, 1: distinct, 2: shared */
	struct vigil_policy *policy;
	char **objects;
	size_t *lens;
	double t[2][64];	/* [linear, index][run] ns/eval */
	unsigned int allowed[2];
};

/* One run over every object; returns ns per evaluation. */
static double run_once(struct config *c, allows_fn fn, unsigned int evals,
		       unsigned int *ret_allowed)
{
	const struct vigil_policy_subject *s =
		vigil_policy_subject_at(c->policy, 0);
	unsigned int i, allowed = 0;
	double t0 = now_ns();

	for (i = 0; i < evals; i++)
		allowed += fn(s, VIGIL_CLASS_FILE, VIGIL_FILE_R, c->objects[i],
			      c->lens[i]);
	*ret_allowed = allowed;
	return (now_ns() - t0) / evals;
}

static double median(double *t, unsigned int runs)
{
	qsort(t, runs, sizeof(t[0]), cmp_double);
	return t[runs / 2];
}

int main(int argc, char **argv)
{
	static struct config configs[NCONFIGS] = {
		{ .name = "10", .n = 10 }, { .name = "1000", .n = 1000 },
		{ .name = "1000-distinct", .n = 1000, .shape = 1 },
		{ .name = "1000-shared", .n = 1000, .shape = 2 },
	};
	unsigned int evals = argc > 1 ? (unsigned int)atoi(argv[1]) : 20000;
	unsigned int runs = argc > 2 ? (unsigned int)atoi(argv[2]) : 9;
	double ns[NCONFIGS][2];
	unsigned int c, m, i, r;

	if (!evals || !runs || runs > 64) {
		fprintf(stderr, "usage: policy-index [EVALS [RUNS<=64]]\n");
		return 2;
	}
	for (c = 0; c < NCONFIGS; c++) {
		struct config *k = &configs[c];
		char *text = candidate(k->n, k->shape);
		struct vigil_policy_error err;

		k->objects = objects(evals, k->n);
		k->lens = calloc(evals, sizeof(*k->lens));
		if (!k->lens)
			abort();
		for (i = 0; i < evals; i++)
			k->lens[i] = strlen(k->objects[i]);
		if (vigil_policy_parse(text, strlen(text), &k->policy, &err)) {
			fprintf(stderr, "line %u: %s\n", err.line, err.msg);
			return 1;
		}
		free(text);
	}
	/* Runs interleaved, so that drift and other load hit all alike. */
	for (r = 0; r < runs; r++)
		for (c = 0; c < NCONFIGS; c++)
			for (m = 0; m < 2; m++)
				configs[c].t[m][r] =
					run_once(&configs[c], m ?
						 vigil_policy_allows :
						 vigil_policy_allows_linear,
						 evals, &configs[c].allowed[m]);
	for (c = 0; c < NCONFIGS; c++) {
		struct config *k = &configs[c];

		for (m = 0; m < 2; m++) {
			ns[c][m] = median(k->t[m], runs);
			printf("%-14s %-6s %9.1f ns/eval (%u of %u allowed)\n",
			       k->name, m ? "index" : "linear", ns[c][m],
			       k->allowed[m], evals);
		}
		if (k->allowed[0] != k->allowed[1]) {
			fprintf(stderr, "verdicts differ: %u vs %u allowed\n",
				k->allowed[0], k->allowed[1]);
			return 1;
		}
		for (i = 0; i < evals; i++)
			free(k->objects[i]);
		free(k->objects);
		free(k->lens);
		vigil_policy_free(k->policy);
	}
	printf("\n1000 rules / 10 rules: linear %.2fx, index %.2fx (target < 2)\n",
	       ns[1][0] / ns[0][0], ns[1][1] / ns[0][1]);
	printf("index / linear: 10 rules %.2fx, 1000 rules %.4fx\n",
	       ns[0][1] / ns[0][0], ns[1][1] / ns[1][0]);
	printf("1000-distinct / 10 rules: linear %.2fx, index %.2fx\n",
	       ns[2][0] / ns[0][0], ns[2][1] / ns[0][1]);
	printf("1000-shared / 10 rules: linear %.2fx, index %.2fx (one key for all)\n",
	       ns[3][0] / ns[0][0], ns[3][1] / ns[0][1]);
	return 0;
}
