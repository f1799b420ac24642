-- Job control: how each job is to be run (priority, start time, timeout, retry delays, tenant, labels), as its
-- JobCreatedEvent carried it, and the result its handler reported. A row stored before these columns existed reads
-- as a job with default control: NORMAL, tenant 'default', no start time, timeout, retry delays or labels.
ALTER TABLE job_executions
    ADD COLUMN priority        VARCHAR(10)  NOT NULL DEFAULT 'NORMAL' CHECK (priority IN ('HIGH', 'NORMAL', 'LOW')),
    -- The earliest start the client asked for (next_run_at holds the start actually planned).
    ADD COLUMN run_at          TIMESTAMPTZ,
    ADD COLUMN timeout_ms      BIGINT       CHECK (timeout_ms > 0),
    ADD COLUMN retry_delays_ms BIGINT[],
    ADD COLUMN tenant          VARCHAR(63)  NOT NULL DEFAULT 'default',
    ADD COLUMN labels          JSONB,
    ADD COLUMN result          JSONB;

-- A job taken back by its client ends CANCELLED.
ALTER TABLE job_executions DROP CONSTRAINT IF EXISTS job_executions_job_status_check;
ALTER TABLE job_executions ADD CONSTRAINT job_executions_job_status_check
    CHECK (job_status IN ('PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'));

-- Serves the dispatch claim, one level at a time (WHERE job_status = 'PENDING' AND priority = $1 AND next_run_at <=
-- now() ORDER BY next_run_at LIMIT n), and the next-due probe of the dispatch timer (the first entry of each level).
-- Both read the head of a level only, however many jobs wait for a later start. It replaces the index on next_run_at
-- alone: every change of job_status writes each index of the row anew, so two would double that cost.
CREATE INDEX idx_job_executions_due_by_priority ON job_executions (priority, next_run_at) WHERE job_status = 'PENDING';
DROP INDEX IF EXISTS idx_job_executions_due;

-- Statistics (V3 says why): coarse for the columns plans depend on, none for the free-form ones.
ALTER TABLE job_executions
    ALTER COLUMN priority SET STATISTICS 10,
    ALTER COLUMN run_at SET STATISTICS 10,
    ALTER COLUMN timeout_ms SET STATISTICS 0,
    ALTER COLUMN retry_delays_ms SET STATISTICS 0,
    ALTER COLUMN tenant SET STATISTICS 10,
    ALTER COLUMN labels SET STATISTICS 0,
    ALTER COLUMN result SET STATISTICS 0;
