package dev.jobweaver.api.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.DeadLetters;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.PerClassSettings;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * POST /api/dead-letters/requeue: the OPEN dead letters a filter (tenant, type, failure window) matches are requeued,
 * newest failure first, at most limit of them, each with one REQUEUE on job-commands; workflow nodes' jobs are left
 * OPEN and counted as skipped; DISCARDED ones are never touched.
 */
@QuarkusTest
@TestProfile(PerClassSettings.class)
@JobWeaverTest(database = "jobweaver_api")
class DeadLetterBulkRequeueTest {

    @Inject
    ObjectMapper mapper;

    @Test
    void theFilterAndLimitChooseWhatIsRequeuedAndNodesAreSkipped() throws Exception {
        String tenant = DeadLetters.newTenant();
        Instant base = Instant.now().minusSeconds(3600).truncatedTo(ChronoUnit.SECONDS);
        List<String> stored = DeadLetters.storeOpen(tenant, base, Duration.ofSeconds(10),
                "SIMULATION", "HTTP", "SIMULATION", "SIMULATION", "SIMULATION", "SIMULATION");
        String oldest = stored.get(0);
        String http = stored.get(1);
        String middle = stored.get(2);
        String newest = stored.get(3);
        String node = stored.get(4);
        DeadLetters.makeNode(node);
        String discarded = stored.get(5);
        assertThat(DeadLetters.discard(discarded, "{\"reason\":\"gone\"}").statusCode()).isEqualTo(200);
        String otherTenant = DeadLetters.storeOpen(base.plusSeconds(30));

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            JsonPath byType = accepted(DeadLetters.requeueAll("{\"tenant\":\"%s\",\"jobType\":\"SIMULATION\","
                    .formatted(tenant) + "\"limit\":2}"));
            assertThat(byType.getInt("requeued")).isEqualTo(2);
            assertThat(byType.getList("jobIds")).containsExactly(newest, middle);
            assertThat(byType.getLong("skipped")).as("the node's job").isEqualTo(1);

            JsonPath byWindow = accepted(DeadLetters.requeueAll(
                    "{\"tenant\":\"%s\",\"failedAfter\":\"%s\",\"failedBefore\":\"%s\"}"
                            .formatted(tenant, base.plusSeconds(5), base.plusSeconds(15))));
            assertThat(byWindow.getList("jobIds")).containsExactly(http);
            assertThat(byWindow.getLong("skipped")).isZero();

            JsonPath rest = accepted(DeadLetters.requeueAll("{\"tenant\":\"%s\"}".formatted(tenant)));
            assertThat(rest.getList("jobIds")).containsExactly(oldest);
            assertThat(rest.getLong("skipped")).isEqualTo(1);

            JsonPath none = accepted(DeadLetters.requeueAll("{\"tenant\":\"%s\"}".formatted(tenant)));
            assertThat(none.getInt("requeued")).isZero();
            assertThat(none.getList("jobIds")).isEmpty();

            Map<String, Instant> expectedFailures = Map.of(newest, base.plusSeconds(30), middle, base.plusSeconds(20),
                    http, base.plusSeconds(10), oldest, base);
            Set<String> expected = expectedFailures.keySet();
            List<ConsumerRecord<String, byte[]>> seen = probe.pollUntil(records -> records.stream()
                    .map(ConsumerRecord::key).collect(Collectors.toSet()).containsAll(expected),
                    Duration.ofSeconds(20));
            probe.readToEnd();
            for (String jobId : expected) {
                List<ConsumerRecord<String, byte[]>> commands = probe.withKey(jobId);
                assertThat(commands).as("commands of %s", jobId).hasSize(1);
                JobCommandEvent event = mapper.readValue(commands.getFirst().value(), JobCommandEvent.class);
                assertThat(event.command()).isEqualTo(JobCommand.REQUEUE);
                assertThat(event.payload()).isNull();
                assertThat(event.maxRetryCount()).isNull();
                assertThat(event.failedAt()).as("the failure it requeues").isEqualTo(expectedFailures.get(jobId));
            }
            assertThat(seen.stream().map(ConsumerRecord::key)).doesNotContain(node, discarded, otherTenant);
        }
        for (String jobId : List.of(newest, middle, http, oldest)) {
            assertThat(DeadLetters.row(jobId).get("state")).as(jobId).isEqualTo("REQUEUED");
        }
        assertThat(DeadLetters.row(node).get("state")).isEqualTo("OPEN");
        assertThat(DeadLetters.row(discarded).get("state")).isEqualTo("DISCARDED");
        assertThat(DeadLetters.row(otherTenant).get("state")).isEqualTo("OPEN");
    }

    @Test
    void withoutALimitAHundredAreRequeued() throws Exception {
        String tenant = DeadLetters.newTenant();
        Instant base = Instant.now().minusSeconds(600);
        for (int i = 0; i < 101; i++) {
            DeadLetters.store(java.util.UUID.randomUUID().toString(), tenant, "SIMULATION", base.plusMillis(i), null);
        }

        JsonPath first = accepted(DeadLetters.requeueAll("{\"tenant\":\"%s\"}".formatted(tenant)));
        assertThat(first.getInt("requeued")).isEqualTo(100);
        assertThat(first.getList("jobIds")).hasSize(100).doesNotHaveDuplicates();
        JsonPath second = accepted(DeadLetters.requeueAll("{\"tenant\":\"%s\"}".formatted(tenant)));
        assertThat(second.getInt("requeued")).isEqualTo(1);
    }

    private static JsonPath accepted(Response response) {
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(202);
        return response.jsonPath();
    }
}
