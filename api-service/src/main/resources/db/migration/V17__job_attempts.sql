-- Every attempt of a job as its worker reported it (job-completed, job-failed): the history GET /api/jobs/{id}/attempts
-- shows, before and after a requeue alike. The first report of an attempt is kept (a redelivered one changes nothing).
-- outcome: COMPLETED or FAILED (a cancelled or timed-out attempt is a failure with its error).
CREATE TABLE job_attempts (
    job_id      UUID        NOT NULL,
    attempt     INT         NOT NULL,
    outcome     TEXT        NOT NULL CHECK (outcome IN ('COMPLETED', 'FAILED')),
    started_at  TIMESTAMPTZ,
    finished_at TIMESTAMPTZ,
    error       TEXT,
    worker_id   TEXT,
    PRIMARY KEY (job_id, attempt)
);
