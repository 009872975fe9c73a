-- Fair webhook order, as Migrations/sqlite/0014_webhook_fair_order.sql.
-- Forward-only: never edit once shipped.
ALTER TABLE webhook_deliveries ADD COLUMN subject TEXT NOT NULL DEFAULT '';
ALTER TABLE webhook_deliveries ADD COLUMN turn BIGINT NOT NULL DEFAULT 0;
DROP INDEX webhook_deliveries_pending;
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries(endpoint_id, turn, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_queue_by_subject ON webhook_deliveries(endpoint_id, subject, turn) WHERE status = 'pending';
