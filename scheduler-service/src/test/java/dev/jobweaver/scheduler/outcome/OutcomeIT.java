package dev.jobweaver.scheduler.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.scheduler.testing.ExecutableTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A worker's outcome on {@code job-completed} or {@code job-failed} comes back out of the native executable as the
 * job's status on {@code job-status}: a success COMPLETED with its result; a failure with a retry left PENDING until
 * its backoff ends, then dispatched again by the dispatcher's timer; the last failure FAILED with its dead letter.
 */
@QuarkusIntegrationTest
@JobWeaverTest(database = "jobweaver_scheduler")
class OutcomeIT extends ExecutableTest {

    @Test
    void aSuccessCompletesTheJobWithItsResult() {
        UUID jobId = dispatchedJob(0);
        JsonNode result = mapper().createObjectNode().put("answer", 42);

        producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 1, result));

        JobStatusChangedEvent completed = awaitStatuses(jobId, 2).get(1);
        assertThat(completed.status()).isEqualTo(JobStatus.COMPLETED);
        assertThat(completed.version()).isEqualTo(2);
        assertThat(completed.result()).isEqualTo(result);
        assertThat(completed.finishedAt()).isNotNull();
    }

    @Test
    void aFailureIsRetriedAfterItsBackoffAndTheLastOneIsDeadLettered() {
        UUID jobId = dispatchedJob(1);

        producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, 1, "boom 1"));
        JobStatusChangedEvent pending = awaitStatuses(jobId, 2).get(1);
        assertThat(pending.status()).isEqualTo(JobStatus.PENDING);
        assertThat(pending.retryCount()).isEqualTo(1);
        assertThat(pending.lastError()).isEqualTo("boom 1");
        // 5 s of backoff for the first retry, plus up to the jitter of the packaged configuration (1 s)
        assertThat(Duration.between(pending.changedAt(), pending.nextRunAt()))
                .isBetween(Duration.ofSeconds(5), Duration.ofSeconds(6));

        awaitRun(jobId, 2);
        producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, 2, "boom 2"));

        List<JobStatusChangedEvent> statuses = awaitStatuses(jobId, 4);
        assertThat(statuses).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.PENDING, JobStatus.RUNNING, JobStatus.FAILED);
        DeadLetterEvent deadLetter = value(recorder.await(Topics.JOB_DEAD_LETTER, jobId, 1).getFirst(),
                DeadLetterEvent.class);
        assertThat(deadLetter).isEqualTo(new DeadLetterEvent(jobId, "boom 2", 1, statuses.get(3).finishedAt(),
                TestJobs.traceId(jobId), "default", null));
    }
}
