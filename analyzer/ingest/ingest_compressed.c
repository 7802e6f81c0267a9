// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: ingest's compressed inputs: told by their magic bytes
 * and named with the command that reads them (never decompressed here:
 * saved positions are offsets in the file as it is).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vigil.h"
#include "util.h"
#include "ingest_int.h"

static const struct compressed compressed_kinds[] = {
	{ "gzip", "\x1f\x8b", "zcat", 2 },
	{ "xz", "\xfd" "7zXZ\0", "xzcat", 6 },
	{ "zstd", "\x28\xb5\x2f\xfd", "zstdcat", 4 },
	{ "bzip2", "BZh", "bzcat", 3 },
};

/* The kind of compressed data that head (n bytes) starts, or NULL. */
const struct compressed *ingest_compressed_kind(const void *head, size_t n)
{
	for (size_t i = 0; i < sizeof(compressed_kinds) /
				   sizeof(compressed_kinds[0]); i++) {
		const struct compressed *c = &compressed_kinds[i];

		if (n >= c->len && !memcmp(head, c->magic, c->len))
			return c;
	}
	return NULL;
}

/* s as one shell word: itself when it has only safe bytes, else quoted
 * '...' (each ' as '\''). A new string, or NULL. */
static char *sh_word(const char *s)
{
	size_t n = 3;
	char *w, *o;
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "abcdefghijklmnopqrstuvwxyz"
				   "0123456789._/+-,:=@%";

	if (*s && strspn(s, safe) == strlen(s))
		return strdup(s);
	for (const char *p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	w = o = malloc(n);
	if (!w)
		return NULL;
	*o++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return w;
}

/* Say that name holds compressed data c, and how to read it. */
void ingest_report_compressed(const char *name, const struct compressed *c)
{
	char *f = sh_word(name), *db = NULL;

	if (f && name[0] == '-' && name[1]) {
		/* not an option to the decompressor */
		char *g = NULL;

		if (asprintf(&g, "./%s", f) < 0)
			g = NULL;
		free(f);
		f = g;
	}
	if (vigil_db_opt)
		db = sh_word(vigil_db_opt);
	if (!strcmp(name, "-"))
		p_err("%s: compressed (%s): not read; to read it: "
		      "... | %s | vigil%s%s ingest -",
		      name, c->kind, c->cat, db ? " --db " : "", db ? db : "");
	else
		p_err("%s: compressed (%s): not read; to read it: "
		      "%s %s | vigil%s%s ingest -",
		      name, c->kind, c->cat, f ? f : name, db ? " --db " : "",
		      db ? db : "");
	free(f);
	free(db);
}
