-- vigil database, schema version 3: audit's own lost counter (the
-- kernel's audit status, AUDIT_GET: records audit dropped since boot,
-- vigil's and everyone's), read by "vigil snapshot" together with the
-- learned table; NULL when it could not be read (no CAP_AUDIT_CONTROL,
-- no audit in the kernel).
ALTER TABLE snapshots ADD COLUMN audit_lost INTEGER;
