-- The index of a subject's pending deliveries leads with the subject, so that it can no longer
-- serve a look at an endpoint's whole queue. Led by the endpoint, it could, and a server that
-- planned such a look while the outbox was nearly empty (PostgreSQL keeps each prepared plan)
-- read and sorted every pending delivery of the endpoint instead of taking the first entry of
-- webhook_deliveries_queue: with an endpoint down, every check-in got slower as its backlog
-- grew. Forward-only: never edit once shipped.

DROP INDEX webhook_deliveries_queue_by_subject;
CREATE INDEX webhook_deliveries_queue_by_subject ON webhook_deliveries(subject, endpoint_id, turn) WHERE status = 'pending';
