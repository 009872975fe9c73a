-- Attendance counts kept on the meetup row, so reading a meetup (and the capacity check of
-- a join) costs one row instead of counting every attendance. Triggers keep them right
-- whatever changes an attendance.

ALTER TABLE meetups ADD COLUMN going_count INTEGER NOT NULL DEFAULT 0;        -- going + checked_in
ALTER TABLE meetups ADD COLUMN waitlist_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE meetups ADD COLUMN checked_in_count INTEGER NOT NULL DEFAULT 0;

UPDATE meetups SET
    going_count = (SELECT count(*) FROM attendances a WHERE a.meetup_id = meetups.id AND a.status IN ('going', 'checked_in')),
    waitlist_count = (SELECT count(*) FROM attendances a WHERE a.meetup_id = meetups.id AND a.status = 'waitlisted'),
    checked_in_count = (SELECT count(*) FROM attendances a WHERE a.meetup_id = meetups.id AND a.status = 'checked_in');

CREATE TRIGGER attendances_count_insert AFTER INSERT ON attendances
BEGIN
    UPDATE meetups SET
        going_count = going_count + (NEW.status IN ('going', 'checked_in')),
        waitlist_count = waitlist_count + (NEW.status = 'waitlisted'),
        checked_in_count = checked_in_count + (NEW.status = 'checked_in')
    WHERE id = NEW.meetup_id;
END;

CREATE TRIGGER attendances_count_update AFTER UPDATE OF status, meetup_id ON attendances
WHEN OLD.status IS NOT NEW.status OR OLD.meetup_id IS NOT NEW.meetup_id
BEGIN
    UPDATE meetups SET
        going_count = going_count - (OLD.status IN ('going', 'checked_in')),
        waitlist_count = waitlist_count - (OLD.status = 'waitlisted'),
        checked_in_count = checked_in_count - (OLD.status = 'checked_in')
    WHERE id = OLD.meetup_id;
    UPDATE meetups SET
        going_count = going_count + (NEW.status IN ('going', 'checked_in')),
        waitlist_count = waitlist_count + (NEW.status = 'waitlisted'),
        checked_in_count = checked_in_count + (NEW.status = 'checked_in')
    WHERE id = NEW.meetup_id;
END;

CREATE TRIGGER attendances_count_delete AFTER DELETE ON attendances
BEGIN
    UPDATE meetups SET
        going_count = going_count - (OLD.status IN ('going', 'checked_in')),
        waitlist_count = waitlist_count - (OLD.status = 'waitlisted'),
        checked_in_count = checked_in_count - (OLD.status = 'checked_in')
    WHERE id = OLD.meetup_id;
END;

-- Nothing looks rewards up by meetup or by render status (the backfill walks rewards by
-- id), and every check-in paid for keeping these two indexes.
DROP INDEX rewards_by_meetup;
DROP INDEX rewards_by_render_status;
