-- Signed webhooks (Standard Webhooks 1.0): the endpoints admins register, the event outbox
-- written in the same transaction as the change, and one delivery row per endpoint and
-- event. Forward-only: never edit once shipped. Times are INTEGER milliseconds.

CREATE TABLE webhook_endpoints (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
    description TEXT NOT NULL DEFAULT '',
    event_types TEXT NOT NULL DEFAULT '',      -- comma-separated event types; '' means every type
    secret TEXT NOT NULL CHECK (secret LIKE 'whsec_%'),
    previous_secret TEXT,                      -- still signed with until previous_secret_expires_at
    previous_secret_expires_at INTEGER,
    failing_since INTEGER,                     -- first failed attempt since the last success
    disabled_at INTEGER,
    disabled_reason TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    removed_at INTEGER                         -- removed endpoints keep their log
) STRICT;

CREATE TABLE webhook_events (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,           -- the webhook-id header, the same on every attempt
    type TEXT NOT NULL,
    body BLOB NOT NULL,                        -- the exact JSON payload {type, timestamp, data}
    created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY,
    endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints(id),
    event_id INTEGER NOT NULL REFERENCES webhook_events(id),
    status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_owner TEXT,                          -- host:pid:worker while an attempt is in flight
    lease_expires_at INTEGER,
    last_attempt_at INTEGER,
    last_status_code INTEGER,                  -- HTTP status of the last attempt, NULL when none came back
    last_error TEXT,
    delivered_at INTEGER,
    created_at INTEGER NOT NULL,
    UNIQUE (endpoint_id, event_id)
) STRICT;
-- The head of each endpoint's queue (its oldest pending delivery) is found through this.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries(endpoint_id, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries(endpoint_id, id);
