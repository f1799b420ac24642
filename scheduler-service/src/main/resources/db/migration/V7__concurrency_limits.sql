-- Concurrency limits enforced at dispatch (docs/architecture.md, "Concurrency limits").

-- Each tenant's limit as the API last published it (topic tenant-limits), stored by version so that a stale record
-- never overwrites a newer one. A removed limit stays as a row with max_running NULL: its version still orders
-- the records that come after it.
CREATE TABLE tenant_limits (
    tenant      VARCHAR(63)  PRIMARY KEY,
    max_running INTEGER      CHECK (max_running > 0),
    version     BIGINT       NOT NULL,
    changed_at  TIMESTAMPTZ  NOT NULL
);

-- A workflow's node job carries its workflow and that workflow's maxConcurrency (JobOrigin), copied at ingestion:
-- the claim counts the RUNNING jobs of each workflow without reading any other table.
ALTER TABLE job_executions
    ADD COLUMN workflow_id          UUID,
    ADD COLUMN workflow_max_running INTEGER CHECK (workflow_max_running > 0);

-- Statistics (V3 says why): the plain claim's probe depends on knowing that almost no row has a workflow limit.
ALTER TABLE job_executions
    ALTER COLUMN workflow_id SET STATISTICS 0,
    ALTER COLUMN workflow_max_running SET STATISTICS 10;

-- Serves the probe of the plain claim (is a job with a workflow limit waiting?): it holds only such jobs, so it is
-- empty, and costs no write, while no workflow sets maxConcurrency.
CREATE INDEX idx_job_executions_workflow_limited ON job_executions (next_run_at)
    WHERE job_status = 'PENDING' AND workflow_max_running IS NOT NULL;
