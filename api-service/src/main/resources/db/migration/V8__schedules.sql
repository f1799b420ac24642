-- Recurring schedules: the API owns their definitions (the job each tick makes), the scheduler their timing, which it
-- learns from the compacted topic `schedules`. The row is its own outbox: `version` counts the changes the API stored,
-- `published_version` the last one Kafka acknowledged, so a change committed but not published (a crash, a Kafka
-- outage) is found by `published_version < version` and published again. A deleted schedule keeps its row, with
-- `deleted_at`, until its tombstone is acknowledged.
CREATE TABLE schedules (
    id                uuid         PRIMARY KEY,
    name              varchar(200) NOT NULL,
    tenant            varchar(63)  NOT NULL,
    -- exactly one of cron and interval_text (an ISO-8601 duration)
    cron              varchar(200),
    interval_text     varchar(64),
    timezone          varchar(64)  NOT NULL,
    -- the origin of an interval schedule's ticks: when it was created, or when its interval last changed
    anchor            timestamptz  NOT NULL,
    misfire           varchar(16)  NOT NULL,
    overlap           varchar(16)  NOT NULL,
    paused            boolean      NOT NULL,
    -- the submission body each tick's job is made from, validated and normalised as POST /api/jobs does it
    job               jsonb,
    -- a workflow each tick starts instead of a job (not available yet: always null)
    workflow_id       uuid,
    version           bigint       NOT NULL,
    published_version bigint       NOT NULL DEFAULT 0,
    published_at      timestamptz,
    created_at        timestamptz  NOT NULL,
    updated_at        timestamptz  NOT NULL,
    deleted_at        timestamptz,
    CONSTRAINT schedules_one_timing CHECK ((cron IS NULL) <> (interval_text IS NULL)),
    CONSTRAINT schedules_one_target CHECK ((job IS NULL) <> (workflow_id IS NULL))
);

-- GET /api/schedules, newest first, with or without a tenant.
CREATE INDEX schedules_tenant_created_at_idx ON schedules (tenant, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX schedules_created_at_idx ON schedules (created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- The republisher's rounds: rows whose latest change Kafka has not acknowledged, and deleted rows awaiting their
-- tombstone. Partial, so a settled schedule adds no entry.
CREATE INDEX schedules_unpublished_idx ON schedules (id) WHERE published_version < version OR deleted_at IS NOT NULL;

-- As for jobs (V3): coarse statistics, none for the opaque columns.
ALTER TABLE schedules
    ALTER COLUMN id SET STATISTICS 10,
    ALTER COLUMN name SET STATISTICS 0,
    ALTER COLUMN tenant SET STATISTICS 10,
    ALTER COLUMN cron SET STATISTICS 0,
    ALTER COLUMN interval_text SET STATISTICS 0,
    ALTER COLUMN timezone SET STATISTICS 0,
    ALTER COLUMN anchor SET STATISTICS 0,
    ALTER COLUMN misfire SET STATISTICS 0,
    ALTER COLUMN overlap SET STATISTICS 0,
    ALTER COLUMN paused SET STATISTICS 10,
    ALTER COLUMN job SET STATISTICS 0,
    ALTER COLUMN workflow_id SET STATISTICS 0,
    ALTER COLUMN version SET STATISTICS 10,
    ALTER COLUMN published_version SET STATISTICS 10,
    ALTER COLUMN published_at SET STATISTICS 10,
    ALTER COLUMN created_at SET STATISTICS 10,
    ALTER COLUMN updated_at SET STATISTICS 10,
    ALTER COLUMN deleted_at SET STATISTICS 10;
