package dev.jobweaver.api.security.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The key from {@code jobweaver.security.secret-key}: a missing or malformed one stops the start, naming the
 * property; a valid one seals and opens. */
class SealedSecretsTest {

    @Test
    void withoutAKeyTheApiDoesNotStart() {
        for (Optional<String> missing : new Optional[] {Optional.empty(), Optional.of(""), Optional.of("  ")}) {
            assertThatThrownBy(() -> new SealedSecrets(() -> missing)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("jobweaver.security.secret-key is not set")
                    .hasMessageContaining("openssl rand -base64 32");
        }
    }

    @Test
    void aKeyThatIsNotBase64OfThirtyTwoBytesIsRefused() {
        assertThatThrownBy(() -> new SealedSecrets(() -> Optional.of("not*base64")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("jobweaver.security.secret-key is not base64");
        String short16 = Base64.getEncoder().encodeToString(new byte[16]);
        assertThatThrownBy(() -> new SealedSecrets(() -> Optional.of(short16)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("jobweaver.security.secret-key is 16 bytes once decoded")
                .hasMessageNotContaining(short16);
    }

    @Test
    void aValidKeySealsAndOpens() {
        SealedSecrets secrets = new SealedSecrets(() -> Optional.of(Base64.getEncoder().encodeToString(new byte[32])));
        UUID owner = UUID.randomUUID();
        assertThat(secrets.open(secrets.seal("whsec_abc", owner), owner)).isEqualTo("whsec_abc");
    }
}
