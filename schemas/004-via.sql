-- vigil database, schema version 4: the exec ancestors of each record's
-- and kernel tuple's subject (via=, docs/record-format.md): their exes,
-- root-most first, joined by "/" (each "//" starts the next), "?" first
-- when the kernel cut the chain. NULL when the record has no via= (no
-- ancestors, or a kernel before exec-chain scoping, issue 13 §5).
-- generate --children scopes a child to the service that runs it by it.
ALTER TABLE records ADD COLUMN via TEXT;
ALTER TABLE kernel_tuples ADD COLUMN via TEXT;
