-- A job type is any name a handler declares, up to 100 characters (JobType.PATTERN), no longer one of a fixed list.
-- Widening a varchar rewrites nothing.
ALTER TABLE job_executions ALTER COLUMN job_type TYPE varchar(100);
