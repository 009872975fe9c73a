-- Check-in numbers, as Migrations/sqlite/0010_check_in_numbers.sql. Forward-only: never edit once shipped.
ALTER TABLE attendances ADD COLUMN check_in_number BIGINT CHECK (check_in_number IS NULL OR check_in_number >= 1);

UPDATE attendances SET check_in_number = (
    SELECT count(*) FROM attendances earlier
    WHERE earlier.member_id = attendances.member_id AND earlier.status = 'checked_in'
      AND (earlier.checked_in_at, earlier.id) <= (attendances.checked_in_at, attendances.id))
WHERE status = 'checked_in';
