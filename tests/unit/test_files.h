/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers the cmocka tests share: run a verb with its output in a file,
 * read a file whole, write one. Include after <cmocka.h>, "vigil.h" and
 * "util.h". (slurp is never inlined: GCC 12 takes the inlined read_file()
 * out-pointer for a dangling one.)
 */
#ifndef VIGIL_TEST_FILES_H
#define VIGIL_TEST_FILES_H

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* Run a verb with stdout and stderr in file out; return its exit code. */
__attribute__((unused))
static int run_verb(int (*fn)(int, char **), char **argv, const char *out)
{
	int argc = 0, rc, o, e, fd;

	while (argv[argc])
		argc++;
	fflush(stdout);
	fflush(stderr);
	o = dup(1);
	e = dup(2);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	rc = fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(o, 1);
	dup2(e, 2);
	close(o);
	close(e);
	vigil_db_opt = NULL;
	return rc;
}

/* The whole file (at most 1 MiB), malloc'd and NUL-terminated. */
__attribute__((unused, noinline))
static char *slurp(const char *file)
{
	char *buf = NULL;

	assert_int_equal(read_file(file, 1 << 20, &buf, NULL), 0);
	return buf;
}

__attribute__((unused))
static void write_text(const char *file, const char *text)
{
	FILE *f = fopen(file, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

#endif /* VIGIL_TEST_FILES_H */
