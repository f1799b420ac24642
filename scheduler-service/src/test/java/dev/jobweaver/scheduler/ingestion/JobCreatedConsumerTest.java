package dev.jobweaver.scheduler.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.QuarantineCounts;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TopicRecorder;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCreatedConsumerTest extends KafkaAndDbTest {

    @Inject
    MeterRegistry registry;

    @Inject
    QuarantineCounts quarantined;

    @Test
    void redeliveredJobCreatedEventChangesNothing() {
        UUID jobId = UUID.randomUUID();
        JobCreatedEvent first = TestJobs.created(jobId, 2, new Step.Log("first"));
        producer.sendJson(Topics.JOB_CREATED, jobId, first);
        JobExecution ingested = db.awaitJob(jobId, j -> true);
        assertThat(ingested.maxRetries()).isEqualTo(2);

        // The same job again, as a redelivery would bring it, but with different content to see any overwrite.
        JobCreatedEvent again = TestJobs.created(jobId, 7, new Step.Log("second"));
        producer.sendJson(Topics.JOB_CREATED, jobId, again);
        // job-created has one partition and is consumed in order: once a later job is stored, the duplicate was seen.
        UUID marker = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, marker, TestJobs.created(marker, 0));
        db.awaitJob(marker, j -> true);

        // The dispatch timer never fires in tests: the job was dispatched at ingestion (or by the wake-up that
        // follows it).
        JobExecution after = db.awaitJob(jobId, JobStatus.RUNNING, 1);
        assertThat(after.maxRetries()).isEqualTo(2);
        assertThat(after.instruction()).contains("first").doesNotContain("second");
        assertThat(after.traceId()).isEqualTo(first.traceId());
        assertThat(after.createdAt()).isEqualTo(first.createdAt().truncatedTo(java.time.temporal.ChronoUnit.MICROS));
        // Exactly one run was dispatched: the duplicate did not put the job back to PENDING.
        recorder.await(Topics.RUN_JOB, jobId, 1);
        assertThat(recorder.records(Topics.RUN_JOB, jobId)).hasSize(1);
        assertThat(registry.get("jobweaver.jobs.ingested.duplicates").counter().count()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void ingestionContinuesTheTraceOfTheRecordAndDispatchCarriesIt() {
        UUID jobId = UUID.randomUUID();
        String traceId = TestJobs.traceId(jobId);
        String apiSpan = "00f067aa0ba902b7";
        producer.send(Topics.JOB_CREATED, jobId, jsonBytes(TestJobs.created(jobId, 0)),
                Map.of(Headers.TRACEPARENT, "00-" + traceId + "-" + apiSpan + "-01"));

        JobExecution job = db.awaitJob(jobId, j -> true);
        assertThat(job.traceId()).isEqualTo(traceId);
        assertThat(job.traceparent()).startsWith("00-" + traceId + "-").endsWith("-01")
                .doesNotContain(apiSpan);

        ConsumerRecord<String, byte[]> run = recorder.await(Topics.RUN_JOB, jobId, 1).getFirst();
        String runTraceparent = TopicRecorder.header(run, Headers.TRACEPARENT);
        assertThat(runTraceparent).as("run-job traceparent").startsWith("00-" + traceId + "-");
        assertThat(value(run, RunJobEvent.class).traceId()).isEqualTo(traceId);
    }

    @Test
    void malformedRecordsAreQuarantinedAndTheNextRecordIsStored() {
        double before = quarantined.total(Topics.JOB_CREATED);
        UUID garbageKey = UUID.randomUUID();
        producer.send(Topics.JOB_CREATED, garbageKey, new byte[] {(byte) 0xde, (byte) 0xad, 0x00, (byte) 0xff},
                Map.of());
        // Valid JSON, but missing the payload: as unusable as garbage.
        producer.send(Topics.JOB_CREATED, garbageKey,
                ("{\"jobId\":\"" + garbageKey + "\",\"jobType\":\"SIMULATION\",\"maxRetries\":1}")
                        .getBytes(StandardCharsets.UTF_8), Map.of());
        // An unknown step action.
        producer.send(Topics.JOB_CREATED, garbageKey,
                ("{\"jobId\":\"" + garbageKey + "\",\"jobType\":\"SIMULATION\",\"maxRetries\":1,"
                        + "\"payload\":{\"steps\":[{\"action\":\"DANCE\"}]}}").getBytes(StandardCharsets.UTF_8),
                Map.of());
        UUID next = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, next, TestJobs.created(next, 0));

        db.awaitJob(next, j -> true);
        assertThat(db.find(garbageKey)).isEmpty();
        // Counted once Kafka acknowledged the copy, a moment after the record behind them may be stored.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(quarantined.total(Topics.JOB_CREATED) - before).isEqualTo(3.0));
    }
}
