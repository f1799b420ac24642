-- The Idempotency-Key of a submission: a repeat of the same key by the same tenant within its lifetime (24 h by
-- default) is answered with the first answer (same body) or 409 (another body), and never makes a second job. The row
-- is written by the statement that stores the job and its outbox row, so the key exists exactly when its job does.
CREATE TABLE idempotency_keys (
    tenant      varchar(63)  NOT NULL,
    idem_key    varchar(255) NOT NULL,
    -- SHA-256 (hex) of the request body in a canonical form (object keys sorted, no insignificant white space)
    fingerprint char(64)     NOT NULL,
    job_id      uuid         NOT NULL,
    trace_id    varchar(32)  NOT NULL,
    created_at  timestamptz  NOT NULL,
    PRIMARY KEY (tenant, idem_key)
);

-- The periodic cleanup deletes the expired keys, oldest first.
CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);

-- As for jobs (V3): coarse statistics, none for the opaque columns.
ALTER TABLE idempotency_keys
    ALTER COLUMN tenant SET STATISTICS 10,
    ALTER COLUMN idem_key SET STATISTICS 0,
    ALTER COLUMN fingerprint SET STATISTICS 0,
    ALTER COLUMN job_id SET STATISTICS 0,
    ALTER COLUMN trace_id SET STATISTICS 0,
    ALTER COLUMN created_at SET STATISTICS 10;
