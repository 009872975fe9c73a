-- A check-in's number among its member's check-ins (1 for the first), given when it is made
-- and kept in the row: milestones go by it, and a backfill awards a missing reward by the
-- same number the check-in had. Given in the order the member's check-ins are recorded (they
-- wait for each other), not by their times, which concurrent check-ins can share. NULL while
-- not checked in. Existing check-ins are numbered in check-in order, ties broken by id, as
-- they were counted before. Forward-only: never edit once shipped.
ALTER TABLE attendances ADD COLUMN check_in_number INTEGER CHECK (check_in_number IS NULL OR check_in_number >= 1);

UPDATE attendances SET check_in_number = (
    SELECT count(*) FROM attendances earlier
    WHERE earlier.member_id = attendances.member_id AND earlier.status = 'checked_in'
      AND (earlier.checked_in_at, earlier.id) <= (attendances.checked_in_at, attendances.id))
WHERE status = 'checked_in';
