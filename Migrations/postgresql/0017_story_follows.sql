-- A reward is ready to share as soon as its sticker is stored; its story follows, as
-- Migrations/sqlite/0017_story_follows.sql. Forward-only: never edit once shipped.

ALTER TABLE render_jobs ADD COLUMN story_only BIGINT NOT NULL DEFAULT 0 CHECK (story_only IN (0, 1));
DROP INDEX render_jobs_queued;
CREATE INDEX render_jobs_queued ON render_jobs(story_only, available_at, id) WHERE status = 'queued';
