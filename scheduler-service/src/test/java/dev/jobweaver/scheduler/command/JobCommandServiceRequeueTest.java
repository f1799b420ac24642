package dev.jobweaver.scheduler.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TopicRecorder;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A requeue of a dead-lettered job makes it PENDING under its own id with the next version, and the dispatcher, woken
 * by it, runs its next attempt numbered after the last, with the command's payload and retries when given; when those
 * retries run out it is dead-lettered again, with a dead letter of its own. Nothing of it reaches the workers'
 * commands.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCommandServiceRequeueTest extends KafkaAndDbTest {

    @Inject
    Dispatcher dispatcher;

    @Inject
    MeterRegistry registry;

    @Test
    void aRequeuedJobRunsItsNextAttemptsAndIsDeadLetteredAgainWhenTheyFail() {
        UUID jobId = deadLetteredJob("boom 1");
        JobExecution failed = db.get(jobId);
        assertThat(failed.attempt()).isEqualTo(1);
        double requeuedBefore = registry.counter("jobweaver.jobs.requeued").count();

        command(TestJobs.requeue(jobId, null, 1));

        // Dispatched without a dispatch round of the test's (the backstop polls hourly in tests): the requeue woke it.
        JobExecution second = db.awaitJob(jobId, JobStatus.RUNNING, 2);
        assertThat(second.maxRetries()).isEqualTo(1);
        assertThat(second.retryCount()).isZero();
        assertThat(second.lastError()).as("kept until the next attempt reports").isEqualTo("boom 1");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(registry.counter("jobweaver.jobs.requeued").count()).isEqualTo(requeuedBefore + 1));
        List<ConsumerRecord<String, byte[]>> runs = recorder.await(Topics.RUN_JOB, jobId, 2);
        RunJobEvent run = value(runs.get(1), RunJobEvent.class);
        assertThat(run.attempt()).isEqualTo(2);
        assertThat(run.eventId()).isEqualTo(EventIds.runEventId(jobId, 2));
        assertThat(run.payload()).isEqualTo(value(runs.get(0), RunJobEvent.class).payload());

        List<JobStatusChangedEvent> statuses = awaitStatuses(jobId, 4);
        assertThat(statuses).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.FAILED, JobStatus.PENDING, JobStatus.RUNNING);
        assertThat(statuses).extracting(JobStatusChangedEvent::version).containsExactly(1L, 2L, 3L, 4L);
        JobStatusChangedEvent requeued = statuses.get(2);
        assertThat(requeued.attempts()).isEqualTo(1);
        assertThat(requeued.retryCount()).isZero();
        assertThat(requeued.maxRetries()).isEqualTo(1);
        assertThat(requeued.lastError()).isEqualTo("boom 1");
        assertThat(requeued.finishedAt()).isNull();
        assertThat(requeued.nextRunAt()).isNotNull();
        assertThat(statuses.get(3).attempts()).isEqualTo(2);
        // The command's span, the parent of the PENDING status's record, is in the job's trace.
        ConsumerRecord<String, byte[]> pendingRecord = recorder.records(Topics.JOB_STATUS, jobId).get(2);
        assertThat(TopicRecorder.header(pendingRecord, Headers.TRACEPARENT))
                .contains(failed.traceparent().split("-")[1]);

        // Attempt 2 fails: its one retry; attempt 3 fails: dead-lettered again.
        producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, 2, "boom 2"));
        db.awaitJob(jobId, j -> j.status() == JobStatus.PENDING && j.retryCount() == 1);
        db.makeDue(jobId);
        db.dispatchAllDue(dispatcher);
        db.awaitJob(jobId, JobStatus.RUNNING, 3);
        producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, 3, "boom 3"));
        JobExecution failedAgain = db.awaitJob(jobId, j -> j.status() == JobStatus.FAILED);
        assertThat(failedAgain.attempt()).isEqualTo(3);
        assertThat(failedAgain.version()).isEqualTo(7);

        List<ConsumerRecord<String, byte[]>> deadLetters = recorder.await(Topics.JOB_DEAD_LETTER, jobId, 2);
        DeadLetterEvent first = value(deadLetters.get(0), DeadLetterEvent.class);
        DeadLetterEvent again = value(deadLetters.get(1), DeadLetterEvent.class);
        assertThat(first.reason()).isEqualTo("boom 1");
        assertThat(again.reason()).isEqualTo("boom 3");
        assertThat(again.finalRetryCount()).isEqualTo(1);
        assertThat(TopicRecorder.header(deadLetters.get(1), Headers.EVENT_ID))
                .isNotEqualTo(TopicRecorder.header(deadLetters.get(0), Headers.EVENT_ID));
        assertThat(awaitStatuses(jobId, 7)).extracting(JobStatusChangedEvent::version)
                .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(recorder.records(Topics.RUN_JOB, jobId)).extracting(r -> value(r, RunJobEvent.class).attempt())
                .containsExactly(1, 2, 3);
        assertThat(workerCommands(jobId)).isEmpty();
    }

    @Test
    void theNextAttemptRunsTheRequeuesPayloadAndTheJobKeepsItsOwnRetriesWhenNoneAreGiven() {
        UUID jobId = deadLetteredJob("boom");
        ObjectNode fixed = mapper.createObjectNode();
        fixed.putArray("steps").addObject().put("action", "LOG").put("message", "fixed");

        command(TestJobs.requeue(jobId, fixed, null));

        JobExecution running = db.awaitJob(jobId, JobStatus.RUNNING, 2);
        assertThat(running.maxRetries()).isZero();
        assertThat(tree(running.instruction())).isEqualTo(fixed);
        RunJobEvent run = value(recorder.await(Topics.RUN_JOB, jobId, 2).get(1), RunJobEvent.class);
        assertThat(run.attempt()).isEqualTo(2);
        assertThat(run.payload()).isEqualTo(fixed);

        // No retry left: the next failure dead-letters it again at once.
        producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, 2, "still broken"));
        db.awaitJob(jobId, j -> j.status() == JobStatus.FAILED && j.attempt() == 2);
        assertThat(value(recorder.await(Topics.JOB_DEAD_LETTER, jobId, 2).get(1), DeadLetterEvent.class).reason())
                .isEqualTo("still broken");
        assertThat(tree(db.get(jobId).instruction())).as("the new payload stays the job's").isEqualTo(fixed);
    }

    private JsonNode tree(String json) {
        try {
            return mapper.readTree(json);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
