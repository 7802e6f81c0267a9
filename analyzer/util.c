// SPDX-License-Identifier: GPL-2.0-only
/* vigil analyzer: small helpers (messages, paths, numbers, files). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vigil.h"

const char *vigil_db_opt;
const char *progname = "vigil";

void p_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void p_warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: warning: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *vigil_db_path(void)
{
	const char *env;

	if (vigil_db_opt)
		return vigil_db_opt;
	env = getenv("VIGIL_DB");
	if (env && *env)
		return env;
	if (geteuid() == 0) {
		/* make the folder the first time; if that fails, the open
		 * of the database will say why */
		(void)mkdir("/var/lib/vigil", 0700);
		return "/var/lib/vigil/vigil.db";
	}
	return "vigil.db";
}

const char *vigil_securityfs(void)
{
	const char *env = getenv("VIGIL_SECURITYFS");

	if (env && *env)
		return env;
	return "/sys/kernel/security/vigil";
}

int parse_u64(const char *s, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned int d;

		if (*s < '0' || *s > '9')
			return -EINVAL;
		d = *s - '0';
		if (v > (max - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*ret = v;
	return 0;
}

int grow_array(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*arr, ncap * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

uint64_t fnv1a64(const void *data, size_t len, uint64_t h)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

int read_file(const char *path, size_t max, char **ret_buf, size_t *ret_len)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *nbuf;

			if (ncap > max + 1)
				ncap = max + 1;
			if (ncap <= len + 1) {
				ret = -EFBIG;
				goto out_free;
			}
			nbuf = realloc(buf, ncap);
			if (!nbuf) {
				ret = -ENOMEM;
				goto out_free;
			}
			buf = nbuf;
			cap = ncap;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto out_free;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	*ret_buf = buf;
	if (ret_len)
		*ret_len = len;
	return 0;
out_free:
	free(buf);
	close(fd);
	return ret;
}

/*
 * Options every database verb takes: --db PATH, -h. Returns optind, or -1
 * after printing usage (exit 2), or -2 for -h (printed, exit 0).
 */
int verb_getopt_db(int argc, char **argv, const char *usage)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			vigil_db_opt = optarg;
			break;
		case 'h':
			printf("usage: %s %s\n", progname, usage);
			return -2;
		default:
			fprintf(stderr, "usage: %s %s\n", progname, usage);
			return -1;
		}
	}
	return optind;
}
