/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: the SQLite store (store.c, store_report.c,
 * store_rules.c, store_trial.c, store_boots.c): the only files that hold
 * SQL. No logging here: errors come back as -errno, vigil_store_errmsg
 * says why.
 */
#ifndef VIGIL_ANALYZER_STORE_H
#define VIGIL_ANALYZER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"	/* struct vigil_record, enum rec_kind */

/* store.c: opening, migrations, the ingest's writes. */
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
	uint64_t mntnsid;	/* its unique id, 0: not known */
	/* an abstract unix name's network namespace (cookie), 0: initial */
	uint64_t netns;
	/* exe and object NULL for ?, via NULL for - (no ancestors) */
	char *verdict, *op, *access, *exe, *object, *via;
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
/* AppArmor's ALLOWED and DENIED records of [since_ms, until_ms], by time,
 * their text to fn (valid during the call): 0, fn's non-zero return, or
 * -EIO. */
int vigil_store_apparmor_window(struct vigil_store *s, int64_t since_ms,
				int64_t until_ms,
				int (*fn)(void *ctx, const char *text),
				void *ctx);

/* store_rules.c: the queries of the rule model and of vigil generate. */
/* Which observations: see struct vigil_rules_opts (rules.h). */
struct vigil_store_obs_filter {
	bool would_deny;	/* also would-deny records and tuples */
	int64_t since_ms, until_ms;	/* 0: unbounded */
	int64_t mntns;		/* -1: any */
	/* with mntns > 0: only that namespace of the number (mntnsid) */
	bool mntnsid_set;
	uint64_t mntnsid;
	/* also abstract unix names of other network namespaces (netns) */
	bool netns_all;
	/* none: any; a user's uid also selects every record of the class
	 * "user" (uclass=user: the kernel keys them by the class) */
	const uint32_t *uids;
	size_t nuids;
	/* via_has: only rows one of whose via elements it is; via_none:
	 * only rows without via; by_via: rows per via too (obs.via) */
	const char *via_has;
	bool via_none, by_via;
	bool by_node;		/* rows per node too (obs.node) */
};
int vigil_store_mntns_ids(struct vigil_store *s, uint32_t mntns,
			  uint64_t **ret, size_t *nret);
/* One distinct (exe, op, access, object, uid) of records and the latest
 * snapshot (and via, with by_via; else via NULL); strings NULL for SQL
 * NULL, valid during the call only. */
struct vigil_store_obs {
	const char *exe, *op, *access, *object, *via;
	const char *node;	/* with by_node ('' the kernel's), else NULL */
	uint64_t count;		/* the larger of records' and the kernel's */
	int64_t first, last;	/* seconds */
	uint64_t records;	/* how many records */
	uint64_t snapshot;	/* non-zero: in the latest snapshot */
	uint32_t uid;
	uint32_t pid;		/* the records' pid when all had one, else 0 */
	bool user_class;	/* of records with uclass=user */
};
/*
 * Each observation, ordered by exe, via, op, access, object, uid (, node),
 * to fn. 0;
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
 * The executables (records, or tuples of the latest snapshot) whose
 * basename is base, sorted: *ret (malloc'd, each malloc'd), *ret_n of
 * them. 0, -ENOMEM or -EIO.
 */
int vigil_store_subjects_named(struct vigil_store *s, const char *base,
			       char ***ret, size_t *ret_n);
/* Per executable (vigil subjects): the uids it ran as (ascending, comma
 * separated) and its runs (distinct node and pid). */
struct vigil_store_subject_runs {
	const char *exe, *uids;
	long long runs;
};
int vigil_store_subject_runs(struct vigil_store *s,
			     int (*fn)(void *ctx,
				       const struct vigil_store_subject_runs *r),
			     void *ctx);
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
 * store_nodes.c: the hosts (node=, docs/fleet.md). A record without node=
 * ('' in the database) is the local host's, whose name the database keeps
 * once; snapshots are always the local host's.
 */
/* The local host's name: *ret malloc'd. 0, -EIO or -ENOMEM. */
int vigil_store_local_node(struct vigil_store *s, char **ret);
/* Each node value stored ('' the local host's, also when only a snapshot
 * holds its data), sorted, to fn: 0, fn's non-zero return, -EIO. */
int vigil_store_nodes(struct vigil_store *s,
		      int (*fn)(void *ctx, const char *node), void *ctx);
/*
 * From now on, every read of this handle sees only the records whose
 * node value is one of nodes[0..n), and the kernel's tuples and snapshots
 * only when local (the local host is selected). 0 or -EIO.
 */
int vigil_store_select_nodes(struct vigil_store *s, char *const *nodes,
			     size_t n, bool local);
/*
 * The newest record (vigil's or foreign) of each node this handle reads
 * (the hosts selected), none after until_ms: fn once per node, sorted.
 * 0, fn's non-zero return, or -EIO.
 */
int vigil_store_cuts(struct vigil_store *s, int64_t until_ms,
		     int (*fn)(void *ctx, const char *node, int64_t time_ms,
			       int64_t serial),
		     void *ctx);
/*
 * An incremental run's span of a node (--checkpoint): its records after
 * (from_ms, from_serial) (-1, -1: all) and at or before (to_ms,
 * to_serial), a record after another when its time is, or at the same
 * time when its serial is.
 */
struct vigil_store_span {
	const char *node;
	int64_t from_ms, from_serial, to_ms, to_serial;
};
/*
 * From now on, every read of this handle sees only the records (vigil's
 * and foreign) in the span of their node, none of a node without one, and
 * no kernel tuples (the kernel's table has no time and serial per
 * access). Over the hosts selected, if any. 0 or -EIO.
 */
int vigil_store_select_span(struct vigil_store *s,
			    const struct vigil_store_span *v, size_t n);

/* store_boots.c: the boots told apart in the records (one machine's). */
struct vigil_store_boot {
	int64_t first_ms, last_ms;	/* its first and last record */
	uint64_t records;
};
/* All boots, oldest first, into a malloc'd array (*n may be 0). -EXDEV:
 * the records come from more than one machine (node=). */
int vigil_store_boots(struct vigil_store *s, struct vigil_store_boot **ret,
		      size_t *n);

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
/*
 * AppArmor's ALLOWED records since since_ms (a complain-mode trial's
 * would-be denials) of the profiles vigil's export names after the stored
 * programs (aa_profile_name), read as vigil would-deny records of those
 * programs through a temp view "records" (over the node selection, if
 * any) until vigil_store_apparmor_wd_end(): generate --update merges
 * them: files, capabilities, network, signals and ptrace as
 * aa_access_of() reads them; optional checks (aa_optional) and what it
 * does not translate (children's profiles, peers it cannot name) are
 * counted, not merged. 0, -EIO, -ENOMEM.
 */
struct vigil_store_aa_wd {
	size_t merged, optional, skipped;
};
int vigil_store_apparmor_wd_begin(struct vigil_store *s, int64_t since_ms,
				  struct vigil_store_aa_wd *c);
int vigil_store_apparmor_wd_end(struct vigil_store *s);
/* Between begin and end: each record read, as fn(ctx, EXE, OP, OBJECT);
 * 0, fn's non-zero return, -EIO. */
int vigil_store_apparmor_wd_rows(struct vigil_store *s,
				 int (*fn)(void *ctx, const char *exe,
					   const char *op, const char *object),
				 void *ctx);
/* SELinux's AVC denials (permissive or not) since since_ms, by time. */
int vigil_store_selinux_denied(struct vigil_store *s, int64_t since_ms,
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

#endif /* VIGIL_ANALYZER_STORE_H */
