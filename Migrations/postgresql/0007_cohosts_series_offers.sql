-- Co-hosts, recurring meetups and waitlist offers, as
-- Migrations/sqlite/0007_cohosts_series_offers.sql. Forward-only: never edit once shipped.
CREATE TABLE meetup_cohosts (
    meetup_id BIGINT NOT NULL REFERENCES meetups(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    added_at BIGINT NOT NULL,
    PRIMARY KEY (meetup_id, user_id)
);
CREATE INDEX meetup_cohosts_by_user ON meetup_cohosts(user_id, meetup_id);

ALTER TABLE meetups ADD COLUMN series_id BIGINT REFERENCES meetups(id);
CREATE INDEX meetups_by_series ON meetups(series_id, starts_at) WHERE series_id IS NOT NULL;

ALTER TABLE attendances ADD COLUMN offer_expires_at BIGINT;
CREATE INDEX attendances_open_offers ON attendances(offer_expires_at, meetup_id) WHERE offer_expires_at IS NOT NULL;
