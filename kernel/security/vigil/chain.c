// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil: exec chains, the "via" of a subject: the executables of its exec
 * ancestors, root-most first, nearest last, joined by '/' (each element
 * starts with '/', so every "//" starts one). At most VIGIL_VIA_ELEMS
 * elements and VIGIL_VIA_MAX bytes: the nearest are kept, and a chain cut
 * short starts with the element "?". Pure functions: no allocation, no
 * lock, so KUnit tests them (chain_test.c) and any context may call them.
 */

#include <linux/string.h>

#include "vigil_limits.h"
#include "policy.h"
#include "subject.h"
#include "vigil.h"

/*
 * Can @exe be an element of a chain? A canonical path: it starts with
 * '/', never ends with one and never holds "//" (a name made up by the
 * kernel, memfd's, could), so that splitting a chain at each "//" gives
 * back exactly its elements.
 */
static bool via_element_ok(const char *exe, size_t len)
{
	size_t i;

	if (!len || exe[0] != '/' || exe[len - 1] == '/')
		return false;
	for (i = 1; i < len; i++)
		if (exe[i] == '/' && exe[i - 1] == '/')
			return false;
	return true;
}

/**
 * vigil_via_split - the elements of a chain
 * @via: the chain (not NUL-terminated)
 * @len: its length
 * @names: set to its elements, root-most first, without a leading "?"
 * @max: room in @names
 * @ret_cut: set when the chain starts with "?" (cut short), or when it
 *           had more than @max elements (the nearest @max are given)
 *
 * Return: how many elements were set.
 */
unsigned int vigil_via_split(const char *via, size_t len,
			     struct vigil_policy_name *names, unsigned int max,
			     bool *ret_cut)
{
	size_t start = 0, i;
	unsigned int n = 0;

	*ret_cut = false;
	if (!len || !max)
		return 0;
	for (i = 0; i <= len; i++) {
		if (i < len && !(via[i] == '/' && i + 1 < len &&
				 via[i + 1] == '/'))
			continue;
		/* An element is via[start, i); the next starts at i + 1. */
		if (!start && i == 1 && via[0] == '?') {
			*ret_cut = true;
		} else {
			if (n == max) {
				memmove(names, names + 1,
					(max - 1) * sizeof(*names));
				n--;
				*ret_cut = true;
			}
			names[n].s = via + start;
			names[n++].len = i - start;
		}
		start = i + 1;
	}
	return n;
}

/**
 * vigil_via_build - the chain of a program a task execs
 * @buf: VIGIL_VIA_MAX + 1 bytes, set to the chain, NUL-terminated
 * @via: the task's own chain (its subject's), "" when it has none
 * @via_len: its length
 * @exe: the task's executable (its subject's)
 * @len: its length
 * @cut: the task's subject cuts the chain (the overflow subject "?", or
 *       names from another mount namespace than the new program's)
 * @crossed: the task's subject was exec'd under another uid class than
 *           its own exec parent (vigil_subject.crossed)
 *
 * The new chain is @via then @exe, @exe left out when it is already the
 * nearest element (a program that execs itself, nested shells) and ran
 * under the same uid class (a user's service manager started by root's
 * stays an element of its own), then cut
 * to its nearest elements. A task that cuts the chain, or whose @exe
 * cannot be an element, gives "?": something unknown ran the program.
 *
 * Return: the length of the chain in @buf.
 */
size_t vigil_via_build(char *buf, const char *via, size_t via_len,
		       const char *exe, size_t len, bool cut, bool crossed)
{
	struct vigil_policy_name el[VIGIL_VIA_ELEMS + 1];
	size_t bytes, w;
	unsigned int n, k, i;
	bool was_cut;

	if (cut || !via_element_ok(exe, len)) {
		strscpy(buf, "?", VIGIL_VIA_MAX + 1);
		return 1;
	}
	n = vigil_via_split(via, via_len, el, VIGIL_VIA_ELEMS, &was_cut);
	if (!n || crossed || el[n - 1].len != len ||
	    memcmp(el[n - 1].s, exe, len)) {
		el[n].s = exe;
		el[n++].len = len;
	}
	bytes = n - 1;
	for (i = 0; i < n; i++)
		bytes += el[i].len;
	if (!was_cut && n <= VIGIL_VIA_ELEMS && bytes <= VIGIL_VIA_MAX) {
		k = n;
		w = 0;
	} else {
		/* "?" and the nearest elements that fit after it. */
		bytes = 1;
		for (k = 0; k < n && k < VIGIL_VIA_ELEMS - 1; k++) {
			if (bytes + 1 + el[n - 1 - k].len > VIGIL_VIA_MAX)
				break;
			bytes += 1 + el[n - 1 - k].len;
		}
		buf[0] = '?';
		w = 1;
	}
	for (i = n - k; i < n; i++) {
		if (w)
			buf[w++] = '/';
		memcpy(buf + w, el[i].s, el[i].len);
		w += el[i].len;
	}
	buf[w] = '\0';
	return w;
}
