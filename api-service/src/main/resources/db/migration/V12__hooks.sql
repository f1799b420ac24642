-- Inbound hooks: URLs that, called with a request signed with their secret, make a job from their template or start a
-- run of their workflow. Written and read by the API alone. A deleted hook keeps its row, without its secret, so that
-- its id answers 404 and is never served again.
CREATE TABLE hooks (
    id          uuid          PRIMARY KEY,
    name        varchar(200)  NOT NULL,
    tenant      varchar(63)   NOT NULL,
    -- the submission body each call's job is made from, validated and normalised as POST /api/jobs does it
    job         jsonb,
    -- the workflow each call starts a run of, instead of a job
    workflow_id uuid,
    -- the HMAC key of every call, so kept as given out (a hash could not verify a signature); cleared by the delete
    secret      varchar(128),
    created_at  timestamptz   NOT NULL,
    deleted_at  timestamptz,
    CONSTRAINT hooks_one_target CHECK ((job IS NULL) <> (workflow_id IS NULL)),
    CONSTRAINT hooks_secret_while_live CHECK (deleted_at IS NOT NULL OR secret IS NOT NULL)
);

-- GET /api/hooks, newest first, with or without a tenant.
CREATE INDEX hooks_tenant_created_at_idx ON hooks (tenant, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX hooks_created_at_idx ON hooks (created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- As for jobs (V3): coarse statistics, none for the opaque columns.
ALTER TABLE hooks
    ALTER COLUMN id SET STATISTICS 10,
    ALTER COLUMN name SET STATISTICS 0,
    ALTER COLUMN tenant SET STATISTICS 10,
    ALTER COLUMN job SET STATISTICS 0,
    ALTER COLUMN workflow_id SET STATISTICS 0,
    ALTER COLUMN secret SET STATISTICS 0,
    ALTER COLUMN created_at SET STATISTICS 10,
    ALTER COLUMN deleted_at SET STATISTICS 10;
