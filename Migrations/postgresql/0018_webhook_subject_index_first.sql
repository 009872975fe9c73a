-- The index of a subject's pending deliveries leads with the subject, as
-- Migrations/sqlite/0018_webhook_subject_index_first.sql. Forward-only: never edit once shipped.

DROP INDEX webhook_deliveries_queue_by_subject;
CREATE INDEX webhook_deliveries_queue_by_subject ON webhook_deliveries(subject, endpoint_id, turn) WHERE status = 'pending';
