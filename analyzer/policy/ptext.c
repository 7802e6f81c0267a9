// SPDX-License-Identifier: GPL-2.0-only
/* vigil analyzer: a candidate's text as blocks and rules (ptext.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "ptext.h"
#include "policy.h"
#include "util.h"

void ptext_free(struct ptext *pt)
{
	size_t i;

	for (i = 0; i < pt->nblocks; i++) {
		vigil_glob_free(pt->blocks[i].glob);
		vigil_glob_free(pt->blocks[i].via);
		free(pt->blocks[i].src);
		free(pt->blocks[i].via_src);
	}
	for (i = 0; i < pt->nrules; i++) {
		vigil_glob_free(pt->rules[i].glob);
		free(pt->rules[i].text);
	}
	free(pt->blocks);
	free(pt->rules);
}


/* Split a line into tokens (escapes kept), stopping at a comment. */
size_t ptext_tokenize(const char *s, size_t len, struct ptext_token *tok)
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
		if (n < PTEXT_MAX_TOKENS) {
			tok[n].s = s + start;
			tok[n].len = i - start;
		}
		n++;
	}
	return n;
}

static bool tok_is(const struct ptext_token *t, const char *word)
{
	return t->len == strlen(word) && !memcmp(t->s, word, t->len);
}

/*
 * The VIGIL_POLICY_UCLASS_* bits of a "uid" word's classes ("root,user"),
 * as the parser accepted them.
 */
static unsigned int uclasses_of(const struct ptext_token *t)
{
	static const char *const names[] = { "root", "system", "user" };
	unsigned int bits = 0;
	size_t at = 0, end, i;

	while (at < t->len) {
		for (end = at; end < t->len && t->s[end] != ','; end++)
			;
		for (i = 0; i < 3; i++)
			if (end - at == strlen(names[i]) &&
			    !memcmp(t->s + at, names[i], end - at))
				bits |= 1U << i;
		at = end + 1;
	}
	return bits;
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
		struct ptext_token tok[PTEXT_MAX_TOKENS];
		size_t n;

		pos += l + (nl ? 1 : 0);
		line++;
		*ret_line = line;
		if (l && s[l - 1] == '\r')
			l--;
		n = ptext_tokenize(s, l, tok);
		if (!n)
			continue;
		if (tok_is(&tok[0], "subject") && n >= 3 &&
		    n <= PTEXT_MAX_TOKENS) {
			struct pblock *b;
			size_t at = 2;

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
			if (n >= 5 && tok_is(&tok[2], "via")) {
				b->via_src = strndup(tok[3].s, tok[3].len);
				if (!b->via_src)
					return -ENOMEM;
				if (vigil_glob_compile(tok[3].s, tok[3].len,
						       &b->via, why,
						       sizeof(why)))
					return -EINVAL;
				at = 4;
			}
			b->uclasses = VIGIL_POLICY_UCLASS_ALL;
			if (at + 2 < n && tok_is(&tok[at], "uid"))
				b->uclasses = uclasses_of(&tok[at + 1]);
			open = true;
		} else if (n == 1 && tok_is(&tok[0], "}")) {
			if (open && pt->nblocks)
				pt->blocks[pt->nblocks - 1].close_line = line;
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
		      const struct vigil_policy_name *chain, unsigned int n,
		      unsigned int uclasses)
{
	size_t i;
	unsigned int k;

	for (i = 0; i < pt->nblocks; i++) {
		const struct pblock *b = &pt->blocks[i];

		if (!(b->uclasses & uclasses) ||
		    !vigil_glob_match(b->glob, exe, strlen(exe)))
			continue;
		if (!b->via)
			return (long)i;
		for (k = 0; k < n; k++)
			if (vigil_glob_match(b->via, chain[k].s, chain[k].len))
				return (long)i;
	}
	return -1;
}

uint64_t ptext_exercised(enum vigil_class class, uint64_t r, uint64_t a)
{
	uint64_t used = r & a;

	if (class == VIGIL_CLASS_FILE && (r & VIGIL_FILE_W) &&
	    !(r & VIGIL_FILE_A) && (a & VIGIL_FILE_A))
		used |= VIGIL_FILE_W;
	return used;
}

uint64_t ptext_missing(const struct vigil_policy_subject *ps,
		       enum vigil_class class, uint64_t access, const char *obj)
{
	uint64_t missing = 0, bit;
	int i;

	if (!ps)
		return access;
	if (vigil_policy_allows(ps, class, access, obj, strlen(obj)))
		return 0;
	for (i = 0; i < 64; i++) {
		bit = 1ULL << i;
		if ((access & bit) &&
		    !vigil_policy_allows(ps, class, bit, obj, strlen(obj)))
			missing |= bit;
	}
	return missing;
}

/*
 * Call fn(a, b, ctx) for each block b and each earlier block a that names
 * the same program (subject and via written alike), until fn returns
 * true for b. The number of calls that returned true, or -ENOMEM.
 */
static int same_program_pairs(const char *text, size_t len,
			      bool (*fn)(const struct pblock *a,
					 const struct pblock *b, void *ctx),
			      void *ctx)
{
	struct ptext pt = { 0 };
	unsigned int line = 0;
	int rc, n = 0;

	rc = ptext_read(text, len, &pt, &line);
	if (rc == -ENOMEM)
		return rc;
	for (size_t i = 0; !rc && i < pt.nblocks; i++) {
		const struct pblock *b = &pt.blocks[i];

		for (size_t j = 0; j < i; j++) {
			const struct pblock *a = &pt.blocks[j];

			if (strcmp(a->src, b->src) ||
			    (!a->via_src != !b->via_src) ||
			    (a->via_src && strcmp(a->via_src, b->via_src)))
				continue;
			if (fn(a, b, ctx)) {
				n++;
				break;
			}
		}
	}
	ptext_free(&pt);
	return n;
}

/* "root,user": the classes of bits into buf (32 bytes). */
static const char *class_names(unsigned int bits, char *buf)
{
	static const char *const names[] = { "root", "system", "user" };

	buf[0] = '\0';
	for (unsigned int c = 0; c < 3; c++)
		if (bits & (1U << c))
			snprintf(buf + strlen(buf), 32 - strlen(buf), "%s%s",
				 buf[0] ? "," : "", names[c]);
	return buf;
}

struct split_ctx {
	const char *file;
	char *const *subjects;
	size_t nsubjects;
};

/* Blocks of one program for different uid classes: said, an error. */
static bool refuse_split(const struct pblock *a, const struct pblock *b,
			 void *ctx)
{
	const struct split_ctx *x = ctx;
	char ca[32], cb[32], *s;
	size_t k;

	if (a->uclasses == b->uclasses)
		return false;
	for (k = 0; k < x->nsubjects; k++)
		if (vigil_glob_match(a->glob, x->subjects[k],
				     strlen(x->subjects[k])))
			break;
	if (x->nsubjects && k == x->nsubjects)
		return false;
	s = esc_text_dup(b->src);
	p_err("%s:%u: subject %s has a block for uid class %s and one for %s "
	      "(line %u): an export confines every uid's run of a program "
	      "with one set of rules; keep one class's block (generate --uid "
	      "for one class) or merge them into one", shown(x->file),
	      b->line, s ? s : "?", class_names(b->uclasses, cb),
	      class_names(a->uclasses, ca), a->line);
	free(s);
	return true;
}

int ptext_refuse_split(const char *file, const char *text, size_t len,
		       char *const *subjects, size_t nsubjects)
{
	struct split_ctx x = { file, subjects, nsubjects };

	return same_program_pairs(text, len, refuse_split, &x);
}

/* A block whose uid classes an earlier one of its program all judges. */
static bool warn_repeated(const struct pblock *a, const struct pblock *b,
			  void *ctx)
{
	char *s;

	if (b->uclasses & ~a->uclasses)
		return false;
	s = esc_text_dup(b->src);
	p_warn("%s:%u: a second block for subject %s%s (the first is at line "
	       "%u): the kernel uses the first only, these rules are never "
	       "used", shown((const char *)ctx), b->line, s ? s : "?",
	       b->via_src ? " via the same" : "", a->line);
	free(s);
	return true;
}

int ptext_warn_repeated(const char *file, const char *text, size_t len)
{
	return same_program_pairs(text, len, warn_repeated, (void *)file);
}
