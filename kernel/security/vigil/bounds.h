/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil: what one person may take of a pool every user shares.
 *
 * A person is a uid, or the owner of a range of subordinate uids
 * (person.c). Each shared pool (subjects, pins, the record rate) has a
 * capacity; what unprivileged persons hold of it together is bounded so
 * that no number of uids can take it all:
 *
 *  - persons together fill at most vigil_pool_bulk() of it (3/4);
 *  - past that, only a person holding little (less than 1/64 of the pool)
 *    may take more, up to vigil_pool_unpriv() (7/8): a service account's
 *    first programs and records still get in while others flood;
 *  - the last 1/8 is root's (and a privileged exec's), never taken by
 *    unprivileged persons.
 */
#ifndef _SECURITY_VIGIL_BOUNDS_H
#define _SECURITY_VIGIL_BOUNDS_H

#include <linux/types.h>

/* What unprivileged persons together may fill of a pool of @cap. */
static inline u64 vigil_pool_bulk(u64 cap)
{
	return cap - cap / 4;
}

/* ...and with the new takes of persons holding little. */
static inline u64 vigil_pool_unpriv(u64 cap)
{
	return cap - cap / 8;
}

/* A person holding less than this of a pool holds little. */
static inline u64 vigil_pool_little(u64 cap)
{
	return cap / 64;
}

/**
 * vigil_pool_admit - may an unprivileged person take @n more of a pool?
 * @cap: the pool's capacity
 * @used: what unprivileged persons hold of it together
 * @held: what this person holds of it
 * @n: what it asks for
 *
 * Return: true when the pool's bounds allow it.
 */
static inline bool vigil_pool_admit(u64 cap, u64 used, u64 held, u64 n)
{
	if (used + n <= vigil_pool_bulk(cap))
		return true;
	return held < vigil_pool_little(cap) &&
	       used + n <= vigil_pool_unpriv(cap);
}

#endif /* _SECURITY_VIGIL_BOUNDS_H */
