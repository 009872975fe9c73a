-- Push notices by priority: the outbox claims every due notice of a higher priority before any
-- of a lower one, oldest due first within one, so that "your sticker is ready" or a waitlist
-- offer is not queued behind ten thousand reminders or a new meetup's fan-out. Each notice
-- takes its kind's priority when it is written (NoticeKind.priority: 0 high, 1 normal, 2 low;
-- the lowest number goes first, as P0 before P1). Forward-only: never edit once shipped.

-- A notice written by an older Belay still running beside this one (several nodes upgraded one
-- by one) takes the default: normal.
ALTER TABLE push_notices ADD COLUMN priority INTEGER NOT NULL DEFAULT 1 CHECK (priority BETWEEN 0 AND 2);

-- Notices waiting now take their kind's priority as it is at this migration; finished ones keep
-- the default, since the column only orders the queue.
UPDATE push_notices SET priority = CASE
    WHEN kind IN ('reward_ready', 'waitlist_offer', 'waitlist_offer_expiring', 'waitlist_promoted', 'test') THEN 0
    WHEN kind IN ('meetup_reminder', 'new_meetup', 'personal_best', 'project_ending', 'report_outcome') THEN 2
    ELSE 1 END
WHERE status = 'pending';

-- The claim reads this index in order: the first priority's due notices first. The index it
-- replaces (next_attempt_at, id) could serve only "oldest due first"; when the next notice is
-- due is now the earliest of each priority's first entry.
DROP INDEX push_notices_due;
CREATE INDEX push_notices_due_by_priority ON push_notices(priority, next_attempt_at, id) WHERE status = 'pending';
