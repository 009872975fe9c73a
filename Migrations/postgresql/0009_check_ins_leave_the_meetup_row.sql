-- A check-in no longer writes its meetup's row, as
-- Migrations/sqlite/0009_check_ins_leave_the_meetup_row.sql: the checked-in count is counted
-- when a meetup is read, and the trigger touches the meetup only when a place is taken or
-- given back or the waitlist changes. Concurrent check-ins at one meetup, from any node, no
-- longer conflict on its row. Forward-only: never edit once shipped.

DROP TRIGGER attendances_count_insert ON attendances;
DROP TRIGGER attendances_count_update ON attendances;
DROP TRIGGER attendances_count_delete ON attendances;

ALTER TABLE meetups DROP COLUMN checked_in_count;

CREATE OR REPLACE FUNCTION attendances_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE meetups SET
            going_count = going_count - (OLD.status IN ('going', 'checked_in'))::int,
            waitlist_count = waitlist_count - (OLD.status = 'waitlisted')::int
        WHERE id = OLD.meetup_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE meetups SET
            going_count = going_count + (NEW.status IN ('going', 'checked_in'))::int,
            waitlist_count = waitlist_count + (NEW.status = 'waitlisted')::int
        WHERE id = NEW.meetup_id;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER attendances_count_insert AFTER INSERT ON attendances
    FOR EACH ROW WHEN (NEW.status IN ('going', 'checked_in', 'waitlisted'))
    EXECUTE FUNCTION attendances_count();
CREATE TRIGGER attendances_count_update AFTER UPDATE OF status, meetup_id ON attendances
    FOR EACH ROW WHEN (OLD.meetup_id IS DISTINCT FROM NEW.meetup_id
                       OR (OLD.status IN ('going', 'checked_in')) IS DISTINCT FROM (NEW.status IN ('going', 'checked_in'))
                       OR (OLD.status = 'waitlisted') IS DISTINCT FROM (NEW.status = 'waitlisted'))
    EXECUTE FUNCTION attendances_count();
CREATE TRIGGER attendances_count_delete AFTER DELETE ON attendances
    FOR EACH ROW WHEN (OLD.status IN ('going', 'checked_in', 'waitlisted'))
    EXECUTE FUNCTION attendances_count();
