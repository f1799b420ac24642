package dev.jobweaver.api.security;

import dev.jobweaver.common.job.JobIds;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Stores {@code jobweaver.security.bootstrap-admin-key} (its hash) as an admin key of tenant {@code default} named
 * {@value #NAME}, unless that hash is stored already: how a fresh platform gets its first key.
 *
 * <p>Idempotent across restarts and concurrent replicas: one {@code INSERT ... ON CONFLICT DO NOTHING} on the unique
 * hash. A revoked bootstrap key keeps its row, so it stays revoked. A value that is not a key fails the start with a
 * message naming the setting, never its value. When the database cannot be reached at start, the service starts anyway
 * (readiness reports the database) and stores the key once it can, retrying every {@link #RETRY}.
 */
@ApplicationScoped
public class BootstrapAdminKey {

    /** The stored key's name. */
    public static final String NAME = "bootstrap-admin";
    static final String SETTING = "jobweaver.security.bootstrap-admin-key";
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final Duration RETRY = Duration.ofSeconds(5);

    private static final Logger LOG = Logger.getLogger(BootstrapAdminKey.class);

    @Inject SecurityConfig config;
    @Inject ApiKeyStatements statements;
    @Inject Vertx vertx;

    // after SchemaGuard (PLATFORM_BEFORE), which refuses a schema without the api_keys table
    void store(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE + 10) StartupEvent start) {
        String key = config.bootstrapAdminKey().map(String::trim).filter(value -> !value.isEmpty()).orElse(null);
        if (key == null) {
            return;
        }
        if (!ApiKeySecrets.wellFormed(key)) {
            throw new IllegalStateException(SETTING + " is not an API key: it must be jw_ followed by 32 to 128"
                    + " characters of A-Z, a-z, 0-9, '_' and '-' (generate one with: echo jw_$(openssl rand -base64 32"
                    + " | tr '+/' '-_' | tr -d '=')); the value is not shown");
        }
        String hash = ApiKeySecrets.hash(key);
        String prefix = ApiKeySecrets.prefix(key);
        try {
            report(statements.insertOnce(JobIds.next(), Caller.DEFAULT_TENANT, NAME, Roles.ADMIN, hash, prefix)
                    .await().atMost(TIMEOUT));
        } catch (RuntimeException e) {
            LOG.warnf("the bootstrap admin key could not be stored yet (%s); retrying every %d s",
                    e.getClass().getSimpleName(), RETRY.toSeconds());
            retry(hash, prefix);
        }
    }

    private void retry(String hash, String prefix) {
        vertx.setTimer(RETRY.toMillis(), ignored -> statements.insertOnce(JobIds.next(), Caller.DEFAULT_TENANT, NAME,
                Roles.ADMIN, hash, prefix).subscribe().with(BootstrapAdminKey::report, e -> retry(hash, prefix)));
    }

    private static void report(boolean stored) {
        if (stored) {
            LOG.infof("bootstrap admin key stored (tenant %s, name %s)", Caller.DEFAULT_TENANT, NAME);
        } else {
            LOG.debug("bootstrap admin key already stored");
        }
    }
}
