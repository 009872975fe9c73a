-- Named leases (the backfill's), as Migrations/sqlite/0002_backfill_lease.sql.
-- Forward-only: never edit once shipped.
CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    holder_id TEXT NOT NULL,
    host TEXT NOT NULL,
    pid BIGINT NOT NULL,
    purpose TEXT NOT NULL,
    acquired_at BIGINT NOT NULL,
    renewed_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    CHECK (expires_at >= renewed_at)
);
