-- The age cleanup of finished attempts (AttemptCleanup). A BRIN index: rows are inserted in about the order of their
-- started_at, so a block range summarises them well; it costs an insert nothing but the occasional summary update
-- (no entry per row, unlike a B-tree), and, being a summarising index, it keeps the finishing update heap-only (HOT),
-- which V2 measured and keeps.
CREATE INDEX idx_execution_attempts_started_brin ON execution_attempts USING brin (started_at);
