-- A job type is any name a handler declares, up to 100 characters (JobType.PATTERN), no longer one of a fixed list.
-- Widening a varchar rewrites nothing.
ALTER TABLE jobs ALTER COLUMN type TYPE varchar(100);
ALTER TABLE subscriptions ALTER COLUMN job_type TYPE varchar(100);
ALTER TABLE dead_letters ALTER COLUMN job_type TYPE varchar(100);

-- The queue whose workers run the job ('default' unless the job names one). A column with a constant default is
-- added without a rewrite.
ALTER TABLE jobs ADD COLUMN queue varchar(63) NOT NULL DEFAULT 'default';
-- As the other small-domain columns (V3): a few values, a small statistics target.
ALTER TABLE jobs ALTER COLUMN queue SET STATISTICS 10;

-- GET /api/jobs?queue=: as the tenant filter's index, only the rows off the default queue.
CREATE INDEX jobs_queue_created_at_idx ON jobs (queue, created_at DESC, id DESC) WHERE queue <> 'default';

-- The workers as their latest heartbeat (worker-heartbeats) describes them: GET /api/queues shows the live ones.
CREATE TABLE workers (
    worker_id  varchar(200) PRIMARY KEY,
    queues     text[]       NOT NULL,
    types      text[]       NOT NULL,
    capacity   integer      NOT NULL,
    started_at timestamptz  NOT NULL,
    sent_at    timestamptz  NOT NULL,
    live_until timestamptz  NOT NULL
);
COMMENT ON TABLE workers IS 'each worker''s latest heartbeat; live while live_until is ahead; rows gone a day are removed';
