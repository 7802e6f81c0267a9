// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the content-addressed store heuristic over a subject's
 * rules (issue 24 §2): DIR/HH/HASH as DIR/??/STAR, judged by the machine.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "blast.h"
#include "rules_int.h"

/*
 * Content-addressed stores (issue 24 §2): objects kept in fan-out
 * folders named by two hex digits, under names that are hashes
 * (DIR/4d/<38 hex>) or temporary names made in them (DIR/ed/tmp_obj_X),
 * become DIR/??/STAR, and the fan-out folders themselves (made and
 * removed by the program) DIR/??, when the machine allows it.
 */
static bool hex2(const char *s, size_t len)
{
	size_t i;

	if (len != 2)
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

static bool hashed(const char *s)
{
	size_t n = 0;

	for (; *s; s++, n++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return n >= 30;
}

/* A temporary name in a store's folder: tmp_..._RANDOM. */
static bool store_temp(const char *s)
{
	const char *u = strrchr(s, '_');

	return !strncmp(s, "tmp_", 4) && u && rules_looks_random(u + 1,
								 strlen(u + 1));
}

/*
 * The store DIR of a rule (its length), and whether it is an object
 * (DIR/HH/NAME) or a fan-out folder (DIR/HH); 0 when neither.
 */
static size_t store_dir(const struct vigil_rule *r, bool *object)
{
	const char *o = r->object, *last, *prev;
	size_t l;

	if (r->class != VIGIL_CLASS_FILE || r->generalised ||
	    r->heuristics || o[0] != '/' || rules_has_meta(o))
		return 0;
	l = rules_dir_len(o);
	last = o + l + 1;
	if (hex2(last, strlen(last)) && l > 0) {
		*object = false;
		return l;
	}
	if (!l || !(hashed(last) || store_temp(last)))
		return 0;
	for (prev = o + l; prev > o && prev[-1] != '/'; prev--)
		;
	if (prev == o || !hex2(prev, (size_t)(o + l - prev)))
		return 0;
	*object = true;
	return (size_t)(prev - 1 - o);
}

int rules_heur_store(struct vigil_rule *rules, size_t *n, struct blast *b)
{
	size_t i, j, dl, dl2;
	bool any = false, obj, obj2;
	int rc = 0;

	for (i = 0; i < *n && !rc; i++) {
		unsigned int nobj = 0, ndir = 0, pass;
		char *globs[2] = { NULL, NULL };
		bool ok[2] = { false, false };

		dl = store_dir(&rules[i], &obj);
		if (!dl || !obj || !hashed(rules[i].object +
					   rules_dir_len(rules[i].object) + 1))
			continue;
		/* a store with one hashed object at least: its members */
		for (j = 0; j < *n; j++) {
			dl2 = store_dir(&rules[j], &obj2);
			if (dl2 != dl || memcmp(rules[j].object,
						rules[i].object, dl))
				continue;
			if (obj2)
				nobj++;
			else
				ndir++;
		}
		for (pass = 0; pass < 2 && !rc; pass++) {
			char *note = NULL;

			if (!(pass ? ndir : nobj))
				continue;
			globs[pass] = malloc(dl + 6);
			if (!globs[pass]) {
				rc = -ENOMEM;
				break;
			}
			memcpy(globs[pass], rules[i].object, dl);
			strcpy(globs[pass] + dl, pass ? "/?" "?" : "/?" "?/*");
			rc = b ? blast_judge(b, globs[pass],
					     pass ? ndir : nobj, true, &note) : 1;
			if (rc < 0)
				break;
			ok[pass] = rc == 1;
			rc = 0;
			for (j = 0; j < *n && note && !rc; j++) {
				dl2 = store_dir(&rules[j], &obj2);
				if (dl2 == dl && obj2 == !pass &&
				    !memcmp(rules[j].object, rules[i].object,
					    dl))
					rc = rules_set_blast(&rules[j], note);
			}
			free(note);
		}
		for (j = 0; j < *n && !rc; j++) {
			struct vigil_rule *r = &rules[j];
			char *g, *o;

			dl2 = store_dir(r, &obj2);
			if (dl2 != dl || memcmp(r->object, rules[i].object, dl) ||
			    !ok[!obj2])
				continue;
			o = strdup(globs[!obj2]);
			g = o ? vigil_glob_escape_dup(o, strlen(o), true) : NULL;
			if (!g) {
				free(o);
				rc = -ENOMEM;
				break;
			}
			free(r->object);
			r->object = o;
			free(r->glob);
			r->glob = g;
			r->heuristics |= VIGIL_HEUR_STORE;
			r->generalised = true;
			any = true;
		}
		free(globs[0]);
		free(globs[1]);
	}
	if (!rc && any)
		rules_sort_merge(rules, n);
	return rc;
}
