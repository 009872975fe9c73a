-- Belay's first schema. Forward-only: never edit this file once shipped; put changes in
-- 0002_…sql. Times are INTEGER milliseconds since 1970-01-01T00:00:00Z.

-- People and their API tokens.
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    handle TEXT NOT NULL COLLATE NOCASE UNIQUE CHECK (length(handle) BETWEEN 1 AND 40),
    display_name TEXT NOT NULL CHECK (length(display_name) BETWEEN 1 AND 100),
    email TEXT COLLATE NOCASE UNIQUE,
    role TEXT NOT NULL CHECK (role IN ('member', 'host', 'admin')),
    created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    token_hash BLOB NOT NULL UNIQUE,           -- SHA-256 of the token; the token itself is never stored
    prefix TEXT NOT NULL,                      -- the first characters, to recognise a token in lists
    label TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    last_used_at INTEGER,                      -- written at most about once a minute per token
    revoked_at INTEGER
) STRICT;
CREATE INDEX api_tokens_by_user ON api_tokens(user_id, id);

-- Meetups.
CREATE TABLE meetups (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    description TEXT NOT NULL DEFAULT '',
    place_name TEXT NOT NULL CHECK (length(place_name) BETWEEN 1 AND 200),
    address TEXT,
    starts_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL,
    time_zone TEXT NOT NULL,                   -- IANA identifier, e.g. Asia/Seoul
    capacity INTEGER NOT NULL CHECK (capacity >= 1),
    host_id INTEGER NOT NULL REFERENCES users(id),
    status TEXT NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'cancelled', 'completed')),
    check_in_secret BLOB NOT NULL CHECK (length(check_in_secret) >= 32),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    CHECK (ends_at > starts_at)
) STRICT;
CREATE INDEX meetups_by_start ON meetups(starts_at, id);
CREATE INDEX meetups_by_end ON meetups(ends_at);
CREATE INDEX meetups_by_place ON meetups(place_name, starts_at, id);
CREATE INDEX meetups_by_host ON meetups(host_id);

-- Attendance: one row per member and meetup, re-used when a member leaves and joins again.
CREATE TABLE attendances (
    id INTEGER PRIMARY KEY,
    meetup_id INTEGER NOT NULL REFERENCES meetups(id),
    member_id INTEGER NOT NULL REFERENCES users(id),
    status TEXT NOT NULL CHECK (status IN ('going', 'waitlisted', 'cancelled', 'checked_in')),
    queue_position INTEGER NOT NULL,           -- order of the latest join within the meetup (FIFO waitlist)
    joined_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    checked_in_at INTEGER,
    check_in_method TEXT CHECK (check_in_method IN ('code', 'host', 'offline')),
    checked_in_by INTEGER REFERENCES users(id),
    UNIQUE (meetup_id, member_id),
    UNIQUE (meetup_id, queue_position),
    CHECK ((status = 'checked_in') = (checked_in_at IS NOT NULL))
) STRICT;
CREATE INDEX attendances_by_meetup_status ON attendances(meetup_id, status, queue_position);
CREATE INDEX attendances_by_member ON attendances(member_id, status, checked_in_at, id);

-- Wrong check-in codes per member and meetup, for the lock-out.
CREATE TABLE check_in_attempts (
    meetup_id INTEGER NOT NULL REFERENCES meetups(id),
    member_id INTEGER NOT NULL REFERENCES users(id),
    wrong_attempts INTEGER NOT NULL,
    last_wrong_at INTEGER NOT NULL,
    PRIMARY KEY (meetup_id, member_id)
) STRICT, WITHOUT ROWID;

-- Idempotency keys of successful check-ins, scoped to the caller.
CREATE TABLE check_in_idempotency_keys (
    actor_id INTEGER NOT NULL,                 -- the calling user, 0 for the server's own CLI
    key TEXT NOT NULL,
    request_fingerprint TEXT NOT NULL,
    attendance_id INTEGER NOT NULL REFERENCES attendances(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (actor_id, key)
) STRICT, WITHOUT ROWID;
CREATE INDEX check_in_idempotency_keys_by_attendance ON check_in_idempotency_keys(attendance_id);

-- The catalogue, imported from Assets/*/catalog.json. Rows are never deleted: an entry
-- missing from a later catalogue is retired.
CREATE TABLE holds (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    color TEXT NOT NULL,
    rarity TEXT NOT NULL CHECK (rarity IN ('common', 'uncommon', 'rare', 'epic')),
    artwork_path TEXT NOT NULL,                -- relative to the assets directory
    milestone_only INTEGER NOT NULL CHECK (milestone_only IN (0, 1)),
    retired_at INTEGER,
    updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE backgrounds (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    file_path TEXT NOT NULL,                   -- relative to the assets directory
    top_color TEXT NOT NULL,
    bottom_color TEXT NOT NULL,
    retired_at INTEGER,
    updated_at INTEGER NOT NULL
) STRICT;

-- Bumped by every catalogue import, so processes know when to reload their cached copy.
CREATE TABLE catalog_generation (
    only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
    generation INTEGER NOT NULL
) STRICT;
INSERT INTO catalog_generation (only_row, generation) VALUES (1, 0);

-- Rewards: exactly one per checked-in attendance (UNIQUE), revoked rather than deleted.
CREATE TABLE rewards (
    id INTEGER PRIMARY KEY,
    attendance_id INTEGER NOT NULL UNIQUE REFERENCES attendances(id),
    member_id INTEGER NOT NULL REFERENCES users(id),
    meetup_id INTEGER NOT NULL REFERENCES meetups(id),
    hold_id TEXT NOT NULL REFERENCES holds(id),
    background_id TEXT NOT NULL REFERENCES backgrounds(id),
    milestone INTEGER,                         -- N when this was the member's Nth check-in milestone
    awarded_at INTEGER NOT NULL,
    revoked_at INTEGER,
    render_status TEXT NOT NULL DEFAULT 'pending' CHECK (render_status IN ('pending', 'ready', 'failed')),
    sticker_hash TEXT,
    sticker_path TEXT,
    story_hash TEXT,
    story_path TEXT,
    template_version INTEGER,
    rendered_at INTEGER,
    failure_reason TEXT
) STRICT;
CREATE INDEX rewards_by_member ON rewards(member_id, id);
CREATE INDEX rewards_by_meetup ON rewards(meetup_id);
CREATE INDEX rewards_by_render_status ON rewards(render_status, template_version);

-- The render outbox: written in the check-in's transaction, consumed by render workers.
CREATE TABLE render_jobs (
    id INTEGER PRIMARY KEY,
    reward_id INTEGER NOT NULL REFERENCES rewards(id),
    reason TEXT NOT NULL CHECK (reason IN ('award', 'backfill', 'rerender', 'retry')),
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
    attempts INTEGER NOT NULL DEFAULT 0,
    available_at INTEGER NOT NULL,             -- not claimed before this (back-off)
    lease_owner TEXT,
    lease_expires_at INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;
-- At most one job in flight per reward, so enqueueing twice is harmless.
CREATE UNIQUE INDEX render_jobs_one_active_per_reward ON render_jobs(reward_id) WHERE status IN ('queued', 'running');
CREATE INDEX render_jobs_queued ON render_jobs(available_at, id) WHERE status = 'queued';
CREATE INDEX render_jobs_running ON render_jobs(lease_expires_at) WHERE status = 'running';
CREATE INDEX render_jobs_by_reward ON render_jobs(reward_id);

-- What members shared, as the app reported it.
CREATE TABLE share_events (
    id INTEGER PRIMARY KEY,
    reward_id INTEGER NOT NULL REFERENCES rewards(id),
    member_id INTEGER NOT NULL REFERENCES users(id),
    meetup_id INTEGER NOT NULL REFERENCES meetups(id),
    target TEXT NOT NULL CHECK (target IN ('instagram_stories', 'facebook_stories', 'share_sheet', 'other')),
    reported_target TEXT,                      -- the target string as sent
    activity_type TEXT,                        -- exactly as reported, NULL when the sheet was dismissed
    completed INTEGER NOT NULL CHECK (completed IN (0, 1)),
    error TEXT,
    client_event_id TEXT NOT NULL,
    occurred_at INTEGER NOT NULL,
    UNIQUE (member_id, client_event_id)
) STRICT;
CREATE INDEX share_events_by_meetup ON share_events(meetup_id, occurred_at);
CREATE INDEX share_events_by_time ON share_events(occurred_at);
CREATE INDEX share_events_by_reward ON share_events(reward_id);
