package dev.jobweaver.api.notification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Secrets and signatures against the Standard Webhooks reference vector, which this code did not compute. */
class WebhookSignatureTest {

    @Test
    void signsTheStandardWebhooksReferenceVector() {
        String signature = WebhookSignature.sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, "{\"test\": 2432232314}");

        assertThat(signature).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @Test
    void aSignatureChangesWithTheIdTheTimestampAndTheBody() {
        String secret = WebhookSignature.newSecret();
        String base = WebhookSignature.sign(secret, "a", 1, "{}");

        assertThat(WebhookSignature.sign(secret, "b", 1, "{}")).isNotEqualTo(base);
        assertThat(WebhookSignature.sign(secret, "a", 2, "{}")).isNotEqualTo(base);
        assertThat(WebhookSignature.sign(secret, "a", 1, "{ }")).isNotEqualTo(base);
    }

    @Test
    void aNewSecretIsWhsecAndBase64Of32RandomBytes() {
        String first = WebhookSignature.newSecret();
        String second = WebhookSignature.newSecret();

        assertThat(first).startsWith("whsec_");
        assertThat(Base64.getDecoder().decode(first.substring(6))).hasSize(32);
        assertThat(second).isNotEqualTo(first);
    }

    @Test
    void aSecretWithoutItsPrefixIsRefused() {
        assertThatThrownBy(() -> WebhookSignature.sign("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "a", 1, "{}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whsec_");
    }
}
