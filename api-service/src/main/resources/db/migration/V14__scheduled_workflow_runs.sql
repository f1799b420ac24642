-- The schedule whose tick or trigger started a workflow run, and the tick's time; NULL for a run started any other way
-- (a request, a hook). The run's START carries schedule_id to the scheduler, which skips the schedule's ticks under
-- overlap: SKIP while the run has not ended.
ALTER TABLE workflow_runs
    ADD COLUMN schedule_id   UUID,
    ADD COLUMN scheduled_for TIMESTAMPTZ;
