-- Finding meetups: where a meetup is and at what level, what it is tagged, who may find it,
-- members following gyms and hosts, and a meetup's public page. Forward-only: never edit once
-- shipped.

-- Where: millionths of a degree, as gyms (exact on both engines and in `belay db copy`).
ALTER TABLE meetups ADD COLUMN latitude_e6 INTEGER CHECK (latitude_e6 IS NULL OR latitude_e6 BETWEEN -90000000 AND 90000000);
ALTER TABLE meetups ADD COLUMN longitude_e6 INTEGER CHECK (longitude_e6 IS NULL OR longitude_e6 BETWEEN -180000000 AND 180000000);
ALTER TABLE meetups ADD COLUMN discipline TEXT CHECK (discipline IS NULL OR discipline IN ('bouldering', 'lead', 'top_rope', 'outdoor'));
-- The level range as the host gave it (grade text in a scale) and as scores on its axis
-- (GradeTable), so that a search in any scale compares.
ALTER TABLE meetups ADD COLUMN level_axis TEXT CHECK (level_axis IS NULL OR level_axis IN ('boulder', 'route'));
ALTER TABLE meetups ADD COLUMN level_scale TEXT;
ALTER TABLE meetups ADD COLUMN level_min TEXT;
ALTER TABLE meetups ADD COLUMN level_max TEXT;
ALTER TABLE meetups ADD COLUMN level_min_score INTEGER;
ALTER TABLE meetups ADD COLUMN level_max_score INTEGER;
-- Tags from the fixed list, written ",women,coaching," so that one LIKE finds one.
ALTER TABLE meetups ADD COLUMN tags TEXT NOT NULL DEFAULT '';
-- 'private' meetups are in no list, search, feed, follow notice or public page.
ALTER TABLE meetups ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'private'));
-- What text search reads: the title, and all of it (title, description, place, address, the
-- gym's names), folded (case, accents, width); and all of it cut into overlapping
-- two-character grams, so that a two-syllable Korean word is one gram. The grams find the
-- candidates by index, the folded text rechecks them and ranks title matches first.
ALTER TABLE meetups ADD COLUMN search_title TEXT NOT NULL DEFAULT '';
ALTER TABLE meetups ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
ALTER TABLE meetups ADD COLUMN search_grams TEXT NOT NULL DEFAULT '';
-- The public page: /m/{slug}, 128 random bits; unpublished pages answer 410.
ALTER TABLE meetups ADD COLUMN page_slug TEXT;
ALTER TABLE meetups ADD COLUMN page_published_at INTEGER;
ALTER TABLE meetups ADD COLUMN page_shows_host INTEGER NOT NULL DEFAULT 0 CHECK (page_shows_host IN (0, 1));
CREATE UNIQUE INDEX meetups_by_page_slug ON meetups(page_slug) WHERE page_slug IS NOT NULL;

-- "Near me": an R*Tree of the meetups' points (32-bit integer boxes hold millionths of a degree).
CREATE VIRTUAL TABLE meetup_locations USING rtree_i32(id, min_latitude, max_latitude, min_longitude, max_longitude);
CREATE TRIGGER meetup_locations_insert AFTER INSERT ON meetups WHEN new.latitude_e6 IS NOT NULL BEGIN
    INSERT INTO meetup_locations VALUES (new.id, new.latitude_e6, new.latitude_e6, new.longitude_e6, new.longitude_e6);
END;
CREATE TRIGGER meetup_locations_update AFTER UPDATE OF latitude_e6, longitude_e6 ON meetups BEGIN
    DELETE FROM meetup_locations WHERE id = old.id;
    INSERT INTO meetup_locations SELECT new.id, new.latitude_e6, new.latitude_e6, new.longitude_e6, new.longitude_e6
        WHERE new.latitude_e6 IS NOT NULL;
END;
CREATE TRIGGER meetup_locations_delete AFTER DELETE ON meetups BEGIN
    DELETE FROM meetup_locations WHERE id = old.id;
END;

-- Text search: an FTS5 index of the grams, its content read from the meetups row.
CREATE VIRTUAL TABLE meetup_search USING fts5(search_grams, content='meetups', content_rowid='id',
                                             tokenize='unicode61 remove_diacritics 0');
CREATE TRIGGER meetup_search_insert AFTER INSERT ON meetups BEGIN
    INSERT INTO meetup_search(rowid, search_grams) VALUES (new.id, new.search_grams);
END;
CREATE TRIGGER meetup_search_update AFTER UPDATE OF search_grams ON meetups BEGIN
    INSERT INTO meetup_search(meetup_search, rowid, search_grams) VALUES ('delete', old.id, old.search_grams);
    INSERT INTO meetup_search(rowid, search_grams) VALUES (new.id, new.search_grams);
END;
CREATE TRIGGER meetup_search_delete AFTER DELETE ON meetups BEGIN
    INSERT INTO meetup_search(meetup_search, rowid, search_grams) VALUES ('delete', old.id, old.search_grams);
END;

-- Members follow gyms and hosts. subject_type 'gym' or 'host'; subject_id the gym's or user's id.
CREATE TABLE follows (
    user_id INTEGER NOT NULL REFERENCES users(id),
    subject_type TEXT NOT NULL CHECK (subject_type IN ('gym', 'host')),
    subject_id INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    -- The folding of "new meetup" notices: the day (in the meetup's zone) the last one went
    -- out, and how many new meetups were folded since (told with the next notice).
    notified_on TEXT,
    folded INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, subject_type, subject_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX follows_by_subject ON follows(subject_type, subject_id, user_id);

-- The member's last location, given with `GET /v1/me/feed?near=`: their feed's "near you".
CREATE TABLE member_locations (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    latitude_e6 INTEGER NOT NULL CHECK (latitude_e6 BETWEEN -90000000 AND 90000000),
    longitude_e6 INTEGER NOT NULL CHECK (longitude_e6 BETWEEN -180000000 AND 180000000),
    updated_at INTEGER NOT NULL
) STRICT;

-- Meetups at a gym take its point.
UPDATE meetups SET latitude_e6 = (SELECT g.latitude_e6 FROM gyms g WHERE g.id = meetups.gym_id),
                   longitude_e6 = (SELECT g.longitude_e6 FROM gyms g WHERE g.id = meetups.gym_id)
WHERE gym_id IS NOT NULL;
CREATE INDEX meetups_by_discipline ON meetups(discipline, starts_at) WHERE discipline IS NOT NULL;
