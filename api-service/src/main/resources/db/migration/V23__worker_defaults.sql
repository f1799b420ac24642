-- The defaults each worker's handlers declare for their types (timeoutMs, retryDelaysMs, priority by type, as its
-- heartbeat says); null for none. The scheduler applies them to the jobs it accepts; the API keeps the same table
-- shape (WorkerStore is shared).
ALTER TABLE workers ADD COLUMN defaults jsonb;
