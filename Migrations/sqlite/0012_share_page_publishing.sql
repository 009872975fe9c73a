-- A member publishes a reward's public page on purpose (POST /v1/rewards/{id}/share-page),
-- no longer by asking for the share payload, and may take it down again. A page taken down
-- moves here: its link answers 410 Gone from then on and never shows the reward again;
-- publishing again makes a new slug. Forward-only: never edit once shipped.

CREATE TABLE share_pages_unpublished (
    slug TEXT PRIMARY KEY CHECK (length(slug) BETWEEN 22 AND 64),
    reward_id INTEGER NOT NULL REFERENCES rewards(id),
    published_at INTEGER NOT NULL,
    unpublished_at INTEGER NOT NULL
) STRICT;
