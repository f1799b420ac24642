package dev.jobweaver.api.security;

import dev.jobweaver.api.platform.http.RefusedException;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.quarantine.Failures;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Turns a presented API key into the identity of its stored key, or fails with {@link AuthenticationFailedException}
 * when the key is unknown, revoked or expired (the same failure for each, and never the key in it).
 *
 * <p>Why a cache: a client submitting hundreds of jobs a second with one key would otherwise cost one database round
 * trip per request. A key found usable is trusted for {@code jobweaver.security.api-key-cache-ttl} (5 s by default)
 * and never past its own expiry; a revocation through this replica evicts it at once ({@link #evict}), other replicas
 * refuse it once their entry is older than the TTL. Only usable keys are kept, by their hash (not the key), so the
 * cache holds at most one entry per live key and an attacker's guesses cost memory nothing.
 */
@ApplicationScoped
public class ApiKeyAuthenticator {

    /** Identity attribute: the API key's id. */
    public static final String KEY_ID = "jobweaver.api-key.id";
    /** Identity attribute: the API key's name. */
    public static final String KEY_NAME = "jobweaver.api-key.name";
    /** More entries than live keys can explain: only expired ones; they are dropped when this is passed. */
    static final int MAX_ENTRIES = 10_000;
    private static final long RETRY_AFTER_SECONDS = 5;

    private record Entry(UUID id, Instant expiresAt, long cachedUntilNanos, SecurityIdentity identity) {
    }

    private final ApiKeyStatements statements;
    private final long ttlNanos;
    private final ConcurrentHashMap<String, Entry> cache = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Uni<SecurityIdentity>> inFlight = new ConcurrentHashMap<>();

    @Inject
    public ApiKeyAuthenticator(ApiKeyStatements statements, SecurityConfig config) {
        this(statements, config.apiKeyCacheTtl());
    }

    ApiKeyAuthenticator(ApiKeyStatements statements, Duration ttl) {
        this.statements = statements;
        this.ttlNanos = ttl.toNanos();
    }

    /** The identity of {@code key}; fails with {@link AuthenticationFailedException} unless it is usable. */
    public Uni<SecurityIdentity> authenticate(String key) {
        if (!ApiKeySecrets.wellFormed(key)) {
            return Uni.createFrom().failure(new AuthenticationFailedException());
        }
        String hash = ApiKeySecrets.hash(key);
        Entry cached = cache.get(hash);
        if (cached != null) {
            if (System.nanoTime() - cached.cachedUntilNanos < 0
                    && (cached.expiresAt == null || Instant.now().isBefore(cached.expiresAt))) {
                return Uni.createFrom().item(cached.identity);
            }
            cache.remove(hash, cached);
        }
        Uni<SecurityIdentity> lookup = inFlight.computeIfAbsent(hash, this::lookUp);
        Context caller = Vertx.currentContext();
        return caller == null ? lookup : lookup.emitOn(on(caller));
    }

    /**
     * Runs what follows a lookup on the request's own Vert.x context: the request's security state (the identity
     * association, the routing context) lives in that context's locals, and a lookup completes on another when it is
     * shared or when the database's answer arrives elsewhere; a request resumed there had no identity and failed.
     */
    static Executor on(Context context) {
        return task -> {
            if (Vertx.currentContext() == context) {
                task.run();
            } else {
                context.runOnContext(ignored -> task.run());
            }
        };
    }

    /**
     * One lookup of {@code hash}, shared by every request that misses the cache while it runs, and forgotten once it
     * ended. When a key's entry ends under load, the requests in flight with that key would otherwise each update
     * its row, one after another behind the row's lock, each holding a database connection the submissions need
     * (26 ms a lookup in a 64-connection burst, 2026-12-02).
     */
    private Uni<SecurityIdentity> lookUp(String hash) {
        return statements.use(hash).map(found -> {
            if (found == null) {
                throw new AuthenticationFailedException();
            }
            SecurityIdentity identity = identity(found);
            if (ttlNanos > 0) {
                remember(hash, new Entry(found.id(), found.expiresAt(), System.nanoTime() + ttlNanos, identity));
            }
            return identity;
        }).onFailure(e -> !(e instanceof AuthenticationFailedException) && Failures.isTransient(e)).transform(e ->
                // not the client's fault, and not a verdict on its key: a 503 it may retry, not a 401 or a 500
                new RefusedException(ApiErrorCode.SERVICE_UNAVAILABLE, "the API key could not be checked: the database is"
                        + " unavailable (" + Failures.describe(e) + "); retry later", null, RETRY_AFTER_SECONDS))
                .onTermination().invoke(() -> inFlight.remove(hash))
                .memoize().indefinitely();
    }

    /** Forgets key {@code id} on this replica: its next use is looked up, and refused once it is revoked. */
    public void evict(UUID id) {
        cache.values().removeIf(entry -> entry.id.equals(id));
    }

    private void remember(String hash, Entry entry) {
        if (cache.size() >= MAX_ENTRIES) {
            long now = System.nanoTime();
            cache.values().removeIf(old -> now - old.cachedUntilNanos >= 0);
            if (cache.size() >= MAX_ENTRIES) {
                cache.clear();
            }
        }
        cache.put(hash, entry);
    }

    /** The identity of a usable key: {@code key:<id>}, its roles, its tenant. */
    static SecurityIdentity identity(ApiKeyStatements.UsableKey key) {
        return QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal("key:" + key.id()))
                .addRoles(Roles.upTo(Arrays.asList(key.roles().split(","))))
                .addAttribute(Callers.TENANT, key.tenant())
                .addAttribute(KEY_ID, key.id().toString())
                .addAttribute(KEY_NAME, key.name())
                .build();
    }
}
