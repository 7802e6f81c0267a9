-- vigil database, schema version 2: the mount namespace of each record and
-- kernel tuple. 0 is the initial namespace (the record has no mntns=);
-- another value is the namespace's id (the inode number /proc/PID/ns/mnt
-- shows), whose paths are not the host's; 1 is "not the initial one, id
-- unknown". generate uses the initial namespace unless told otherwise.
ALTER TABLE records ADD COLUMN mntns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE kernel_tuples ADD COLUMN mntns INTEGER NOT NULL DEFAULT 0;
