-- Push notices by priority, as Migrations/sqlite/0024_push_priority.sql: the outbox claims every
-- due notice of a higher priority before any of a lower one, oldest due first within one; each
-- takes its kind's priority when it is written (NoticeKind.priority: 0 high, 1 normal, 2 low;
-- the lowest number goes first). Forward-only: never edit once shipped.

-- A notice written by an older Belay still running beside this one takes the default: normal.
ALTER TABLE push_notices ADD COLUMN priority BIGINT NOT NULL DEFAULT 1 CHECK (priority BETWEEN 0 AND 2);

-- Notices waiting now take their kind's priority as it is at this migration.
UPDATE push_notices SET priority = CASE
    WHEN kind IN ('reward_ready', 'waitlist_offer', 'waitlist_offer_expiring', 'waitlist_promoted', 'test') THEN 0
    WHEN kind IN ('meetup_reminder', 'new_meetup', 'personal_best', 'project_ending', 'report_outcome') THEN 2
    ELSE 1 END
WHERE status = 'pending';

-- The claim (FOR UPDATE SKIP LOCKED, several nodes at once) reads this index in order, the
-- highest priority's due notices first; with the old (next_attempt_at, id) index gone, no plan
-- can take the due notices oldest first and sort the whole backlog.
DROP INDEX push_notices_due;
CREATE INDEX push_notices_due_by_priority ON push_notices(priority, next_attempt_at, id) WHERE status = 'pending';
