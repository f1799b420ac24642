-- Workflows: a graph of jobs. The API owns their definitions (every version, since a run keeps the version it started
-- with) and their runs (what a client reads, and the node jobs it makes); the scheduler drives each run from its
-- nodes' outcomes and reports the run's whole state on `workflow-progress`.
CREATE TABLE workflows (
    id             uuid         PRIMARY KEY,
    name           varchar(200) NOT NULL,
    tenant         varchar(63)  NOT NULL,
    latest_version integer      NOT NULL,
    created_at     timestamptz  NOT NULL,
    updated_at     timestamptz  NOT NULL,
    -- set by a delete: the workflow is gone for clients and starts no run; its versions stay for the runs in flight
    deleted_at     timestamptz
);

-- GET /api/workflows, newest first, with or without a tenant.
CREATE INDEX workflows_tenant_created_at_idx ON workflows (tenant, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX workflows_created_at_idx ON workflows (created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- Every version of every workflow, never changed once written.
CREATE TABLE workflow_versions (
    workflow_id     uuid         NOT NULL REFERENCES workflows (id),
    version         integer      NOT NULL,
    name            varchar(200) NOT NULL,
    -- [{"id","job":{...a submission body, validated and normalised...},"dependsOn":[...]}]
    nodes           jsonb        NOT NULL,
    max_concurrency integer,
    on_failure      varchar(16)  NOT NULL,
    created_at      timestamptz  NOT NULL,
    PRIMARY KEY (workflow_id, version)
);

-- Runs. The row is its own outbox for `workflow-runs`: `change_version` counts what the API asked of the scheduler
-- (1: start; 2: cancel too), `published_version` what Kafka acknowledged, so an ask committed but not published is
-- found by `published_version < change_version` and published again. `progress_version` is the version of the last
-- `workflow-progress` event applied: older ones are ignored.
CREATE TABLE workflow_runs (
    id                uuid         PRIMARY KEY,
    workflow_id       uuid         NOT NULL REFERENCES workflows (id),
    workflow_version  integer      NOT NULL,
    tenant            varchar(63)  NOT NULL,
    -- PENDING, RUNNING, COMPLETED, FAILED or CANCELLED
    status            varchar(16)  NOT NULL,
    input             jsonb,
    trace_id          varchar(32)  NOT NULL,
    traceparent       varchar(64),
    -- [{"id","status","jobId"}], as the last progress reported it (before any: every node WAITING)
    nodes             jsonb        NOT NULL,
    progress_version  bigint       NOT NULL DEFAULT 0,
    change_version    integer      NOT NULL,
    published_version integer      NOT NULL DEFAULT 0,
    published_at      timestamptz,
    cancel_requested  boolean      NOT NULL DEFAULT false,
    created_at        timestamptz  NOT NULL,
    updated_at        timestamptz  NOT NULL,
    finished_at       timestamptz,
    FOREIGN KEY (workflow_id, workflow_version) REFERENCES workflow_versions (workflow_id, version)
);

-- GET /api/workflows/{id}/runs, newest first.
CREATE INDEX workflow_runs_workflow_created_at_idx ON workflow_runs (workflow_id, created_at DESC, id DESC);
-- The republisher's rounds. Partial, so a published run adds no entry.
CREATE INDEX workflow_runs_unpublished_idx ON workflow_runs (updated_at) WHERE published_version < change_version;

-- The node jobs' origin: the run and node that made each (with the workflow and its limit, which the job's event
-- carries). Null on other jobs, so the columns cost the submission path nothing.
ALTER TABLE jobs
    ADD COLUMN workflow_id              uuid,
    ADD COLUMN workflow_run_id          uuid,
    ADD COLUMN node_id                  varchar(64),
    ADD COLUMN workflow_max_concurrency integer;

-- GET /api/jobs?workflowRunId=, newest first. Partial: a job of no run adds no entry.
CREATE INDEX jobs_workflow_run_created_at_idx ON jobs (workflow_run_id, created_at DESC, id DESC)
    WHERE workflow_run_id IS NOT NULL;

-- As for jobs (V3): coarse statistics, none for the opaque columns.
ALTER TABLE jobs
    ALTER COLUMN workflow_id SET STATISTICS 10,
    ALTER COLUMN workflow_run_id SET STATISTICS 10,
    ALTER COLUMN node_id SET STATISTICS 0,
    ALTER COLUMN workflow_max_concurrency SET STATISTICS 0;
ALTER TABLE workflow_versions
    ALTER COLUMN nodes SET STATISTICS 0;
ALTER TABLE workflow_runs
    ALTER COLUMN input SET STATISTICS 0,
    ALTER COLUMN nodes SET STATISTICS 0,
    ALTER COLUMN trace_id SET STATISTICS 0,
    ALTER COLUMN traceparent SET STATISTICS 0;
