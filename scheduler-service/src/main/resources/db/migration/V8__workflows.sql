-- Workflow runs: the scheduler's copy of each run's graph and where it has got to. The definitions and the nodes'
-- jobs (submission bodies) stay in the API; a run arrives on workflow-runs (START, with its version's graph) and the
-- scheduler drives it from its nodes' job outcomes, reporting each change on workflow-progress.
--
-- workflow_id:      NULL for a cancel that came before its START (kept so that the START makes a cancelled run).
-- status:           dev.jobweaver.common.workflow.WorkflowRunStatus (the scheduler writes RUNNING and the ends).
-- progress_version: the version of the last WorkflowProgressEvent published, strictly increasing per run.
-- traceparent:      the run's span, parent of the scheduler's spans of the run.
CREATE TABLE workflow_runs (
    run_id           UUID        PRIMARY KEY,
    workflow_id      UUID,
    version          INT,
    tenant           TEXT,
    on_failure       TEXT        CHECK (on_failure IN ('FAIL_FAST', 'CONTINUE')),
    max_concurrency  INT,
    status           TEXT        NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')),
    progress_version BIGINT      NOT NULL,
    trace_id         TEXT,
    traceparent      TEXT,
    created_at       TIMESTAMPTZ NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL,
    finished_at      TIMESTAMPTZ
);

-- The nodes of each run. job_id is JobIds.forNode(run_id, node_id), stored from the start so that the end of a node's
-- job always finds its node, even a job made from a progress event whose transaction then rolled back (the API may
-- act on an acknowledged event before its commit). ready_at: when the node's job was asked for (the progress event
-- names the job only from then on). ord: the node's place in the graph, the order of the event's nodes.
CREATE TABLE workflow_run_nodes (
    run_id     UUID        NOT NULL REFERENCES workflow_runs (run_id) ON DELETE CASCADE,
    node_id    TEXT        NOT NULL,
    ord        INT         NOT NULL,
    depends_on TEXT[]      NOT NULL,
    status     TEXT        NOT NULL CHECK (status IN ('WAITING', 'PENDING', 'RUNNING', 'COMPLETED', 'FAILED',
                                                      'CANCELLED', 'SKIPPED')),
    job_id     UUID        NOT NULL,
    ready_at   TIMESTAMPTZ,
    PRIMARY KEY (run_id, node_id)
);

-- Serves the step every job end takes (is this job a node's?) and the check of a node job at ingestion: one probe of
-- this index per round, which holds nothing on a platform without workflows.
CREATE UNIQUE INDEX idx_workflow_run_nodes_job ON workflow_run_nodes (job_id);

-- The run and node a job was made for (JobCreatedEvent.origin), NULL for any other job.
ALTER TABLE job_executions
    ADD COLUMN workflow_run_id UUID,
    ADD COLUMN node_id         TEXT;

ALTER TABLE job_executions
    ALTER COLUMN workflow_run_id SET STATISTICS 10,
    ALTER COLUMN node_id SET STATISTICS 0;
