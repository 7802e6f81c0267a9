// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: vigil report over several hosts (issue 28): per host,
 * its records, would-be denials, distinct accesses, when it last learned
 * something new (still learning: within the last hour of the window), and
 * how far it deviates from the fleet: its accesses that fewer than half
 * of the hosts running the same subject made (what generate --min-hosts
 * 50% leaves out of the fleet's candidate). Aggregated during report's
 * one scan (intern.h), then once over the distinct (host, access) pairs.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "report.h"
#include "util.h"

#define HOUR_MS 3600000LL
/* Host and exe ids packed with the host in the low bits. */
#define HOST_BITS 20

int report_hosts_init(struct report *r)
{
	struct report_hosts *h = &r->hosts;

	if (r->nodes.nselected < 2)
		return 0;
	if (r->nodes.n >= (1u << HOST_BITS))
		return 0;	/* more than a million hosts: not per host */
	h->row = calloc(r->nodes.n, sizeof(*h->row));
	if (!h->row)
		return -ENOMEM;
	for (size_t i = 0; i < r->nodes.n; i++) {
		h->row[i].first_ms = LLONG_MAX;
		h->row[i].last_ms = LLONG_MIN;
		h->row[i].last_new_ms = LLONG_MIN;
	}
	h->last_host = -1;
	h->on = true;
	return 0;
}

void report_hosts_free(struct report *r)
{
	struct report_hosts *h = &r->hosts;

	free(h->row);
	free(h->last_node);
	free(h->exe_hosts);
	pairset_free(&h->pairs);
	pairset_free(&h->exe_pairs);
	memset(h, 0, sizeof(*h));
}

/* The host index of a stored node value, the last one cached. */
static long host_of(struct report *r, const char *node)
{
	struct report_hosts *h = &r->hosts;

	if (h->last_node && !strcmp(h->last_node, node))
		return h->last_host;
	free(h->last_node);
	h->last_node = strdup(node);
	h->last_host = vigil_nodes_host(&r->nodes, node);
	if (!h->last_node)
		return -2;
	return h->last_host;
}

int report_hosts_row(struct report *r, const char *node, long long t,
		     uint32_t xid, uint32_t oid, uint32_t aid, bool denied)
{
	struct report_hosts *h = &r->hosts;
	struct host_row *hr;
	long hid;
	int rc;

	if (!h->on)
		return 0;
	hid = host_of(r, node ? node : "");
	if (hid == -2)
		return -ENOMEM;
	if (hid < 0)
		return 0;
	hr = &h->row[hid];
	hr->records++;
	if (t < hr->first_ms)
		hr->first_ms = t;
	if (t > hr->last_ms)
		hr->last_ms = t;
	if (denied) {
		hr->denied++;
		return 0;
	}
	if (xid == UINT32_MAX)
		return 0;	/* no executable: no access of a subject */
	rc = pairset_add(&h->pairs, (uint64_t)oid << 32 | aid,
			 ((uint64_t)xid << HOST_BITS | (uint64_t)hid) + 1);
	if (rc < 0)
		return rc;
	if (!rc)
		return 0;
	hr->tuples++;
	if (t > hr->last_new_ms)
		hr->last_new_ms = t;
	rc = pairset_add(&h->exe_pairs, xid, (uint64_t)hid + 1);
	if (rc <= 0)
		return rc;
	if (xid >= h->exe_cap) {
		void *p = h->exe_hosts;
		size_t old = h->exe_cap;

		if (grow_array(&p, &h->exe_cap, (size_t)xid + 1,
			       sizeof(*h->exe_hosts)))
			return -ENOMEM;
		h->exe_hosts = p;
		memset(h->exe_hosts + old, 0,
		       (h->exe_cap - old) * sizeof(*h->exe_hosts));
	}
	h->exe_hosts[xid]++;
	return 0;
}

/* The pairs, sorted by access and exe: each run is one access's hosts. */
static int pair_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	uint64_t ex = (x[1] - 1) >> HOST_BITS, ey = (y[1] - 1) >> HOST_BITS;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return ex < ey ? -1 : ex > ey;
}

int report_hosts_end(struct report *r)
{
	struct report_hosts *h = &r->hosts;
	uint64_t (*v)[2] = h->pairs.slots;
	size_t i, j, k, n = 0;

	if (!h->on)
		return 0;
	/*
	 * The set is read once more, so its own slots are the sorted list:
	 * the pairs moved to the front (a 20 M-pair fleet needs no second
	 * 320 MB), and the set freed after.
	 */
	for (i = 0; i < h->pairs.nslots; i++)
		if (v[i][1]) {
			v[n][0] = v[i][0];
			v[n][1] = v[i][1];
			n++;
		}
	if (n > 1)
		qsort(v, n, sizeof(*v), pair_cmp);
	for (i = 0; i < n; i = j) {
		uint64_t xid = (v[i][1] - 1) >> HOST_BITS;
		uint64_t ran = xid < h->exe_cap ? h->exe_hosts[xid] : 0;

		for (j = i; j < n && !pair_cmp(v[i], v[j]); j++)
			;
		/* fewer than half of the hosts that ran the subject */
		if (2 * (j - i) >= ran)
			continue;
		for (k = i; k < j; k++)
			h->row[(v[k][1] - 1) & ((1u << HOST_BITS) - 1)].deviate++;
	}
	pairset_free(&h->pairs);
	return 0;
}

static bool still_learning(const struct report *r, const struct host_row *hr)
{
	return hr->last_new_ms != LLONG_MIN &&
	       hr->last_new_ms > r->last_ms - HOUR_MS;
}

/* Hosts by deviation, then name: an index into the rows. */
static const struct report *sort_r;

static int dev_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const struct host_row *hx = &sort_r->hosts.row[x];
	const struct host_row *hy = &sort_r->hosts.row[y];

	if (hx->deviate != hy->deviate)
		return hx->deviate > hy->deviate ? -1 : 1;
	return strcmp(sort_r->nodes.names[x], sort_r->nodes.names[y]);
}

/* The hosts with records, most deviant first: *ret (malloc'd), *n. */
static size_t *hosts_sorted(struct report *r, size_t *ret_n,
			    size_t *ret_learning)
{
	struct report_hosts *h = &r->hosts;
	size_t i, n = 0, learning = 0, *idx;

	idx = calloc(r->nodes.n + 1, sizeof(*idx));
	if (!idx)
		return NULL;
	for (i = 0; i < r->nodes.n; i++) {
		if (!r->nodes.selected[i] || !h->row[i].records)
			continue;
		idx[n++] = i;
		learning += still_learning(r, &h->row[i]);
	}
	sort_r = r;
	qsort(idx, n, sizeof(*idx), dev_cmp);
	*ret_n = n;
	*ret_learning = learning;
	return idx;
}

void report_hosts_html(struct report *r, FILE *f)
{
	struct report_hosts *h = &r->hosts;
	size_t i, n, learning, *idx;
	char a[32];

	if (!h->on || !(idx = hosts_sorted(r, &n, &learning)))
		return;
	fprintf(f, "<h2>Hosts</h2>\n<p id=\"hosts\">%zu hosts with records, "
		"%zu still learning (a new access in the window's last "
		"hour). Deviation: the accesses fewer than half of the hosts "
		"running the same subject made (what <code>generate "
		"--min-hosts 50%%</code> leaves out), most deviant first.</p>\n"
		"<table id=\"hosts-table\"><tr><th>host</th><th>records</th>"
		"<th>accesses</th><th>would-deny</th><th>deviation</th>"
		"<th>last new access</th><th>learning</th></tr>\n", n,
		learning);
	for (i = 0; i < n; i++) {
		const struct host_row *hr = &h->row[idx[i]];
		bool l = still_learning(r, hr);

		fputs("<tr><td>", f);
		esc_html(f, r->nodes.names[idx[i]]);
		fprintf(f, "</td><td class=\"n\">%lld</td><td class=\"n\">"
			"%lld</td><td class=\"n\">%lld</td><td class=\"n\">"
			"%lld</td><td>%s</td><td class=\"%s\">%s</td></tr>\n",
			hr->records, hr->tuples, hr->denied, hr->deviate,
			report_iso(hr->last_new_ms, a, sizeof(a)),
			l ? "no" : "ok", l ? "still learning" : "converged");
	}
	fputs("</table>\n", f);
	free(idx);
}

void report_hosts_text(struct report *r, FILE *f)
{
	struct report_hosts *h = &r->hosts;
	size_t i, n, learning, *idx;
	char a[32];

	if (!h->on || !(idx = hosts_sorted(r, &n, &learning)))
		return;
	fprintf(f, "\nhosts: %zu with records, %zu still learning (a new "
		"access in the window's last hour); deviation: accesses "
		"fewer than half of the hosts running the subject made\n",
		n, learning);
	fprintf(f, "%-24s %9s %7s %7s %9s %-20s %s\n", "host", "records",
		"access", "denied", "deviation", "last new", "learning");
	for (i = 0; i < n; i++) {
		const struct host_row *hr = &h->row[idx[i]];
		char *e = esc_text_dup(r->nodes.names[idx[i]]);

		fprintf(f, "%-24s %9lld %7lld %7lld %9lld %-20s %s\n",
			e ? e : "?", hr->records, hr->tuples, hr->denied,
			hr->deviate, report_iso(hr->last_new_ms, a, sizeof(a)),
			still_learning(r, hr) ? "still learning" : "converged");
		free(e);
	}
	free(idx);
}

int report_hosts_json(struct report *r, FILE *f)
{
	struct report_hosts *h = &r->hosts;
	size_t i;
	int rc = 0;
	bool first = true;

	if (!h->on)
		return 0;
	fputs("\"hosts\":[", f);
	for (i = 0; i < r->nodes.n && !rc; i++) {
		const struct host_row *hr = &h->row[i];

		if (!r->nodes.selected[i] || !hr->records)
			continue;
		fputs(first ? "{" : ",{", f);
		first = false;
		rc = esc_json_member(f, "host", r->nodes.names[i]);
		fprintf(f, ",\"records\":%lld,\"accesses\":%lld,"
			"\"would_deny\":%lld,\"deviation\":%lld,"
			"\"last_new_ms\":%lld,\"still_learning\":%s}",
			hr->records, hr->tuples, hr->denied, hr->deviate,
			hr->last_new_ms == LLONG_MIN ? 0 : hr->last_new_ms,
			still_learning(r, hr) ? "true" : "false");
	}
	fputs("],", f);
	return rc;
}
