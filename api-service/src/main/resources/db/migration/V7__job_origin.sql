-- What made a job when a client did not submit it: the tick (or trigger) of a recurring schedule. Null on submitted
-- jobs, so the columns cost the submission path nothing.
ALTER TABLE jobs
    ADD COLUMN schedule_id   uuid,
    ADD COLUMN scheduled_for timestamptz;

-- GET /api/jobs?scheduleId=, newest first, and the jobs a notification about a schedule is for. Partial: a submitted
-- job adds no entry.
CREATE INDEX jobs_schedule_created_at_idx ON jobs (schedule_id, created_at DESC, id DESC) WHERE schedule_id IS NOT NULL;

ALTER TABLE jobs
    ALTER COLUMN schedule_id SET STATISTICS 10,
    ALTER COLUMN scheduled_for SET STATISTICS 0;
