-- Push notifications: the devices members register, their choices of what to be told, and
-- the outbox of notices, one row per device, written in the same transaction as the change
-- that causes it and delivered afterwards. Forward-only: never edit once shipped. Times are
-- INTEGER milliseconds.

-- A phone's push token. It belongs to the session that registered it (signing out or deleting
-- the account removes it); a token registered again moves to the last member who did.
CREATE TABLE devices (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    session_id INTEGER REFERENCES sessions(id),    -- NULL when registered with an admin-made token
    platform TEXT NOT NULL CHECK (platform IN ('ios', 'android')),
    token TEXT NOT NULL CHECK (length(token) BETWEEN 1 AND 4096),
    app_id TEXT NOT NULL CHECK (length(app_id) BETWEEN 1 AND 255),
    environment TEXT NOT NULL CHECK (environment IN ('production', 'sandbox')),
    locale TEXT CHECK (locale IN ('ko', 'ja', 'en')),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (platform, token)
) STRICT;
CREATE INDEX devices_by_user ON devices(user_id, id);
CREATE INDEX devices_by_session ON devices(session_id) WHERE session_id IS NOT NULL;

-- Only the kinds a member switched; a kind without a row is on.
CREATE TABLE notification_settings (
    user_id INTEGER NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    PRIMARY KEY (user_id, kind)
) STRICT;

-- One notice to one device. The same collapse_id on every attempt (apns-collapse-id, FCM
-- collapse_key), so a phone never shows one notice twice; a device is told a notice once.
CREATE TABLE push_notices (
    id INTEGER PRIMARY KEY,
    device_id INTEGER NOT NULL,                    -- its notices go with the device
    kind TEXT NOT NULL,
    collapse_id TEXT NOT NULL CHECK (length(collapse_id) <= 64),
    payload BLOB NOT NULL,                         -- {"title","body","link","image"?} in the member's language
    expires_at INTEGER NOT NULL,                   -- past its use: dropped, never sent
    status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'dropped', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_owner TEXT,
    lease_expires_at INTEGER,
    last_status_code INTEGER,
    last_error TEXT,
    sent_at INTEGER,
    created_at INTEGER NOT NULL,
    UNIQUE (device_id, collapse_id)
) STRICT;
CREATE INDEX push_notices_due ON push_notices(next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX push_notices_finished ON push_notices(created_at) WHERE status <> 'pending';

-- Which scheduled notices (a reminder, check-in open, an offer about to run out) were queued,
-- for which start or expiry, so each is queued once and again only when the time moves.
CREATE TABLE push_schedule_marks (
    kind TEXT NOT NULL,
    subject_id INTEGER NOT NULL,
    due_at INTEGER NOT NULL,
    PRIMARY KEY (kind, subject_id, due_at)
) STRICT;
