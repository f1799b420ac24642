package dev.jobweaver.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The form of keys, their hash and their prefix. */
class ApiKeySecretsTest {

    @Test
    void aNewKeyIsJwAnd43Base64UrlCharactersAndNeverRepeats() {
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            String key = ApiKeySecrets.newKey();
            assertThat(key).matches("jw_[A-Za-z0-9_-]{43}");
            assertThat(ApiKeySecrets.wellFormed(key)).isTrue();
            keys.add(key);
        }
        assertThat(keys).hasSize(1_000);
    }

    @Test
    void theHashIsTheKeysSha256InHex() {
        // FIPS 180-2's test vector for "abc"
        assertThat(ApiKeySecrets.hash("abc"))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void theFormAcceptsOperatorChosenKeysOf32To128Characters() {
        assertThat(ApiKeySecrets.wellFormed("jw_" + "a".repeat(32))).isTrue();
        assertThat(ApiKeySecrets.wellFormed("jw_" + "a".repeat(128))).isTrue();
        assertThat(ApiKeySecrets.wellFormed("jw_" + "a".repeat(31))).isFalse();
        assertThat(ApiKeySecrets.wellFormed("jw_" + "a".repeat(129))).isFalse();
        assertThat(ApiKeySecrets.wellFormed("jw_" + "a".repeat(31) + "+")).isFalse();
        assertThat(ApiKeySecrets.wellFormed("xx_" + "a".repeat(40))).isFalse();
        assertThat(ApiKeySecrets.wellFormed(null)).isFalse();
    }

    @Test
    void thePrefixIsJwAndEightCharacters() {
        assertThat(ApiKeySecrets.prefix("jw_ABCDEFGHIJKLMNOP")).isEqualTo("jw_ABCDEFGH");
    }
}
