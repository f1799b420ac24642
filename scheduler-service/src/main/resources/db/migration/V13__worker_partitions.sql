-- Which partitions of its queues' run topics each worker holds, as its heartbeat says ("queue:partition" entries);
-- null for a worker that does not say. The scheduler aims a run of a type only some of a queue's workers declare at
-- the partitions of those that do; the API keeps the same table shape (WorkerStore is shared).
ALTER TABLE workers ADD COLUMN assigned text[];
