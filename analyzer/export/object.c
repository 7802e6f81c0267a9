// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the objects of rules as the export targets read them:
 * globs as tokens of the shared matcher's lexer (match.c), the path a
 * file rule names, the capabilities a cap rule names, a net rule's
 * family, type and address.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vigil.h"
#include "util.h"
#include "match.h"
#include "driver.h"
#include "object.h"

/* ---- globs as tokens ---- */

void glob_toks_free(struct glob_toks *g)
{
	if (!g)
		return;
	free(g->t);
	g->t = NULL;
	g->n = 0;
}

/* A lexed item of the shared matcher as an exporter's token. */
static struct gtok gtok_of_item(u16 item)
{
	static const enum gtok_kind meta[] = {
		[VIGIL_GLOB_STAR - VIGIL_GLOB_STAR] = GT_STAR,
		[VIGIL_GLOB_DSTAR - VIGIL_GLOB_STAR] = GT_STAR2,
		[VIGIL_GLOB_ANY - VIGIL_GLOB_STAR] = GT_QMARK,
		[VIGIL_GLOB_LBRACE - VIGIL_GLOB_STAR] = GT_LBRACE,
		[VIGIL_GLOB_RBRACE - VIGIL_GLOB_STAR] = GT_RBRACE,
		[VIGIL_GLOB_COMMA - VIGIL_GLOB_STAR] = GT_COMMA,
	};
	struct gtok t = { .kind = GT_LIT, .c = (unsigned char)item };

	if (item >= VIGIL_GLOB_STAR) {
		t.kind = meta[item - VIGIL_GLOB_STAR];
		t.c = 0;
	}
	return t;
}

static int glob_toks_of_items(const u16 *items, size_t n,
			      struct glob_toks *ret)
{
	struct gtok *t;
	size_t i;

	t = calloc(n + 1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		t[i] = gtok_of_item(items[i]);
	ret->t = t;
	ret->n = n;
	return 0;
}

/*
 * The one lexer of the policy language is the kernel's (match.c): a
 * pattern the kernel would refuse is refused here too.
 */
int glob_toks_parse(const char *src, size_t len, struct glob_toks *ret)
{
	char why[160];
	unsigned int n;
	u16 *items;
	int rc;

	items = calloc(len + 1, sizeof(*items));
	if (!items)
		return -ENOMEM;
	rc = vigil_glob_lex(src, len, items, &n, why, sizeof(why));
	if (!rc)
		rc = glob_toks_of_items(items, n, ret);
	free(items);
	return rc;
}

int glob_alts_expand(const char *src, size_t len, struct glob_alts *ret)
{
	struct vigil_glob_alts *a;
	char why[160];
	size_t off = 0;
	unsigned int k;
	int rc;

	ret->n = 0;
	ret->v = NULL;
	rc = vigil_glob_expand(src, len, &a, why, sizeof(why));
	if (rc)
		return rc;
	ret->v = calloc(a->nalts, sizeof(*ret->v));
	if (!ret->v) {
		vigil_glob_alts_free(a);
		return -ENOMEM;
	}
	for (k = 0; k < a->nalts && !rc; k++) {
		rc = glob_toks_of_items(a->toks + off, a->lens[k], &ret->v[k]);
		if (!rc)
			ret->n++;
		off += a->lens[k];
	}
	vigil_glob_alts_free(a);
	if (rc)
		glob_alts_free(ret);
	return rc;
}

void glob_alts_free(struct glob_alts *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		glob_toks_free(&a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

int glob_toks_of_rule(const struct vigil_rule *r, struct glob_toks *ret)
{
	char *src;
	int rc;

	if (r->glob)
		return glob_toks_parse(r->glob, strlen(r->glob), ret);
	/* no source form: the object escaped as rules.c writes it */
	src = vigil_glob_escape_dup(r->object, strlen(r->object),
				    r->generalised);
	if (!src)
		return -ENOMEM;
	rc = glob_toks_parse(src, strlen(src), ret);
	free(src);
	return rc;
}

bool glob_toks_literal(const struct glob_toks *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (g->t[i].kind != GT_LIT)
			return false;
	return true;
}

char *glob_toks_text(const struct glob_toks *g)
{
	char *s;
	size_t i;

	if (!glob_toks_literal(g))
		return NULL;
	s = malloc(g->n + 1);
	if (!s)
		return NULL;
	for (i = 0; i < g->n; i++)
		s[i] = (char)g->t[i].c;
	s[g->n] = '\0';
	return s;
}

char *glob_toks_literal_dir(const struct glob_toks *g)
{
	size_t i, n = 0, slash = 0;
	char *s;

	for (i = 0; i < g->n && g->t[i].kind == GT_LIT; i++) {
		n++;
		if (g->t[i].c == '/')
			slash = n;
	}
	if (n < g->n)
		n = slash;
	s = malloc(n + 1);
	if (!s)
		return NULL;
	for (i = 0; i < n; i++)
		s[i] = (char)g->t[i].c;
	s[n] = '\0';
	return s;
}

int export_rule_path(const struct vigil_rule *r, struct export_notes *left,
		     const char *why, char **ret_path, bool *ret_lit)
{
	struct glob_toks g = { 0 };
	int rc;

	*ret_path = NULL;
	rc = glob_toks_of_rule(r, &g);
	if (rc == -EINVAL || (!rc && (!g.n || g.t[0].kind != GT_LIT ||
				      g.t[0].c != '/'))) {
		glob_toks_free(&g);
		rc = note_rule(left, r, why);
		return rc ? rc : 1;
	}
	if (rc)
		return rc;
	*ret_lit = glob_toks_literal(&g);
	*ret_path = *ret_lit ? glob_toks_text(&g) : glob_toks_literal_dir(&g);
	glob_toks_free(&g);
	return *ret_path ? 0 : -ENOMEM;
}


int export_caps(const struct vigil_rule *r, bool caps[VIGIL_CAP_COUNT])
{
	struct vigil_glob *g = NULL;
	char why[128], *src;
	int cap, rc;

	memset(caps, 0, VIGIL_CAP_COUNT * sizeof(caps[0]));
	cap = vigil_cap_from_name(r->object, strlen(r->object));
	if (cap >= 0 && cap < VIGIL_CAP_COUNT) {
		caps[cap] = true;
		return 0;
	}
	src = r->glob ? strdup(r->glob) :
		vigil_glob_escape_dup(r->object, strlen(r->object), true);
	if (!src)
		return -ENOMEM;
	rc = vigil_glob_compile(src, strlen(src), &g, why, sizeof(why));
	free(src);
	if (rc)
		return rc;
	for (cap = 0; cap < VIGIL_CAP_COUNT; cap++) {
		const char *n = vigil_cap_name(cap);

		if (n && vigil_glob_match(g, n, strlen(n)))
			caps[cap] = true;
	}
	vigil_glob_free(g);
	return 0;
}

void net_obj_free(struct net_obj *n)
{
	if (!n)
		return;
	free(n->family);
	free(n->type);
	free(n->addr);
	memset(n, 0, sizeof(*n));
}

int net_obj_parse(const struct vigil_rule *r, struct net_obj *ret)
{
	const char *o = r->object, *c1, *c2;
	struct net_obj n = { .port = -1 };

	c1 = strchr(o, ':');
	if (!c1 || c1 == o)
		return -EINVAL;
	c2 = strchr(c1 + 1, ':');
	n.family = strndup(o, c1 - o);
	n.type = c2 ? strndup(c1 + 1, c2 - c1 - 1) : strdup(c1 + 1);
	n.addr = c2 ? strdup(c2 + 1) : NULL;
	if (!n.family || !n.type || (c2 && !n.addr)) {
		net_obj_free(&n);
		return -ENOMEM;
	}
	if (!n.type[0]) {
		net_obj_free(&n);
		return -EINVAL;
	}
	if (n.addr && n.addr[0] && strcmp(n.family, "unix")) {
		uint64_t p;

		if (!parse_u64(n.addr, 65535, &p))
			n.port = (int)p;
	}
	*ret = n;
	return 0;
}
