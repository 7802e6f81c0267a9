// SPDX-License-Identifier: GPL-2.0-only
/*
 * microbench: ns per operation of hooked system calls, median of several
 * runs, for make bench (tests/bench/kernel runs it in the guest under each
 * configuration).
 *
 * usage: microbench ITERATIONS RUNS DIR [TINY_STATIC_BINARY [OP]]
 *        microbench --cold N DIR
 *        microbench --ab MODE_FILE PAIRS ITERATIONS DIR [ON_MODE]
 * DIR is a scratch folder (tmpfs). Prints "<op> <median ns/op>" lines.
 * --cold opens N distinct new files once each (first sightings for vigil)
 * and prints "open-cold <ns/op>". OP: run only that operation (for perf).
 * --ab measures learn-steady against off in one process and one boot: each
 * pair runs an operation with vigil off and with it learning (its tuples
 * already learned), in alternating order, switching the mode by writing
 * MODE_FILE between runs; prints, per operation, the median ns of each
 * side and the median and range of the pairs' learn/off ratios. Its
 * open-flat and open-deep open (openat, O_RDONLY) a file of DIR and one
 * VIGIL_BENCH_DEPTH folders below it, each by a descriptor of its folder
 * (the same lookup): their ratios differ by the cost of vigil's walk up
 * the folders (path-true verdicts, issue 25 §3), which a folder rename
 * made in DIR first switches on. ON_MODE (default learn) is the mode
 * measured against off: "observe" with a policy loaded whose block names
 * this program without a mode of its own (the global mode decides), its
 * tuples and verdicts already in the table; open-flat and open-deep are
 * then left out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __x86_64__
#include <x86intrin.h>
#endif

static char file[4096], tiny[4096];
static int flat_fd = -1, deep_fd = -1;

#define VIGIL_BENCH_DEPTH 32
static struct utsname uts;

/* ns per TSC tick when the clock is too coarse to time a run (--ab). */
static double tsc_ns;

static double clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double now_ns(void)
{
#ifdef __x86_64__
	if (tsc_ns)
		return __rdtsc() * tsc_ns;
#endif
	return clock_ns();
}

/*
 * A clock that moves in jiffies (a loaded host's TCG guest, whose TSC was
 * not taken as a clocksource) cannot time a run; the TSC still counts,
 * and a ratio of two runs needs no calibration: scale it by the clock
 * over 100 of its steps. Returns -1 when there is no TSC to use.
 */
static int use_tsc(double step)
{
#ifdef __x86_64__
	double t0 = clock_ns(), t1;
	unsigned long long c0 = __rdtsc(), c1;

	while ((t1 = clock_ns()) - t0 < 100 * step)
		;
	c1 = __rdtsc();
	if (c1 <= c0)
		return -1;
	tsc_ns = (t1 - t0) / (double)(c1 - c0);
	fprintf(stderr, "microbench: the clock moves in %.0f ns steps: timed by the TSC (%.3f ns a tick)\n",
		step, tsc_ns);
	return 0;
#else
	(void)step;
	return -1;
#endif
}

static void op_getppid(void)
{
	getppid();
}

static void op_open_close(void)
{
	close(open(file, O_RDONLY));
}

static void op_open_flat(void)
{
	close(openat(flat_fd, "bench-file", O_RDONLY));
}

static void op_open_deep(void)
{
	close(openat(deep_fd, "bench-file", O_RDONLY));
}

static void op_stat(void)
{
	struct stat st;

	stat(file, &st);
}

static void op_mmap_exec(void)
{
	int fd = open(file, O_RDONLY);
	void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);

	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(fd);
}

static void op_socket_bind(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(s, (struct sockaddr *)&a, sizeof(a));
	close(s);
}

/* sethostname() to the current name: a CAP_SYS_ADMIN check, no change. */
static void op_capable(void)
{
	sethostname(uts.nodename, strlen(uts.nodename));
}

static void op_exec(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		execl(tiny, tiny, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
}

/* The operations; div: fewer iterations for the expensive ones. */
static const struct {
	const char *name;
	void (*fn)(void);
	int div;
	bool ab;	/* measured by --ab (hooked, or the hookless control) */
} ops[] = {
	{ "getppid", op_getppid, 1, true },
	{ "open+close", op_open_close, 1, true },
	{ "open-flat", op_open_flat, 1, false },
	{ "open-deep", op_open_deep, 1, false },
	{ "stat", op_stat, 1, true },
	{ "mmap-exec", op_mmap_exec, 2, false },
	{ "socket+bind", op_socket_bind, 2, true },
	{ "capable", op_capable, 1, true },
	{ "exec", op_exec, 200, false },
};

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cold(long n, const char *dir)
{
	char path[4096];
	double start;
	long i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/cold.%ld", dir, i);
		close(open(path, O_CREAT | O_WRONLY, 0644));
	}
	start = now_ns();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/cold.%ld", dir, i);
		close(open(path, O_RDONLY));
	}
	printf("open-cold %.0f\n", (now_ns() - start) / n);
	return 0;
}

static double run_op(void (*fn)(void), long n)
{
	double start = now_ns();

	for (long i = 0; i < n; i++)
		fn();
	return (now_ns() - start) / n;
}

static int set_mode(const char *mode_file, const char *mode)
{
	FILE *f = fopen(mode_file, "w");

	if (!f || fputs(mode, f) < 0 || fclose(f)) {
		perror(mode_file);
		return -1;
	}
	return 0;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(v[0]), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * DIR/d/d/.../d (VIGIL_BENCH_DEPTH folders) with a bench-file, descriptors
 * of DIR and of the deepest folder, and a folder renamed in DIR (so that
 * vigil has seen a folder move: before the first, it walks nothing).
 */
static int deep_setup(const char *dir)
{
	char a[4096], b[4096];
	int fd, next;

	snprintf(a, sizeof(a), "%s/moved-a", dir);
	snprintf(b, sizeof(b), "%s/moved-b", dir);
	rmdir(b);
	if ((mkdir(a, 0755) && errno != EEXIST) || rename(a, b)) {
		perror("microbench: a folder rename");
		return -1;
	}
	flat_fd = open(dir, O_RDONLY | O_DIRECTORY);
	fd = dup(flat_fd);
	for (int i = 0; fd >= 0 && i < VIGIL_BENCH_DEPTH; i++) {
		mkdirat(fd, "d", 0755);
		next = openat(fd, "d", O_RDONLY | O_DIRECTORY);
		close(fd);
		fd = next;
	}
	deep_fd = fd;
	if (flat_fd < 0 || deep_fd < 0) {
		perror("microbench: the deep folders");
		return -1;
	}
	close(openat(deep_fd, "bench-file", O_CREAT | O_WRONLY, 0755));
	return 0;
}

static int ab(const char *mode_file, int pairs, long iters, const char *on)
{
	double off[64], learn[64], ratio[64];
	bool no_walk = strcmp(on, "learn") != 0;
	double step = 1e12, t0, t1;

	if (pairs < 1 || pairs > 64)
		return 2;
	/*
	 * A clock that moves in jiffies (a boot whose TSC was not used under
	 * emulation) says nothing: measure its smallest step.
	 */
	for (int i = 0; i < 100; i++) {
		t0 = now_ns();
		while ((t1 = now_ns()) == t0)
			;
		if (t1 - t0 < step)
			step = t1 - t0;
	}
	if (step > 10000 && use_tsc(step)) {
		fprintf(stderr, "microbench: the clock moves in %.0f ns steps\n", step);
		return 1;
	}
	for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		long n = iters / ops[o].div;

		if (!ops[o].ab && (no_walk || (ops[o].fn != op_open_flat &&
						  ops[o].fn != op_open_deep)))
			continue;
		/* Learn this process's tuples for the operation first. */
		if (set_mode(mode_file, on))
			return 1;
		run_op(ops[o].fn, n);
		for (int p = 0; p < pairs; p++) {
			for (int k = 0; k < 2; k++) {
				bool learning = (p + k) % 2;

				if (set_mode(mode_file, learning ? on : "off"))
					return 1;
				(learning ? learn : off)[p] = run_op(ops[o].fn, n);
			}
			ratio[p] = learn[p] / off[p];
		}
		qsort(ratio, pairs, sizeof(ratio[0]), cmp);
		printf("ab %s %.0f %.0f %+.1f%% %+.1f%% %+.1f%%\n", ops[o].name,
		       median(off, pairs), median(learn, pairs),
		       (median(ratio, pairs) - 1) * 100, (ratio[0] - 1) * 100,
		       (ratio[pairs - 1] - 1) * 100);
	}
	return set_mode(mode_file, "off") ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *only = argc > 5 ? argv[5] : NULL;
	double t[64];
	long iters;
	int runs;

	if (argc == 4 && !strcmp(argv[1], "--cold"))
		return cold(atol(argv[2]), argv[3]);
	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "--ab")) {
		snprintf(file, sizeof(file), "%s/bench-file", argv[5]);
		close(open(file, O_CREAT | O_WRONLY, 0755));
		if (deep_setup(argv[5]))
			return 1;
		uname(&uts);
		return ab(argv[2], atoi(argv[3]), atol(argv[4]),
			  argc == 7 ? argv[6] : "learn");
	}
	if (argc < 4)
		return 2;
	iters = atol(argv[1]);
	runs = atoi(argv[2]);
	if (runs < 1 || runs > 64 || iters < 50)
		return 2;
	snprintf(file, sizeof(file), "%s/bench-file", argv[3]);
	close(open(file, O_CREAT | O_WRONLY, 0755));
	if (argc > 4)
		snprintf(tiny, sizeof(tiny), "%s", argv[4]);
	uname(&uts);
	for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		long n = iters / ops[o].div;

		if ((ops[o].fn == op_exec && !tiny[0]) ||
		    (only && strcmp(only, ops[o].name)))
			continue;
		for (int r = 0; r < runs; r++) {
			double start = now_ns();

			for (long i = 0; i < n; i++)
				ops[o].fn();
			t[r] = (now_ns() - start) / n;
		}
		qsort(t, runs, sizeof(t[0]), cmp);
		printf("%s %.0f\n", ops[o].name, t[runs / 2]);
	}
	return 0;
}
