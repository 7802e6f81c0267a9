-- vigil database, schema version 5: the uid class of each record
-- (uclass=, docs/record-format.md): "root", "system" (a service account,
-- uid 1..999) or "user" (every other uid). The kernel keys its tuples by
-- root's uid, each system account's own uid, or the class "user": a
-- record with uclass "user" stands for the first sighting of every user's
-- uid, the one in its uid column made it first. NULL when the record has
-- no uclass= (a kernel before issue 25 §2, whose tuples had no uid).
ALTER TABLE records ADD COLUMN uclass TEXT;
