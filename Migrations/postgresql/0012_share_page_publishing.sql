-- Share pages taken down by their member, as Migrations/sqlite/0012_share_page_publishing.sql.
-- Forward-only: never edit once shipped.
CREATE TABLE share_pages_unpublished (
    slug TEXT PRIMARY KEY CHECK (length(slug) BETWEEN 22 AND 64),
    reward_id BIGINT NOT NULL REFERENCES rewards(id),
    published_at BIGINT NOT NULL,
    unpublished_at BIGINT NOT NULL
);
