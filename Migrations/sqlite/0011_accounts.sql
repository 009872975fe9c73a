-- Members sign themselves in: identities at Apple, Google or an email address, sessions with
-- rotating refresh tokens, one-time email codes, invites, and the columns that let a member
-- edit their profile and leave. Forward-only: never edit once shipped.

ALTER TABLE users ADD COLUMN locale TEXT CHECK (locale IN ('ko', 'ja', 'en'));
ALTER TABLE users ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0 CHECK (email_verified IN (0, 1));
-- Set when the member deleted their account: the row stays (attendance and rewards point at
-- it, so counts stay right) with a tombstone handle and nothing that identifies them.
ALTER TABLE users ADD COLUMN deleted_at INTEGER;

-- One row per way a person signs in: provider 'apple' or 'google' with the provider's `sub`,
-- or 'email' with the address (lower-cased) as the subject.
CREATE TABLE identities (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    provider TEXT NOT NULL CHECK (provider IN ('apple', 'google', 'email')),
    subject TEXT NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
    email TEXT,
    -- Apple's refresh token from the authorization code, kept only to revoke it on deletion.
    apple_refresh_token TEXT,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    UNIQUE (provider, subject)
) STRICT;
CREATE INDEX identities_by_user ON identities(user_id);

-- A signed-in device. Its access tokens are rows of api_tokens with session_id set.
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    device_name TEXT NOT NULL DEFAULT '',
    platform TEXT NOT NULL DEFAULT '',
    sign_in_method TEXT NOT NULL CHECK (sign_in_method IN ('apple', 'google', 'email')),
    created_at INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    -- When the member last proved who they are on this session (a sign-in), for the
    -- operations that need a recent one (deleting the account).
    authenticated_at INTEGER NOT NULL,
    -- The session ends when its refresh token goes unused this long.
    expires_at INTEGER NOT NULL,
    ended_at INTEGER
) STRICT;
CREATE INDEX sessions_by_user ON sessions(user_id, id);

-- Every refresh token a session was given (SHA-256 only): the current one has used_at NULL;
-- presenting one already used ends its whole session (token theft, RFC 9700 §4.14.2).
CREATE TABLE refresh_tokens (
    token_hash BLOB PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    created_at INTEGER NOT NULL,
    used_at INTEGER
) STRICT;
CREATE INDEX refresh_tokens_by_session ON refresh_tokens(session_id);

ALTER TABLE api_tokens ADD COLUMN session_id INTEGER REFERENCES sessions(id);
ALTER TABLE api_tokens ADD COLUMN expires_at INTEGER;
CREATE INDEX api_tokens_by_session ON api_tokens(session_id) WHERE session_id IS NOT NULL;

-- ID tokens already exchanged for a session, until they expire: each works once.
CREATE TABLE used_identity_tokens (
    digest TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL
) STRICT;

-- Sign-in by email: a 6-digit code and a link token, both stored as SHA-256 only.
CREATE TABLE email_challenges (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,
    code_hash BLOB NOT NULL,
    link_hash BLOB NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    wrong_attempts INTEGER NOT NULL DEFAULT 0,
    closed_at INTEGER
) STRICT;
CREATE INDEX email_challenges_by_email ON email_challenges(email, id);

-- Invites: a code a host or admin hands out, needed for a first sign-in when sign-up is by invite.
CREATE TABLE invites (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    created_by INTEGER REFERENCES users(id),
    max_uses INTEGER NOT NULL CHECK (max_uses >= 1),
    uses INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0),
    expires_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
) STRICT;
