package dev.jobweaver.api.hook;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Secrets, the signature of "<timestamp>.<raw body>", its form, and the timestamp window. */
class HookSignatureTest {

    private static final Instant NOW = Instant.ofEpochSecond(1_767_225_600L);
    private static final Duration WINDOW = Duration.ofMinutes(5);

    /** {@code printf '1767225600.{"ref":"main"}' | openssl dgst -sha256 -hmac jwhook_example}: another HMAC. */
    private static final String OPENSSL = "63fc5bde00fadd2da779649788df6347fd0b03156d63b1a1415d72c4d1be835b";

    @Test
    void theSignatureIsTheLowerCaseHexHmacOfTimestampDotBody() {
        String signature = HookSignature.sign("jwhook_example", "1767225600",
                "{\"ref\":\"main\"}".getBytes(StandardCharsets.UTF_8));

        assertThat(signature).isEqualTo("sha256=" + OPENSSL);
    }

    @Test
    void theSignatureCoversTheRawBytesNotTheirText() {
        byte[] latin = {'{', '"', 'a', '"', ':', '"', (byte) 0xE9, '"', '}'};
        byte[] utf8 = "{\"a\":\"é\"}".getBytes(StandardCharsets.UTF_8);

        assertThat(HookSignature.sign("s", "1", latin)).isNotEqualTo(HookSignature.sign("s", "1", utf8));
    }

    @Test
    void theSecretIsKeyedByItsUtf8Bytes() {
        // printf '1.{}' | openssl dgst -sha256 -hmac 'ключ' (the shell hands openssl the key's UTF-8 bytes)
        assertThat(HookSignature.sign("ключ", "1", "{}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("sha256=46411af75b0cf76865bdf875765b0d2fa2356d0ed045eb97fa4e14f85a50e222");
    }

    @Test
    void aSignatureMatchesOnlyItsSecretTimestampAndBody() {
        byte[] body = "{\"ref\":\"main\"}".getBytes(StandardCharsets.UTF_8);
        String signature = HookSignature.sign("secret", "1767225600", body);

        assertThat(HookSignature.matches("secret", "1767225600", body, signature)).isTrue();
        assertThat(HookSignature.matches("secreT", "1767225600", body, signature)).isFalse();
        assertThat(HookSignature.matches("secret", "1767225601", body, signature)).isFalse();
        assertThat(HookSignature.matches("secret", "01767225600", body, signature)).as("the header's text is signed")
                .isFalse();
        assertThat(HookSignature.matches("secret", "1767225600", "{\"ref\":\"mainx\"}".getBytes(StandardCharsets.UTF_8),
                signature)).isFalse();
        byte[] oneByte = body.clone();
        oneByte[2] ^= 1;
        assertThat(HookSignature.matches("secret", "1767225600", oneByte, signature)).isFalse();
        assertThat(HookSignature.matches("secret", "1767225600", body, signature.toUpperCase())).isFalse();
    }

    @Test
    void onlySha256AndSixtyFourLowerCaseHexDigitsIsWellFormed() {
        String good = HookSignature.sign("s", "1", new byte[0]);

        assertThat(HookSignature.wellFormed(good)).isTrue();
        assertThat(HookSignature.wellFormed(null)).isFalse();
        assertThat(HookSignature.wellFormed("")).isFalse();
        assertThat(HookSignature.wellFormed(good.substring(7))).as("without sha256=").isFalse();
        assertThat(HookSignature.wellFormed("sha256=" + good.substring(7).toUpperCase())).as("upper case").isFalse();
        assertThat(HookSignature.wellFormed(good.substring(0, good.length() - 1))).as("63 digits").isFalse();
        assertThat(HookSignature.wellFormed(good + "0")).as("65 digits").isFalse();
        assertThat(HookSignature.wellFormed("sha1=" + good.substring(7))).isFalse();
        assertThat(HookSignature.wellFormed(" " + good)).isFalse();
    }

    @Test
    void aTimestampWithinFiveMinutesEitherWayIsAccepted() {
        assertThat(HookSignature.timestamp("1767225600", NOW, WINDOW)).isEqualTo(1_767_225_600L);
        assertThat(HookSignature.timestamp("1767225300", NOW, WINDOW)).as("exactly 5 min old")
                .isEqualTo(1_767_225_300L);
        assertThat(HookSignature.timestamp("1767225900", NOW, WINDOW)).as("exactly 5 min ahead")
                .isEqualTo(1_767_225_900L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1767225299", "1767225901", "1767225240", "1767225960", "1767225600000", "0", "-1767225600",
            "+1767225600", "1767225600.0", "1e9", "abc", "", " 1767225600", "17672256001767225600"})
    void aTimestampOutOfTheWindowOrNotUnixSecondsIsRefused(String header) {
        assertThat(HookSignature.timestamp(header, NOW, WINDOW)).isNull();
    }

    @Test
    void aMissingTimestampIsRefused() {
        assertThat(HookSignature.timestamp(null, NOW, WINDOW)).isNull();
    }

    @Test
    void secretsAreLongRandomAndPrefixed() {
        Set<String> secrets = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            secrets.add(HookSignature.newSecret());
        }

        assertThat(secrets).hasSize(100).allSatisfy(secret -> {
            assertThat(secret).startsWith(HookSignature.SECRET_PREFIX).matches("jwhook_[A-Za-z0-9_-]{43}");
        });
    }
}
