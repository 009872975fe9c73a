-- Attendance counts kept on the meetup row by triggers, as
-- Migrations/sqlite/0003_meetup_attendance_counts.sql. Forward-only: never edit once shipped.
ALTER TABLE meetups ADD COLUMN going_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE meetups ADD COLUMN waitlist_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE meetups ADD COLUMN checked_in_count BIGINT NOT NULL DEFAULT 0;

UPDATE meetups SET
    going_count = (SELECT count(*) FROM attendances a WHERE a.meetup_id = meetups.id AND a.status IN ('going', 'checked_in')),
    waitlist_count = (SELECT count(*) FROM attendances a WHERE a.meetup_id = meetups.id AND a.status = 'waitlisted'),
    checked_in_count = (SELECT count(*) FROM attendances a WHERE a.meetup_id = meetups.id AND a.status = 'checked_in');

CREATE FUNCTION attendances_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE meetups SET
            going_count = going_count - (OLD.status IN ('going', 'checked_in'))::int,
            waitlist_count = waitlist_count - (OLD.status = 'waitlisted')::int,
            checked_in_count = checked_in_count - (OLD.status = 'checked_in')::int
        WHERE id = OLD.meetup_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE meetups SET
            going_count = going_count + (NEW.status IN ('going', 'checked_in'))::int,
            waitlist_count = waitlist_count + (NEW.status = 'waitlisted')::int,
            checked_in_count = checked_in_count + (NEW.status = 'checked_in')::int
        WHERE id = NEW.meetup_id;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER attendances_count_insert AFTER INSERT ON attendances
    FOR EACH ROW EXECUTE FUNCTION attendances_count();
CREATE TRIGGER attendances_count_update AFTER UPDATE OF status, meetup_id ON attendances
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.meetup_id IS DISTINCT FROM NEW.meetup_id)
    EXECUTE FUNCTION attendances_count();
CREATE TRIGGER attendances_count_delete AFTER DELETE ON attendances
    FOR EACH ROW EXECUTE FUNCTION attendances_count();

DROP INDEX rewards_by_meetup;
DROP INDEX rewards_by_render_status;
