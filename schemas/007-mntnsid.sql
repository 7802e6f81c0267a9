-- vigil database, schema version 7: the unique id of the mount namespace
-- a record's or a kernel tuple's names were resolved in (mntnsid=,
-- docs/record-format.md). mntns is the namespace's inode number, which
-- the kernel hands again to a namespace made after that one died; mntnsid
-- is never reused in a boot, so it tells two namespaces of one number
-- apart. 0 when not known: the initial namespace, or a kernel before
-- issue 25 §7 (no mntnsid=).
ALTER TABLE records ADD COLUMN mntnsid INTEGER NOT NULL DEFAULT 0;
ALTER TABLE kernel_tuples ADD COLUMN mntnsid INTEGER NOT NULL DEFAULT 0;
