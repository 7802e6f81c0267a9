// SPDX-License-Identifier: GPL-2.0-only
/*
 * microbench: ns per operation of hooked system calls, median of several
 * runs, for make bench (tests/bench/kernel runs it in the guest under each
 * configuration).
 *
 * usage: microbench ITERATIONS RUNS DIR [TINY_STATIC_BINARY [OP]]
 *        microbench --cold N DIR
 * DIR is a scratch folder (tmpfs). Prints "<op> <median ns/op>" lines.
 * --cold opens N distinct new files once each (first sightings for vigil)
 * and prints "open-cold <ns/op>". OP: run only that operation (for perf).
 */
#define _GNU_SOURCE
#include <fcntl.h>
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

static char file[4096], tiny[4096];
static struct utsname uts;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void op_getppid(void)
{
	getppid();
}

static void op_open_close(void)
{
	close(open(file, O_RDONLY));
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

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
		int div;	/* fewer iterations for expensive ops */
	} ops[] = {
		{ "getppid", op_getppid, 1 },
		{ "open+close", op_open_close, 1 },
		{ "stat", op_stat, 1 },
		{ "mmap-exec", op_mmap_exec, 2 },
		{ "socket+bind", op_socket_bind, 2 },
		{ "capable", op_capable, 1 },
		{ "exec", op_exec, 200 },
	};
	const char *only = argc > 5 ? argv[5] : NULL;
	double t[64];
	long iters;
	int runs;

	if (argc == 4 && !strcmp(argv[1], "--cold"))
		return cold(atol(argv[2]), argv[3]);
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
