-- Every change to a meetup's row takes the next revision, as
-- Migrations/sqlite/0026_meetup_revisions.sql: from a sequence, set by a trigger whatever code
-- or trigger made the change. Revisions are handed out in the order transactions ask, not the
-- order they commit; a reader of "changed since" reads the ones it skipped over again for a
-- few seconds (MeetupSearchIndex). Forward-only: never edit once shipped.

CREATE SEQUENCE meetup_revisions;
ALTER TABLE meetups ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
UPDATE meetups SET revision = id;
SELECT setval('meetup_revisions', coalesce((SELECT max(revision) FROM meetups), 0) + 1, false);
CREATE INDEX meetups_by_revision ON meetups(revision);

CREATE FUNCTION meetups_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.revision := nextval('meetup_revisions');
    RETURN NEW;
END;
$$;
CREATE TRIGGER meetups_revision BEFORE INSERT OR UPDATE ON meetups
FOR EACH ROW EXECUTE FUNCTION meetups_revision();
