// SPDX-License-Identifier: GPL-2.0-only
/*
 * syscall-loop: ns per operation of a few hooked system calls, median of
 * several runs, for a quick look at vigil's cost in the guest.
 *
 * usage: syscall-loop [ITERATIONS [RUNS [FILE]]]
 * FILE (default /etc/hostname) is opened and stat'ed; put it on tmpfs
 * to measure the hooks rather than a network file system.
 * prints: "<name> <median ns/op>" per operation
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

static const char *file = "/etc/hostname";

static void op_open_close(void)
{
	close(open(file, O_RDONLY));
}

static void op_stat(void)
{
	struct stat st;

	stat(file, &st);
}

static void op_socket(void)
{
	close(socket(AF_INET, SOCK_DGRAM, 0));
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} ops[] = {
		{ "getppid", op_getppid },
		{ "open+close", op_open_close },
		{ "stat", op_stat },
		{ "socket+close", op_socket },
	};
	long iters = argc > 1 ? atol(argv[1]) : 20000;
	int runs = argc > 2 ? atoi(argv[2]) : 9;
	double t[64];

	if (argc > 3)
		file = argv[3];

	if (runs < 1 || runs > 64 || iters < 1)
		return 2;
	for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		for (int r = 0; r < runs; r++) {
			double start = now_ns();

			for (long i = 0; i < iters; i++)
				ops[o].fn();
			t[r] = (now_ns() - start) / iters;
		}
		qsort(t, runs, sizeof(t[0]), cmp);
		printf("%s %.0f\n", ops[o].name, t[runs / 2]);
	}
	return 0;
}
