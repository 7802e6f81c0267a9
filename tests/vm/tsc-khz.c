// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host's TSC rate in kHz, for the guest's tsc_early_khz= (tests/vm/run).
 * Under TCG a guest's rdtsc reads the host's TSC, but the guest calibrates
 * it against an emulated PIT: on a loaded host that calibration can be
 * off by 5x (478 and 506 MHz seen for 2,596 MHz), and with tsc=reliable the
 * guest's clock then runs 5x fast (a test's 600 s timeout came after 120 s).
 * Measured against CLOCK_MONOTONIC_RAW over 50 ms, the median of three.
 * Exit 1 where there is no TSC to read (not x86).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>

static double ns_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1e9 + (b->tv_nsec - a->tv_nsec);
}

static double one(void)
{
	struct timespec a, b;
	unsigned long long t0, t1;

	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	t0 = __rdtsc();
	do
		clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	while (ns_between(&a, &b) < 50e6);
	t1 = __rdtsc();
	return (double)(t1 - t0) / ns_between(&a, &b) * 1e6;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

int main(void)
{
	double v[3] = { one(), one(), one() };

	qsort(v, 3, sizeof(v[0]), cmp);
	if (v[1] < 1e5 || v[1] > 1e8)	/* 100 MHz .. 100 GHz */
		return 1;
	printf("%.0f\n", v[1]);
	return 0;
}
#else
int main(void)
{
	return 1;
}
#endif
