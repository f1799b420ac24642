-- Application events (POST /api/events) start the workflows whose triggers name their type; subscriptions hear about
-- whole workflow runs; a hook may publish an event.

-- The event types a workflow listens to, as its latest definition names them; null or empty for none. An array on the
-- workflow rather than a table of its own: it is written with the workflow's row by every create and replace, and read
-- by one indexed lookup per event.
ALTER TABLE workflows ADD COLUMN triggers text[];

-- The lookup of an event: the live workflows whose triggers hold its type (then filtered by the event's tenant). Partial:
-- a workflow without triggers, or deleted, is in no entry.
CREATE INDEX workflows_triggers_idx ON workflows USING gin (triggers)
    WHERE deleted_at IS NULL AND triggers IS NOT NULL;

-- Each event a tenant published, and the answer it got: the runs it started. The primary key makes an event id start
-- runs once per tenant: a repeat (sequential, or concurrent, whose insert waits for the first one's commit) finds the
-- row and is answered with its runs. Written and read by the API alone.
CREATE TABLE application_events (
    tenant      varchar(63)  NOT NULL,
    id          varchar(200) NOT NULL,
    type        varchar(100) NOT NULL,
    data        jsonb,
    -- the runs the event started, in the answer's order; written in the transaction that inserts the row
    runs        uuid[]       NOT NULL,
    received_at timestamptz  NOT NULL,
    PRIMARY KEY (tenant, id)
);

-- A hook may publish an event of this type instead of making a job or starting a run.
ALTER TABLE hooks ADD COLUMN event varchar(100);
ALTER TABLE hooks DROP CONSTRAINT hooks_one_target;
ALTER TABLE hooks ADD CONSTRAINT hooks_one_target CHECK (num_nonnulls(job, workflow_id, event) = 1);
ALTER TABLE hooks ALTER COLUMN event SET STATISTICS 0;

-- A delivery tells of a job's change or of a workflow run's end (workflow.completed, workflow.failed,
-- workflow.cancelled): exactly one of job_id and run_id. Both column changes are catalogue-only in PostgreSQL (a
-- varchar made longer, a NOT NULL dropped): the table is not rewritten. The check is NOT VALID, so adding it reads no
-- row: every row before it has its job_id, and new rows are checked.
ALTER TABLE deliveries ALTER COLUMN job_id DROP NOT NULL;
ALTER TABLE deliveries ALTER COLUMN event TYPE varchar(32);
ALTER TABLE deliveries ADD COLUMN run_id uuid;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_one_subject CHECK (num_nonnulls(job_id, run_id) = 1) NOT VALID;
