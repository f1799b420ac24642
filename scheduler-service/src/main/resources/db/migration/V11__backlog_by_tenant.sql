-- The backlog gauges group the due PENDING jobs by priority and tenant every few seconds. With the tenant in the
-- due index (as a payload column, not a key) that grouped count reads the index alone on pages the visibility map
-- marks all-visible, as the per-priority counts did, instead of a heap fetch per waiting job. It replaces the index
-- rather than adding one: every change of job_status writes each partial index of the row anew (V4 says why), and
-- the dispatch claim, which reads this index by (priority, next_run_at), is served the same way.
CREATE INDEX idx_job_executions_due_by_priority_tenant ON job_executions (priority, next_run_at) INCLUDE (tenant)
    WHERE job_status = 'PENDING';
DROP INDEX IF EXISTS idx_job_executions_due_by_priority;
