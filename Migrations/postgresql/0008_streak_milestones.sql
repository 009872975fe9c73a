-- Streak milestones, as Migrations/sqlite/0008_streak_milestones.sql. Forward-only: never edit once shipped.
ALTER TABLE rewards ADD COLUMN streak_milestone BIGINT CHECK (streak_milestone IS NULL OR streak_milestone >= 1);
