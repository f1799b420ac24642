package dev.jobweaver.worker.offsets;

import dev.jobweaver.testing.JobWeaverTest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.worker.run.RunDispatcher;
import dev.jobweaver.worker.testing.HeldCalls;
import dev.jobweaver.worker.testing.PrometheusScrape;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The out-of-order commit strategy against the real broker: a slow job holds the commit, not the jobs behind it. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class OutOfOrderCommitHandlerTest extends WorkerKafkaTest {

    /** The slow jobs: each runs until its test has seen what it waits for, then is released. */
    private static HeldCalls held;

    @Inject
    RunDispatcher dispatcher;

    @BeforeAll
    static void startHeldCalls() {
        held = HeldCalls.start();
    }

    @AfterAll
    static void stopHeldCalls() {
        held.close();
    }

    @BeforeEach
    void idle() {
        await().atMost(WAIT).until(() -> dispatcher.running() == 0);
    }

    @Test
    void anOffsetInFlightTooLongIsReportedInHealthMetricsAndThenCleared() {
        int partition = 2;
        RunJobEvent slow = held.job(); // held past the %test stuck threshold of 3 s
        long offset = kafka.send(slow, partition).offset();
        String series = "jobweaver_worker_stuck_offsets";
        String labels = "partition=\"" + partition + "\"";

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(PrometheusScrape.sum(series, labels)).isEqualTo(1.0);
            String detail = readiness().path("data").path("run-job-" + partition).asText();
            assertThat(detail).contains("stuck=[" + offset + "(");
            assertThat(readiness().path("status").asText()).isEqualTo("UP"); // reported, not failing readiness
        });
        held.release(slow);
        await().atMost(WAIT).until(() -> !kafka.outcomes(slow.jobId()).isEmpty());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(PrometheusScrape.sum(series, labels)).isZero();
            assertThat(readiness().path("data").path("run-job-" + partition).asText()).doesNotContain("stuck=");
        });
    }

    private static com.fasterxml.jackson.databind.JsonNode readiness() throws Exception {
        String body = io.restassured.RestAssured.given().get("/q/health/ready").then().extract().asString();
        for (com.fasterxml.jackson.databind.JsonNode check : WorkerKafka.JSON.readTree(body).path("checks")) {
            if (check.path("name").asText().equals("worker-offset-commits")) {
                return check;
            }
        }
        throw new AssertionError("no worker-offset-commits check in " + body);
    }

    @Test
    void fastJobsBehindASlowOneCompleteAtOnceWhileTheCommitWaitsThenAdvancesWithoutANewRecord() {
        int partition = 1;
        RunJobEvent slow = held.job();
        long slowOffset = kafka.send(slow, partition).offset();
        List<RunJobEvent> fast = new ArrayList<>();
        List<Long> fastOffsets = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RunJobEvent run = WorkerKafka.run(new Step.Log("fast " + i + " " + UUID.randomUUID()));
            fast.add(run);
            fastOffsets.add(kafka.send(run, partition).offset());
        }

        // The fast jobs behind the slow one run and publish at once.
        await().atMost(Duration.ofSeconds(10)).until(() -> fast.stream().allMatch(r -> !kafka.outcomes(r.jobId()).isEmpty()));
        assertThat(kafka.outcomes(slow.jobId())).isEmpty();

        // The committed offset stays on the slow record, with the fast ones recorded as completed above it.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            OffsetAndMetadata committed = kafka.committed(partition);
            assertThat(committed).isNotNull();
            assertThat(committed.offset()).isEqualTo(slowOffset);
            assertThat(CompletedOffsetsCodec.decode(committed.metadata()))
                    .hasValueSatisfying(decoded -> assertThat(decoded.completed()).containsAll(fastOffsets));
        });
        assertThat(kafka.outcomes(slow.jobId())).isEmpty(); // still running while the commit waited for it

        // The slow one finishes; the timer commits past everything though no record arrives.
        held.release(slow);
        await().atMost(WAIT).until(() -> !kafka.outcomes(slow.jobId()).isEmpty());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            OffsetAndMetadata committed = kafka.committed(partition);
            assertThat(committed.offset()).isEqualTo(fastOffsets.getLast() + 1);
            assertThat(committed.metadata()).isEmpty();
        });
    }
}
