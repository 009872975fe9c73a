-- Every change to a meetup's row takes the next revision, whatever code or trigger made it (an
-- edit, a place taken, a gym's new name, a moderator's hiding), so that a server's search
-- index can read just the meetups changed since it last looked. Forward-only: never edit once
-- shipped.

ALTER TABLE meetups ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
UPDATE meetups SET revision = id;
CREATE INDEX meetups_by_revision ON meetups(revision);

-- One writer at a time: the next revision is the highest so far plus one (read off the index).
-- The nested UPDATE fires no trigger again (recursive triggers are off).
CREATE TRIGGER meetups_revision_insert AFTER INSERT ON meetups
BEGIN
    UPDATE meetups SET revision = (SELECT coalesce(max(revision), 0) + 1 FROM meetups) WHERE id = NEW.id;
END;
CREATE TRIGGER meetups_revision_update AFTER UPDATE ON meetups
WHEN NEW.revision IS OLD.revision
BEGIN
    UPDATE meetups SET revision = (SELECT coalesce(max(revision), 0) + 1 FROM meetups) WHERE id = NEW.id;
END;
