-- The second factor guards every sign-in, not only the console's: a sign-in from the app (an
-- emailed code or link, Apple, Google) of a member with an authenticator is held until its code
-- is given, so the held row keeps the whole proven identity and the device that asked, not only
-- an email address. And an admin's reset of a member's second factor goes into the audit log.
-- Forward-only: never edit once shipped.

-- Held sign-ins live ten minutes: one in flight while the server is upgraded is forgotten, and
-- its member signs in again.
DROP TABLE held_sign_ins;
CREATE TABLE held_sign_ins (
    token_hash BLOB PRIMARY KEY CHECK (length(token_hash) = 32),
    user_id INTEGER NOT NULL REFERENCES users(id),
    -- The identity the first factor proved: the sign-in continues with it.
    method TEXT NOT NULL CHECK (method IN ('apple', 'google', 'email')),
    subject TEXT NOT NULL,
    email TEXT,
    email_verified INTEGER NOT NULL DEFAULT 0 CHECK (email_verified IN (0, 1)),
    name TEXT,
    -- Apple's refresh token from the app's authorization code, kept to revoke it when the member leaves.
    apple_refresh_token TEXT,
    -- The device that asked, as its session will name it.
    device_name TEXT NOT NULL DEFAULT '',
    device_platform TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    wrong_attempts INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX held_sign_ins_by_user ON held_sign_ins(user_id);

-- The audit log takes `reset_second_factor` (an admin removed a member's authenticator). SQLite
-- changes a CHECK only by making the table again: the rows are copied as they are.
CREATE TABLE moderation_actions_new (
    id INTEGER PRIMARY KEY,
    moderator_id INTEGER REFERENCES users(id),
    action TEXT NOT NULL CHECK (action IN ('dismiss', 'hide', 'warn', 'suspend', 'lift', 'auto_hide', 'reset_second_factor')),
    subject_type TEXT NOT NULL CHECK (subject_type IN ('meetup', 'member', 'share_page', 'meetup_page')),
    subject_id TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    report_ids TEXT NOT NULL DEFAULT '[]',
    -- For a suspension: until when (NULL for good).
    until_at INTEGER,
    created_at INTEGER NOT NULL
) STRICT;
INSERT INTO moderation_actions_new (id, moderator_id, action, subject_type, subject_id, reason, report_ids, until_at, created_at)
    SELECT id, moderator_id, action, subject_type, subject_id, reason, report_ids, until_at, created_at FROM moderation_actions;
DROP TABLE moderation_actions;
ALTER TABLE moderation_actions_new RENAME TO moderation_actions;
CREATE INDEX moderation_actions_by_subject ON moderation_actions(subject_type, subject_id, id);
CREATE TRIGGER moderation_actions_no_update BEFORE UPDATE ON moderation_actions
BEGIN
    SELECT RAISE(ABORT, 'moderation_actions is append-only');
END;
CREATE TRIGGER moderation_actions_no_delete BEFORE DELETE ON moderation_actions
BEGIN
    SELECT RAISE(ABORT, 'moderation_actions is append-only');
END;
