package dev.jobweaver.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The parts of the API key body that are no Bean Validation: its constants and its conversions. */
class ApiKeyRequestTest {

    @Test
    void theRolesItsMessagesNameAreTheRoles() {
        assertThat(ApiKeyRequest.ROLES).isEqualTo(Roles.ORDERED.toString());
    }

    @Test
    void rolesLoseTheirRepeatsAndKeepTheirOrderAndTheExpiryIsAnInstant() {
        ApiKeyRequest request = new ApiKeyRequest("ci", List.of("operator", "viewer", "operator"),
                "2030-01-01T01:00:00+01:00");

        assertThat(request.roleSet()).containsExactly("operator", "viewer");
        assertThat(request.expiry()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
        assertThat(new ApiKeyRequest("ci", List.of("viewer"), null).expiry()).isNull();
    }
}
