-- Jobs that exhausted their retries, as the scheduler reported them on job-dead-letter, for an operator to requeue or
-- discard. One row per job: a job requeued and dead-lettered again reopens its row (dead_count counts how often it
-- came), so the row is the job's whole dead-letter history in counts and its latest failure in full.
CREATE TABLE dead_letters (
    job_id          uuid          PRIMARY KEY,
    tenant          varchar(63)   NOT NULL,
    -- from the jobs read model when the dead letter was stored
    job_type        varchar(32)   NOT NULL,
    labels          jsonb,
    state           varchar(16)   NOT NULL,
    -- the error of the last attempt, as the scheduler reported it
    reason          text,
    attempts        integer       NOT NULL,
    last_error      text,
    failed_at       timestamptz   NOT NULL,
    trace_id        varchar(32),
    -- times the job was dead-lettered: 1, plus one per failure after a requeue
    dead_count      integer       NOT NULL DEFAULT 1,
    requeued_at     timestamptz,
    requeue_count   integer       NOT NULL DEFAULT 0,
    discarded_at    timestamptz,
    discard_reason  varchar(1000),
    -- the workflow run of a node's job, which is never requeued on its own (a node runs again in a new run)
    workflow_run_id uuid,
    created_at      timestamptz   NOT NULL,
    updated_at      timestamptz   NOT NULL,
    CONSTRAINT dead_letters_state CHECK (state IN ('OPEN', 'REQUEUED', 'DISCARDED')),
    CONSTRAINT dead_letters_discarded CHECK ((state = 'DISCARDED') = (discarded_at IS NOT NULL))
);

-- The list's filters, newest failure first: by state alone (the default view, OPEN), and by tenant or job type with it.
CREATE INDEX dead_letters_state_failed_at_idx ON dead_letters (state, failed_at DESC, job_id DESC);
CREATE INDEX dead_letters_tenant_state_failed_at_idx ON dead_letters (tenant, state, failed_at DESC, job_id DESC);
CREATE INDEX dead_letters_type_state_failed_at_idx ON dead_letters (job_type, state, failed_at DESC, job_id DESC);

-- Coarse statistics for the filtered and sorted columns, none for the free text (V3 says why).
ALTER TABLE dead_letters
    ALTER COLUMN job_id SET STATISTICS 10,
    ALTER COLUMN tenant SET STATISTICS 10,
    ALTER COLUMN job_type SET STATISTICS 10,
    ALTER COLUMN labels SET STATISTICS 0,
    ALTER COLUMN state SET STATISTICS 10,
    ALTER COLUMN reason SET STATISTICS 0,
    ALTER COLUMN attempts SET STATISTICS 0,
    ALTER COLUMN last_error SET STATISTICS 0,
    ALTER COLUMN failed_at SET STATISTICS 10,
    ALTER COLUMN trace_id SET STATISTICS 0,
    ALTER COLUMN dead_count SET STATISTICS 0,
    ALTER COLUMN requeued_at SET STATISTICS 0,
    ALTER COLUMN requeue_count SET STATISTICS 0,
    ALTER COLUMN discarded_at SET STATISTICS 0,
    ALTER COLUMN discard_reason SET STATISTICS 0,
    ALTER COLUMN workflow_run_id SET STATISTICS 10,
    ALTER COLUMN created_at SET STATISTICS 0,
    ALTER COLUMN updated_at SET STATISTICS 0;
