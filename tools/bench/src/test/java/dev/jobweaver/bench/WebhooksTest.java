package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The receiver's signature check against vectors computed elsewhere: the example of the Standard Webhooks
 * specification, and one made with Python's {@code hmac} module for a body as the platform sends it.
 */
class WebhooksTest {

    /** The specification's example: its secret, message id, timestamp, payload and signature. */
    private static final String SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final String SPEC_TIMESTAMP = "1614265330";
    private static final byte[] SPEC_BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    private static final String SPEC_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    /** {@code base64.b64encode(hmac.new(key, b"msg_2z9.1767225600." + body, hashlib.sha256).digest())}. */
    private static final String SECRET = "whsec_am9id2VhdmVyLWJlbmNoLXRlc3Qta2V5LTMyYnl0ZXM=";
    private static final byte[] BODY = ("{\"type\":\"job.completed\",\"timestamp\":\"2026-01-01T00:00:00.120Z\","
            + "\"jobId\":\"6f1c1a52-3c55-4d4e-9f0e-2d5f7b9a0c11\",\"jobType\":\"SIMULATION\",\"status\":\"COMPLETED\","
            + "\"finishedAt\":\"2026-01-01T00:00:00.100Z\"}").getBytes(StandardCharsets.UTF_8);
    private static final String SIGNATURE = "v1,c2tAeMsJ9MHSgtziBRE2maJm6QarM6rC0Ebm3Q7nr1Q=";

    @Test
    void theSpecificationsExampleHolds() {
        byte[] key = Webhooks.key(SPEC_SECRET);
        assertThat(Webhooks.verify(key, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY, SPEC_SIGNATURE)).isTrue();
        assertThat(Webhooks.sign(key, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY)).isEqualTo(SPEC_SIGNATURE);
    }

    @Test
    void aCompletionSignedElsewhereHolds() {
        assertThat(Webhooks.verify(Webhooks.key(SECRET), "msg_2z9", "1767225600", BODY, SIGNATURE)).isTrue();
        assertThat(Webhooks.key(SECRET)).asString(StandardCharsets.US_ASCII)
                .isEqualTo("jobweaver-bench-test-key-32bytes");
    }

    @Test
    void aWrongSignatureFails() {
        byte[] key = Webhooks.key(SECRET);
        assertThat(Webhooks.verify(key, "msg_2z9", "1767225600", BODY,
                "v1,d2tAeMsJ9MHSgtziBRE2maJm6QarM6rC0Ebm3Q7nr1Q=")).as("one character off").isFalse();
        assertThat(Webhooks.verify(key, "msg_2z9", "1767225601", BODY, SIGNATURE)).as("another timestamp").isFalse();
        assertThat(Webhooks.verify(key, "msg_2z8", "1767225600", BODY, SIGNATURE)).as("another id").isFalse();
        byte[] altered = BODY.clone();
        altered[altered.length - 3]++;
        assertThat(Webhooks.verify(key, "msg_2z9", "1767225600", altered, SIGNATURE)).as("another body").isFalse();
        assertThat(Webhooks.verify(Webhooks.key(SPEC_SECRET), "msg_2z9", "1767225600", BODY, SIGNATURE))
                .as("another subscription's secret").isFalse();
        assertThat(Webhooks.verify(key, "msg_2z9", "1767225600", BODY, SIGNATURE.replace("v1,", "v2,")))
                .as("a version the bench does not know").isFalse();
        assertThat(Webhooks.verify(key, "msg_2z9", "1767225600", BODY, "v1,not-base64!")).isFalse();
        assertThat(Webhooks.verify(key, "msg_2z9", "1767225600", BODY, null)).isFalse();
    }

    @Test
    void anyOfSeveralSignaturesMayHold() {
        // a sender rotating its secret signs with both: the header lists the signatures space-separated
        assertThat(Webhooks.verify(Webhooks.key(SECRET), "msg_2z9", "1767225600", BODY,
                "v1,AAAA " + SIGNATURE + " v1a,xyz")).isTrue();
    }

    @Test
    void aSecretIsBase64AfterItsPrefix() {
        assertThat(Webhooks.key("am9id2VhdmVyLWJlbmNoLXRlc3Qta2V5LTMyYnl0ZXM=")).isEqualTo(Webhooks.key(SECRET));
        assertThat(Webhooks.key("whsec_*not base64*")).isNull();
        assertThat(Webhooks.key("whsec_")).isNull();
        assertThat(Webhooks.key(null)).isNull();
        assertThat(Webhooks.verify(null, "msg_2z9", "1767225600", BODY, SIGNATURE)).isFalse();
    }
}
