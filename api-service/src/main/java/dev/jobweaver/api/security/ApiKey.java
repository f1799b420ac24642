package dev.jobweaver.api.security;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * An API key ({@code api_keys}, migration V18): its tenant, name and roles, the SHA-256 of the key and the prefix it is
 * recognised by; never the key itself. A revoked key keeps its row, so that its hash is never stored again.
 *
 * <p>Public fields, as Panache entities have them.
 */
@Entity
@Table(name = "api_keys")
public class ApiKey extends PanacheEntityBase {

    @Id
    public UUID id;

    public String tenant;

    public String name;

    /** The roles granted, comma-separated, lowest first. */
    public String roles;

    /** SHA-256 of the key, lower-case hex. */
    public String keyHash;

    /** The key's first characters ({@code jw_} and 8 more). */
    public String prefix;

    public Instant createdAt;

    /** Null: never expires. */
    public Instant expiresAt;

    public Instant revokedAt;

    public Instant lastUsedAt;

    @Override
    public String toString() {
        // no hash in a log line either
        return "ApiKey[id=" + id + ", tenant=" + tenant + ", name=" + name + ", prefix=" + prefix + "]";
    }
}
