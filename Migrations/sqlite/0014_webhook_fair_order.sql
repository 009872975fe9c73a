-- Fair webhook order: a flood of events about one subject no longer holds back an endpoint's
-- other events. Each delivery names its subject (what the event is about: `member:12`,
-- `meetup:3`, `endpoint:1` for a test event) and takes a turn: one after the subject's last
-- pending delivery to the endpoint, or, when the subject has none, the turn the endpoint's
-- queue is at. An endpoint's deliveries go out one at a time in (turn, id) order: in order
-- per subject, the subjects taking turns. Deliveries queued before this migration keep turn 0
-- and go first, in id order. Forward-only: never edit once shipped.

ALTER TABLE webhook_deliveries ADD COLUMN subject TEXT NOT NULL DEFAULT '';
ALTER TABLE webhook_deliveries ADD COLUMN turn INTEGER NOT NULL DEFAULT 0;
-- The head of each endpoint's queue (its first pending delivery by turn) is found through this.
DROP INDEX webhook_deliveries_pending;
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries(endpoint_id, turn, id) WHERE status = 'pending';
-- A subject's last pending delivery to an endpoint, for the turn of the next.
CREATE INDEX webhook_deliveries_queue_by_subject ON webhook_deliveries(endpoint_id, subject, turn) WHERE status = 'pending';
