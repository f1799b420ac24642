-- When the worker started the job's latest attempt, as the scheduler reports it (JobStatusChangedEvent.startedAt); NULL
-- until a worker starts the job, and for jobs that finished before this column existed. The dashboard shows it with a
-- job's timings, and GET /api/stats/overview counts a job as pending until it, running from it. Not indexed: nothing
-- searches by it, and every status change would pay for the index.
ALTER TABLE jobs
    ADD COLUMN started_at timestamptz;

ALTER TABLE jobs
    ALTER COLUMN started_at SET STATISTICS 10;
