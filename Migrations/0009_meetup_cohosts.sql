-- Co-hosts: users who have the host's rights on a meetup besides its host. Forward-only:
-- never edit once shipped.
CREATE TABLE meetup_cohosts (
    meetup_id INTEGER NOT NULL REFERENCES meetups(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    added_at INTEGER NOT NULL,
    PRIMARY KEY (meetup_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX meetup_cohosts_by_user ON meetup_cohosts(user_id, meetup_id);
