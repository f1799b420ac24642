package dev.jobweaver.api.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.notification.WebhookSignature;
import dev.jobweaver.testing.WebhookReceiver;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The test receiver's own Standard Webhooks check accepts what the sender signs and refuses a tampered delivery or one
 * more than 5 minutes off: the two implementations agree without sharing code.
 */
class WebhookReceiverTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @Test
    void acceptsWhatTheSenderSigns() {
        long now = Instant.now().getEpochSecond();
        String signature = WebhookSignature.sign(SECRET, "id-1", now, "{\"a\":1}");

        assertThat(WebhookReceiver.verify(SECRET, "id-1", Long.toString(now), signature, "{\"a\":1}")).isNull();
        assertThat(WebhookReceiver.verify(SECRET, "id-1", Long.toString(now), "v1,bm9wZQ== " + signature,
                "{\"a\":1}")).as("one of several signatures matches").isNull();
    }

    @Test
    void refusesATamperedBodyIdOrSecret() {
        long now = Instant.now().getEpochSecond();
        String signature = WebhookSignature.sign(SECRET, "id-1", now, "{\"a\":1}");

        assertThat(WebhookReceiver.verify(SECRET, "id-1", Long.toString(now), signature, "{\"a\":2}")).isNotNull();
        assertThat(WebhookReceiver.verify(SECRET, "id-2", Long.toString(now), signature, "{\"a\":1}")).isNotNull();
        assertThat(WebhookReceiver.verify(WebhookSignature.newSecret(), "id-1", Long.toString(now), signature,
                "{\"a\":1}")).isNotNull();
        assertThat(WebhookReceiver.verify(SECRET, "id-1", Long.toString(now), null, "{\"a\":1}")).isNotNull();
    }

    @Test
    void refusesATimestampMoreThanFiveMinutesOff() {
        long old = Instant.now().getEpochSecond() - 301;
        String signature = WebhookSignature.sign(SECRET, "id-1", old, "{}");

        assertThat(WebhookReceiver.verify(SECRET, "id-1", Long.toString(old), signature, "{}"))
                .contains("5 minutes");
    }
}
