// SPDX-License-Identifier: GPL-2.0-only
/*
 * make bench, vary-cost: what the names-that-vary heuristic (heur_vary,
 * analyzer/rules/rules_vary_group.c and rules_vary.c) costs generate. The
 * same rule build (vigil_rules_load_opts, every heuristic, no file system
 * check) from the same database is timed with heur_vary and without it
 * (rules_vary_off, the baseline), alternating in one process; medians and
 * their ratio.
 * N names of one folder, in three shapes:
 *  - merge: temp-<pid>.rdb of N runs (one glob at the end);
 *  - apart: conf-<n>.conf, N names of one shape read in every run (the
 *    worst case: every pair is tried and none merges);
 *  - mixed: N names of N/10 shapes (ten of each), read in every run;
 *  - words: moduleXYZ.py, N names of long words that do not look random,
 *    read in every run (none merge);
 * beside 200 rules of other folders. Prints, never fails on timing.
 * usage: vary-cost [RUNS]   (odd; default 5)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vigil.h"
#include "record.h"
#include "store.h"
#include "rules.h"
#include "rules_int.h"

static struct vigil_store *store;
static uint64_t seq;

static void rec(int64_t ms, uint32_t pid, const char *access,
		const char *object)
{
	struct vigil_record r = {
		.uid = 0, .pid = pid, .verdict = "learned", .op = "open",
		.access = access, .exe = "/usr/bin/bench", .object = object,
		.comm = "bench", .extra = "", .path = object,
	};

	r.seq = ++seq;
	if (vigil_store_add_record(store, "", ms, seq, &r) != 1) {
		fprintf(stderr, "vary-cost: cannot store a record\n");
		exit(2);
	}
}

static void fill(const char *shape, unsigned int n)
{
	char name[256];
	unsigned int i;
	int64_t t = 1796284800000LL;

	vigil_store_begin(store);
	for (i = 0; i < 200; i++) {	/* other folders: one name each */
		snprintf(name, sizeof(name), "/usr/share/bench/d%u/file", i);
		rec(t, 100, "r", name);
	}
	for (i = 0; i < n; i++) {
		if (!strcmp(shape, "merge")) {
			/* one run an hour, each with its pid */
			snprintf(name, sizeof(name),
				 "/var/lib/bench/temp-%u.rdb", 20000 + i * 7);
			rec(t + (int64_t)i * 3600000, 20000 + i * 7, "wc",
			    name);
		} else if (!strcmp(shape, "apart")) {
			/* read at the first run and the last */
			snprintf(name, sizeof(name),
				 "/etc/bench/conf-%u.conf", 1000 + i);
			rec(t, 100, "r", name);
			rec(t + 86400000, 101, "r", name);
		} else if (!strcmp(shape, "words")) {
			snprintf(name, sizeof(name),
				 "/usr/lib/bench/module%c%c%c.py",
				 "ghijklmnopqrstuv"[i / 256 % 16],
				 "ghijklmnopqrstuv"[i / 16 % 16],
				 "ghijklmnopqrstuv"[i % 16]);
			rec(t, 100, "r", name);
			rec(t + 86400000, 101, "r", name);
		} else {
			snprintf(name, sizeof(name),
				 "/etc/bench/s%u-%u.conf", i / 10, 1000 + i);
			rec(t, 100, "r", name);
			rec(t + 86400000, 101, "r", name);
		}
	}
	vigil_store_commit(store);
}

static double build_ms(bool vary, size_t *nrules)
{
	struct vigil_rules_opts o = { 0 };
	struct vigil_ruleset rs;
	struct timespec a, b;
	int rc;

	rules_vary_off = !vary;
	clock_gettime(CLOCK_MONOTONIC, &a);
	rc = vigil_rules_load_opts(store, NULL, 0, &o, &rs, NULL, 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (rc) {
		fprintf(stderr, "vary-cost: rules: %s\n", strerror(-rc));
		exit(2);
	}
	*nrules = rs.nsubjects ? rs.subjects[0].nrules : 0;
	vigil_ruleset_free(&rs);
	return (double)(b.tv_sec - a.tv_sec) * 1e3 +
	       (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static const char *const shapes[] = { "merge", "apart", "mixed",
					      "words" };
	static const unsigned int sizes[] = { 100, 500, 2000 };
	int runs = argc > 1 ? atoi(argv[1]) : 5;
	char dir[] = "/tmp/vigil-vary-cost.XXXXXX", path[64], err[256];
	size_t s, z;
	int i;

	if (runs < 1 || runs > 99 || !(runs & 1)) {
		fprintf(stderr, "usage: vary-cost [RUNS (odd, 1..99)]\n");
		return 2;
	}
	if (!mkdtemp(dir))
		return 2;
	printf("# generate's rule build with heur_vary / without it (the "
	       "baseline, same process, alternating), median of %d\n", runs);
	printf("%-6s %6s %12s %12s %7s %7s %7s\n", "shape", "names",
	       "with ms", "without ms", "ratio", "rules+", "rules-");
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		for (z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			double with[99], without[99];
			size_t nw = 0, nwo = 0;

			snprintf(path, sizeof(path), "%s/%s-%u.db", dir,
				 shapes[s], sizes[z]);
			if (vigil_store_open(path, &store, err, sizeof(err))) {
				fprintf(stderr, "vary-cost: %s\n", err);
				return 2;
			}
			seq = 0;
			fill(shapes[s], sizes[z]);
			build_ms(true, &nw);	/* warm the page cache */
			for (i = 0; i < runs; i++) {
				with[i] = build_ms(true, &nw);
				without[i] = build_ms(false, &nwo);
			}
			qsort(with, (size_t)runs, sizeof(double), dcmp);
			qsort(without, (size_t)runs, sizeof(double), dcmp);
			printf("%-6s %6u %12.2f %12.2f %6.2fx %7zu %7zu\n",
			       shapes[s], sizes[z], with[runs / 2],
			       without[runs / 2],
			       with[runs / 2] / without[runs / 2], nw, nwo);
			fflush(stdout);
			vigil_store_close(store);
			unlink(path);
		}
	}
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	return system(path) ? 2 : 0;
}
