// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: generate --update --format json: what the update did to
 * the candidate (each change with its evidence, the counts) and the
 * updated policy text, as one object (docs/generate.md, "--update").
 * Names are the candidate's as written (policy form) and escaped for JSON
 * as everywhere (esc_json_member: KEY_hex beside a name that is not UTF-8).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "rules.h"
#include "update.h"

int vigil_update_json_begin(struct vigil_update_json *j)
{
	memset(j, 0, sizeof(*j));
	j->f = open_memstream(&j->buf, &j->len);
	return j->f ? 0 : -ENOMEM;
}

/* ,"KEY":"ISO" or ,"KEY":null (unknown: 0). */
static void json_time(FILE *f, const char *key, int64_t t)
{
	char b[32];

	fprintf(f, ",\"%s\":", key);
	if (t)
		fprintf(f, "\"%s\"", vigil_time_iso(t, b, sizeof(b)));
	else
		fputs("null", f);
}

int vigil_update_json_change(void *ctx, const struct vigil_update_change *c)
{
	struct vigil_update_json *j = ctx;
	const struct vigil_rule *r = c->r;
	FILE *f = j->f;
	char acc[1024];
	int rc;

	vigil_access_format(c->class, c->access, acc, sizeof(acc));
	fprintf(f, "%s{\"kind\":\"%s\",", j->n++ ? "," : "", c->kind);
	rc = esc_json_member(f, "subject", c->subject);
	fputc(',', f);
	rc = rc ? rc : esc_json_member(f, "via", c->via);
	fprintf(f, ",\"line\":%u,\"class\":\"%s\",\"access\":\"%s\",",
		c->line, vigil_class_name(c->class), acc);
	rc = rc ? rc : esc_json_member(f, "glob", c->glob);
	if (r) {
		fprintf(f, ",\"count\":%llu,\"distinct\":%u",
			(unsigned long long)r->count, r->distinct);
		json_time(f, "first", r->first);
		json_time(f, "last", r->last);
		fputs(",\"uids\":[", f);
		for (unsigned int i = 0; i < r->uids.n; i++)
			fprintf(f, "%s%u", i ? "," : "",
				(unsigned int)r->uids.v[i]);
		fputc(']', f);
	} else {
		fputs(",\"count\":null,\"distinct\":null,\"first\":null,"
		      "\"last\":null,\"uids\":[]", f);
	}
	fputc(',', f);
	rc = rc ? rc : esc_json_member(f, "text", c->text);
	fputc('}', f);
	return rc;
}

int vigil_update_json_end(struct vigil_update_json *j, FILE *out,
			  const char *candidate, const char *written,
			  const struct vigil_update_stats *st,
			  const size_t aa[3], const char *policy)
{
	int rc;

	if (fclose(j->f)) {
		j->f = NULL;
		return -ENOMEM;
	}
	j->f = NULL;
	fputs("{\"version\":1,", out);
	rc = esc_json_member(out, "candidate", candidate);
	fputc(',', out);
	rc = rc ? rc : esc_json_member(out, "written", written);
	fprintf(out, ",\"added\":%zu,\"proposed\":%zu,\"left_out\":%zu,"
		"\"sensitive\":%zu,\"kept_out\":%zu,\"literal\":%zu,"
		"\"unnamed\":%zu,", st->added, st->proposed, st->left_out,
		st->sensitive, st->kept_out, st->literal, st->unnamed);
	if (aa)
		fprintf(out, "\"apparmor\":{\"merged\":%zu,\"optional\":%zu,"
			"\"other\":%zu},", aa[0], aa[1], aa[2]);
	else
		fputs("\"apparmor\":null,", out);
	fputs("\"changes\":[", out);
	if (j->len)
		fwrite(j->buf, 1, j->len, out);
	fputs("],", out);
	rc = rc ? rc : esc_json_member(out, "policy", policy);
	fputs("}\n", out);
	return rc;
}

void vigil_update_json_free(struct vigil_update_json *j)
{
	if (j->f)
		fclose(j->f);
	free(j->buf);
	j->f = NULL;
	j->buf = NULL;
}
