-- Public share pages, as Migrations/sqlite/0004_share_pages.sql. Forward-only: never edit once shipped.
CREATE TABLE share_pages (
    slug TEXT PRIMARY KEY CHECK (length(slug) BETWEEN 22 AND 64),
    reward_id BIGINT NOT NULL UNIQUE REFERENCES rewards(id),
    created_at BIGINT NOT NULL
);

ALTER TABLE users ADD COLUMN show_name_on_share_pages BIGINT NOT NULL DEFAULT 1
    CHECK (show_name_on_share_pages IN (0, 1));
