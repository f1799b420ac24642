-- The records any service set aside in jobweaver-quarantine, kept by the API for review (QuarantineStore).
-- One row per origin record and service: a redelivered copy stores nothing new. Raw key, value and headers are bytea,
-- kept byte for byte for a replay (text and jsonb refuse a NUL character); record_key is the key as text, for people.
CREATE TABLE quarantined_records (
    id               uuid        PRIMARY KEY,
    origin_topic     text        NOT NULL,
    origin_partition int4        NOT NULL,
    origin_offset    int8        NOT NULL,
    service          text        NOT NULL,
    record_key       text,
    raw_key          bytea,
    reason           text        NOT NULL,
    detail           text        NOT NULL,
    quarantined_at   timestamptz NOT NULL,
    size             int4        NOT NULL,
    raw_value        bytea,
    raw_headers      bytea       NOT NULL,
    state            text        NOT NULL DEFAULT 'KEPT' CHECK (state IN ('KEPT', 'REPLAYED', 'DISCARDED')),
    state_changed_at timestamptz,
    state_changed_by text,
    stored_at        timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT quarantined_records_origin UNIQUE (origin_topic, origin_partition, origin_offset, service)
);

-- The list: one state (KEPT by default), newest first; the filters by topic and reason read the few rows of a state.
CREATE INDEX quarantined_records_by_state ON quarantined_records (state, quarantined_at DESC, id DESC);
