// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil: persons, the owners of uids.
 *
 * Every user of a Debian system may hold 65,536 subordinate uids
 * (/etc/subuid, for rootless containers): bounds per uid would give it
 * 65,537 times each. Root writes the owners file with the ranges and
 * their owner (vigil owners fills it from /etc/subuid); a uid inside a
 * range is charged to its owner: its subjects, its tuples and pins, its
 * record rate. The map is published with RCU: a lookup never sleeps and
 * takes no lock.
 */

#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uidgid.h>

#include "vigil_limits.h"
#include "person.h"
#include "vigil.h"

static struct vigil_owners __rcu *owners_current;
static DEFINE_MUTEX(owners_lock);

/* The owner of the range @uid is in, or @uid itself. Never sleeps. */
kuid_t vigil_person(kuid_t uid)
{
	kuid_t person;

	if (!rcu_access_pointer(owners_current))
		return uid;
	rcu_read_lock();
	person = vigil_owners_lookup(rcu_dereference(owners_current),
				     __kuid_val(uid));
	rcu_read_unlock();
	return person;
}

static int range_cmp(const void *a, const void *b)
{
	const struct vigil_owner_range *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

static int parse_u32(const char **p, u32 *ret)
{
	const char *s = *p;
	u64 v = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (*s - '0');
		if (v > U32_MAX)
			return -ERANGE;
	}
	*ret = v;
	*p = s;
	return 0;
}

/**
 * vigil_owners_parse - read an owners map
 * @text: NUL-terminated lines "FIRST COUNT OWNER" (decimal uids); empty
 *        lines and lines starting with '#' are skipped
 * @ret: the map, sorted by FIRST (kfree() it), NULL when it is empty
 * @err: the reason of a rejection, "line N: ..."
 * @errsize: its size
 *
 * A range must not overlap another, pass uid 4294967294, or hold its
 * owner or root; an owner is not root, nor inside any range (one level).
 *
 * Return: 0, -EINVAL (with @err), -E2BIG or -ENOMEM.
 */
int vigil_owners_parse(const char *text, struct vigil_owners **ret,
		       char *err, size_t errsize)
{
	struct vigil_owners *o;
	const char *p = text;
	unsigned int n = 0, line = 0, i;
	const char *why;

	*ret = NULL;
	o = kvzalloc(struct_size(o, r, VIGIL_OWNERS_MAX), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	while (*p) {
		struct vigil_owner_range r;

		line++;
		if (*p == '\n' || *p == '#') {
			p = strchrnul(p, '\n');
			if (*p)
				p++;
			continue;
		}
		why = "expected FIRST COUNT OWNER";
		if (parse_u32(&p, &r.first) || *p++ != ' ' ||
		    parse_u32(&p, &r.count) || *p++ != ' ' ||
		    parse_u32(&p, &r.owner) || (*p && *p != '\n'))
			goto bad;
		if (*p)
			p++;
		why = "empty range";
		if (!r.count)
			goto bad;
		why = "range past uid 4294967294";
		if (r.count - 1 > U32_MAX - 1 - r.first)
			goto bad;
		why = "range holds root or its own owner";
		if (!r.first || r.owner - r.first < r.count)
			goto bad;
		why = "root owns no range";
		if (!r.owner)
			goto bad;
		if (n == VIGIL_OWNERS_MAX) {
			kvfree(o);
			snprintf(err, errsize, "line %u: more than %u ranges",
				 line, VIGIL_OWNERS_MAX);
			return -E2BIG;
		}
		o->r[n++] = r;
	}
	sort(o->r, n, sizeof(o->r[0]), range_cmp, NULL);
	for (i = 0; i < n; i++) {
		if (i && o->r[i].first - o->r[i - 1].first <
			 o->r[i - 1].count) {
			snprintf(err, errsize, "ranges at %u and %u overlap",
				 o->r[i - 1].first, o->r[i].first);
			kvfree(o);
			return -EINVAL;
		}
	}
	o->n = n;
	for (i = 0; i < n; i++) {
		if (!uid_eq(vigil_owners_lookup(o, o->r[i].owner),
			    KUIDT_INIT(o->r[i].owner))) {
			snprintf(err, errsize,
				 "owner %u is inside a range itself",
				 o->r[i].owner);
			kvfree(o);
			return -EINVAL;
		}
	}
	if (!n) {
		kvfree(o);
		o = NULL;
	}
	*ret = o;
	return 0;

bad:
	snprintf(err, errsize, "line %u: %s", line, why);
	kvfree(o);
	return -EINVAL;
}

/* @uid's owner in @o (a map not yet published), or @uid. */
kuid_t vigil_owners_lookup(const struct vigil_owners *o, u32 uid)
{
	unsigned int lo = 0, hi = o ? o->n : 0, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (uid < o->r[mid].first)
			hi = mid;
		else if (uid - o->r[mid].first >= o->r[mid].count)
			lo = mid + 1;
		else
			return KUIDT_INIT(o->r[mid].owner);
	}
	return KUIDT_INIT(uid);
}

/* Publish @o (or none, NULL) in place of the map in force. */
void vigil_owners_replace(struct vigil_owners *o)
{
	struct vigil_owners *old;

	mutex_lock(&owners_lock);
	old = rcu_replace_pointer(owners_current, o,
				  lockdep_is_held(&owners_lock));
	mutex_unlock(&owners_lock);
	if (old) {
		synchronize_rcu();
		kvfree(old);
	}
}

/* The map in force as text, for the owners file; kvfree() it. */
char *vigil_owners_dump(size_t *ret_len)
{
	const struct vigil_owners *o;
	size_t cap, len = 0;
	unsigned int i;
	char *buf;

	mutex_lock(&owners_lock);
	o = rcu_dereference_protected(owners_current,
				      lockdep_is_held(&owners_lock));
	cap = (o ? o->n : 0) * 33 + 1;
	buf = kvmalloc(cap, GFP_KERNEL);
	if (buf) {
		for (i = 0; o && i < o->n; i++)
			len += scnprintf(buf + len, cap - len, "%u %u %u\n",
					 o->r[i].first, o->r[i].count,
					 o->r[i].owner);
		buf[len] = '\0';
	}
	mutex_unlock(&owners_lock);
	*ret_len = len;
	return buf;
}
