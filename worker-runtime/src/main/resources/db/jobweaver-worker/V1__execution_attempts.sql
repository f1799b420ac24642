-- One row per run of a job attempt; event_id (derived from jobId and attempt) is the idempotency key.
CREATE TABLE execution_attempts (
    event_id      UUID         PRIMARY KEY,
    job_id        UUID         NOT NULL,
    attempt       INTEGER      NOT NULL,
    trace_id      VARCHAR(64),
    started_at    TIMESTAMPTZ  NOT NULL,
    finished_at   TIMESTAMPTZ,
    outcome       VARCHAR(20)  NOT NULL CHECK (outcome IN ('RUNNING', 'SUCCESS', 'FAILURE')),
    error_message TEXT,
    worker_id     VARCHAR(200) NOT NULL
);

CREATE INDEX idx_execution_attempts_job_id ON execution_attempts (job_id);
-- Runs left RUNNING (a worker died mid-run) are few; a partial index finds them cheaply.
CREATE INDEX idx_execution_attempts_running ON execution_attempts (started_at) WHERE outcome = 'RUNNING';
