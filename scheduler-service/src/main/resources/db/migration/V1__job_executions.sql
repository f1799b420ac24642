-- The scheduler's view of every job: where it is in its life cycle and what its current attempt is.
CREATE TABLE job_executions (
    job_id        UUID         PRIMARY KEY,
    job_type      VARCHAR(50)  NOT NULL,
    -- The job's OpenTelemetry trace id, as the API reported it to the client.
    trace_id      VARCHAR(64),
    -- W3C traceparent of the scheduler's ingestion span: the remote parent of later dispatch and lease spans.
    traceparent   VARCHAR(64),
    instruction   JSONB        NOT NULL,
    job_status    VARCHAR(20)  NOT NULL CHECK (job_status IN ('PENDING', 'RUNNING', 'COMPLETED', 'FAILED')),
    retry_count   INTEGER      NOT NULL DEFAULT 0 CHECK (retry_count >= 0),
    max_retries   INTEGER      NOT NULL CHECK (max_retries >= 0),
    -- Attempts dispatched so far; the current (or last) attempt's number. 0 until the first dispatch.
    attempt       INTEGER      NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    next_run_at   TIMESTAMPTZ  NOT NULL,
    lease_until   TIMESTAMPTZ,
    last_error    TEXT,
    -- When the API accepted the job (JobCreatedEvent.createdAt): the start of submit-to-dispatch latency.
    created_at    TIMESTAMPTZ  NOT NULL,
    ingested_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_at    TIMESTAMPTZ  NOT NULL,
    -- When the current attempt was dispatched.
    dispatched_at TIMESTAMPTZ,
    -- When a worker started the latest attempt, as its outcome reported.
    started_at    TIMESTAMPTZ,
    finished_at   TIMESTAMPTZ,
    version       BIGINT       NOT NULL DEFAULT 0
);

-- Serves the dispatch claim: WHERE job_status = 'PENDING' AND next_run_at <= now() ORDER BY next_run_at LIMIT n.
CREATE INDEX idx_job_executions_due ON job_executions (next_run_at) WHERE job_status = 'PENDING';
-- Serves the lease sweep: WHERE job_status = 'RUNNING' AND lease_until < now() ORDER BY lease_until LIMIT n.
CREATE INDEX idx_job_executions_lease ON job_executions (lease_until) WHERE job_status = 'RUNNING';
CREATE INDEX idx_job_executions_trace_id ON job_executions (trace_id);
