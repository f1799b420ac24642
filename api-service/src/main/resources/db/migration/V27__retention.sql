-- Retention: how long finished jobs and workflow runs are kept, per tenant (PUT /api/tenants/{tenant}/retention), and
-- what the purge needs to find them without reading the rest.

-- A tenant's override of the configured retentions. A null column is the configured default, so a tenant that set one
-- period follows later changes of the other default. Milliseconds, as the API answers them in ISO-8601; at least 10 s
-- (the API refuses less).
CREATE TABLE tenant_retention (
    tenant             varchar(63) PRIMARY KEY,
    -- COMPLETED jobs and workflow runs
    completed_after_ms bigint,
    -- FAILED, CANCELLED and REJECTED jobs (dead letters with them) and FAILED or CANCELLED workflow runs
    failed_after_ms    bigint,
    updated_at         timestamptz NOT NULL,
    CONSTRAINT tenant_retention_completed CHECK (completed_after_ms >= 10000),
    CONSTRAINT tenant_retention_failed CHECK (failed_after_ms >= 10000)
);

-- The purge's walk: each tenant's finished jobs of one status, oldest finish first. Partial, on finished jobs only, so
-- a job adds its entry when it finishes; that update already writes a new entry in every index of jobs (its status is
-- indexed), so the walk costs the status path one entry more per finished job and the submission path nothing. The
-- existing indexes (status or tenant, then created_at) would make every round read again, filtered out, every finished
-- job of a tenant or status whose retention is longer than the shortest one in force (30 days of failures while
-- completions go after a minute); this one lets each (tenant, status) range stop at its own cutoff.
CREATE INDEX jobs_finished_idx ON jobs (tenant, status, finished_at)
    WHERE status IN ('COMPLETED', 'FAILED', 'CANCELLED', 'REJECTED');

-- The same walk over finished workflow runs (far fewer rows than jobs).
CREATE INDEX workflow_runs_finished_idx ON workflow_runs (tenant, status, finished_at)
    WHERE finished_at IS NOT NULL;

-- A purged job's deliveries of type, schedule and workflow subscriptions (its own subscriptions' deliveries go by
-- cascade), and a purged run's. Deliveries are written by the notification sender only for subscribed changes, off the
-- submission and status paths.
CREATE INDEX deliveries_job_idx ON deliveries (job_id) WHERE job_id IS NOT NULL;
CREATE INDEX deliveries_run_idx ON deliveries (run_id) WHERE run_id IS NOT NULL;

-- A purged job's quarantined copies (their key is the jobId), and the age cleanup of the others. The table only holds
-- what consumers set aside: no hot path writes it.
CREATE INDEX quarantined_records_key_idx ON quarantined_records (record_key);
CREATE INDEX quarantined_records_stored_at_idx ON quarantined_records (stored_at);

-- The age cleanup of application events, oldest first.
CREATE INDEX application_events_received_at_idx ON application_events (received_at);
