-- The API's read model of jobs, and the outbox that guarantees every accepted job reaches job-created.

CREATE TABLE jobs (
    id             uuid         PRIMARY KEY,
    type           varchar(32)  NOT NULL,
    instruction    jsonb        NOT NULL,
    trace_id       varchar(32)  NOT NULL,
    status         varchar(16)  NOT NULL,
    retry_count    integer      NOT NULL DEFAULT 0,
    max_retries    integer      NOT NULL,
    attempts       integer      NOT NULL DEFAULT 0,
    next_run_at    timestamptz,
    last_error     text,
    created_at     timestamptz  NOT NULL,
    updated_at     timestamptz  NOT NULL,
    finished_at    timestamptz,
    -- highest JobStatusChangedEvent.version applied; 0 until the scheduler reports the job
    status_version bigint       NOT NULL DEFAULT 0
);

-- GET /api/jobs filters on type and/or status and pages by created_at (newest first).
CREATE INDEX jobs_created_at_idx ON jobs (created_at DESC, id DESC);
CREATE INDEX jobs_status_created_at_idx ON jobs (status, created_at DESC, id DESC);
CREATE INDEX jobs_type_status_created_at_idx ON jobs (type, status, created_at DESC, id DESC);

-- One row per accepted job whose JobCreatedEvent Kafka has not yet acknowledged.
CREATE TABLE job_outbox (
    job_id      uuid         PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
    event_id    uuid         NOT NULL UNIQUE,
    -- W3C trace context of the submitting request, so a late publish joins the job's trace
    traceparent varchar(128),
    created_at  timestamptz  NOT NULL
);

CREATE INDEX job_outbox_created_at_idx ON job_outbox (created_at);
