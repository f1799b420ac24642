-- A run's row is inserted RUNNING and updated once, tens of milliseconds later, when the run finishes. That update
-- could never be HOT (heap-only: no index entry written) because the partial index below names `outcome` in its
-- predicate, so every finish wrote a new entry in each index. No statement of the worker reads that index (a run
-- left RUNNING is found by its event_id when its record is delivered again); an operator looking for such rows
-- scans, which at the rate they occur is cheap enough.
DROP INDEX IF EXISTS idx_execution_attempts_running;

-- Room on each page for the finished version of the rows inserted there: with full pages a finish still has to
-- move the row to another page and write its index entries. Dead versions are pruned from the page as it is
-- read again, so the space is reused rather than grown.
ALTER TABLE execution_attempts SET (fillfactor = 70);
