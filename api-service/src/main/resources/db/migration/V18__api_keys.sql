-- API keys: `Authorization: Bearer jw_...`. Only the SHA-256 of a key is stored (hex), never the key: the key is 32
-- random bytes, so its hash cannot be reversed or guessed, and a lookup by hash needs no slow password hash. `prefix`
-- (the key's first characters) lets a person recognise a key in a list without it being usable. A revoked key keeps
-- its row, so that its hash is never stored again (the bootstrap key stays revoked across restarts).
CREATE TABLE api_keys (
    id           uuid         PRIMARY KEY,
    tenant       varchar(63)  NOT NULL,
    name         varchar(100) NOT NULL,
    -- the roles granted, comma-separated, lowest first: e.g. 'viewer,submitter'
    roles        varchar(100) NOT NULL,
    key_hash     char(64)     NOT NULL,
    prefix       varchar(16)  NOT NULL,
    created_at   timestamptz  NOT NULL,
    -- null: never expires
    expires_at   timestamptz,
    revoked_at   timestamptz,
    -- moved when a replica looks the key up in the database, at most once per key and replica per cache period
    last_used_at timestamptz,
    CONSTRAINT api_keys_key_hash_unique UNIQUE (key_hash)
);

-- GET /api/tenants/{tenant}/api-keys, newest first.
CREATE INDEX api_keys_tenant_created_at_idx ON api_keys (tenant, created_at DESC, id DESC);
