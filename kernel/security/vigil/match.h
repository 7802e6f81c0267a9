/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil: glob patterns of the policy language, compiled once and matched in
 * linear time. Shared by the kernel and the analyzer.
 *
 * Syntax (see docs/policy-language.md): "*" any run of bytes except '/',
 * "**" any run of bytes, "?" one byte except '/', "{a,b}" alternation
 * (nested at most VIGIL_GLOB_MAX_DEPTH deep), everything else literal.
 * A backslash escapes one of ' ', '\t', '#', '\\', '*', '?', '{', '}', ','
 * or introduces "\xHH", a byte in hex (not 00).
 *
 * vigil_glob_compile() expands the braces into at most VIGIL_GLOB_MAX_ALTS
 * brace-free alternatives and builds, for each, bit masks of its positions
 * per byte class. vigil_glob_match() simulates the resulting NFA with one
 * bit per pattern position: O(len(text) * words(pattern)) time, no
 * recursion, no backtracking, no allocation, under 200 bytes of stack. It
 * may be called in atomic context.
 */
#ifndef _SECURITY_VIGIL_MATCH_H
#define _SECURITY_VIGIL_MATCH_H

#include "policy_env.h"

/* Bytes of a pattern after unescaping. */
#define VIGIL_GLOB_MAX_LEN 1024
/* Brace alternatives of one pattern, once expanded. */
#define VIGIL_GLOB_MAX_ALTS 64
/* Nesting of braces. */
#define VIGIL_GLOB_MAX_DEPTH 3
/* Bytes of all alternatives together, once expanded. */
#define VIGIL_GLOB_MAX_EXPANDED 4096
/* Longer texts never match. */
#define VIGIL_GLOB_MAX_TEXT 4096

struct vigil_glob;

/*
 * Tokens of a pattern once lexed: 0..255 a literal byte (unescaped), or one
 * of these. The analyzer's exporters read patterns through them, so every
 * target sees exactly the syntax the kernel compiles.
 */
enum vigil_glob_tok {
	VIGIL_GLOB_STAR = 256,	/* "*" */
	VIGIL_GLOB_DSTAR,	/* "**" */
	VIGIL_GLOB_ANY,		/* "?" */
	VIGIL_GLOB_LBRACE,	/* lexed items only */
	VIGIL_GLOB_RBRACE,	/* lexed items only */
	VIGIL_GLOB_COMMA,	/* lexed items only, inside braces */
};

/* A pattern's brace-free alternatives, adjacent stars merged. */
struct vigil_glob_alts {
	unsigned int nalts;
	u16 lens[VIGIL_GLOB_MAX_ALTS];
	u16 toks[VIGIL_GLOB_MAX_EXPANDED];	/* alternative k after k-1 */
};

/*
 * Lex pat[0..len) into items[] (room for len entries; braces and commas
 * kept). Return: 0 and *ret_n set; -EINVAL with a message in why; -ENOMEM.
 */
int vigil_glob_lex(const char *pat, size_t len, u16 *items,
		   unsigned int *ret_n, char *why, size_t why_size);
/*
 * Expand pat[0..len)'s braces as vigil_glob_compile() does. Return: 0 and
 * *ret_alts set (free with vigil_glob_alts_free()); -EINVAL with a message
 * in why; -ENOMEM.
 */
int vigil_glob_expand(const char *pat, size_t len,
		      struct vigil_glob_alts **ret_alts, char *why,
		      size_t why_size);
/* NULL is fine. */
void vigil_glob_alts_free(struct vigil_glob_alts *alts);

/*
 * Compile pat[0..len), written in the escaped source form of the policy
 * language. Return: 0 and *ret_glob set; -EINVAL with a message (naming the
 * pattern) in why[0..why_size); -ENOMEM. Allocates with GFP_KERNEL.
 */
int vigil_glob_compile(const char *pat, size_t len,
		       struct vigil_glob **ret_glob, char *why,
		       size_t why_size);
/* Whether s[0..len) matches the whole pattern. Atomic-safe. */
bool vigil_glob_match(const struct vigil_glob *glob, const char *s,
		      size_t len);
/* NULL is fine. */
void vigil_glob_free(struct vigil_glob *glob);

/* The pattern in canonical escaped form (NUL-terminated). */
const char *vigil_glob_source(const struct vigil_glob *glob, size_t *ret_len);
/* The unescaped text of a pattern without metacharacters, else NULL. */
const char *vigil_glob_literal(const struct vigil_glob *glob,
			       size_t *ret_len);
/*
 * The literal bytes (unescaped) that every text the pattern matches starts
 * with: the whole text of a literal pattern, else the bytes before the
 * first metacharacter that all alternatives share ("/usr/" for
 * "/usr/{lib,share}/lib*.so"). Possibly empty, never NULL.
 */
const char *vigil_glob_prefix(const struct vigil_glob *glob,
			      size_t *ret_len);
/* Whether every alternative starts with '/' or "**". */
bool vigil_glob_is_absolute(const struct vigil_glob *glob);
/* Number of brace-free alternatives. */
unsigned int vigil_glob_nr_alts(const struct vigil_glob *glob);
/* Bytes allocated for the compiled pattern. */
size_t vigil_glob_size(const struct vigil_glob *glob);

/*
 * Write s[0..len) for an error message: non-printable bytes as \xHH, cut
 * to at most VIGIL_QUOTE_MAX characters followed by "...". Returns buf.
 */
char *vigil_quote(char *buf, size_t size, const char *s, size_t len);
#define VIGIL_QUOTE_MAX 40
/* Room vigil_quote() needs at most, with the NUL. */
#define VIGIL_QUOTE_SIZE (VIGIL_QUOTE_MAX + 4)

#endif /* _SECURITY_VIGIL_MATCH_H */
