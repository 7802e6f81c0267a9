// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: a policy text's blocks and rules with their lines
 * (ptext.h), for vigil diff and generate --update.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ptext.h"

void ptext_free(struct ptext *pt)
{
	size_t i;

	for (i = 0; i < pt->nblocks; i++) {
		vigil_glob_free(pt->blocks[i].glob);
		vigil_glob_free(pt->blocks[i].via);
		free(pt->blocks[i].src);
	}
	for (i = 0; i < pt->nrules; i++) {
		vigil_glob_free(pt->rules[i].glob);
		free(pt->rules[i].text);
	}
	free(pt->blocks);
	free(pt->rules);
}

#define MAX_TOKENS 8
struct token {
	const char *s;
	size_t len;
};

/* Split a line into tokens (escapes kept), stopping at a comment. */
static size_t tokenize(const char *s, size_t len, struct token *tok)
{
	size_t i = 0, n = 0;

	while (i < len) {
		size_t start;

		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == len || s[i] == '#')
			break;
		start = i;
		while (i < len && s[i] != ' ' && s[i] != '\t') {
			if (s[i] == '\\' && i + 1 < len)
				i++;
			i++;
		}
		if (n < MAX_TOKENS) {
			tok[n].s = s + start;
			tok[n].len = i - start;
		}
		n++;
	}
	return n;
}

static bool tok_is(const struct token *t, const char *word)
{
	return t->len == strlen(word) && !memcmp(t->s, word, t->len);
}

/*
 * List the blocks and rules of text (already accepted by the parser).
 * -EINVAL (with *ret_line) only if the two readings disagree.
 */
int ptext_read(const char *text, size_t len, struct ptext *pt,
		      unsigned int *ret_line)
{
	size_t pos = 0, bcap = 0, rcap = 0;
	unsigned int line = 0;
	bool open = false;
	char why[160];

	while (pos < len) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - s) : len - pos;
		struct token tok[MAX_TOKENS];
		size_t n;

		pos += l + (nl ? 1 : 0);
		line++;
		*ret_line = line;
		if (l && s[l - 1] == '\r')
			l--;
		n = tokenize(s, l, tok);
		if (!n)
			continue;
		if (tok_is(&tok[0], "subject") && n >= 3 && n <= 6) {
			struct pblock *b;

			if (pt->nblocks == bcap) {
				bcap = bcap ? bcap * 2 : 16;
				b = realloc(pt->blocks, bcap * sizeof(*b));
				if (!b)
					return -ENOMEM;
				pt->blocks = b;
			}
			b = &pt->blocks[pt->nblocks++];
			memset(b, 0, sizeof(*b));
			b->line = line;
			b->src = strndup(tok[1].s, tok[1].len);
			if (!b->src)
				return -ENOMEM;
			if (vigil_glob_compile(tok[1].s, tok[1].len, &b->glob,
					       why, sizeof(why)))
				return -EINVAL;
			if (n >= 5 && (!tok_is(&tok[2], "via") ||
				       vigil_glob_compile(tok[3].s, tok[3].len,
							  &b->via, why,
							  sizeof(why))))
				return -EINVAL;
			open = true;
		} else if (n == 1 && tok_is(&tok[0], "}")) {
			if (open && pt->nblocks)
				pt->blocks[pt->nblocks - 1].end_line = line;
			open = false;
		} else if (n == 3 && open) {
			struct prule *r;
			int class;

			if (pt->nrules == rcap) {
				rcap = rcap ? rcap * 2 : 64;
				r = realloc(pt->rules, rcap * sizeof(*r));
				if (!r)
					return -ENOMEM;
				pt->rules = r;
			}
			r = &pt->rules[pt->nrules];
			memset(r, 0, sizeof(*r));
			class = vigil_class_from_name(tok[0].s, tok[0].len);
			if (class < 0)
				return -EINVAL;
			r->class = class;
			r->block = pt->nblocks - 1;
			if (!pt->blocks[r->block].nrules)
				pt->blocks[r->block].first_rule = pt->nrules;
			pt->blocks[r->block].nrules++;
			r->line = line;
			if (vigil_access_parse(r->class, tok[1].s, tok[1].len,
					       &r->access))
				return -EINVAL;
			r->text = strndup(tok[0].s,
					  tok[2].s + tok[2].len - tok[0].s);
			if (!r->text)
				return -ENOMEM;
			pt->nrules++;
			if (vigil_glob_compile(tok[2].s, tok[2].len, &r->glob,
					       why, sizeof(why)))
				return -EINVAL;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The first block whose glob matches exe and, for a via block, whose via
 * glob matches one of the ancestors chain[0..n), as the parser decides
 * it.
 */
long ptext_find_block(const struct ptext *pt, const char *exe,
		       const struct vigil_policy_name *chain, unsigned int n)
{
	size_t i;
	unsigned int k;

	for (i = 0; i < pt->nblocks; i++) {
		const struct pblock *b = &pt->blocks[i];

		if (!vigil_glob_match(b->glob, exe, strlen(exe)))
			continue;
		if (!b->via)
			return (long)i;
		for (k = 0; k < n; k++)
			if (vigil_glob_match(b->via, chain[k].s, chain[k].len))
				return (long)i;
	}
	return -1;
}

/* The access of rule r that observed access a exercises. */
uint64_t ptext_exercised(enum vigil_class class, uint64_t r, uint64_t a)
{
	uint64_t used = r & a;

	if (class == VIGIL_CLASS_FILE && (r & VIGIL_FILE_W) &&
	    !(r & VIGIL_FILE_A) && (a & VIGIL_FILE_A))
		used |= VIGIL_FILE_W;
	return used;
}

/* What the block does not allow of access on object. */
uint64_t ptext_missing(const struct vigil_policy_subject *ps,
			       const struct vigil_rule *r, const char *obj)
{
	uint64_t missing = 0, bit;
	int i;

	if (!ps)
		return r->access;
	if (vigil_policy_allows(ps, r->class, r->access, obj, strlen(obj)))
		return 0;
	for (i = 0; i < 64; i++) {
		bit = 1ULL << i;
		if ((r->access & bit) &&
		    !vigil_policy_allows(ps, r->class, bit, obj, strlen(obj)))
			missing |= bit;
	}
	return missing;
}
