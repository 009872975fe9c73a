-- On PostgreSQL this migration drops the foreign keys of the rows a check-in writes (see
-- Migrations/postgresql/0019_check_in_references_checked_by_belay.sql): there each was a locking
-- read of the referenced row. SQLite checks a foreign key with a lookup of the parent's primary
-- key and locks nothing, so it keeps them, and nothing changes here. Forward-only: never edit once
-- shipped.

SELECT 1;
