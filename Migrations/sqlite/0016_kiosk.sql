-- Front-desk kiosk links: a host's unguessable link to a screen that shows a meetup's rotating
-- check-in code as a QR code. Only the SHA-256 of each link's token is kept (like sessions'
-- refresh tokens), so a copy of the database opens no kiosk. A link works while its meetup's
-- check-in window is open or still to come (the window is read from the meetup, so a moved
-- meetup keeps its links right) and until it is revoked. Forward-only: never edit once shipped.

CREATE TABLE kiosk_links (
    id INTEGER PRIMARY KEY,
    meetup_id INTEGER NOT NULL REFERENCES meetups(id),
    token_hash BLOB NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    -- The host, co-host or admin who made it; NULL for the command line.
    created_by INTEGER REFERENCES users(id),
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
) STRICT;
-- Revoking every link of a meetup.
CREATE INDEX kiosk_links_by_meetup ON kiosk_links(meetup_id);
