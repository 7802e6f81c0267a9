/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil analyzer: declarations shared by the verb files. */
#ifndef VIGIL_ANALYZER_VIGIL_H
#define VIGIL_ANALYZER_VIGIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <auparse.h>

#ifndef VIGIL_VERSION
#define VIGIL_VERSION "0.1"
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit codes (contract). */
enum {
	EXIT_OK = 0,
	EXIT_FINDING = 1,
	EXIT_USAGE = 2,
};

/* A verb of the one command table (main.c): vigil --help, the man page
 * test and the completion are made from it. */
struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *args;	/* "[FILE...|-]" */
	const char *summary;	/* one line */
};

/* main.c: global options. */
extern const char *vigil_db_opt;	/* --db, or NULL */
extern const char *progname;
extern const char *vigil_verb;		/* the verb running, for messages */

/* util.c */
void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void p_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The database path: --db, else $VIGIL_DB, else the default. */
const char *vigil_db_path(void);
/* s with control characters as \xHH, for a message (one static buffer). */
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
struct vigil_store;
/*
 * The options the verbs reading observations share, each verb's
 * getopt_long table mapping them to these letters: 'd' --db PATH, 's'
 * --subject EXE (repeatable), 'u' --uid UID[,UID...], 'h' --help.
 */
struct verb_opts {
	const char *usage;
	char **subjects;	/* argc + 1 slots */
	size_t nsubjects;
	uint32_t *uids;		/* sorted, each once */
	size_t nuids;
};
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
struct option;
int verb_getopt(int argc, char **argv, const char *optstring,
		const struct option *opts, struct verb_opts *v);
/* Print the usage to stderr: EXIT_USAGE. */
int verb_usage_error(const struct verb_opts *v);
void verb_opts_free(struct verb_opts *v);
/* Every named subject was observed in store (named db): 0, or -ENOENT /
 * -EIO after saying so. */
int verb_subjects_known(struct vigil_store *store, const char *db,
			char *const *subjects, size_t n);

/* record.c: audit records as vigil sees them (no logging here). */
enum rec_kind {
	REC_CONTEXT,	/* any other: SYSCALL, PATH, unknown types... */
	REC_VIGIL,
	REC_APPARMOR,
	REC_SELINUX,
	REC_LANDLOCK,
	REC_FOREIGN_OTHER,	/* other MAC records (AVC, USER_AVC, MAC_*) */
};
extern const char *const rec_kind_names[];

struct vigil_record {
	uint64_t seq;
	uint32_t uid;
	int32_t pid;
	const char *verdict, *op, *access;	/* never NULL once parsed */
	const char *exe, *path, *target, *comm;	/* NULL when "?" */
	/* path for file ops (target if path is ?), else target */
	const char *object;
	const char *extra;	/* op-specific fields, "k=v k=v", maybe "" */
	uint32_t mntns;		/* mntns=, 0 when absent (initial namespace) */
	char *mem;		/* owns the decoded strings */
	size_t cap, used;
};

/* The record's type number, also for names auparse does not know. */
int vigil_record_type(auparse_state_t *au);
/* Classify the current record of au. */
enum rec_kind vigil_record_kind(auparse_state_t *au);
/*
 * Parse the current record of au (of kind REC_VIGIL) into r, reusing
 * r->mem. Return: 0, -EINVAL (malformed; *ret_reason says why), -ENOMEM.
 */
int vigil_record_parse(auparse_state_t *au, struct vigil_record *r,
		       const char **ret_reason);
void vigil_record_free(struct vigil_record *r);
/*
 * Decode an audit string value: "quoted", HEX, or ? (NULL). Writes into
 * out (at least strlen(val) + 1 bytes). Return 0, 1 for "?", -EINVAL.
 */
int audit_value_decode(const char *val, char *out);
/* Is op a file-class op (object is path=)? */
bool vigil_op_is_file(const char *op);

/* store.c: the SQLite database (no logging here). */
struct vigil_store;
struct vigil_source {
	int64_t dev, ino;
	int64_t offset, line;
	int64_t head_len;
	uint64_t head_hash;
	const char *path;
};
struct vigil_tuple {
	uint64_t seq, count;
	int64_t first, last;
	uint32_t uid;
	uint32_t mntns;		/* 0: the initial mount namespace */
	/* exe and object NULL for ? */
	char *verdict, *op, *access, *exe, *object;
};

/* Open or create the database at path, read-write (migrated). A file
 * that is not vigil's database is refused, untouched (-EPROTO). */
int vigil_store_open(const char *path, struct vigil_store **ret, char *err,
		     size_t errlen);
enum vigil_store_mode {
	VIGIL_STORE_WRITE,	/* create if missing, migrate */
	VIGIL_STORE_READ,	/* must exist; nothing written (an older
				 * schema is upgraded if the file is
				 * writable) */
};
int vigil_store_open_mode(const char *path, enum vigil_store_mode mode,
			  struct vigil_store **ret, char *err, size_t errlen);
void vigil_store_close(struct vigil_store *s);
const char *vigil_store_errmsg(struct vigil_store *s);
int vigil_store_schema_version(struct vigil_store *s);
int vigil_store_begin(struct vigil_store *s);
int vigil_store_commit(struct vigil_store *s);
int vigil_store_rollback(struct vigil_store *s);
/* Return 1 stored, 0 already there, or -EIO. */
int vigil_store_add_record(struct vigil_store *s, const char *node,
			   int64_t time_ms, uint64_t serial,
			   const struct vigil_record *r);
int vigil_store_add_foreign(struct vigil_store *s, const char *node,
			    int64_t time_ms, uint64_t serial, int type,
			    enum rec_kind kind, const char *text, size_t len);
/* 0 and *ret filled (path not set), -ENOENT, -EIO. */
int vigil_store_get_source(struct vigil_store *s, int64_t dev, int64_t ino,
			   struct vigil_source *ret);
int vigil_store_put_source(struct vigil_store *s,
			   const struct vigil_source *src);
/* Start a snapshot; *ret_id is its id. */
int vigil_store_snapshot_begin(struct vigil_store *s, int64_t taken,
			       int64_t *ret_id);
int vigil_store_add_tuple(struct vigil_store *s, int64_t snap, int64_t pos,
			  const struct vigil_tuple *t);
/* Count the snapshot's tuples and the recorded ones no record matches. */
int vigil_store_snapshot_end(struct vigil_store *s, int64_t snap,
			     int64_t *ret_tuples, int64_t *ret_missing);
/* Store audit's own lost counter with the snapshot (-1: not read, NULL). */
int vigil_store_snapshot_audit_lost(struct vigil_store *s, int64_t snap,
				    int64_t lost);
/* The SQLite handle: for the tests only (the analyzer's SQL is all in
 * store*.c). */
struct sqlite3;
struct sqlite3 *vigil_store_sqlite(struct vigil_store *s);

/*
 * store_report.c: the queries of vigil report. Those returning a row give
 * 1 and *ret filled, 0 when the query gave no row, -EIO when it could not
 * be run (vigil_store_errmsg says why).
 */
/* The largest record id (0: none). */
int vigil_store_records_max_id(struct vigil_store *s, long long *ret);
/* A window of records: time_ms in [since_ms, until_ms], exe one of the
 * subjects (any when none). */
struct vigil_store_window {
	long long since_ms, until_ms;
	char *const *subjects;
	size_t nsubjects;
};
/* One record; strings NULL for SQL NULL, valid during the call only. */
struct vigil_store_row {
	const char *exe, *verdict, *op, *access, *object, *node;
	long long time_ms, seq;
};
/*
 * Each record of the window, in table order, to fn. 0; fn's non-zero
 * return, which stops the walk; -EIO (a database error) or -ENOMEM.
 */
int vigil_store_window_records(struct vigil_store *s,
			       const struct vigil_store_window *w,
			       int (*fn)(void *ctx,
					 const struct vigil_store_row *row),
			       void *ctx);
/* The latest snapshot's counters, with the largest seq of the records. */
struct vigil_store_snapshot {
	long long tuples, missing, max_seq;
	long long audit_lost;	/* -1: not read */
};
int vigil_store_latest_snapshot(struct vigil_store *s,
				struct vigil_store_snapshot *ret);
/* Of the latest snapshot's tuples no record matches (verdict other than
 * allowed), how many have a seq above seq. */
int vigil_store_snapshot_unmatched_after(struct vigil_store *s,
					 long long seq, long long *ret);
/* Seq counts of the whole records table. */
struct vigil_store_seq_counts {
	long long records, seqs, max_seq, nodes;	/* seqs: distinct */
};
int vigil_store_seq_counts(struct vigil_store *s,
			   struct vigil_store_seq_counts *ret);

/* store_rules.c: the queries of the rule model and of vigil generate. */
/* Which observations: see struct vigil_rules_opts (rules.h). */
struct vigil_store_obs_filter {
	bool would_deny;	/* also would-deny records and tuples */
	int64_t since_ms, until_ms;	/* 0: unbounded */
	int64_t mntns;		/* -1: any */
	const uint32_t *uids;	/* none: any */
	size_t nuids;
};
/* One distinct (exe, op, access, object, uid) of records and the latest
 * snapshot; strings NULL for SQL NULL, valid during the call only. */
struct vigil_store_obs {
	const char *exe, *op, *access, *object;
	uint64_t count;		/* the larger of records' and the kernel's */
	int64_t first, last;	/* seconds */
	uint64_t records;	/* how many records */
	uint64_t snapshot;	/* non-zero: in the latest snapshot */
	uint32_t uid;
};
/*
 * Each observation, ordered by exe, op, access, object, uid, to fn. 0;
 * fn's non-zero return, which stops the walk; -EIO or -ENOMEM.
 */
int vigil_store_observations(struct vigil_store *s,
			     const struct vigil_store_obs_filter *f,
			     int (*fn)(void *ctx,
				       const struct vigil_store_obs *row),
			     void *ctx);
/* The latest snapshot's id (0: none): 0 or -EIO. */
int vigil_store_latest_snapshot_id(struct vigil_store *s, int64_t *ret);
/* Whether exe has a record or a tuple in the latest snapshot: 1, 0, -EIO. */
int vigil_store_subject_known(struct vigil_store *s, const char *exe);
/*
 * The executables a subject ran (learned exec records) that are subjects
 * too, each once, sorted: open once (0, -EIO, -ENOMEM), then each
 * subject's to fn (0, a failing step ending the walk as its end does, or
 * fn's non-zero return, which stops it).
 */
struct vigil_store_children;
int vigil_store_children_open(struct vigil_store *s,
			      struct vigil_store_children **ret);
int vigil_store_children_each(struct vigil_store_children *c, const char *exe,
			      int (*fn)(void *ctx, const char *child),
			      void *ctx);
void vigil_store_children_close(struct vigil_store_children *c);

/*
 * store_trial.c: the queries of vigil trial, each row to fn (strings
 * valid during the call only). 0 (a failing step ends the walk as its
 * end does), fn's non-zero return, which stops it, or -EIO when the
 * query cannot be run.
 */
/* AppArmor's ALLOWED records since since_ms, by time: their text. */
int vigil_store_apparmor_allowed(struct vigil_store *s, int64_t since_ms,
				 int (*fn)(void *ctx, const char *text),
				 void *ctx);
/* exe's would-deny records since since_ms, per distinct access. */
struct vigil_store_denial {
	const char *exe, *op, *access, *object;	/* object "?" for none */
	long long count;
};
int vigil_store_would_deny(struct vigil_store *s, int64_t since_ms,
			   const char *exe,
			   int (*fn)(void *ctx,
				     const struct vigil_store_denial *d),
			   void *ctx);

/* kernel.c */
/* Undo the learned table's octal escapes (\040) in place. 0 or -EINVAL. */
int unescape_octal(char *s);
/* Parse a learned table line in place: 0, 1 (header, blank), -EINVAL. */
int vigil_learned_parse(char *line, struct vigil_tuple *t);

/* The verbs. */
int do_ingest(int argc, char **argv);
int do_plugin(int argc, char **argv);
int do_status(int argc, char **argv);
int do_mode(int argc, char **argv);
int do_load(int argc, char **argv);
int do_snapshot(int argc, char **argv);
int do_generate(int argc, char **argv);
int do_diff(int argc, char **argv);
int do_report(int argc, char **argv);

/*
 * timearg.c: a --since/--until value (ISO 8601 UTC, or now, recent,
 * today, yesterday, this-week, boot) as ms since the epoch: 0 or -EINVAL.
 */
int report_parse_time(const char *s, long long *ret_ms);

/* util.c: helpers shared by the verbs that read the database. */
/*
 * Write data to path. A regular file (or a missing one) is replaced
 * atomically (temporary file, fsync, rename); a symlink is followed and
 * its target replaced the same way; a device, FIFO or socket is written
 * through, never replaced; a folder is refused (-EISDIR). 0 or -errno.
 */
int write_file_atomic(const char *path, const char *data, size_t len);
/* Open an existing database read-only (never create one, never write to
 * it); logs and returns -errno. */
int open_store_existing(const char *path, struct vigil_store **ret);

/* ingest.c: the per-record handling shared by ingest and plugin. */
#define INGEST_MAX_LOCATIONS 5
struct ingest {
	struct vigil_store *store;
	struct vigil_record rec;
	/* counters of this run */
	uint64_t lines, records, events, stored, duplicates, malformed;
	uint64_t foreign[REC_FOREIGN_OTHER + 1];
	/* the first malformed records: "file:line" and why */
	char *where[INGEST_MAX_LOCATIONS];
	const char *why[INGEST_MAX_LOCATIONS];
	/* recent event keys, to count events in interleaved logs */
	struct ingest_key {
		uint64_t node_hash, serial;
		int64_t time_ms;
	} recent[16];
	unsigned int recent_next;
};

void ingest_init(struct ingest *in, struct vigil_store *store);
void ingest_fini(struct ingest *in);
void ingest_malformed(struct ingest *in, const char *file, uint64_t line,
		      const char *reason);
/*
 * Handle the current record of au, read from file:line, whose raw text
 * (without ENRICHED part) is text[0..len). 0, or -EIO/-ENOMEM (fatal).
 */
int ingest_record(struct ingest *in, auparse_state_t *au, const char *text,
		  size_t len, const char *file, uint64_t line);
/* Print the summary line (stdout) and the malformed locations (stderr). */
void ingest_summary(const struct ingest *in, const char *verb);

/* One "vigil ingest" over any number of inputs. */
struct ingest_run {
	struct ingest in;
	auparse_state_t *au;
	char *readbuf; /* the line reader's buffer, kept across inputs */
	long batch; /* lines per transaction */
	long crash_after; /* test hook: SIGKILL after this many lines */
	uint64_t lines_total;
	unsigned int inputs_failed, inputs_read;
};

/* 0, or -ENOMEM. */
int ingest_run_init(struct ingest_run *run, struct vigil_store *store);
void ingest_run_fini(struct ingest_run *run);
/*
 * Ingest everything readable from fd, named name in messages, as a stream:
 * no position is kept, a last line without newline is read too (the fuzz
 * target's entry). 0, -EBADF (read error, reported), -EIO or -ENOMEM.
 */
int ingest_stream(struct ingest_run *run, int fd, const char *name);

#endif /* VIGIL_ANALYZER_VIGIL_H */
