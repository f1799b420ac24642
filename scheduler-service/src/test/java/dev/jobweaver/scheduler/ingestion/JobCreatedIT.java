package dev.jobweaver.scheduler.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.scheduler.testing.ExecutableTest;
import dev.jobweaver.scheduler.testing.PoisonRecords.BadRecords;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TopicRecorder;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A job submitted on {@code job-created} goes through the native executable's PostgreSQL to a run on {@code run-job}
 * (its eventId derived from the attempt, its trace continued from the record's {@code traceparent}) and a RUNNING
 * status on {@code job-status}; an HTTP job's payload and a job's control fields travel with its run; records that
 * cannot be jobs go to {@code jobweaver-quarantine} and hold back none behind them.
 */
@QuarkusIntegrationTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCreatedIT extends ExecutableTest {

    @Test
    void anHttpJobWithControlFieldsIsDispatchedWithThem() {
        HttpCallPayload http = new HttpCallPayload("POST", "https://example.invalid/hook", Map.of("X-A", "b"), "{}",
                List.of(200, 201), 5_000L);
        JobControl control = new JobControl(Priority.HIGH, null, 60_000L, List.of(1_000L), "native-it",
                Map.of("suite", "native"));
        UUID jobId = UUID.randomUUID();
        JobCreatedEvent job = new JobCreatedEvent(jobId, JobType.HTTP, Payloads.tree(http), 0,
                TestJobs.traceId(jobId), Instant.now(), control);

        RunJobEvent run = submitAndAwaitRun(job);

        assertThat(run.jobType()).isEqualTo(JobType.HTTP);
        assertThat(Payloads.http(run.payload())).isEqualTo(http);
        assertThat(run.control().priority()).isEqualTo(Priority.HIGH);
        assertThat(run.control().timeoutMs()).isEqualTo(60_000L);
        assertThat(run.control().tenant()).isEqualTo("native-it");
        assertThat(run.control().labels()).containsEntry("suite", "native");
    }

    @Test
    void aSubmittedJobIsDispatchedOnRunJobInTheTraceOfItsRecord() {
        UUID jobId = UUID.randomUUID();
        String traceId = TestJobs.traceId(jobId);
        JobCreatedEvent job = TestJobs.created(jobId, 1, new Step.Log("native"));
        producer.send(Topics.JOB_CREATED, jobId, jsonBytes(job),
                Map.of(Headers.TRACEPARENT, "00-" + traceId + "-00f067aa0ba902b7-01"));

        ConsumerRecord<String, byte[]> record = recorder.await(Topics.RUN_JOB, jobId, 1).getFirst();
        RunJobEvent run = value(record, RunJobEvent.class);
        assertThat(run.jobId()).isEqualTo(jobId);
        assertThat(run.attempt()).isEqualTo(1);
        assertThat(run.eventId()).isEqualTo(EventIds.runEventId(jobId, 1));
        assertThat(run.jobType()).isEqualTo(JobType.SIMULATION);
        assertThat(run.payload()).isEqualTo(job.payload());
        assertThat(run.traceId()).isEqualTo(traceId);
        assertThat(run.leaseUntil()).isAfter(run.dispatchedAt());
        assertThat(record.key()).isEqualTo(jobId.toString());
        assertThat(TopicRecorder.header(record, Headers.EVENT_ID)).isEqualTo(run.eventId().toString());
        assertThat(TopicRecorder.header(record, Headers.TRACEPARENT)).startsWith("00-" + traceId + "-");

        List<JobStatusChangedEvent> statuses = awaitStatuses(jobId, 1);
        assertThat(statuses.getFirst().status()).isEqualTo(JobStatus.RUNNING);
        assertThat(statuses.getFirst().version()).isEqualTo(1);
        assertThat(statuses.getFirst().attempts()).isEqualTo(1);
        assertThat(statuses.getFirst().maxRetries()).isEqualTo(1);
    }

    @Test
    void recordsThatCannotBeJobsAreQuarantinedAndTheJobBehindThemIsDispatched() {
        UUID bad = UUID.randomUUID();
        JobCreatedEvent longTrace = new JobCreatedEvent(bad, JobType.SIMULATION,
                new JobPayload(List.of(new Step.Log("x"))), 0, "0af7651916cd43dd".repeat(7), Instant.now());
        BadRecords sent = BadRecords.produce(producer, Topics.JOB_CREATED, bad, jsonBytes(longTrace),
                jsonBytes(TestJobs.created(UUID.randomUUID(), 0)));
        UUID good = UUID.randomUUID();
        producer.sendRaw(Topics.JOB_CREATED, 1, good.toString(), jsonBytes(TestJobs.created(good, 0)));

        awaitRun(good, 1);
        sent.assertQuarantined(bootstrapServers(), "traceId must be 32 lower-case hex characters", "must be its jobId");
        assertThat(recorder.records(Topics.RUN_JOB, bad)).isEmpty();
    }
}
