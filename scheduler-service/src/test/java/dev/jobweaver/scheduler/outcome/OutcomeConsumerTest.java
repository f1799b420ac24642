package dev.jobweaver.scheduler.outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import dev.jobweaver.scheduler.job.JobEventPublisher;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.QuarantineCounts;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TopicRecorder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class OutcomeConsumerTest extends KafkaAndDbTest {

    @Inject
    Dispatcher dispatcher;

    @Inject
    MeterRegistry registry;

    @Inject
    QuarantineCounts quarantined;

    @Test
    void completedOutcomeCompletesTheJob() {
        UUID jobId = runningJob(0);
        producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 1));

        JobExecution done = db.awaitJob(jobId, j -> j.status() == JobStatus.COMPLETED);
        assertThat(done.version()).isEqualTo(2);
        assertThat(done.finishedAt()).isNotNull();
        assertThat(done.leaseUntil()).isNull();
        assertThat(awaitStatuses(jobId, 2)).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.COMPLETED);
        assertThat(recorder.records(Topics.JOB_DEAD_LETTER, jobId)).isEmpty();
    }

    @Test
    void failuresFollowTheExactBackoffScheduleThenDeadLetter() {
        UUID jobId = runningJob(3);
        Duration[] expectedDelays = {Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20)};

        for (int retry = 0; retry < 3; retry++) {
            int attempt = retry + 1;
            producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, attempt, "boom " + attempt));
            int retries = retry + 1;
            JobExecution pending = db.awaitJob(jobId, j -> j.status() == JobStatus.PENDING && j.retryCount() == retries);
            assertThat(Duration.between(pending.updatedAt(), pending.nextRunAt()))
                    .as("delay before retry %d", retries).isEqualTo(expectedDelays[retry]);
            assertThat(pending.lastError()).isEqualTo("boom " + attempt);
            assertThat(pending.attempt()).isEqualTo(attempt);

            // Fast-forward the backoff instead of waiting for it.
            assertThat(db.makeDue(jobId)).isEqualTo(1);
            dispatcher.wake();
            db.awaitJob(jobId, JobStatus.RUNNING, attempt + 1);
        }
        producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, 4, "boom 4"));

        JobExecution failed = db.awaitJob(jobId, j -> j.status() == JobStatus.FAILED);
        assertThat(failed.retryCount()).isEqualTo(3);
        assertThat(failed.attempt()).isEqualTo(4);
        DeadLetterEvent deadLetter = value(recorder.await(Topics.JOB_DEAD_LETTER, jobId, 1).getFirst(),
                DeadLetterEvent.class);
        assertThat(deadLetter.jobId()).isEqualTo(jobId);
        assertThat(deadLetter.reason()).isEqualTo("boom 4");
        assertThat(deadLetter.finalRetryCount()).isEqualTo(3);
        assertThat(deadLetter.traceId()).isEqualTo(TestJobs.traceId(jobId));
        assertThat(deadLetter.failedAt()).isEqualTo(failed.finishedAt());

        List<JobStatusChangedEvent> statuses = awaitStatuses(jobId, 8);
        assertThat(statuses).extracting(JobStatusChangedEvent::status).containsExactly(
                JobStatus.RUNNING, JobStatus.PENDING, JobStatus.RUNNING, JobStatus.PENDING,
                JobStatus.RUNNING, JobStatus.PENDING, JobStatus.RUNNING, JobStatus.FAILED);
        assertThat(statuses).extracting(JobStatusChangedEvent::version).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
        assertThat(statuses.get(1).nextRunAt()).isEqualTo(statuses.get(1).changedAt().plusSeconds(5));
        assertThat(statuses.get(7).lastError()).isEqualTo("boom 4");

        List<ConsumerRecord<String, byte[]>> runs = recorder.await(Topics.RUN_JOB, jobId, 4);
        assertThat(runs).hasSize(4);
        for (int i = 0; i < 4; i++) {
            RunJobEvent run = value(runs.get(i), RunJobEvent.class);
            assertThat(run.attempt()).isEqualTo(i + 1);
            assertThat(TopicRecorder.header(runs.get(i), Headers.EVENT_ID))
                    .isEqualTo(EventIds.runEventId(jobId, i + 1).toString());
        }
    }

    @Test
    void staleOutcomesAreIgnored() {
        double staleFailedBefore = count("jobweaver.outcomes.stale", Topics.JOB_FAILED);
        double staleCompletedBefore = count("jobweaver.outcomes.stale", Topics.JOB_COMPLETED);
        UUID jobId = runningJob(1);

        // A failure for an attempt that was never dispatched, and one whose eventId is not attempt 1's.
        producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, 2, "from the future"));
        var wrongEventId = TestJobs.failed(jobId, 1, "not this run");
        producer.sendJson(Topics.JOB_FAILED, jobId, new dev.jobweaver.common.event.JobFailedEvent(UUID.randomUUID(),
                jobId, 1, wrongEventId.traceId(), wrongEventId.errorMessage(), wrongEventId.startedAt(),
                wrongEventId.failedAt(), "test-worker"));
        // Same key, same partition, consumed in order: once this one is applied, the two above were judged.
        producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, 1, "real failure"));
        JobExecution pending = db.awaitJob(jobId, j -> j.status() == JobStatus.PENDING);
        assertThat(pending.version()).isEqualTo(2);
        assertThat(pending.retryCount()).isEqualTo(1);
        assertThat(pending.lastError()).isEqualTo("real failure");
        // Counted after the commit that the row shows, so possibly a moment after the row is visible.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(count("jobweaver.outcomes.stale", Topics.JOB_FAILED) - staleFailedBefore).isEqualTo(2.0));

        db.makeDue(jobId);
        dispatcher.wake();
        db.awaitJob(jobId, JobStatus.RUNNING, 2);
        // A late success of attempt 1 must not complete attempt 2.
        producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 1));
        producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 2));
        JobExecution done = db.awaitJob(jobId, j -> j.status() == JobStatus.COMPLETED);
        assertThat(done.version()).isEqualTo(4);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(count("jobweaver.outcomes.stale", Topics.JOB_COMPLETED) - staleCompletedBefore)
                        .isEqualTo(1.0));
        assertThat(awaitStatuses(jobId, 4)).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.PENDING, JobStatus.RUNNING, JobStatus.COMPLETED);
    }

    @Test
    void redeliveredOutcomeRepublishesTheCurrentStatusWithTheSameVersion() {
        UUID completed = runningJob(0);
        producer.sendJson(Topics.JOB_COMPLETED, completed, TestJobs.completed(completed, 1));
        db.awaitJob(completed, j -> j.status() == JobStatus.COMPLETED);
        producer.sendJson(Topics.JOB_COMPLETED, completed, TestJobs.completed(completed, 1));
        List<JobStatusChangedEvent> statuses = awaitStatuses(completed, 3);
        assertThat(statuses).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.COMPLETED, JobStatus.COMPLETED);
        assertThat(statuses.get(2)).isEqualTo(statuses.get(1));
        assertThat(db.get(completed).version()).isEqualTo(2);

        UUID failed = runningJob(0);
        producer.sendJson(Topics.JOB_FAILED, failed, TestJobs.failed(failed, 1, "broken"));
        db.awaitJob(failed, j -> j.status() == JobStatus.FAILED);
        producer.sendJson(Topics.JOB_FAILED, failed, TestJobs.failed(failed, 1, "broken"));
        List<ConsumerRecord<String, byte[]>> deadLetters = recorder.await(Topics.JOB_DEAD_LETTER, failed, 2);
        assertThat(TopicRecorder.header(deadLetters.get(1), Headers.EVENT_ID))
                .isEqualTo(TopicRecorder.header(deadLetters.get(0), Headers.EVENT_ID))
                .isEqualTo(JobEventPublisher.deadLetterEventId(failed, 2).toString());
        assertThat(value(deadLetters.get(1), DeadLetterEvent.class))
                .isEqualTo(value(deadLetters.get(0), DeadLetterEvent.class));
        assertThat(awaitStatuses(failed, 3)).extracting(JobStatusChangedEvent::version).containsExactly(1L, 2L, 2L);
    }

    @Test
    void malformedOutcomesAreQuarantinedAndTheNextOutcomeOfThePartitionIsApplied() {
        for (String topic : List.of(Topics.JOB_COMPLETED, Topics.JOB_FAILED)) {
            double before = quarantined.total(topic);
            UUID jobId = runningJob(0);
            // Same key as the valid outcome that follows: same partition, so a stuck poison record would block it.
            producer.send(topic, jobId, new byte[] {(byte) 0xff, (byte) 0xfe, 0x01, 0x7b}, Map.of());
            producer.send(topic, jobId, "{\"attempt\":1}".getBytes(StandardCharsets.UTF_8), Map.of());
            producer.sendJson(topic, jobId, topic.equals(Topics.JOB_COMPLETED)
                    ? TestJobs.completed(jobId, 1) : TestJobs.failed(jobId, 1, "after poison"));

            JobStatus expected = topic.equals(Topics.JOB_COMPLETED) ? JobStatus.COMPLETED : JobStatus.FAILED;
            db.awaitJob(jobId, j -> j.status() == expected);
            // Counted once Kafka acknowledged the copies, which the outcome behind them waited for.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(quarantined.total(topic) - before).as(topic).isEqualTo(2.0));
        }
    }

    /** A job ingested from job-created and dispatched: RUNNING at attempt 1. */
    private UUID runningJob(int maxRetries) {
        UUID jobId = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, maxRetries));
        db.awaitJob(jobId, JobStatus.RUNNING, 1);
        return jobId;
    }

    private double count(String name, String topic) {
        Counter counter = registry.find(name).tag("topic", topic).counter();
        return counter == null ? 0 : counter.count();
    }
}
