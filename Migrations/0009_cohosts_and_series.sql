-- Co-hosts, and recurring meetups. Forward-only: never edit once shipped.

-- Co-hosts: users who have the host's rights on a meetup besides its host.
CREATE TABLE meetup_cohosts (
    meetup_id INTEGER NOT NULL REFERENCES meetups(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    added_at INTEGER NOT NULL,
    PRIMARY KEY (meetup_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX meetup_cohosts_by_user ON meetup_cohosts(user_id, meetup_id);

-- A recurring meetup's occurrences share series_id: the id of the series' first meetup.
ALTER TABLE meetups ADD COLUMN series_id INTEGER REFERENCES meetups(id);
CREATE INDEX meetups_by_series ON meetups(series_id, starts_at) WHERE series_id IS NOT NULL;
