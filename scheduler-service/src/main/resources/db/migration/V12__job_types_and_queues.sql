-- A job type is any name a handler declares, up to 100 characters (JobType.PATTERN), no longer one of a fixed list.
-- Widening a varchar rewrites nothing.
ALTER TABLE job_executions ALTER COLUMN job_type TYPE varchar(100);

-- The queue whose workers run the job ('default' unless the job names one). A column with a constant default is
-- added without a rewrite.
ALTER TABLE job_executions ADD COLUMN queue varchar(63) NOT NULL DEFAULT 'default';
-- As the other small-domain columns (V3): a few values, a small statistics target.
ALTER TABLE job_executions ALTER COLUMN queue SET STATISTICS 10;

-- The workers as their latest heartbeat (worker-heartbeats) describes them: a queue's jobs of a type are dispatched
-- while a live worker serves the queue and runs the type.
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

-- The jobs set aside because no live worker serves their queue and type: PENDING, due again only after park-for,
-- released (due at once) as soon as such a worker's heartbeat is read. A row goes with its job.
CREATE TABLE parked_jobs (
    job_id    uuid         PRIMARY KEY REFERENCES job_executions (job_id) ON DELETE CASCADE,
    queue     varchar(63)  NOT NULL,
    job_type  varchar(100) NOT NULL,
    parked_at timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX idx_parked_jobs_pair ON parked_jobs (queue, job_type);
