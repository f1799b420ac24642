package dev.jobweaver.api.quarantine;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * What the quarantine tests share: a copy published to {@code jobweaver-quarantine} as {@code Quarantine.send}
 * publishes one (the original key, value and headers, plus the {@link QuarantineHeaders}), and the review's answers.
 */
final class QuarantinedRecords {

    private static Instant last = Instant.EPOCH;

    private QuarantinedRecords() {
    }

    /** A quarantined copy of a record at {@code topic-partition@offset}, with the original headers {@code headers}. */
    static ProducerRecord<String, byte[]> copy(String topic, int partition, long offset, String key, byte[] value,
                                               String reason, String service, Map<String, byte[]> headers) {
        RecordHeaders all = new RecordHeaders();
        headers.forEach(all::add);
        put(all, QuarantineHeaders.TOPIC, topic);
        put(all, QuarantineHeaders.PARTITION, Integer.toString(partition));
        put(all, QuarantineHeaders.OFFSET, Long.toString(offset));
        put(all, QuarantineHeaders.REASON, reason);
        put(all, QuarantineHeaders.DETAIL, "value is not JSON: Unexpected character");
        put(all, QuarantineHeaders.SERVICE, service);
        put(all, QuarantineHeaders.QUARANTINED_AT, nextInstant().toString());
        return new ProducerRecord<>(Topics.QUARANTINE, null, key, value, all);
    }

    /** A plain copy: UNREADABLE, from jobweaver-scheduler, with one original header. */
    static ProducerRecord<String, byte[]> copy(String topic, long offset, String key) {
        return copy(topic, 0, offset, key, ("{not json " + key).getBytes(StandardCharsets.UTF_8), "UNREADABLE",
                "jobweaver-scheduler", Map.of("eventId", key.getBytes(StandardCharsets.UTF_8)));
    }

    /** Publishes {@code copies} and waits until the review lists each (by its origin topic and key); their ids. */
    @SafeVarargs
    static List<String> publishAndAwait(ProducerRecord<String, byte[]>... copies) {
        KafkaProbe.sendAll(List.of(copies));
        return List.of(copies).stream().map(c -> awaitListed(topicOf(c), c.key())).toList();
    }

    /** The id of the record of origin {@code topic} and key {@code key}, in any state, waiting up to 30 s for it. */
    static String awaitListed(String topic, String key) {
        String[] id = new String[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            id[0] = find(topic, key).map(r -> r.get("id").toString()).orElse(null);
            return id[0] != null;
        });
        return id[0];
    }

    /** The record of origin {@code topic} and key {@code key}, in any state, as the list shows it. */
    static Optional<Map<String, Object>> find(String topic, String key) {
        List<Map<String, Object>> records = list("topic=" + topic + "&state=KEPT,REPLAYED,DISCARDED&size=100")
                .getList("records");
        return records.stream().filter(r -> key.equals(r.get("key"))).findFirst();
    }

    /** {@code GET /api/quarantine?query}, 200. */
    static JsonPath list(String query) {
        return given().get("/api/quarantine?" + query).then().statusCode(200).extract().jsonPath();
    }

    /** Makes {@code topic} (1 partition) unless it exists. */
    static void createTopic(String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                KafkaProbe.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    /** Now, but always a millisecond after the instant before: copies made one after the other list in that order. */
    private static synchronized Instant nextInstant() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        last = now.isAfter(last) ? now : last.plusMillis(1);
        return last;
    }

    private static String topicOf(ProducerRecord<String, byte[]> copy) {
        return new String(copy.headers().lastHeader(QuarantineHeaders.TOPIC).value(), StandardCharsets.UTF_8);
    }

    private static void put(RecordHeaders headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
