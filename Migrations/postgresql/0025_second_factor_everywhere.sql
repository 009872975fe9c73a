-- The second factor guards every sign-in, as Migrations/sqlite/0025_second_factor_everywhere.sql:
-- a held sign-in keeps the whole proven identity and the device that asked, and the audit log
-- takes an admin's reset of a member's second factor. Forward-only: never edit once shipped.

-- Held sign-ins live ten minutes: one in flight while the server is upgraded is forgotten, and
-- its member signs in again.
DROP TABLE held_sign_ins;
CREATE TABLE held_sign_ins (
    token_hash BYTEA PRIMARY KEY CHECK (length(token_hash) = 32),
    user_id BIGINT NOT NULL REFERENCES users(id),
    method TEXT NOT NULL CHECK (method IN ('apple', 'google', 'email')),
    subject TEXT NOT NULL,
    email TEXT,
    email_verified BIGINT NOT NULL DEFAULT 0 CHECK (email_verified IN (0, 1)),
    name TEXT,
    apple_refresh_token TEXT,
    device_name TEXT NOT NULL DEFAULT '',
    device_platform TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    wrong_attempts BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX held_sign_ins_by_user ON held_sign_ins(user_id);

ALTER TABLE moderation_actions DROP CONSTRAINT moderation_actions_action_check;
ALTER TABLE moderation_actions ADD CONSTRAINT moderation_actions_action_check
    CHECK (action IN ('dismiss', 'hide', 'warn', 'suspend', 'lift', 'auto_hide', 'reset_second_factor'));
