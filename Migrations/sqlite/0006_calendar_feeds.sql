-- Calendar feeds (RFC 5545): a SEQUENCE per meetup that every change a calendar shows bumps
-- (kept by a trigger, whatever code changes the row), and the secret and per-member
-- generations that make the revocable feed tokens. Forward-only: never edit once shipped.

ALTER TABLE meetups ADD COLUMN calendar_sequence INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER meetups_calendar_sequence
AFTER UPDATE OF title, description, place_name, address, starts_at, ends_at, time_zone, status ON meetups
WHEN OLD.title IS NOT NEW.title OR OLD.description IS NOT NEW.description OR OLD.place_name IS NOT NEW.place_name
  OR OLD.address IS NOT NEW.address OR OLD.starts_at IS NOT NEW.starts_at OR OLD.ends_at IS NOT NEW.ends_at
  OR OLD.time_zone IS NOT NEW.time_zone OR OLD.status IS NOT NEW.status
BEGIN
    UPDATE meetups SET calendar_sequence = OLD.calendar_sequence + 1 WHERE id = NEW.id;
END;

-- The key of every feed token (HMAC-SHA256 of "member:generation"), made once per database.
CREATE TABLE calendar_feed_secret (
    only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
    secret BLOB NOT NULL CHECK (length(secret) = 32)
) STRICT;
INSERT INTO calendar_feed_secret (only_row, secret) VALUES (1, randomblob(32));

-- Bumped when a member revokes their feed URL; a member without a row is at generation 0.
CREATE TABLE calendar_feed_generations (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    generation INTEGER NOT NULL CHECK (generation >= 1),
    revoked_at INTEGER NOT NULL
) STRICT;
