-- A second factor for console sign-ins: a TOTP secret (RFC 6238) per member who enrolled,
-- their one-time recovery codes (SHA-256 only) and sign-ins held between the emailed code and
-- the second factor (the SHA-256 of the held sign-in's token only). The TOTP secret is kept as
-- it is: the server computes the same codes as the member's app. Forward-only: never edit
-- once shipped.

CREATE TABLE second_factors (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    secret BLOB NOT NULL CHECK (length(secret) = 20),
    created_at INTEGER NOT NULL,
    -- NULL while the secret was shown and not yet confirmed with a code.
    confirmed_at INTEGER,
    -- The latest 30-second step whose code was accepted: each step's code works once.
    last_used_step INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE second_factor_recovery_codes (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    code_hash BLOB NOT NULL UNIQUE CHECK (length(code_hash) = 32),
    created_at INTEGER NOT NULL,
    used_at INTEGER
) STRICT;
CREATE INDEX second_factor_recovery_codes_by_user ON second_factor_recovery_codes(user_id);

CREATE TABLE held_sign_ins (
    token_hash BLOB PRIMARY KEY CHECK (length(token_hash) = 32),
    user_id INTEGER NOT NULL REFERENCES users(id),
    -- The address the emailed code proved: the sign-in continues with it.
    email TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    wrong_attempts INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX held_sign_ins_by_user ON held_sign_ins(user_id);
