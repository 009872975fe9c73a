-- Share statistics kept per day once their events are pruned, as
-- Migrations/sqlite/0013_retention.sql. Forward-only: never edit once shipped.
CREATE TABLE share_statistics_daily (
    meetup_id BIGINT NOT NULL REFERENCES meetups(id),
    day TEXT NOT NULL CHECK (length(day) = 10),
    target TEXT NOT NULL CHECK (target IN ('instagram_stories', 'facebook_stories', 'share_sheet', 'other')),
    events BIGINT NOT NULL CHECK (events >= 0),
    completed BIGINT NOT NULL CHECK (completed >= 0),
    failed BIGINT NOT NULL CHECK (failed >= 0),
    dismissed BIGINT NOT NULL CHECK (dismissed >= 0),
    PRIMARY KEY (meetup_id, day, target)
);
