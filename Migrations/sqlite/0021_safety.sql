-- Safety where strangers meet: members block each other, hosts ban members from their
-- meetups, members report content and people, moderators act on the reports, and every
-- action is kept in an append-only log. Terms acceptances are kept per version.
-- Forward-only: never edit once shipped.

-- Moderators work the report queue beside admins (who always may); a flag rather than a
-- fourth role, so that a host can moderate and stay a host.
ALTER TABLE users ADD COLUMN moderator INTEGER NOT NULL DEFAULT 0 CHECK (moderator IN (0, 1));
-- A suspended member cannot sign in: suspended_until NULL with suspended_at set is for good.
ALTER TABLE users ADD COLUMN suspended_at INTEGER;
ALTER TABLE users ADD COLUMN suspended_until INTEGER;
-- A hidden meetup leaves every list and its pages answer 410; a hidden share page answers 410.
ALTER TABLE meetups ADD COLUMN hidden_at INTEGER;
ALTER TABLE share_pages ADD COLUMN hidden_at INTEGER;

-- A block works both ways: neither sees the other's meetups, neither joins the other's.
CREATE TABLE member_blocks (
    blocker_id INTEGER NOT NULL REFERENCES users(id),
    blocked_id INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (blocker_id, blocked_id),
    CHECK (blocker_id <> blocked_id)
) STRICT, WITHOUT ROWID;
-- "Who blocked me" for the other direction of the rule.
CREATE INDEX member_blocks_by_blocked ON member_blocks(blocked_id, blocker_id);

-- A host's ban keeps a member out of every meetup the host hosts from then on.
CREATE TABLE host_bans (
    host_id INTEGER NOT NULL REFERENCES users(id),
    member_id INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (host_id, member_id),
    CHECK (host_id <> member_id)
) STRICT, WITHOUT ROWID;

-- Reports. reporter_id becomes NULL when the reporter deletes their account (the report
-- stays for the moderators). subject_user_id is the member responsible for the subject (a
-- meetup's host, a share page's owner, the member), for grouping and suspension. snapshot
-- is the content as it was when first reported (JSON), so a later edit hides nothing.
CREATE TABLE reports (
    id INTEGER PRIMARY KEY,
    reporter_id INTEGER REFERENCES users(id),
    subject_type TEXT NOT NULL CHECK (subject_type IN ('meetup', 'member', 'share_page', 'meetup_page')),
    subject_id TEXT NOT NULL CHECK (length(subject_id) BETWEEN 1 AND 64),
    subject_user_id INTEGER REFERENCES users(id),
    reason TEXT NOT NULL CHECK (reason IN ('spam', 'harassment', 'hate', 'sexual', 'violence', 'dangerous', 'impersonation', 'other')),
    note TEXT NOT NULL DEFAULT '',
    snapshot TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'dismissed', 'actioned')),
    -- What the moderators did, as the reporter is told it: dismiss, hide, warn, suspend.
    outcome TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    resolved_at INTEGER
) STRICT;
-- One open report per reporter and subject: a second one updates the first.
CREATE UNIQUE INDEX reports_one_open_per_reporter ON reports(reporter_id, subject_type, subject_id) WHERE status = 'open';
-- The moderators' queue, grouped by subject; and the automatic hide's count.
CREATE INDEX reports_by_subject ON reports(subject_type, subject_id, status, created_at);
-- The member's own reports, newest first, and the rate limit.
CREATE INDEX reports_by_reporter ON reports(reporter_id, created_at);
-- The open reports' count and age for /metrics.
CREATE INDEX reports_open ON reports(created_at) WHERE status = 'open';

-- Every moderation action: who (NULL for the command line or the automatic hide), what, on
-- which subject, why, and the reports it answered (a JSON array of ids). Append-only.
CREATE TABLE moderation_actions (
    id INTEGER PRIMARY KEY,
    moderator_id INTEGER REFERENCES users(id),
    action TEXT NOT NULL CHECK (action IN ('dismiss', 'hide', 'warn', 'suspend', 'lift', 'auto_hide')),
    subject_type TEXT NOT NULL CHECK (subject_type IN ('meetup', 'member', 'share_page', 'meetup_page')),
    subject_id TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    report_ids TEXT NOT NULL DEFAULT '[]',
    -- For a suspension: until when (NULL for good).
    until_at INTEGER,
    created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX moderation_actions_by_subject ON moderation_actions(subject_type, subject_id, id);
CREATE TRIGGER moderation_actions_no_update BEFORE UPDATE ON moderation_actions
BEGIN
    SELECT RAISE(ABORT, 'moderation_actions is append-only');
END;
CREATE TRIGGER moderation_actions_no_delete BEFORE DELETE ON moderation_actions
BEGIN
    SELECT RAISE(ABORT, 'moderation_actions is append-only');
END;

-- Which version of the club's terms each member accepted, and when.
CREATE TABLE terms_acceptances (
    user_id INTEGER NOT NULL REFERENCES users(id),
    version TEXT NOT NULL CHECK (length(version) BETWEEN 1 AND 40),
    accepted_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, version)
) STRICT, WITHOUT ROWID;
