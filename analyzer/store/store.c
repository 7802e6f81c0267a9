// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the SQLite store. Schema from schemas/ (embedded),
 * versioned with PRAGMA user_version, migrated on open, WAL mode, prepared
 * statements with bound values. Library-like: reports errors, never logs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schemas.h"
#include "store_int.h"
#include "util.h"
#include "record.h"
#include "store.h"

static const char *const stmt_sql[ST_COUNT] = {
	[ST_RECORD] =
		"INSERT OR IGNORE INTO records (node, time_ms, serial, seq, "
		"verdict, op, access, uid, exe, path, target, object, pid, "
		"comm, extra, mntns, via, uclass, mntnsid, netns) "
		"VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[ST_FOREIGN] =
		"INSERT OR IGNORE INTO foreign_records (node, time_ms, "
		"serial, type, kind, hash, text) VALUES (?,?,?,?,?,?,?)",
	[ST_SOURCE_GET] =
		"SELECT offset, line, head_len, head_hash FROM sources "
		"WHERE dev = ? AND ino = ?",
	[ST_SOURCE_PUT] =
		"INSERT INTO sources (dev, ino, path, offset, line, head_len, "
		"head_hash) VALUES (?,?,?,?,?,?,?) ON CONFLICT (dev, ino) DO "
		"UPDATE SET path = excluded.path, offset = excluded.offset, "
		"line = excluded.line, head_len = excluded.head_len, "
		"head_hash = excluded.head_hash",
	[ST_SNAP_NEW] = "INSERT INTO snapshots (taken) VALUES (?)",
	[ST_TUPLE] =
		"INSERT INTO kernel_tuples (snapshot, pos, seq, verdict, op, "
		"access, count, first, last, uid, exe, object, mntns, via, "
		"mntnsid, netns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
};

const char *vigil_store_errmsg(struct vigil_store *s)
{
	if (!s || !s->db)
		return "no database";
	return s->failure[0] ? s->failure : sqlite3_errmsg(s->db);
}

int vigil_store_schema_version(struct vigil_store *s)
{
	return s->version;
}

static int exec(struct vigil_store *s, const char *sql)
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 :
									 -EIO;
}

static int user_version(struct vigil_store *s, int *ret)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL))
		return -EIO;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*ret = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -EIO;
}

static int migrate(struct vigil_store *s, char *err, size_t errlen)
{
	const struct vigil_migration *last =
		&vigil_migrations[vigil_migrations_count - 1];
	int cur;

	if (exec(s, "BEGIN IMMEDIATE"))
		goto fail;
	if (user_version(s, &cur))
		goto fail_rollback;
	if (cur > last->version) {
		snprintf(err, errlen,
			 "database has schema version %d, newer than this "
			 "vigil knows (%d): use a newer vigil", cur,
			 last->version);
		exec(s, "ROLLBACK");
		return -EPROTO;
	}
	for (unsigned int i = 0; i < vigil_migrations_count; i++) {
		const struct vigil_migration *m = &vigil_migrations[i];
		char sql[64];

		if (m->version <= cur)
			continue;
		if (sqlite3_exec(s->db, m->sql, NULL, NULL, NULL)) {
			snprintf(err, errlen, "schema %s: %s", m->name,
				 sqlite3_errmsg(s->db));
			exec(s, "ROLLBACK");
			return -EIO;
		}
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d",
			 m->version);
		if (exec(s, sql))
			goto fail_rollback;
		cur = m->version;
	}
	if (exec(s, "COMMIT"))
		goto fail_rollback;
	s->version = cur;
	return 0;
fail_rollback:
	snprintf(err, errlen, "%s", sqlite3_errmsg(s->db));
	exec(s, "ROLLBACK");
	return -EIO;
fail:
	snprintf(err, errlen, "%s", sqlite3_errmsg(s->db));
	return -EIO;
}

/* Why an open failed: SQLite's words, and the file system's if it refuses. */
static void open_failure(struct vigil_store *s, const char *path, char *err,
			 size_t errlen)
{
	if (access(path, W_OK) && errno != ENOENT)
		snprintf(err, errlen, "%s (cannot write to it: %s)",
			 vigil_store_errmsg(s), strerror(errno));
	else
		snprintf(err, errlen, "%s", vigil_store_errmsg(s));
}

/* A file name SQLite would take for something else, or that cannot be
 * written in a policy comment: refused with the reason. */
static int check_path(const char *path, bool must_exist, char *err,
		      size_t errlen)
{
	struct stat sb;
	const char *p;

	for (p = path; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			snprintf(err, errlen, "the path has a control "
				 "character (0x%02x): rename the database",
				 (unsigned char)*p);
			return -EINVAL;
		}
	}
	if (!*path || !strcmp(path, ":memory:") || !strncmp(path, "file:", 5))
		return 0;
	if (stat(path, &sb)) {
		if (errno == ENOENT && !must_exist)
			return 0;
		snprintf(err, errlen, "%s%s", strerror(errno),
			 errno == ENOENT ? " (run vigil ingest first)" : "");
		return -errno;
	}
	if (S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "is a folder, not a database file");
		return -EISDIR;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		return -EINVAL;
	}
	return 0;
}

/*
 * Is the open database vigil's? A new, empty file is (vigil makes it);
 * one holding tables is only when it has vigil's tables and a schema
 * version: another program's SQLite file is never touched (no table,
 * user_version or journal mode changed).
 */
static int check_identity(struct vigil_store *s, char *err, size_t errlen)
{
	static const char sql[] =
		"SELECT count(*), coalesce(sum(type = 'table' AND name IN "
		"('records', 'sources', 'foreign_records', 'snapshots', "
		"'kernel_tuples')), 0) FROM sqlite_master";
	sqlite3_stmt *st;
	int rc, objects = 0, ours = 0, version = 0;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		rc = sqlite3_errcode(s->db);
		if (rc == SQLITE_NOTADB)
			snprintf(err, errlen, "not a vigil database (not an "
				 "SQLite file)");
		else
			snprintf(err, errlen, "%s", sqlite3_errmsg(s->db));
		return rc == SQLITE_NOTADB ? -EPROTO : -EIO;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		objects = sqlite3_column_int(st, 0);
		ours = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	if (user_version(s, &version)) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	if (!objects && !version)
		return 0;
	if (ours == 5 && version > 0)
		return 0;
	snprintf(err, errlen, "not a vigil database (an SQLite file of "
		 "another program: %d table%s and index%s, %d of vigil's, "
		 "user_version %d); left untouched", objects,
		 objects == 1 ? "" : "s", objects == 1 ? "" : "es", ours,
		 version);
	return -EPROTO;
}

static int prepare_all(struct vigil_store *s, char *err, size_t errlen)
{
	for (int i = 0; i < ST_COUNT; i++) {
		if (sqlite3_prepare_v3(s->db, stmt_sql[i], -1,
				       SQLITE_PREPARE_PERSISTENT, &s->st[i],
				       NULL) != SQLITE_OK) {
			snprintf(err, errlen, "%s", vigil_store_errmsg(s));
			return -EIO;
		}
	}
	return 0;
}

/* "file:PATH?immutable=1" with PATH percent-encoded where a URI needs it. */
static char *immutable_uri(const char *path)
{
	size_t n = strlen(path);
	char *u = malloc(3 * n + 32), *w;

	if (!u)
		return NULL;
	w = u + sprintf(u, "file:");
	for (; *path; path++) {
		unsigned char c = (unsigned char)*path;

		if (c == '?' || c == '#' || c == '%' || c >= 0x80)
			w += sprintf(w, "%%%02X", c);
		else
			*w++ = (char)c;
	}
	strcpy(w, "?immutable=1");
	return u;
}

/*
 * Read-only: the file must exist and be vigil's; nothing is written to it.
 * A database in WAL mode needs its -shm file: when the reader may not make
 * one (a folder it cannot write), the file is read as immutable.
 */
static int open_readonly(struct vigil_store *s, const char *path, char *err,
			 size_t errlen)
{
	const struct vigil_migration *last =
		&vigil_migrations[vigil_migrations_count - 1];
	int rc, version = 0;

	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		open_failure(s, path, err, errlen);
		return -EIO;
	}
	sqlite3_busy_timeout(s->db, 10000);
	rc = check_identity(s, err, errlen);
	if (rc == -EIO && (sqlite3_errcode(s->db) == SQLITE_READONLY ||
			   sqlite3_errcode(s->db) == SQLITE_CANTOPEN)) {
		char *uri = immutable_uri(path);

		if (!uri) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		sqlite3_close(s->db);
		s->db = NULL;
		rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY |
				     SQLITE_OPEN_URI, NULL);
		free(uri);
		if (rc != SQLITE_OK) {
			open_failure(s, path, err, errlen);
			return -EIO;
		}
		rc = check_identity(s, err, errlen);
	}
	if (rc)
		return rc;
	if (user_version(s, &version)) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	if (!version) {
		snprintf(err, errlen, "an empty database (run vigil ingest "
			 "first)");
		return -ENOENT;
	}
	if (version > last->version) {
		snprintf(err, errlen,
			 "database has schema version %d, newer than this "
			 "vigil knows (%d): use a newer vigil", version,
			 last->version);
		return -EPROTO;
	}
	if (version < last->version) {
		/* vigil's own, older: upgraded when it may be written */
		if (!access(path, W_OK))
			return 1;
		snprintf(err, errlen, "database has schema version %d, older "
			 "than this vigil's (%d), and cannot be upgraded "
			 "(read-only): run vigil ingest on it as its owner",
			 version, last->version);
		return -EPROTO;
	}
	s->version = version;
	return 0;
}

int vigil_store_open_mode(const char *path, enum vigil_store_mode mode,
			  struct vigil_store **ret, char *err, size_t errlen)
{
	struct vigil_store *s;
	int rc;

	rc = check_path(path, mode == VIGIL_STORE_READ, err, errlen);
	if (rc)
		return rc;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (mode == VIGIL_STORE_READ) {
		char *wal = NULL;
		bool had_wal = true;

		/* no -wal now: no other connection; this one makes -wal and
		 * -shm, which a read-only connection cannot remove */
		if (asprintf(&wal, "%s-wal", path) >= 0) {
			had_wal = !(access(wal, F_OK) && errno == ENOENT);
			free(wal);
		}
		rc = open_readonly(s, path, err, errlen);
		if (!rc && !had_wal)
			s->tidy_path = strdup(path);
		if (rc <= 0)
			goto out;
		/* an older schema of vigil's own: upgrade it */
		sqlite3_close(s->db);
		s->db = NULL;
	}
	/*
	 * A new database holds who ran what and touched which file: it is
	 * created 0600, whatever the umask, and SQLite gives its -wal and
	 * -shm files the same mode. (An existing file keeps its mode.)
	 */
	if (*path && strcmp(path, ":memory:") && strncmp(path, "file:", 5)) {
		int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC |
					    O_NOFOLLOW,
			      0600);

		if (fd >= 0)
			close(fd);
	}
	if (sqlite3_open_v2(path, &s->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
			    NULL) != SQLITE_OK) {
		open_failure(s, path, err, errlen);
		rc = -EIO;
		goto out;
	}
	sqlite3_busy_timeout(s->db, 10000);
	if (sqlite3_db_readonly(s->db, "main") == 1) {
		snprintf(err, errlen, "cannot write to the database (%s)",
			 access(path, W_OK) ? strerror(errno) :
					      "opened read-only");
		rc = -EIO;
		goto out;
	}
	rc = check_identity(s, err, errlen);
	if (rc)
		goto out;
	/* WAL: readers never block the ingest; NORMAL: a crash of vigil
	 * loses no committed transaction (only a power cut may lose the
	 * last ones, and the positions go back with them). */
	if (exec(s, "PRAGMA journal_mode = WAL") ||
	    exec(s, "PRAGMA synchronous = NORMAL") ||
	    exec(s, "PRAGMA foreign_keys = ON")) {
		open_failure(s, path, err, errlen);
		rc = -EIO;
		goto out;
	}
	rc = migrate(s, err, errlen);
	if (!rc && store_local_node_init(s)) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(s->db));
		rc = -EIO;
	}
out:
	if (!rc)
		rc = prepare_all(s, err, errlen);
	if (rc) {
		vigil_store_close(s);
		return rc;
	}
	*ret = s;
	return 0;
}

int vigil_store_open(const char *path, struct vigil_store **ret, char *err,
		     size_t errlen)
{
	return vigil_store_open_mode(path, VIGIL_STORE_WRITE, ret, err, errlen);
}

void vigil_store_close(struct vigil_store *s)
{
	if (!s)
		return;
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->st[i]);
	sqlite3_close(s->db);
	if (s->tidy_path) {
		/*
		 * The last connection to close a WAL database removes its
		 * -wal and -shm files if it may write: a read-write one
		 * that reads and writes nothing, when the user may write
		 * there (else it fails to open and they stay, harmless).
		 * With another connection open, SQLite keeps them.
		 */
		sqlite3 *db = NULL;

		if (sqlite3_open_v2(s->tidy_path, &db, SQLITE_OPEN_READWRITE,
				    NULL) == SQLITE_OK &&
		    sqlite3_db_readonly(db, "main") == 0)
			sqlite3_exec(db, "SELECT 1 FROM sqlite_master LIMIT 1",
				     NULL, NULL, NULL);
		sqlite3_close(db);
		free(s->tidy_path);
	}
	free(s);
}

int vigil_store_begin(struct vigil_store *s)
{
	s->failure[0] = '\0';
	return exec(s, "BEGIN IMMEDIATE");
}

int vigil_store_commit(struct vigil_store *s)
{
	return exec(s, "COMMIT");
}

int vigil_store_rollback(struct vigil_store *s)
{
	if (!s->failure[0])
		snprintf(s->failure, sizeof(s->failure), "%s",
			 sqlite3_errmsg(s->db));
	if (sqlite3_get_autocommit(s->db))
		return 0; /* SQLite rolled it back already */
	return exec(s, "ROLLBACK");
}

static void bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

/* Step a bound insert; 1 when a row was added, 0 when ignored. */
static int step_insert(struct vigil_store *s, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return -EIO;
	return sqlite3_changes(s->db) > 0;
}

int vigil_store_add_record(struct vigil_store *s, const char *node,
			   int64_t time_ms, uint64_t serial,
			   const struct vigil_record *r)
{
	sqlite3_stmt *st = s->st[ST_RECORD];

	bind_text(st, 1, node ? node : "");
	sqlite3_bind_int64(st, 2, time_ms);
	sqlite3_bind_int64(st, 3, (int64_t)serial);
	sqlite3_bind_int64(st, 4, (int64_t)r->seq);
	bind_text(st, 5, r->verdict);
	bind_text(st, 6, r->op);
	bind_text(st, 7, r->access);
	sqlite3_bind_int64(st, 8, r->uid);
	bind_text(st, 9, r->exe);
	bind_text(st, 10, r->path);
	bind_text(st, 11, r->target);
	bind_text(st, 12, r->object);
	sqlite3_bind_int64(st, 13, r->pid);
	bind_text(st, 14, r->comm);
	bind_text(st, 15, r->extra ? r->extra : "");
	sqlite3_bind_int64(st, 16, r->mntns);
	bind_text(st, 17, r->via);
	bind_text(st, 18, r->uclass);
	sqlite3_bind_int64(st, 19, (int64_t)r->mntnsid);
	sqlite3_bind_int64(st, 20, (int64_t)r->netns);
	return step_insert(s, st);
}

int vigil_store_add_foreign(struct vigil_store *s, const char *node,
			    int64_t time_ms, uint64_t serial, int type,
			    enum rec_kind kind, const char *text, size_t len)
{
	sqlite3_stmt *st = s->st[ST_FOREIGN];

	bind_text(st, 1, node ? node : "");
	sqlite3_bind_int64(st, 2, time_ms);
	sqlite3_bind_int64(st, 3, (int64_t)serial);
	sqlite3_bind_int(st, 4, type);
	bind_text(st, 5, rec_kind_names[kind]);
	sqlite3_bind_int64(st, 6,
			   (int64_t)fnv1a64(text, len, FNV1A64_INIT));
	sqlite3_bind_text(st, 7, text, (int)len, SQLITE_STATIC);
	return step_insert(s, st);
}

int vigil_store_get_source(struct vigil_store *s, int64_t dev, int64_t ino,
			   struct vigil_source *ret)
{
	sqlite3_stmt *st = s->st[ST_SOURCE_GET];
	int rc;

	sqlite3_bind_int64(st, 1, dev);
	sqlite3_bind_int64(st, 2, ino);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		ret->dev = dev;
		ret->ino = ino;
		ret->offset = sqlite3_column_int64(st, 0);
		ret->line = sqlite3_column_int64(st, 1);
		ret->head_len = sqlite3_column_int64(st, 2);
		ret->head_hash = (uint64_t)sqlite3_column_int64(st, 3);
		ret->path = NULL;
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? -ENOENT : -EIO;
}

int vigil_store_put_source(struct vigil_store *s,
			   const struct vigil_source *src)
{
	sqlite3_stmt *st = s->st[ST_SOURCE_PUT];

	sqlite3_bind_int64(st, 1, src->dev);
	sqlite3_bind_int64(st, 2, src->ino);
	bind_text(st, 3, src->path ? src->path : "");
	sqlite3_bind_int64(st, 4, src->offset);
	sqlite3_bind_int64(st, 5, src->line);
	sqlite3_bind_int64(st, 6, src->head_len);
	sqlite3_bind_int64(st, 7, (int64_t)src->head_hash);
	return step_insert(s, st) < 0 ? -EIO : 0;
}

int vigil_store_snapshot_begin(struct vigil_store *s, int64_t taken,
			       int64_t *ret_id)
{
	sqlite3_stmt *st = s->st[ST_SNAP_NEW];

	sqlite3_bind_int64(st, 1, taken);
	if (step_insert(s, st) != 1)
		return -EIO;
	*ret_id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int vigil_store_add_tuple(struct vigil_store *s, int64_t snap, int64_t pos,
			  const struct vigil_tuple *t)
{
	sqlite3_stmt *st = s->st[ST_TUPLE];

	sqlite3_bind_int64(st, 1, snap);
	sqlite3_bind_int64(st, 2, pos);
	sqlite3_bind_int64(st, 3, (int64_t)t->seq);
	bind_text(st, 4, t->verdict);
	bind_text(st, 5, t->op);
	bind_text(st, 6, t->access);
	sqlite3_bind_int64(st, 7, (int64_t)t->count);
	sqlite3_bind_int64(st, 8, t->first);
	sqlite3_bind_int64(st, 9, t->last);
	sqlite3_bind_int64(st, 10, t->uid);
	bind_text(st, 11, t->exe);
	bind_text(st, 12, t->object);
	sqlite3_bind_int64(st, 13, t->mntns);
	bind_text(st, 14, t->via);
	sqlite3_bind_int64(st, 15, (int64_t)t->mntnsid);
	sqlite3_bind_int64(st, 16, (int64_t)t->netns);
	return step_insert(s, st) < 0 ? -EIO : 0;
}

int vigil_store_snapshot_end(struct vigil_store *s, int64_t snap,
			     int64_t *ret_tuples, int64_t *ret_missing)
{
	/*
	 * One pass over records into a set of distinct keys that SQLite
	 * indexes, then one probe per kernel tuple: a correlated NOT EXISTS
	 * scanned every record per tuple (over 5 minutes for 100,000
	 * records and 15,000 tuples, 0.75 s this way).
	 */
	static const char sql[] =
		"WITH seen AS (SELECT DISTINCT verdict, op, access, uid, exe, "
		"object, mntns, mntnsid, netns, via FROM main.records WHERE node = '' OR "
		"node = (SELECT name FROM local_node)) "
		"SELECT count(*), coalesce(sum(t.verdict != 'allowed' AND "
		"s.op IS NULL), 0) "
		"FROM kernel_tuples t LEFT JOIN seen s ON "
		"s.verdict = t.verdict AND s.op = t.op AND "
		"s.access = t.access AND s.uid = t.uid AND s.exe IS t.exe AND "
		"s.object IS t.object AND s.mntns = t.mntns AND "
		"s.mntnsid = t.mntnsid AND s.netns = t.netns AND "
		"s.via IS t.via "
		"WHERE t.snapshot = ?";
	static const char upd[] =
		"UPDATE snapshots SET tuples = ?, missing = ? WHERE id = ?";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return -EIO;
	sqlite3_bind_int64(st, 1, snap);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*ret_tuples = sqlite3_column_int64(st, 0);
		*ret_missing = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return -EIO;
	if (sqlite3_prepare_v2(s->db, upd, -1, &st, NULL))
		return -EIO;
	sqlite3_bind_int64(st, 1, *ret_tuples);
	sqlite3_bind_int64(st, 2, *ret_missing);
	sqlite3_bind_int64(st, 3, snap);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

int vigil_store_snapshot_audit_lost(struct vigil_store *s, int64_t snap,
				    int64_t lost)
{
	static const char upd[] =
		"UPDATE snapshots SET audit_lost = ? WHERE id = ?";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, upd, -1, &st, NULL))
		return -EIO;
	if (lost >= 0)
		sqlite3_bind_int64(st, 1, lost);
	sqlite3_bind_int64(st, 2, snap);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

int store_one_row(struct vigil_store *s, const char *sql,
		  const long long *binds, int nbind, long long *cols,
		  int ncol)
{
	sqlite3_stmt *st;
	int i, rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	for (i = 0; i < nbind; i++)
		sqlite3_bind_int64(st, i + 1, binds[i]);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		for (i = 0; i < ncol; i++)
			cols[i] = sqlite3_column_int64(st, i);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW;
}

struct sqlite3 *vigil_store_sqlite(struct vigil_store *s)
{
	return s->db;
}
