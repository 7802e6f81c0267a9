// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: ingest's records, shared with the plugin: a line's
 * record header checked, syscall context counted from its header alone,
 * each record handed to auparse alone and its event counted by its
 * (node, time, serial) key, malformed records named, the summary.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vigil.h"
#include "util.h"
#include "record.h"
#include "store.h"
#include "ingest.h"
#include "ingest_int.h"

void ingest_init(struct ingest *in, struct vigil_store *store)
{
	memset(in, 0, sizeof(*in));
	in->store = store;
}

void ingest_fini(struct ingest *in)
{
	vigil_record_free(&in->rec);
	for (int i = 0; i < INGEST_MAX_LOCATIONS; i++)
		free(in->where[i]);
}

void ingest_malformed(struct ingest *in, const char *file, uint64_t line,
		      const char *reason)
{
	if (in->malformed < INGEST_MAX_LOCATIONS) {
		char *w;

		if (asprintf(&w, "%s:%llu", file, (unsigned long long)line) < 0)
			w = NULL;
		in->where[in->malformed] = w;
		in->why[in->malformed] = reason;
	}
	in->malformed++;
}

/* Count events: a key not among the recent ones starts a new event. */
static void count_event(struct ingest *in, const struct ingest_key *k)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(in->recent); i++) {
		const struct ingest_key *r = &in->recent[i];

		if (r->serial == k->serial && r->time_ms == k->time_ms &&
		    r->node_hash == k->node_hash)
			return;
	}
	in->recent[in->recent_next] = *k;
	in->recent_next = (in->recent_next + 1) % ARRAY_SIZE(in->recent);
	in->events++;
}

int ingest_record(struct ingest *in, auparse_state_t *au, const char *text,
		  size_t len, const char *file, uint64_t line)
{
	const au_event_t *ts = auparse_get_timestamp(au);
	const char *reason = NULL;
	struct ingest_key key;
	enum rec_kind kind;
	int rc;

	if (!ts) {
		ingest_malformed(in, file, line, "record without timestamp");
		return 0;
	}
	if (ts->sec < 0 || ts->sec > 100000000000LL || ts->milli > 999) {
		ingest_malformed(in, file, line, "timestamp out of range");
		return 0;
	}
	if (auparse_get_num_fields(au) <= (ts->host ? 2U : 1U)) {
		ingest_malformed(in, file, line, "record without fields");
		return 0;
	}
	in->records++;
	key.node_hash =
		ts->host ? fnv1a64(ts->host, strlen(ts->host), FNV1A64_INIT) :
			   0;
	key.time_ms = (int64_t)ts->sec * 1000 + ts->milli;
	key.serial = ts->serial;
	count_event(in, &key);

	kind = vigil_record_kind(au);
	switch (kind) {
	case REC_CONTEXT:
		return 0;
	case REC_VIGIL:
		rc = vigil_record_parse(au, &in->rec, &reason);
		if (rc == -EINVAL) {
			in->records--;
			ingest_malformed(in, file, line, reason);
			return 0;
		}
		if (rc)
			return rc;
		rc = vigil_store_add_record(in->store, ts->host, key.time_ms,
					    ts->serial, &in->rec);
		if (rc < 0)
			return rc;
		if (rc)
			in->stored++;
		else
			in->duplicates++;
		return 0;
	default:
		in->foreign[kind]++;
		rc = vigil_store_add_foreign(in->store, ts->host, key.time_ms,
					     ts->serial, vigil_record_type(au),
					     kind, text, len);
		return rc < 0 ? rc : 0;
	}
}

void ingest_summary(const struct ingest *in, const char *verb)
{
	unsigned int shown = in->malformed < INGEST_MAX_LOCATIONS ?
				     in->malformed :
				     INGEST_MAX_LOCATIONS;

	printf("vigil %s: %llu events read, %llu vigil records stored, "
	       "%llu duplicates skipped, foreign records: %llu AppArmor, "
	       "%llu SELinux, %llu Landlock, %llu other; %llu malformed",
	       verb, (unsigned long long)in->events,
	       (unsigned long long)in->stored,
	       (unsigned long long)in->duplicates,
	       (unsigned long long)in->foreign[REC_APPARMOR],
	       (unsigned long long)in->foreign[REC_SELINUX],
	       (unsigned long long)in->foreign[REC_LANDLOCK],
	       (unsigned long long)in->foreign[REC_FOREIGN_OTHER],
	       (unsigned long long)in->malformed);
	for (unsigned int i = 0; i < shown; i++)
		printf("%s%s", i ? ", " : " (",
		       in->where[i] ? in->where[i] : "?");
	if (in->malformed > shown)
		printf(", ...");
	printf("%s\n", shown ? ")" : "");
	fflush(stdout);
	for (unsigned int i = 0; i < shown; i++)
		p_err("%s: malformed record: %s",
		      in->where[i] ? in->where[i] : "?", in->why[i]);
}

enum header_status ingest_parse_header(const char *p, size_t len,
				       struct rec_header *h)
{
	const char *end = p + len, *q;
	int digits;

	memset(h, 0, sizeof(*h));
	if (len > 5 && !memcmp(p, "node=", 5)) {
		h->node = p + 5;
		q = memchr(h->node, ' ', end - h->node);
		if (!q || q == h->node)
			return HEADER_NOT_RECORD;
		h->node_len = q - h->node;
		p = q + 1;
	}
	if (end - p < 6 || memcmp(p, "type=", 5) || p[5] == ' ')
		return HEADER_NOT_RECORD;
	h->type = p + 5;
	q = memchr(h->type, ' ', end - h->type);
	if (!q)
		return HEADER_BAD;
	h->type_len = q - h->type;
	p = q + 1;
	if (end - p < 10 || memcmp(p, "msg=audit(", 10))
		return HEADER_BAD;
	p += 10;
	for (digits = 0; p < end && *p >= '0' && *p <= '9'; p++, digits++)
		h->sec = h->sec * 10 + (*p - '0');
	if (!digits || digits > 11 || p >= end || *p++ != '.')
		return HEADER_BAD;
	for (digits = 0; p < end && *p >= '0' && *p <= '9'; p++, digits++)
		h->ms = h->ms * 10 + (*p - '0');
	if (digits != 3 || p >= end || *p++ != ':')
		return HEADER_BAD;
	for (digits = 0; p < end && *p >= '0' && *p <= '9'; p++, digits++)
		h->serial = h->serial * 10 + (*p - '0');
	if (!digits || digits > 19 || end - p < 2 || memcmp(p, "):", 2) ||
	    (end - p > 2 && p[2] != ' '))
		return HEADER_BAD;
	return HEADER_OK;
}

/*
 * The bulk of a log is syscall context (SYSCALL, PATH, CWD, PROCTITLE...)
 * that vigil only counts: those are counted from the header alone and
 * skip auparse. Return true when handled.
 */
bool ingest_context_fast_path(struct ingest *in,
			      const struct rec_header *h)
{
	static const char *const context_types[] = {
		"SYSCALL",  "PATH", "CWD",     "PROCTITLE",  "EXECVE",
		"SOCKADDR", "MMAP", "FD_PAIR", "BPRM_FCAPS", "CAPSET",
	};
	struct ingest_key key;
	bool known = false;

	for (size_t i = 0; i < ARRAY_SIZE(context_types); i++)
		if (strlen(context_types[i]) == h->type_len &&
		    !memcmp(h->type, context_types[i], h->type_len))
			known = true;
	if (!known)
		return false;
	in->records++;
	key.node_hash = h->node ? fnv1a64(h->node, h->node_len, FNV1A64_INIT) :
				  0;
	key.time_ms = (int64_t)h->sec * 1000 + h->ms;
	key.serial = h->serial;
	count_event(in, &key);
	return true;
}
