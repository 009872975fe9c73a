-- Retention: share events older than share.events_retention_days are counted into one row per
-- meetup, club-zone day and target before they are deleted, so share statistics stay right.
-- (Delivered and given-up webhook rows are simply deleted after webhooks.retention_days.)
-- Forward-only: never edit once shipped.

CREATE TABLE share_statistics_daily (
    meetup_id INTEGER NOT NULL REFERENCES meetups(id),
    day TEXT NOT NULL CHECK (length(day) = 10),      -- yyyy-MM-dd in the club's time zone when counted
    target TEXT NOT NULL CHECK (target IN ('instagram_stories', 'facebook_stories', 'share_sheet', 'other')),
    events INTEGER NOT NULL CHECK (events >= 0),
    completed INTEGER NOT NULL CHECK (completed >= 0),
    failed INTEGER NOT NULL CHECK (failed >= 0),     -- not completed, with an error
    dismissed INTEGER NOT NULL CHECK (dismissed >= 0), -- not completed, no error
    PRIMARY KEY (meetup_id, day, target)
) STRICT, WITHOUT ROWID;
