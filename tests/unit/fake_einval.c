// SPDX-License-Identifier: GPL-2.0-only
/*
 * LD_PRELOAD shim for the command-line tests: write(2) to the file named by
 * $FAKE_EINVAL_PATH fails with EINVAL, as the kernel's policy file does for
 * a policy it rejects. Lets "vigil load" be tested without a vigil kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t count)
{
	const char *victim = getenv("FAKE_EINVAL_PATH");
	char link[64], target[4096];
	ssize_t n;

	if (victim) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			if (!strcmp(target, victim)) {
				errno = EINVAL;
				return -1;
			}
		}
	}
	return syscall(SYS_write, fd, buf, count);
}
