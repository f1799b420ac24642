package dev.jobweaver.api.security;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowIterator;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * The API-key statements that run outside a request's Hibernate session, with the reactive PostgreSQL client: the
 * lookup of a presented key (during authentication, before any resource method) and the bootstrap key's insert (at
 * start).
 */
@ApplicationScoped
public class ApiKeyStatements {

    /**
     * Finds a usable key and notes its use in one round trip. Revoked, expired and unknown keys return no row: the
     * caller cannot tell which, and neither can a prober.
     */
    private static final String USE = """
            UPDATE api_keys SET last_used_at = now()
            WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
            RETURNING id, tenant, name, roles, expires_at
            """;

    /** A hash already stored, revoked or not, is left alone: concurrent replicas and restarts store it once. */
    private static final String INSERT_ONCE = """
            INSERT INTO api_keys (id, tenant, name, roles, key_hash, prefix, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, now())
            ON CONFLICT (key_hash) DO NOTHING
            """;

    /** A usable key as the lookup found it. */
    public record UsableKey(UUID id, String tenant, String name, String roles, Instant expiresAt) {
    }

    private final Pool pool;

    public ApiKeyStatements(Pool pool) {
        this.pool = pool;
    }

    /** The key stored under {@code hash} if it is neither revoked nor expired, with its last use moved; else null. */
    public Uni<UsableKey> use(String hash) {
        return pool.preparedQuery(USE).execute(Tuple.of(hash)).map(rows -> {
            RowIterator<Row> it = rows.iterator();
            if (!it.hasNext()) {
                return null;
            }
            Row row = it.next();
            OffsetDateTime expires = row.getOffsetDateTime("expires_at");
            return new UsableKey(row.getUUID("id"), row.getString("tenant"), row.getString("name"),
                    row.getString("roles"), expires == null ? null : expires.toInstant());
        });
    }

    /** Stores a key unless its hash is stored already; true when this call stored it. */
    public Uni<Boolean> insertOnce(UUID id, String tenant, String name, String roles, String hash, String prefix) {
        return pool.preparedQuery(INSERT_ONCE).execute(Tuple.from(new Object[] {id, tenant, name, roles, hash, prefix}))
                .map(rows -> rows.rowCount() > 0);
    }
}
