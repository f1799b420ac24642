-- What a run's handler reported on success (JSON, at most 64 KiB), published with its outcome and again, unchanged,
-- when a duplicate of the run re-publishes the stored outcome. NULL for none and for rows stored before results
-- existed. Nothing filters on it, so it gets no statistics (V3 says why every column names its target).
ALTER TABLE execution_attempts ADD COLUMN result JSONB;
ALTER TABLE execution_attempts ALTER COLUMN result SET STATISTICS 0;
