-- Statistics only for the columns that plans depend on.
--
-- Autovacuum ANALYZEs a table each time a tenth of it has changed. By default ANALYZE samples 30,000 rows and
-- computes statistics for every column. On two cores shared with the whole platform, each ANALYZE makes every job
-- wait for a core: at 100 jobs/s the slowest 1% of submit-to-start fell in the one or two seconds around the
-- ANALYZEs of the API's and the scheduler's tables (docs/benchmark.md, "Session 16"). This table's was the cheapest
-- of the three, and it gets the same treatment.
--
-- No statement filters, sorts or joins on the free-text columns, so they get no statistics (0). The others keep
-- coarse ones (10: a 3,000-row sample, ten-bucket histograms and up to ten common values). The plans rest on the
-- primary key and the job_id index, and coarse statistics are enough for those. A column added later gets the
-- default target, 100, and brings the 30,000-row sample back: its migration must set one (StatisticsTargetTest).
ALTER TABLE execution_attempts
    ALTER COLUMN trace_id SET STATISTICS 0,
    ALTER COLUMN error_message SET STATISTICS 0,
    ALTER COLUMN worker_id SET STATISTICS 0,
    ALTER COLUMN event_id SET STATISTICS 10,
    ALTER COLUMN job_id SET STATISTICS 10,
    ALTER COLUMN attempt SET STATISTICS 10,
    ALTER COLUMN started_at SET STATISTICS 10,
    ALTER COLUMN finished_at SET STATISTICS 10,
    ALTER COLUMN outcome SET STATISTICS 10;
