-- Per-tenant concurrency limits: the API owns them, the scheduler enforces them at dispatch and learns them from the
-- compacted topic `tenant-limits`. The row is its own outbox: `version` counts the changes the API stored,
-- `published_version` the last one Kafka acknowledged, so a change committed but not published (a crash, a Kafka
-- outage) is found by `published_version < version` and published again. A removed limit keeps its row with
-- `max_running` null: its event (without maxRunning) is ordered after the ones before by the next version, and a limit
-- set again later goes on counting from there.
CREATE TABLE tenant_limits (
    tenant            varchar(63) PRIMARY KEY,
    -- null once the limit is removed
    max_running       integer,
    version           bigint      NOT NULL,
    published_version bigint      NOT NULL DEFAULT 0,
    published_at      timestamptz,
    updated_at        timestamptz NOT NULL,
    CONSTRAINT tenant_limits_max_running CHECK (max_running BETWEEN 1 AND 100000)
);

-- The republisher's rounds: rows whose latest change Kafka has not acknowledged. Partial, so a settled limit adds no
-- entry.
CREATE INDEX tenant_limits_unpublished_idx ON tenant_limits (tenant) WHERE published_version < version;
