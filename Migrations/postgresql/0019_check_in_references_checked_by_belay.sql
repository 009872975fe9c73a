-- The rows a check-in writes (its reward, the reward's render job, the webhook event's
-- deliveries) no longer carry foreign keys on PostgreSQL. Each reference is checked by the
-- server with a locking read of the referenced row (FOR KEY SHARE), eight per check-in: of the
-- attendance and member the check-in has just locked FOR UPDATE, of the reward and event the same
-- statement has just inserted, and of the meetup, hold, background and webhook endpoint that every
-- concurrent check-in shares. The shared ones are locked by many transactions at once, which
-- PostgreSQL records as a multixact, made anew for each new locker. Each check is a statement of
-- its own inside the server, and the eight cost more of its CPU than the check-in's own reads.
--
-- Nothing is left unchecked that could break: the check-in writes these ids from rows it read in
-- the same transaction, and Belay never deletes a row they point to (attendances, users,
-- meetups, holds, backgrounds, rewards and webhook endpoints are only ever updated: cancelled,
-- anonymised, retired, revoked, removed), except webhook events, which retention deletes only
-- once no delivery points to them. SQLite keeps the same references as foreign keys: it checks
-- them with a lookup of the parent's primary key and locks nothing (its 0019 changes nothing).
-- PostgresSchemaTests names these eight as the one difference between the two schemas. Forward-only: never edit once shipped.

ALTER TABLE rewards
    DROP CONSTRAINT rewards_attendance_id_fkey,
    DROP CONSTRAINT rewards_member_id_fkey,
    DROP CONSTRAINT rewards_meetup_id_fkey,
    DROP CONSTRAINT rewards_hold_id_fkey,
    DROP CONSTRAINT rewards_background_id_fkey;
ALTER TABLE render_jobs DROP CONSTRAINT render_jobs_reward_id_fkey;
ALTER TABLE webhook_deliveries
    DROP CONSTRAINT webhook_deliveries_endpoint_id_fkey,
    DROP CONSTRAINT webhook_deliveries_event_id_fkey;
