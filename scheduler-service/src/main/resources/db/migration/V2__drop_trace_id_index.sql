-- No statement of the scheduler looks a job up by its trace id, yet every insert and every status update of a row
-- paid for this index (an update that changes job_status is never HOT, so it writes every index anew): a third of
-- the time of the scheduler's updates in a 20,000-job burst. A trace is found from the API (the jobs table and
-- GET /api/jobs/{id} carry the trace id) or in the trace viewer.
DROP INDEX IF EXISTS idx_job_executions_trace_id;
