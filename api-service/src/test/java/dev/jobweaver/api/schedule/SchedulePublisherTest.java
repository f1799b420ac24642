package dev.jobweaver.api.schedule;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.Schedules;
import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Every change of a schedule puts its timing on {@code schedules}, keyed by its id, with a higher version each time, and
 * records the acknowledged version in its row; a delete puts a tombstone there, then the row goes.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class SchedulePublisherTest {

    @Inject
    ObjectMapper mapper;

    @Test
    void everyChangeIsPublishedWithAHigherVersionAndADeleteWithATombstone() throws Exception {
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.SCHEDULES)) {
            String id = Schedules.createOne("""
                    {"name":"p","interval":"PT5M","tenant":"pub","misfire":"SKIP","job":%s}""".formatted(Jobs.VALID))
                    .getString("id");
            ScheduleEvent created = awaitVersion(probe, id, 1);
            assertThat(created.scheduleId()).hasToString(id);
            assertThat(created.interval()).isEqualTo("PT5M");
            assertThat(created.cron()).isNull();
            assertThat(created.timezone()).isEqualTo("UTC");
            assertThat(created.anchor()).isNotNull();
            assertThat(created.misfire()).isEqualTo(Misfire.SKIP);
            assertThat(created.overlap()).isEqualTo(Overlap.ALLOW);
            assertThat(created.paused()).isFalse();
            assertThat(created.tenant()).isEqualTo("pub");
            await().atMost(Duration.ofSeconds(20)).until(() -> publishedVersion(id) == 1);

            given().contentType(ContentType.JSON).body("""
                    {"name":"p","cron":"0 3 * * *","timezone":"Europe/Amsterdam","tenant":"pub","job":%s}"""
                    .formatted(Jobs.VALID)).put("/api/schedules/" + id).then().statusCode(200);
            ScheduleEvent replaced = awaitVersion(probe, id, 2);
            assertThat(replaced.cron()).isEqualTo("0 3 * * *");
            assertThat(replaced.interval()).isNull();
            assertThat(replaced.timezone()).isEqualTo("Europe/Amsterdam");

            given().post("/api/schedules/" + id + "/pause").then().statusCode(200);
            assertThat(awaitVersion(probe, id, 3).paused()).isTrue();
            given().post("/api/schedules/" + id + "/resume").then().statusCode(200);
            assertThat(awaitVersion(probe, id, 4).paused()).isFalse();
            await().atMost(Duration.ofSeconds(20)).until(() -> publishedVersion(id) == 4);

            given().delete("/api/schedules/" + id).then().statusCode(204);
            List<ConsumerRecord<String, byte[]>> records = probe.pollUntil(
                    seen -> seen.stream().anyMatch(r -> id.equals(r.key()) && r.value() == null),
                    Duration.ofSeconds(20));
            List<ConsumerRecord<String, byte[]>> mine = records.stream().filter(r -> id.equals(r.key())).toList();
            assertThat(mine.getLast().value()).as("the tombstone comes last").isNull();
            assertThat(KafkaProbe.header(mine.getFirst(), Headers.EVENT_ID)).isNotBlank();
            List<Long> versions = mine.stream().filter(r -> r.value() != null).map(r -> read(r).version()).toList();
            assertThat(versions).as("increasing, each change once at least").isSorted().contains(1L, 2L, 3L, 4L);
            await("the row goes once its tombstone is acknowledged").atMost(Duration.ofSeconds(20))
                    .until(() -> !rowExists(id));
        }
    }

    private ScheduleEvent awaitVersion(KafkaProbe probe, String id, long version) {
        List<ConsumerRecord<String, byte[]>> records = probe.pollUntil(seen -> seen.stream()
                .anyMatch(r -> id.equals(r.key()) && r.value() != null && read(r).version() == version),
                Duration.ofSeconds(20));
        return records.stream().filter(r -> id.equals(r.key()) && r.value() != null).map(this::read)
                .filter(e -> e.version() == version).findFirst()
                .orElseThrow(() -> new AssertionError("version " + version + " of " + id + " was not published"));
    }

    private ScheduleEvent read(ConsumerRecord<String, byte[]> record) {
        try {
            return mapper.readValue(record.value(), ScheduleEvent.class);
        } catch (Exception e) {
            throw new AssertionError("not a ScheduleEvent", e);
        }
    }

    static long publishedVersion(String id) throws Exception {
        return Database.firstLong("SELECT published_version FROM schedules WHERE id = ?", UUID.fromString(id));
    }

    static boolean rowExists(String id) throws Exception {
        return Database.hasRow("SELECT 1 FROM schedules WHERE id = ?", UUID.fromString(id));
    }
}
