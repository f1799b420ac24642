package dev.jobweaver.api.quarantine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * jobweaver-quarantine into {@code quarantined_records}, from the real broker: a copy is stored with its origin,
 * reason, service, size and its bytes as they came; a redelivered copy stores one row; a record without the quarantine
 * headers is stored as its own origin; a record a real consumer of the API set aside is stored.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class QuarantineConsumerTest {

    @Test
    void aCopyIsStoredWithItsOriginReasonServiceSizeAndBytes() throws Exception {
        String topic = "qc-" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        byte[] value = {'{', 0, (byte) 0xff, 'x'}; // a NUL and a byte that is no UTF-8: kept all the same
        String id = QuarantinedRecords.publishAndAwait(QuarantinedRecords.copy(topic, 2, 17, key, value,
                "UNPROCESSABLE", "jobweaver-worker", Map.of("eventId", "e-1".getBytes(StandardCharsets.UTF_8))))
                .getFirst();

        Map<String, Object> listed = QuarantinedRecords.find(topic, key).orElseThrow();
        assertThat(listed).containsEntry("id", id).containsEntry("topic", topic).containsEntry("partition", 2)
                .containsEntry("offset", 17).containsEntry("reason", "UNPROCESSABLE")
                .containsEntry("service", "jobweaver-worker").containsEntry("size", 4).containsEntry("state", "KEPT")
                .containsEntry("detail", "value is not JSON: Unexpected character");
        assertThat(Instant.parse((String) listed.get("quarantinedAt"))).isBefore(Instant.now().plusSeconds(1));
        assertThat(listed).doesNotContainKeys("stateChangedAt", "stateChangedBy");
        try (Connection db = Database.connect(); PreparedStatement read = db.prepareStatement(
                "SELECT raw_key, raw_value FROM quarantined_records WHERE id = ?")) {
            read.setObject(1, UUID.fromString(id));
            try (ResultSet row = read.executeQuery()) {
                assertThat(row.next()).isTrue();
                assertThat(row.getBytes(1)).isEqualTo(key.getBytes(StandardCharsets.UTF_8));
                assertThat(row.getBytes(2)).isEqualTo(value);
            }
        }
    }

    @Test
    void aRedeliveredCopyIsStoredOnce() throws Exception {
        String topic = "qc-" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        String behind = UUID.randomUUID().toString();
        ProducerRecord<String, byte[]> copy = QuarantinedRecords.copy(topic, 5, key);
        // the same copy twice, then another behind them on the one partition: once that one is stored, so are they
        KafkaProbe.sendAll(List.of(copy, copy));
        QuarantinedRecords.publishAndAwait(QuarantinedRecords.copy(topic, 6, behind));

        assertThat(QuarantinedRecords.list("topic=" + topic).getLong("totalElements")).isEqualTo(2);
        assertThat(Database.firstLong("SELECT count(*) FROM quarantined_records WHERE origin_topic = ?"
                + " AND origin_offset = 5", topic)).isEqualTo(1);
    }

    @Test
    void aRecordWithoutTheQuarantineHeadersIsStoredAsItsOwnOrigin() {
        String key = UUID.randomUUID().toString();
        KafkaProbe.send(Topics.QUARANTINE, key, "stray".getBytes(StandardCharsets.UTF_8));

        String id = QuarantinedRecords.awaitListed(Topics.QUARANTINE, key);
        Map<String, Object> listed = QuarantinedRecords.find(Topics.QUARANTINE, key).orElseThrow();
        assertThat(listed).containsEntry("id", id).containsEntry("reason", "UNKNOWN")
                .containsEntry("service", "UNKNOWN").containsEntry("size", 5).containsEntry("state", "KEPT");
        assertThat((String) listed.get("detail")).startsWith("no origin");
    }

    @Test
    void aRecordARealConsumerSetAsideIsStored() {
        String key = UUID.randomUUID().toString();
        KafkaProbe.send(Topics.JOB_DEAD_LETTER, key, "{not json".getBytes(StandardCharsets.UTF_8));

        await().atMost(Duration.ofSeconds(30)).until(() ->
                QuarantinedRecords.find(Topics.JOB_DEAD_LETTER, key).isPresent());
        Map<String, Object> listed = QuarantinedRecords.find(Topics.JOB_DEAD_LETTER, key).orElseThrow();
        assertThat(listed).containsEntry("reason", "UNREADABLE").containsEntry("service", "jobweaver-api")
                .containsEntry("size", 9).containsEntry("state", "KEPT");
    }
}
