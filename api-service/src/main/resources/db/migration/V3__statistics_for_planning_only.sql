-- Statistics only for the columns that plans depend on.
--
-- Autovacuum ANALYZEs a table each time a tenth of it has changed. By default ANALYZE samples 30,000 rows and
-- computes statistics for every column, including the instruction (jsonb), whose values it compares among
-- themselves. On two cores shared with the whole platform, that was 0.6-0.9 s of CPU for one ANALYZE of the table
-- (about 200,000 rows). During that time every job waited for a core: at 100 jobs/s the slowest 1% of submit-to-start
-- fell in the one or two seconds around an ANALYZE (docs/benchmark.md, "Session 16").
--
-- No statement filters, sorts or joins on the free-text and JSON columns, so they get no statistics (0). The
-- others keep coarse ones (10: a 3,000-row sample, ten-bucket histograms and up to ten common values). The plans
-- rest on primary keys, partial indexes and the status and time columns, and coarse statistics are enough for
-- those. ANALYZE of the same table then takes about 50 ms. A column added later gets the default target, 100, and
-- brings the 30,000-row sample back: its migration must set one (StatisticsTargetTest).
ALTER TABLE jobs
    ALTER COLUMN instruction SET STATISTICS 0,
    ALTER COLUMN trace_id SET STATISTICS 0,
    ALTER COLUMN last_error SET STATISTICS 0,
    ALTER COLUMN id SET STATISTICS 10,
    ALTER COLUMN type SET STATISTICS 10,
    ALTER COLUMN status SET STATISTICS 10,
    ALTER COLUMN retry_count SET STATISTICS 10,
    ALTER COLUMN max_retries SET STATISTICS 10,
    ALTER COLUMN attempts SET STATISTICS 10,
    ALTER COLUMN next_run_at SET STATISTICS 10,
    ALTER COLUMN created_at SET STATISTICS 10,
    ALTER COLUMN updated_at SET STATISTICS 10,
    ALTER COLUMN finished_at SET STATISTICS 10,
    ALTER COLUMN status_version SET STATISTICS 10;
