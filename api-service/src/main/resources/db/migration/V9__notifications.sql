-- Notifications: subscriptions to a job's state changes, the deliveries each change makes, and every attempt of each
-- delivery (the delivery log). Subscriptions and deliveries are written and read by the API alone.

CREATE TABLE subscriptions (
    id          uuid          PRIMARY KEY,
    tenant      varchar(63)   NOT NULL DEFAULT 'default',
    -- exactly one target: a job, a schedule's jobs, a workflow's jobs or every job of a type
    job_id      uuid,
    schedule_id uuid,
    workflow_id uuid,
    job_type    varchar(32),
    -- SCHEDULED, STARTED, RETRYING, COMPLETED, FAILED, CANCELLED
    events      text[]        NOT NULL,
    url         varchar(2048) NOT NULL,
    -- whsec_ and base64 (Standard Webhooks): the deliveries are signed with it, so it is kept as given out
    secret      varchar(128)  NOT NULL,
    created_at  timestamptz   NOT NULL,
    CONSTRAINT subscriptions_one_target CHECK (num_nonnulls(job_id, schedule_id, workflow_id, job_type) = 1)
);

-- The matching looks subscriptions up by each target. Partial: each row is in the one index of its target.
CREATE INDEX subscriptions_job_idx ON subscriptions (job_id) WHERE job_id IS NOT NULL;
CREATE INDEX subscriptions_schedule_idx ON subscriptions (schedule_id) WHERE schedule_id IS NOT NULL;
CREATE INDEX subscriptions_workflow_idx ON subscriptions (workflow_id) WHERE workflow_id IS NOT NULL;
CREATE INDEX subscriptions_job_type_idx ON subscriptions (job_type) WHERE job_type IS NOT NULL;

CREATE TABLE deliveries (
    -- a name-based UUID of (subscription, job, status version, event): the webhook-id, the same for a redelivered
    -- status, so that it makes no second delivery
    id              uuid         PRIMARY KEY,
    subscription_id uuid         NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
    job_id          uuid         NOT NULL,
    event           varchar(16)  NOT NULL,
    -- the exact JSON sent, byte for byte at every attempt (the signature covers it)
    body            text         NOT NULL,
    -- PENDING, DELIVERED or GIVEN_UP
    state           varchar(16)  NOT NULL,
    attempts        integer      NOT NULL DEFAULT 0,
    -- when a PENDING delivery is due; while one is being sent, the end of its lease
    next_attempt_at timestamptz  NOT NULL,
    -- when the job changed (the status's changedAt): where the delivery latency is counted from
    changed_at      timestamptz  NOT NULL,
    created_at      timestamptz  NOT NULL,
    finished_at     timestamptz
);

-- The sender's claim: due PENDING deliveries, oldest first. Partial: a finished delivery leaves the index.
CREATE INDEX deliveries_due_idx ON deliveries (next_attempt_at) WHERE state = 'PENDING';
-- The delivery log of a subscription, newest first, and the cascade of its delete.
CREATE INDEX deliveries_subscription_idx ON deliveries (subscription_id, created_at DESC);

CREATE TABLE delivery_attempts (
    delivery_id  uuid         NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    attempt      integer      NOT NULL,
    attempted_at timestamptz  NOT NULL,
    -- the HTTP status answered; null when there was no answer (timeout, connection refused, refused destination)
    status       integer,
    error        text,
    duration_ms  bigint       NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
);
