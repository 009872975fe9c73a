-- Co-hosts, recurring meetups and waitlist offers. Forward-only: never edit once shipped.

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

-- Waitlist offers: a waitlisted attendance holding an offer of a freed place until
-- offer_expires_at (while it holds one, the place is not given to anyone else).
ALTER TABLE attendances ADD COLUMN offer_expires_at INTEGER;
CREATE INDEX attendances_open_offers ON attendances(offer_expires_at, meetup_id) WHERE offer_expires_at IS NOT NULL;
