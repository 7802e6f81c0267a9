-- vigil database, schema version 8: the network namespace of an abstract
-- unix name (netns=, docs/record-format.md). Abstract names are per
-- network namespace: a user's own "@name" in its namespace (unshare -rn)
-- is not the host's, and the kernel keys and records it apart, with the
-- namespace's cookie. 0: the initial namespace, every other object, and
-- the records of kernels before issue 25 §7.
ALTER TABLE records ADD COLUMN netns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE kernel_tuples ADD COLUMN netns INTEGER NOT NULL DEFAULT 0;
