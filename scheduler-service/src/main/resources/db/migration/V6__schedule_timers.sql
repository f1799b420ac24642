-- Recurring schedules: the scheduler's copy of each schedule's timing (consumed from the compacted topic schedules,
-- which the API publishes) and where its ticks have got to. The job a tick makes stays in the API, which makes it when
-- the tick's ScheduleFiredEvent arrives; this table holds only what firing needs.
--
-- version:        the highest ScheduleEvent version applied; an older event changes nothing.
-- cron, interval_text, timezone, anchor: the clock (dev.jobweaver.common.schedule.ScheduleClock), exactly one of cron
--                 and interval_text set.
-- misfire, overlap: the rules for ticks missed in downtime and for ticks while the previous job runs.
-- next_run_at:    the next tick to fire; NULL when the clock never fires again (a cron expression with no future).
-- last_fired_for, last_job_id, last_fired_at: the latest tick fired (its time, its job, when), the overlap rule's way
--                 to tell a job still on its way through the API.
CREATE TABLE schedule_timers (
    schedule_id    UUID        PRIMARY KEY,
    version        BIGINT      NOT NULL,
    cron           TEXT,
    interval_text  TEXT,
    timezone       TEXT,
    anchor         TIMESTAMPTZ,
    misfire        TEXT        NOT NULL CHECK (misfire IN ('FIRE_ONCE', 'SKIP')),
    overlap        TEXT        NOT NULL CHECK (overlap IN ('ALLOW', 'SKIP')),
    paused         BOOLEAN     NOT NULL,
    tenant         TEXT        NOT NULL,
    next_run_at    TIMESTAMPTZ,
    last_fired_for TIMESTAMPTZ,
    last_job_id    UUID,
    last_fired_at  TIMESTAMPTZ,
    updated_at     TIMESTAMPTZ NOT NULL
);

-- Serves the ticker's claim (WHERE NOT paused AND next_run_at <= now() ORDER BY next_run_at LIMIT n FOR UPDATE SKIP
-- LOCKED) and its probe for the earliest tick to come: both read the head of the index only. Paused schedules and
-- clocks that never fire again are not in it.
CREATE INDEX idx_schedule_timers_due ON schedule_timers (next_run_at) WHERE NOT paused AND next_run_at IS NOT NULL;

-- The tick a job was made for (JobCreatedEvent.origin), NULL for a client's submission.
ALTER TABLE job_executions
    ADD COLUMN schedule_id   UUID,
    ADD COLUMN scheduled_for TIMESTAMPTZ;

-- Serves the overlap rule: does this schedule have a PENDING or RUNNING job? A submitted job (schedule_id NULL) never
-- has an entry, so the index costs the platform's submitted jobs nothing; a scheduled job's entry exists while it is
-- active (a status change already rewrites every index entry of the row: job_status is in the dispatch index).
CREATE INDEX idx_job_executions_active_by_schedule ON job_executions (schedule_id)
    WHERE schedule_id IS NOT NULL AND job_status IN ('PENDING', 'RUNNING');

-- Statistics (V3 says why): coarse ones, as for the other columns plans depend on.
ALTER TABLE job_executions
    ALTER COLUMN schedule_id SET STATISTICS 10,
    ALTER COLUMN scheduled_for SET STATISTICS 10;
