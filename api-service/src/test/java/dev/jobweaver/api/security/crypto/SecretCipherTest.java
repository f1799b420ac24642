package dev.jobweaver.api.security.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** AES-256-GCM sealing: round trip, a fresh nonce each time, and a sealed value that does not open when tampered with,
 * under another key or for another row; a legacy plaintext opens as itself. */
class SecretCipherTest {

    private static final String SECRET = "jwhook_Xq3v9sQpZk0b7c1yH2mW4nL8rT6uE5aD0fG9hJ1kL2m";
    private final SecretCipher cipher = new SecretCipher(key(1));
    private final UUID owner = UUID.randomUUID();

    @Test
    void aSealedSecretOpensForItsRow() {
        String sealed = cipher.seal(SECRET, owner);
        assertThat(sealed).startsWith("v1:").doesNotContain(SECRET).doesNotContain("jwhook_");
        assertThat(SecretCipher.isSealed(sealed)).isTrue();
        assertThat(cipher.open(sealed, owner)).isEqualTo(SECRET);
    }

    @Test
    void eachSealHasItsOwnNonce() {
        assertThat(cipher.seal(SECRET, owner)).isNotEqualTo(cipher.seal(SECRET, owner));
    }

    @Test
    void theSealedFormOfAFiftyCharacterSecretFitsTheColumn() {
        assertThat(cipher.seal(SECRET, owner).length()).isLessThanOrEqualTo(128);
    }

    @Test
    void aTamperedValueDoesNotOpen() {
        String sealed = cipher.seal(SECRET, owner);
        byte[] bytes = Base64.getDecoder().decode(sealed.substring(3));
        for (int i : new int[] {0, 11, 12, bytes.length - 1}) {
            byte[] altered = bytes.clone();
            altered[i] ^= 0x01;
            String tampered = "v1:" + Base64.getEncoder().encodeToString(altered);
            assertThatThrownBy(() -> cipher.open(tampered, owner)).as("byte " + i)
                    .isInstanceOf(SecretCipher.UnreadableSecretException.class)
                    .hasMessageContaining(owner.toString()).hasMessageNotContaining(SECRET);
        }
    }

    @Test
    void aValueDoesNotOpenUnderAnotherKey() {
        String sealed = cipher.seal(SECRET, owner);
        assertThatThrownBy(() -> new SecretCipher(key(2)).open(sealed, owner))
                .isInstanceOf(SecretCipher.UnreadableSecretException.class)
                .hasMessageContaining("jobweaver.security.secret-key");
    }

    @Test
    void aValueCopiedToAnotherRowDoesNotOpenThere() {
        String sealed = cipher.seal(SECRET, owner);
        assertThatThrownBy(() -> cipher.open(sealed, UUID.randomUUID()))
                .isInstanceOf(SecretCipher.UnreadableSecretException.class);
    }

    @Test
    void malformedSealedValuesDoNotOpen() {
        assertThatThrownBy(() -> cipher.open("v1:not base64!", owner))
                .isInstanceOf(SecretCipher.UnreadableSecretException.class).hasMessageContaining("not base64");
        assertThatThrownBy(() -> cipher.open("v1:AAAA", owner))
                .isInstanceOf(SecretCipher.UnreadableSecretException.class).hasMessageContaining("too short");
    }

    @Test
    void aLegacyPlaintextOpensAsItself() {
        assertThat(SecretCipher.isSealed(SECRET)).isFalse();
        assertThat(cipher.open(SECRET, owner)).isEqualTo(SECRET);
        assertThat(cipher.open(null, owner)).isNull();
    }

    @Test
    void theKeyMustBe32Bytes() {
        assertThatThrownBy(() -> new SecretCipher(new byte[16])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("32 bytes");
    }

    private static byte[] key(int seed) {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) (seed * 31 + i);
        }
        return key;
    }
}
