-- The audit log: one row per call of an operator or admin endpoint that changes something (POST, PUT, PATCH,
-- DELETE), answered or refused. Written and read by the API alone; rows older than jobweaver.audit.retention are
-- deleted by AuditCleanup. Never a body, a credential or a query string: the path is the endpoint's template.
CREATE TABLE audit_log (
    id           uuid          PRIMARY KEY,
    at           timestamptz   NOT NULL,
    -- Caller.name: the API key's id and name, the JWT's upn/sub, or anonymous
    actor        varchar(200)  NOT NULL,
    -- the actor's own tenant and highest role; null when it was not authenticated
    actor_tenant varchar(63),
    actor_role   varchar(16),
    method       varchar(8)    NOT NULL,
    -- the endpoint's path template, e.g. /api/dead-letters/{jobId}/requeue
    path         varchar(300)  NOT NULL,
    -- the object the path names ({jobId}, {id}, {runId}), as given
    object_id    varchar(100),
    -- the tenant the path names ({tenant}), as given
    tenant       varchar(100),
    status       integer       NOT NULL,
    trace_id     varchar(32)
);

-- GET /api/audit, newest first (also the retention's range delete, from the old end).
CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
-- Its actor filter.
CREATE INDEX audit_log_actor_at_idx ON audit_log (actor, at DESC);
