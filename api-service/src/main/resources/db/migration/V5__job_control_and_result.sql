-- Job control (how a job is to run: priority, earliest start, attempt timeout, retry delays, tenant, labels) and the
-- result its handler reported. Rows stored before have the defaults: NORMAL, tenant 'default', the rest absent.
-- Constant defaults: PostgreSQL adds these columns without rewriting the table.
ALTER TABLE jobs
    ADD COLUMN priority        varchar(8)   NOT NULL DEFAULT 'NORMAL',
    -- the earliest start the client asked for (runAt, or delayMs resolved at acceptance); next_run_at follows the
    -- scheduler, this stays what was asked
    ADD COLUMN run_at          timestamptz,
    ADD COLUMN timeout_ms      bigint,
    -- a JSON array of delays in ms, as submitted
    ADD COLUMN retry_delays_ms jsonb,
    ADD COLUMN tenant          varchar(63)  NOT NULL DEFAULT 'default',
    -- a JSON object of string pairs; null when the job has none
    ADD COLUMN labels          jsonb,
    -- what the handler reported when the job completed (at most 64 KiB of JSON)
    ADD COLUMN result          jsonb;

-- GET /api/jobs?priority= and ?tenant=, newest first. Partial: the default level and the default tenant (every job of
-- a client that names neither, the submission burst included) add no index entry on the hot path, and a filter on
-- them reads the created_at index, where most rows match anyway. The API plans every execution with its parameters
-- (plan_cache_mode=force_custom_plan), so a filter on another value proves the predicate and uses the index.
CREATE INDEX jobs_priority_created_at_idx ON jobs (priority, created_at DESC, id DESC) WHERE priority <> 'NORMAL';
CREATE INDEX jobs_tenant_created_at_idx ON jobs (tenant, created_at DESC, id DESC) WHERE tenant <> 'default';
-- GET /api/jobs?label=key:value is labels @> '{"key":"value"}', which jsonb_path_ops serves with a small index (one
-- hash per pair). Partial: a job without labels adds no entry; @> is strict, so the planner proves the predicate.
CREATE INDEX jobs_labels_idx ON jobs USING gin (labels jsonb_path_ops) WHERE labels IS NOT NULL;

-- Statistics targets as V3 sets them for every column: none for the JSON columns, which no plan estimates from
-- (containment on labels uses a fixed selectivity), coarse ones for the others.
ALTER TABLE jobs
    ALTER COLUMN priority SET STATISTICS 10,
    ALTER COLUMN run_at SET STATISTICS 10,
    ALTER COLUMN timeout_ms SET STATISTICS 0,
    ALTER COLUMN retry_delays_ms SET STATISTICS 0,
    ALTER COLUMN tenant SET STATISTICS 10,
    ALTER COLUMN labels SET STATISTICS 0,
    ALTER COLUMN result SET STATISTICS 0;
