package dev.jobweaver.api.security;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/** A stored API key without its secret: what the API may show of it. */
record StoredApiKey(UUID id, String tenant, String name, List<String> roles, String prefix, Instant createdAt,
                           Instant expiresAt, Instant revokedAt, Instant lastUsedAt) {

    static StoredApiKey of(ApiKey key) {
        return new StoredApiKey(key.id, key.tenant, key.name, Arrays.asList(key.roles.split(",")), key.prefix,
                key.createdAt, key.expiresAt, key.revokedAt, key.lastUsedAt);
    }
}
