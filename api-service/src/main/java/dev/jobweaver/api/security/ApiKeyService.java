package dev.jobweaver.api.security;

import dev.jobweaver.api.platform.db.Slice;
import dev.jobweaver.common.job.JobIds;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.UUID;

/**
 * Stores API keys (Panache, {@link ApiKey}): creates one with a new key, lists a tenant's, revokes one. Called on the
 * request's Vert.x event loop.
 */
@ApplicationScoped
public class ApiKeyService {

    @Inject ApiKeyRepository keys;
    @Inject ApiKeyAuthenticator authenticator;

    /** A new key and the key itself, which exists nowhere else: the one time it is shown. */
    public record Created(StoredApiKey stored, String key) {

        @Override
        public String toString() {
            return "Created[" + stored.id() + "]";
        }
    }

    /** Stores a new key of {@code tenant} with {@code roles} (known ones), expiring at {@code expiresAt} (or never). */
    @WithSpan("create api key")
    public Uni<Created> create(String tenant, String name, Set<String> roles, Instant expiresAt) {
        String key = ApiKeySecrets.newKey();
        ApiKey entity = new ApiKey();
        entity.id = JobIds.next();
        entity.tenant = tenant;
        entity.name = name;
        entity.roles = String.join(",", Roles.ORDERED.stream().filter(roles::contains).toList());
        entity.keyHash = ApiKeySecrets.hash(key);
        entity.prefix = ApiKeySecrets.prefix(key);
        entity.createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        entity.expiresAt = expiresAt == null ? null : expiresAt.truncatedTo(ChronoUnit.MICROS);
        return Panache.withTransaction(() -> keys.persist(entity))
                .map(stored -> new Created(StoredApiKey.of(entity), key));
    }

    /** A page of the tenant's keys, revoked ones included, newest first. */
    @WithSpan("list api keys")
    public Uni<Slice<StoredApiKey>> list(String tenant, int page, int size) {
        return Panache.withSession(() -> Slice.read(keys.page(tenant, page, size), () -> keys.countOf(tenant),
                StoredApiKey::of));
    }

    /**
     * Revokes the tenant's key {@code id} (a revoked one stays revoked as it was) and forgets it on this replica at
     * once; false when the tenant has no such key.
     */
    @WithSpan("revoke api key")
    public Uni<Boolean> revoke(String tenant, UUID id) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return Panache.withTransaction(() -> keys.findForUpdate(tenant, id).map(key -> {
            if (key == null) {
                return false;
            }
            if (key.revokedAt == null) {
                key.revokedAt = now;
            }
            return true;
        })).invoke(revoked -> {
            if (revoked) {
                // after the commit, so that the next lookup finds the key revoked
                authenticator.evict(id);
            }
        });
    }
}
