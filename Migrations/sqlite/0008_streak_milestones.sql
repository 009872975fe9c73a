-- Streak milestones: a reward given because the check-in made the member's weekly streak
-- reach this many weeks. Forward-only: never edit once shipped.
ALTER TABLE rewards ADD COLUMN streak_milestone INTEGER CHECK (streak_milestone IS NULL OR streak_milestone >= 1);
