// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests: string interning and pair sets (intern.c), what vigil
 * report aggregates with. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "intern.h"

/* Ids are dense, in order of first sight; a string seen again gets its id. */
static void test_ids(void **state)
{
	struct strtab t = { 0 };
	uint32_t id;

	(void)state;
	assert_int_equal(strtab_find(&t, "a", 1), -1);
	assert_int_equal(strtab_intern(&t, "/usr/bin/a", 10, &id), 1);
	assert_int_equal(id, 0);
	assert_int_equal(strtab_intern(&t, "/usr/bin/b", 10, &id), 1);
	assert_int_equal(id, 1);
	assert_int_equal(strtab_intern(&t, "/usr/bin/a", 10, &id), 0);
	assert_int_equal(id, 0);
	/* a prefix, a longer string and the empty string are other strings */
	assert_int_equal(strtab_intern(&t, "/usr/bin/a", 9, &id), 1);
	assert_int_equal(id, 2);
	assert_string_equal(t.names[2], "/usr/bin/");
	assert_int_equal(strtab_intern(&t, "", 0, &id), 1);
	assert_int_equal(id, 3);
	assert_int_equal(strtab_find(&t, "", 0), 3);
	assert_int_equal(strtab_find(&t, "/usr/bin/b", 10), 1);
	assert_int_equal(strtab_find(&t, "/usr/bin/c", 10), -1);
	assert_int_equal(t.n, 4);
	strtab_free(&t);
	assert_int_equal(t.n, 0);
}

/* Through many regrowths (and strings longer than a storage block) every
 * id keeps its string and its pointer. */
static void test_growth(void **state)
{
	enum { N = 200000 };
	struct strtab t = { 0 };
	const char **seen = calloc(N, sizeof(*seen));
	char buf[64], *big;
	uint32_t id;
	size_t i;

	(void)state;
	assert_non_null(seen);
	for (i = 0; i < N; i++) {
		int n = snprintf(buf, sizeof(buf), "/proc/%zu/status", i);

		assert_int_equal(strtab_intern(&t, buf, n, &id), 1);
		assert_int_equal(id, i);
		seen[i] = t.names[id];
	}
	big = malloc(3 << 20);
	assert_non_null(big);
	memset(big, 'x', 3 << 20);
	assert_int_equal(strtab_intern(&t, big, 3 << 20, &id), 1);
	assert_int_equal(strlen(t.names[id]), 3 << 20);
	assert_int_equal(strtab_intern(&t, big, 3 << 20, &id), 0);
	for (i = 0; i < N; i += 7) {
		int n = snprintf(buf, sizeof(buf), "/proc/%zu/status", i);

		assert_int_equal(strtab_intern(&t, buf, n, &id), 0);
		assert_int_equal(id, i);
		assert_ptr_equal(t.names[i], seen[i]);
		assert_string_equal(t.names[i], buf);
	}
	assert_int_equal(t.n, N + 1);
	free(big);
	free(seen);
	strtab_free(&t);
}

static void test_pairs(void **state)
{
	struct pairset s = { 0 };
	uint64_t a, b;

	(void)state;
	assert_int_equal(pairset_add(&s, 1, 0), -EINVAL);
	assert_int_equal(pairset_add(&s, 0, 1), 1);
	assert_int_equal(pairset_add(&s, 0, 1), 0);
	assert_int_equal(pairset_add(&s, 1, 0 + 1), 1);
	assert_int_equal(pairset_add(&s, UINT64_MAX, UINT64_MAX), 1);
	assert_int_equal(pairset_add(&s, UINT64_MAX, UINT64_MAX), 0);
	assert_int_equal(s.n, 3);
	/* pairs that differ in one half only are distinct, through growth */
	for (a = 0; a < 300; a++)
		for (b = 1; b <= 300; b++)
			assert_int_equal(pairset_add(&s, a << 32, b), a || b > 1);
	assert_int_equal(s.n, 3 + 300 * 300 - 1);
	for (a = 0; a < 300; a += 13)
		for (b = 1; b <= 300; b += 11)
			assert_int_equal(pairset_add(&s, a << 32, b), 0);
	pairset_free(&s);
	assert_int_equal(s.n, 0);
}

/* Large tables are mappings, small ones calloc'ed: zeroed either way. */
static void test_table_alloc(void **state)
{
	size_t sizes[] = { 1000, (2 << 20) - 1, 2 << 20, 3 << 20 }, i, k;

	(void)state;
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		unsigned char *p = table_alloc(sizes[k]);

		assert_non_null(p);
		for (i = 0; i < sizes[k]; i += 997)
			assert_int_equal(p[i], 0);
		assert_int_equal(p[sizes[k] - 1], 0);
		memset(p, 7, sizes[k]);
		table_free(p, sizes[k]);
	}
	table_free(NULL, 3 << 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_table_alloc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
