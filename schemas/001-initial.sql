-- vigil database, schema version 1: vigil records, foreign records, input
-- positions and kernel snapshots. Applied by the analyzer on open, in one
-- transaction, which then sets PRAGMA user_version = 1. Times are
-- milliseconds (records) or seconds (snapshots) since the epoch, UTC.

-- Each input file read by "vigil ingest": how far it was read. The row is
-- written in the same transaction as the records read from the file, so a
-- crash loses and duplicates nothing. head_hash is FNV-1a (64-bit, stored as
-- a signed integer) of the first head_len bytes: a mismatch means the file
-- was replaced or truncated, and it is read again from the start.
CREATE TABLE sources (
	id INTEGER PRIMARY KEY,
	dev INTEGER NOT NULL,
	ino INTEGER NOT NULL,
	path TEXT NOT NULL,		-- last name it was read under
	offset INTEGER NOT NULL,	-- bytes read (a line boundary)
	line INTEGER NOT NULL,		-- lines read
	head_len INTEGER NOT NULL,
	head_hash INTEGER NOT NULL,
	UNIQUE (dev, ino)
);

-- One row per vigil audit record (type KERNEL_OTHER, vigil=1). The event is
-- (node, time_ms, serial); seq is the kernel's per-boot record number, so
-- (node, time_ms, serial, seq) names the record inside its event whatever
-- order or file it was read from.
CREATE TABLE records (
	id INTEGER PRIMARY KEY,
	node TEXT NOT NULL DEFAULT '',	-- '' when the log has no node=
	time_ms INTEGER NOT NULL,
	serial INTEGER NOT NULL,
	seq INTEGER NOT NULL,
	verdict TEXT NOT NULL CHECK (verdict IN ('learned', 'would-deny')),
	op TEXT NOT NULL,
	access TEXT NOT NULL,
	uid INTEGER NOT NULL,
	exe TEXT,			-- NULL when the record says ?
	path TEXT,
	target TEXT,
	object TEXT,			-- path for file ops (target when path is ?), else target
	pid INTEGER NOT NULL,
	comm TEXT,
	extra TEXT NOT NULL DEFAULT '',	-- op-specific fields, as written
	UNIQUE (node, time_ms, serial, seq)
);
-- No other index: ingest cost must stay flat as the table grows (random
-- inserts into an index larger than the cache are not); the readers
-- (snapshot, generate, report) scan it or let SQLite build a transient one.

-- Records of other security modules: AppArmor (AVC with apparmor=, types
-- 1500-1599), SELinux (AVC with avc:), Landlock (1423, 1424), other (other
-- AVC, USER_AVC, 1401-1499, KERNEL_OTHER without vigil=). text is the raw
-- record without its ENRICHED part; hash is FNV-1a of text.
CREATE TABLE foreign_records (
	id INTEGER PRIMARY KEY,
	node TEXT NOT NULL DEFAULT '',
	time_ms INTEGER NOT NULL,
	serial INTEGER NOT NULL,
	type INTEGER NOT NULL,
	kind TEXT NOT NULL
		CHECK (kind IN ('apparmor', 'selinux', 'landlock', 'other')),
	hash INTEGER NOT NULL,
	text TEXT NOT NULL,
	UNIQUE (node, time_ms, serial, type, hash)
);
CREATE VIEW foreign_counts AS
	SELECT kind, count(*) AS records FROM foreign_records GROUP BY kind;

-- "vigil snapshot": the kernel's learned table at a moment.
CREATE TABLE snapshots (
	id INTEGER PRIMARY KEY,
	taken INTEGER NOT NULL,		-- seconds since the epoch
	tuples INTEGER NOT NULL DEFAULT 0,
	missing INTEGER NOT NULL DEFAULT 0	-- recorded tuples no record matches
);
-- One row per line of the learned table; pos is the line's rank (from 1).
-- verdict 'allowed' (observe-mode tuples the policy allows) has seq 0 and
-- no audit record, so it never counts as missing.
CREATE TABLE kernel_tuples (
	snapshot INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
	pos INTEGER NOT NULL,
	seq INTEGER NOT NULL,
	verdict TEXT NOT NULL
		CHECK (verdict IN ('learned', 'would-deny', 'allowed')),
	op TEXT NOT NULL,
	access TEXT NOT NULL,
	count INTEGER NOT NULL,
	first INTEGER NOT NULL,
	last INTEGER NOT NULL,
	uid INTEGER NOT NULL,
	exe TEXT,
	object TEXT,			-- NULL when the table says ?
	PRIMARY KEY (snapshot, pos)
);
