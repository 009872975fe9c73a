-- Public share pages: one unguessable slug per reward a member chose to share, minted when
-- the share payload is first asked for, and the member's choice whether those pages show
-- their display name.

CREATE TABLE share_pages (
    slug TEXT PRIMARY KEY CHECK (length(slug) BETWEEN 22 AND 64),   -- at least 128 random bits, base64url
    reward_id INTEGER NOT NULL UNIQUE REFERENCES rewards(id),
    created_at INTEGER NOT NULL
) STRICT;

ALTER TABLE users ADD COLUMN show_name_on_share_pages INTEGER NOT NULL DEFAULT 1
    CHECK (show_name_on_share_pages IN (0, 1));
