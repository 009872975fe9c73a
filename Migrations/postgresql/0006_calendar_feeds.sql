-- Calendar feeds, as Migrations/sqlite/0006_calendar_feeds.sql. Forward-only: never edit once shipped.
ALTER TABLE meetups ADD COLUMN calendar_sequence BIGINT NOT NULL DEFAULT 0;

-- SEQUENCE goes up on every change a calendar shows.
CREATE FUNCTION meetups_calendar_sequence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.calendar_sequence := OLD.calendar_sequence + 1;
    RETURN NEW;
END;
$$;
CREATE TRIGGER meetups_calendar_sequence
BEFORE UPDATE OF title, description, place_name, address, starts_at, ends_at, time_zone, status ON meetups
FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.description IS DISTINCT FROM NEW.description
    OR OLD.place_name IS DISTINCT FROM NEW.place_name OR OLD.address IS DISTINCT FROM NEW.address
    OR OLD.starts_at IS DISTINCT FROM NEW.starts_at OR OLD.ends_at IS DISTINCT FROM NEW.ends_at
    OR OLD.time_zone IS DISTINCT FROM NEW.time_zone OR OLD.status IS DISTINCT FROM NEW.status)
EXECUTE FUNCTION meetups_calendar_sequence();

-- The key feed tokens are derived from: 32 bytes from the server's strong random source.
CREATE TABLE calendar_feed_secret (
    only_row BIGINT PRIMARY KEY CHECK (only_row = 1),
    secret BYTEA NOT NULL CHECK (length(secret) = 32)
);
INSERT INTO calendar_feed_secret (only_row, secret)
VALUES (1, sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')));

CREATE TABLE calendar_feed_generations (
    user_id BIGINT PRIMARY KEY REFERENCES users(id),
    generation BIGINT NOT NULL CHECK (generation >= 1),
    revoked_at BIGINT NOT NULL
);
