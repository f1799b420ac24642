-- A job type is any name a handler declares, up to 100 characters (JobType.PATTERN), no longer one of a fixed list.
-- Widening a varchar rewrites nothing.
ALTER TABLE jobs ALTER COLUMN type TYPE varchar(100);
ALTER TABLE subscriptions ALTER COLUMN job_type TYPE varchar(100);
ALTER TABLE dead_letters ALTER COLUMN job_type TYPE varchar(100);
