-- A check-in no longer writes its meetup's row. The checked-in count is counted when a meetup
-- is read (attendances_by_meetup_status covers it), and the triggers touch the meetup only
-- when a place is taken or given back or the waitlist changes: checking in keeps a place, so
-- concurrent check-ins at one meetup no longer contend for one row (on PostgreSQL, where
-- several nodes write, every such pair of transactions conflicted). Forward-only: never edit
-- once shipped.

DROP TRIGGER attendances_count_insert;
DROP TRIGGER attendances_count_update;
DROP TRIGGER attendances_count_delete;

ALTER TABLE meetups DROP COLUMN checked_in_count;

CREATE TRIGGER attendances_count_insert AFTER INSERT ON attendances
WHEN NEW.status IN ('going', 'checked_in', 'waitlisted')
BEGIN
    UPDATE meetups SET
        going_count = going_count + (NEW.status IN ('going', 'checked_in')),
        waitlist_count = waitlist_count + (NEW.status = 'waitlisted')
    WHERE id = NEW.meetup_id;
END;

CREATE TRIGGER attendances_count_update AFTER UPDATE OF status, meetup_id ON attendances
WHEN OLD.meetup_id IS NOT NEW.meetup_id
  OR (OLD.status IN ('going', 'checked_in')) IS NOT (NEW.status IN ('going', 'checked_in'))
  OR (OLD.status = 'waitlisted') IS NOT (NEW.status = 'waitlisted')
BEGIN
    UPDATE meetups SET
        going_count = going_count - (OLD.status IN ('going', 'checked_in')),
        waitlist_count = waitlist_count - (OLD.status = 'waitlisted')
    WHERE id = OLD.meetup_id;
    UPDATE meetups SET
        going_count = going_count + (NEW.status IN ('going', 'checked_in')),
        waitlist_count = waitlist_count + (NEW.status = 'waitlisted')
    WHERE id = NEW.meetup_id;
END;

CREATE TRIGGER attendances_count_delete AFTER DELETE ON attendances
WHEN OLD.status IN ('going', 'checked_in', 'waitlisted')
BEGIN
    UPDATE meetups SET
        going_count = going_count - (OLD.status IN ('going', 'checked_in')),
        waitlist_count = waitlist_count - (OLD.status = 'waitlisted')
    WHERE id = OLD.meetup_id;
END;
