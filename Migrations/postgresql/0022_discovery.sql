-- Finding meetups, as Migrations/sqlite/0022_discovery.sql: where a meetup is and at what
-- level, its tags, who may find it, follows and the public page. PostgreSQL's own indexes:
-- a GiST index of the meetup's point (core's `point` and `box`, no extension needed) and a
-- GIN index of its text's two-character grams. Forward-only: never edit once shipped.

ALTER TABLE meetups ADD COLUMN latitude_e6 BIGINT CHECK (latitude_e6 IS NULL OR latitude_e6 BETWEEN -90000000 AND 90000000);
ALTER TABLE meetups ADD COLUMN longitude_e6 BIGINT CHECK (longitude_e6 IS NULL OR longitude_e6 BETWEEN -180000000 AND 180000000);
ALTER TABLE meetups ADD COLUMN discipline TEXT CHECK (discipline IS NULL OR discipline IN ('bouldering', 'lead', 'top_rope', 'outdoor'));
ALTER TABLE meetups ADD COLUMN level_axis TEXT CHECK (level_axis IS NULL OR level_axis IN ('boulder', 'route'));
ALTER TABLE meetups ADD COLUMN level_scale TEXT;
ALTER TABLE meetups ADD COLUMN level_min TEXT;
ALTER TABLE meetups ADD COLUMN level_max TEXT;
ALTER TABLE meetups ADD COLUMN level_min_score BIGINT;
ALTER TABLE meetups ADD COLUMN level_max_score BIGINT;
ALTER TABLE meetups ADD COLUMN tags TEXT NOT NULL DEFAULT '';
ALTER TABLE meetups ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'private'));
ALTER TABLE meetups ADD COLUMN search_title TEXT NOT NULL DEFAULT '';
ALTER TABLE meetups ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
ALTER TABLE meetups ADD COLUMN search_grams TEXT NOT NULL DEFAULT '';
ALTER TABLE meetups ADD COLUMN page_slug TEXT;
ALTER TABLE meetups ADD COLUMN page_published_at BIGINT;
ALTER TABLE meetups ADD COLUMN page_shows_host BIGINT NOT NULL DEFAULT 0 CHECK (page_shows_host IN (0, 1));
CREATE UNIQUE INDEX meetups_by_page_slug ON meetups(page_slug) WHERE page_slug IS NOT NULL;

-- "Near me": the point (longitude, latitude) in a GiST index; a search asks for a box.
CREATE INDEX meetups_by_location ON meetups USING gist (point(longitude_e6, latitude_e6)) WHERE latitude_e6 IS NOT NULL;
-- Text search: every gram must be there (GIN on the array of grams), then the folded text rechecks.
CREATE INDEX meetups_by_grams ON meetups USING gin (string_to_array(search_grams, ' '));

CREATE TABLE follows (
    user_id BIGINT NOT NULL REFERENCES users(id),
    subject_type TEXT NOT NULL CHECK (subject_type IN ('gym', 'host')),
    subject_id BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    notified_on TEXT,
    folded BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, subject_type, subject_id)
);
CREATE INDEX follows_by_subject ON follows(subject_type, subject_id, user_id);

CREATE TABLE member_locations (
    user_id BIGINT PRIMARY KEY REFERENCES users(id),
    latitude_e6 BIGINT NOT NULL CHECK (latitude_e6 BETWEEN -90000000 AND 90000000),
    longitude_e6 BIGINT NOT NULL CHECK (longitude_e6 BETWEEN -180000000 AND 180000000),
    updated_at BIGINT NOT NULL
);

UPDATE meetups SET latitude_e6 = g.latitude_e6, longitude_e6 = g.longitude_e6 FROM gyms g WHERE g.id = meetups.gym_id;
CREATE INDEX meetups_by_discipline ON meetups(discipline, starts_at) WHERE discipline IS NOT NULL;
