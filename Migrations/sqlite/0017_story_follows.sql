-- A reward is ready to share as soon as its sticker is stored; its story follows. The server's
-- render workers record the sticker first and put the job back in the queue for the story
-- alone (story_only = 1), and claim every sticker before any story, so a burst of check-ins
-- gets its stickers first. Forward-only: never edit once shipped.

ALTER TABLE render_jobs ADD COLUMN story_only INTEGER NOT NULL DEFAULT 0 CHECK (story_only IN (0, 1));
DROP INDEX render_jobs_queued;
CREATE INDEX render_jobs_queued ON render_jobs(story_only, available_at, id) WHERE status = 'queued';
