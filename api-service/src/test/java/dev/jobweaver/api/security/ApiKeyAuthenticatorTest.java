package dev.jobweaver.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The key lookup and its cache, against a stand-in for the database: the identity a key gets; refusals without a
 * lookup for a malformed key; a usable key looked up once per TTL; eviction; a cached key refused from its expiry on.
 */
class ApiKeyAuthenticatorTest {

    /** Keys by hash, counting lookups. */
    static final class Stored extends ApiKeyStatements {

        final Map<String, UsableKey> keys = new HashMap<>();
        int lookups;

        Stored() {
            super(null);
        }

        @Override
        public Uni<UsableKey> use(String hash) {
            lookups++;
            return Uni.createFrom().item(keys.get(hash));
        }
    }

    private final Stored stored = new Stored();

    private String store(String roles, String tenant, Instant expiresAt) {
        String key = ApiKeySecrets.newKey();
        stored.keys.put(ApiKeySecrets.hash(key), new ApiKeyStatements.UsableKey(UUID.randomUUID(), tenant, "k", roles,
                expiresAt));
        return key;
    }

    private static SecurityIdentity await(Uni<SecurityIdentity> identity) {
        return identity.await().atMost(Duration.ofSeconds(1));
    }

    @Test
    void aKeyIsItsIdentityRolesAndTenantNeverTheKey() {
        String key = store("submitter", "acme", null);
        SecurityIdentity identity = await(new ApiKeyAuthenticator(stored, Duration.ofSeconds(5)).authenticate(key));
        UUID id = stored.keys.get(ApiKeySecrets.hash(key)).id();
        assertThat(identity.getPrincipal().getName()).isEqualTo("key:" + id).doesNotContain(key);
        assertThat(identity.getRoles()).containsExactlyInAnyOrder("viewer", "submitter");
        assertThat((String) identity.getAttribute(Callers.TENANT)).isEqualTo("acme");
        assertThat(Callers.of(identity).sees("other")).isFalse();
    }

    @Test
    void aMalformedKeyIsRefusedWithoutALookupAndAnUnknownOneAfterOne() {
        ApiKeyAuthenticator authenticator = new ApiKeyAuthenticator(stored, Duration.ofSeconds(5));
        assertThatThrownBy(() -> await(authenticator.authenticate("jw_short")))
                .isInstanceOf(AuthenticationFailedException.class);
        assertThat(stored.lookups).isZero();
        String unknown = ApiKeySecrets.newKey();
        assertThatThrownBy(() -> await(authenticator.authenticate(unknown)))
                .isInstanceOf(AuthenticationFailedException.class)
                .satisfies(e -> assertThat(String.valueOf(e.getMessage())).doesNotContain(unknown));
        assertThatThrownBy(() -> await(authenticator.authenticate(unknown)))
                .isInstanceOf(AuthenticationFailedException.class);
        assertThat(stored.lookups).as("refusals are not cached").isEqualTo(2);
    }

    @Test
    void aUsableKeyIsLookedUpOncePerTtlUntilEvicted() {
        String key = store("admin", "acme", null);
        ApiKeyAuthenticator authenticator = new ApiKeyAuthenticator(stored, Duration.ofMinutes(5));
        for (int i = 0; i < 100; i++) {
            await(authenticator.authenticate(key));
        }
        assertThat(stored.lookups).isEqualTo(1);

        // revoked: the store no longer returns it, and the eviction makes this replica ask again
        ApiKeyStatements.UsableKey revoked = stored.keys.remove(ApiKeySecrets.hash(key));
        await(authenticator.authenticate(key));
        authenticator.evict(revoked.id());
        assertThatThrownBy(() -> await(authenticator.authenticate(key)))
                .isInstanceOf(AuthenticationFailedException.class);
        assertThat(stored.lookups).isEqualTo(2);
    }

    @Test
    void aZeroTtlLooksEveryRequestUp() {
        String key = store("viewer", "acme", null);
        ApiKeyAuthenticator authenticator = new ApiKeyAuthenticator(stored, Duration.ZERO);
        await(authenticator.authenticate(key));
        await(authenticator.authenticate(key));
        assertThat(stored.lookups).isEqualTo(2);
    }

    @Test
    void requestsThatMissTheCacheTogetherShareOneLookup() {
        String key = store("viewer", "acme", null);
        CompletableFuture<ApiKeyStatements.UsableKey> row = new CompletableFuture<>();
        ApiKeyStatements slow = new ApiKeyStatements(null) {
            @Override
            public Uni<UsableKey> use(String hash) {
                stored.lookups++;
                return Uni.createFrom().completionStage(row);
            }
        };
        ApiKeyAuthenticator authenticator = new ApiKeyAuthenticator(slow, Duration.ZERO);
        List<CompletableFuture<SecurityIdentity>> requests = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            requests.add(authenticator.authenticate(key).subscribeAsCompletionStage());
        }
        assertThat(requests).noneMatch(CompletableFuture::isDone);

        row.complete(stored.keys.get(ApiKeySecrets.hash(key)));

        assertThat(requests).allSatisfy(r -> assertThat(r.join().getRoles()).contains("viewer"));
        assertThat(stored.lookups).as("one lookup for the ten requests").isEqualTo(1);
        await(authenticator.authenticate(key));
        assertThat(stored.lookups).as("a lookup that ended is not shared with later requests").isEqualTo(2);
    }

    @Test
    void aLookupThatRefusedIsNotKeptForLaterRequests() {
        String key = store("viewer", "acme", null);
        ApiKeyStatements.UsableKey row = stored.keys.remove(ApiKeySecrets.hash(key));
        ApiKeyAuthenticator authenticator = new ApiKeyAuthenticator(stored, Duration.ofSeconds(5));
        assertThatThrownBy(() -> await(authenticator.authenticate(key)))
                .isInstanceOf(AuthenticationFailedException.class);

        stored.keys.put(ApiKeySecrets.hash(key), row);

        assertThat(await(authenticator.authenticate(key)).getRoles()).contains("viewer");
        assertThat(stored.lookups).isEqualTo(2);
    }

    @Test
    void aCachedKeyIsNotTrustedPastItsExpiry() throws Exception {
        String key = store("viewer", "acme", Instant.now().plusMillis(200));
        ApiKeyAuthenticator authenticator = new ApiKeyAuthenticator(stored, Duration.ofMinutes(5));
        await(authenticator.authenticate(key));
        await(authenticator.authenticate(key));
        assertThat(stored.lookups).isEqualTo(1);
        Thread.sleep(250);
        // the database would no longer return it either
        stored.keys.clear();
        assertThatThrownBy(() -> await(authenticator.authenticate(key)))
                .isInstanceOf(AuthenticationFailedException.class);
        assertThat(stored.lookups).isEqualTo(2);
    }
}
