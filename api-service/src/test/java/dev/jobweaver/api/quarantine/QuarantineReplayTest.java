package dev.jobweaver.api.quarantine;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/quarantine/{id}/replay}: the original key, value and headers (without the quarantine's own) are
 * published to the origin topic again, read back by a Kafka probe, and the record is REPLAYED, never replayed twice; a
 * record Kafka does not take in time is a 503 with Retry-After and stays KEPT; one without an origin is a 409.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class QuarantineReplayTest {

    @Test
    void theOriginalBytesAndHeadersGoBackOnTheirTopicOnce() throws Exception {
        String topic = "qr-" + UUID.randomUUID();
        QuarantinedRecords.createTopic(topic);
        String key = UUID.randomUUID().toString();
        byte[] value = {'{', 0, (byte) 0xc3, (byte) 0x28, '}'};
        Map<String, byte[]> headers = new LinkedHashMap<>();
        headers.put("eventId", "e-42".getBytes(StandardCharsets.UTF_8));
        headers.put("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
                .getBytes(StandardCharsets.UTF_8));
        headers.put("binary", new byte[] {0, 1, 2, (byte) 0xff});
        String id = QuarantinedRecords.publishAndAwait(QuarantinedRecords.copy(topic, 0, 9, key, value,
                "UNREADABLE", "jobweaver-scheduler", headers)).getFirst();

        try (KafkaProbe probe = KafkaProbe.atEndOf(topic)) {
            given().post("/api/quarantine/" + id + "/replay").then().statusCode(202)
                    .body("id", equalTo(id))
                    .body("state", equalTo("REPLAYED"))
                    .body("stateChangedAt", notNullValue())
                    .body("stateChangedBy", notNullValue());

            ConsumerRecord<String, byte[]> replayed = probe.first(key);
            assertThat(replayed.value()).isEqualTo(value);
            List<Header> back = List.of(replayed.headers().toArray());
            assertThat(back).extracting(Header::key).as("the original headers, in order, and no others")
                    .containsExactly("eventId", "traceparent", "binary");
            for (Header header : back) {
                assertThat(header.value()).as(header.key()).isEqualTo(headers.get(header.key()));
            }

            given().post("/api/quarantine/" + id + "/replay").then().statusCode(409)
                    .body("errorCode", equalTo("API.QUARANTINED_RECORD_NOT_KEPT"))
                    .body("message", containsString("REPLAYED"));
            given().post("/api/quarantine/" + id + "/discard").then().statusCode(409)
                    .body("errorCode", equalTo("API.QUARANTINED_RECORD_NOT_KEPT"));
            assertThat(probe.readToEnd()).as("replayed once").hasSize(1);
        }
        assertThat(QuarantinedRecords.list("topic=" + topic + "&state=REPLAYED").getList("records.id"))
                .containsExactly(id);
    }

    @Test
    void aRecordKafkaDoesNotTakeInTimeIsA503AndStaysKept() {
        // no such topic, and the broker creates none: the producer waits for its metadata until it gives up
        String topic = "qr-missing-" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        String id = QuarantinedRecords.publishAndAwait(QuarantinedRecords.copy(topic, 3, key)).getFirst();

        given().post("/api/quarantine/" + id + "/replay").then().statusCode(503)
                .header("Retry-After", notNullValue())
                .body("errorCode", equalTo("API.SERVICE_UNAVAILABLE"))
                .body("message", containsString("Kafka"));
        assertThat(QuarantinedRecords.find(topic, key).orElseThrow()).containsEntry("state", "KEPT")
                .doesNotContainKey("stateChangedAt");
    }

    @Test
    void aRecordWithoutAnOriginIsNotReplayable() {
        String key = UUID.randomUUID().toString();
        KafkaProbe.send(Topics.QUARANTINE, key, "stray".getBytes(StandardCharsets.UTF_8));
        String id = QuarantinedRecords.awaitListed(Topics.QUARANTINE, key);

        given().post("/api/quarantine/" + id + "/replay").then().statusCode(409)
                .body("errorCode", equalTo("API.QUARANTINED_RECORD_NOT_REPLAYABLE"));
        given().post("/api/quarantine/" + id + "/discard").then().statusCode(200)
                .body("state", equalTo("DISCARDED"));
    }
}
