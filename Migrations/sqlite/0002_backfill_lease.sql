-- Leases that keep a job to one process at a time across every process using this
-- database (the reward backfill: `belay backfill` from cron and the scheduler inside
-- `belay serve`). A holder renews its lease while it works; a holder that died cannot keep
-- it, because the lease runs out at expires_at (and a holder on the same host whose
-- process is gone is taken over at once). Forward-only: never edit once shipped.
CREATE TABLE leases (
    name TEXT PRIMARY KEY,                     -- what is held, e.g. 'backfill'
    holder_id TEXT NOT NULL,                   -- unique per holder: host:pid:nonce
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    purpose TEXT NOT NULL,                     -- shown to whoever is refused, e.g. 'belay backfill --jobs 2'
    acquired_at INTEGER NOT NULL,
    renewed_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    CHECK (expires_at >= renewed_at)
) STRICT;
