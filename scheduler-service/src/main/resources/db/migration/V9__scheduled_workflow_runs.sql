-- The schedule whose tick or trigger started a workflow run (WorkflowRunEvent.scheduleId), NULL for any other run: a
-- schedule with overlap: SKIP skips a tick while one of its runs has not ended, as it does while one of its jobs waits
-- or runs.
ALTER TABLE workflow_runs ADD COLUMN schedule_id UUID;

-- Serves the overlap check of each due timer; holds only the runs of schedules that have not ended, so it stays small.
CREATE INDEX idx_workflow_runs_active_by_schedule ON workflow_runs (schedule_id)
    WHERE schedule_id IS NOT NULL AND status IN ('PENDING', 'RUNNING');
