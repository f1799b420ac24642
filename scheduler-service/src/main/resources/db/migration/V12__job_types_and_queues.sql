-- A job type is any name a handler declares, up to 100 characters (JobType.PATTERN), no longer one of a fixed list.
-- Widening a varchar rewrites nothing.
ALTER TABLE job_executions ALTER COLUMN job_type TYPE varchar(100);

-- The queue whose workers run the job ('default' unless the job names one). A column with a constant default is
-- added without a rewrite.
ALTER TABLE job_executions ADD COLUMN queue varchar(63) NOT NULL DEFAULT 'default';
-- As the other small-domain columns (V3): a few values, a small statistics target.
ALTER TABLE job_executions ALTER COLUMN queue SET STATISTICS 10;
