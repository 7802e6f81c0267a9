/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: util.c: messages, paths, numbers, files, atomic writes,
 * the options the verbs share.
 */
#ifndef VIGIL_ANALYZER_UTIL_H
#define VIGIL_ANALYZER_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct option;

void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void p_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The database path: --db, else $VIGIL_DB, else the default. */
const char *vigil_db_path(void);
/* s as terminal text (escape.h: esc_text), one static buffer. */
const char *shown(const char *s);
/* The securityfs folder: $VIGIL_SECURITYFS or /sys/kernel/security/vigil. */
const char *vigil_securityfs(void);
/* Parse a decimal unsigned number (whole string, no sign): 0 or -EINVAL. */
int parse_u64(const char *s, uint64_t max, uint64_t *ret);
/*
 * --uid UID[,UID...]: numbers or user names (getpwnam), added to *v (*n
 * of them; sorted, each once). -EINVAL after naming the bad value
 * (p_err), or -ENOMEM.
 */
int parse_uid_list(const char *arg, uint32_t **v, size_t *n);
/* Make *arr (*cap elements of size bytes) hold at least need: capacity
 * doubled (from 16) and realloc'ed. 0 or -ENOMEM (*arr unchanged). */
int grow_array(void **arr, size_t *cap, size_t need, size_t size);
uint64_t fnv1a64(const void *data, size_t len, uint64_t h);
#define FNV1A64_INIT 0xcbf29ce484222325ULL
/* Read a whole file up to max bytes (NUL-terminated); "-" is standard
 * input. 0 or -errno. */
int read_file(const char *path, size_t max, char **ret_buf, size_t *ret_len);
/* Common option handling for a verb: --db PATH and -h. */
int verb_getopt_db(int argc, char **argv, const char *usage);
/*
 * The options the verbs reading observations share, each verb's
 * getopt_long table mapping them to these letters: 'd' --db PATH, 's'
 * --subject EXE (repeatable), 'u' --uid UID[,UID...], 'h' --help,
 * VERB_OPT_NODE --node HOST, VERB_OPT_ALL_NODES --all-nodes,
 * VERB_OPT_CHECKPOINT --checkpoint FILE.
 */
struct verb_opts {
	const char *usage;
	char **subjects;	/* argc + 1 slots */
	size_t nsubjects;
	uint32_t *uids;		/* sorted, each once */
	size_t nuids;
	/* --node HOST (repeatable, globs), --all-nodes: nodes.h */
	char **nodes;		/* argc + 1 slots */
	size_t nnodes;
	bool all_nodes;
	/* --checkpoint FILE: checkpoint.h */
	const char *checkpoint;
};
/* getopt_long values of --node and --all-nodes in a verb's table. */
#define VERB_OPT_NODE 'N'
#define VERB_OPT_ALL_NODES 0x100
/* getopt_long value of --checkpoint FILE in a verb's table. */
#define VERB_OPT_CHECKPOINT 0x101
enum {
	VERB_OPT_DONE = 1,	/* a shared option, handled */
	VERB_OPT_OTHER,		/* the verb's own: its switch handles it */
	VERB_OPT_EXIT_OK,	/* --help printed: return EXIT_OK */
	VERB_OPT_EXIT_USAGE,	/* an error named (or usage): EXIT_USAGE */
};
int verb_opts_init(struct verb_opts *v, const char *usage, int argc);
/* Handle getopt_long's result c: a VERB_OPT_* value. */
int verb_opt(struct verb_opts *v, int c);
/*
 * getopt_long (optind set by the caller) with the shared options handled:
 * the next option of the verb's own, 0 at the end, or VERB_GETOPT_HELP
 * (printed: exit 0) or VERB_GETOPT_ERROR (named: exit 2).
 */
#define VERB_GETOPT_HELP (-1)
#define VERB_GETOPT_ERROR (-2)
int verb_getopt(int argc, char **argv, const char *optstring,
		const struct option *opts, struct verb_opts *v);
/* Print the usage to stderr: EXIT_USAGE. */
int verb_usage_error(const struct verb_opts *v);
void verb_opts_free(struct verb_opts *v);

/*
 * Write data to path. A regular file (or a missing one) is replaced
 * atomically (temporary file, fsync, rename); a symlink is followed and
 * its target replaced the same way; a device, FIFO or socket is written
 * through, never replaced; a folder is refused (-EISDIR). 0 or -errno.
 */
int write_file_atomic(const char *path, const char *data, size_t len);

#endif /* VIGIL_ANALYZER_UTIL_H */
