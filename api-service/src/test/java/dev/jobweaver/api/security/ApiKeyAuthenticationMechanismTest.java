package dev.jobweaver.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import org.junit.jupiter.api.Test;

/** Which {@code Authorization} headers carry an API key; everything else is left to the JWT mechanism. */
class ApiKeyAuthenticationMechanismTest {

    @Test
    void onlyABearerTokenBeginningWithJwIsAKey() {
        assertThat(ApiKeyAuthenticationMechanism.keyOf("Bearer jw_abc")).isEqualTo("jw_abc");
        assertThat(ApiKeyAuthenticationMechanism.keyOf("bearer   jw_abc  ")).isEqualTo("jw_abc");
        assertThat(ApiKeyAuthenticationMechanism.keyOf("Bearer eyJhbGciOiJSUzI1NiJ9.e30.sig")).isNull();
        assertThat(ApiKeyAuthenticationMechanism.keyOf("Basic andfYWJjOg==")).isNull();
        assertThat(ApiKeyAuthenticationMechanism.keyOf("Bearer ")).isNull();
        assertThat(ApiKeyAuthenticationMechanism.keyOf("jw_abc")).isNull();
        assertThat(ApiKeyAuthenticationMechanism.keyOf(null)).isNull();
    }

    @Test
    void itRunsBeforeTheJwtMechanism() {
        assertThat(new ApiKeyAuthenticationMechanism().getPriority())
                .isGreaterThan(HttpAuthenticationMechanism.DEFAULT_PRIORITY);
    }
}
