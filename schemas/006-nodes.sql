-- vigil database, schema version 6: the hosts the records come from
-- (issue 28, docs/fleet.md). A record's node= (auditd's name_format,
-- forwarded by audisp-remote) names its host, kept in records.node since
-- schema 1; a record without node= ('') is the local host's: the host
-- local_node names, written once, when a vigil that knows this schema
-- first opens the database to write it (its gethostname()). Snapshots
-- (kernel_tuples) are always the local host's: "vigil snapshot" reads
-- the kernel it runs on. nodes lists each node value once, kept by a
-- trigger (a lookup in a table of a few pages: no cost the ingest
-- shows), so that the verbs that select hosts (--node, --all-nodes)
-- never scan the records for them.
CREATE TABLE nodes (
	name TEXT PRIMARY KEY	-- node= as written; '' for none
) WITHOUT ROWID;
INSERT OR IGNORE INTO nodes (name) SELECT DISTINCT node FROM records;
CREATE TRIGGER records_node AFTER INSERT ON records
	WHEN NOT EXISTS (SELECT 1 FROM nodes WHERE name = NEW.node)
	BEGIN INSERT OR IGNORE INTO nodes (name) VALUES (NEW.node); END;
CREATE TABLE local_node (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	name TEXT NOT NULL
);
