package dev.jobweaver.scheduler.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Outcomes of jobs with control: a job's own retry delays replace the backoff (and the dispatch timer starts the
 * retry on time, the poll never firing in tests), a dead letter names the job's tenant and labels, and a result is
 * stored and published with the COMPLETED status, again when the outcome is redelivered.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class OutcomeServiceJobControlTest extends KafkaAndDbTest {

    private static final Duration BOUND = Duration.ofMillis(500);

    @Test
    void aJobsOwnRetryDelaysAreWaitedThenItsDeadLetterNamesItsTenantAndLabels() {
        UUID jobId = UUID.randomUUID();
        JobControl control = new JobControl(null, null, null, List.of(300L, 600L), "acme", Map.of("team", "blue"));
        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, 2, control));
        db.awaitJob(jobId, JobStatus.RUNNING, 1);

        long[] expectedDelays = {300, 600};
        for (int retry = 1; retry <= 2; retry++) {
            producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, retry, "boom " + retry));
            int retries = retry;
            JobExecution pending = db.awaitJob(jobId, j -> j.retryCount() == retries);
            assertThat(Duration.between(pending.updatedAt(), pending.nextRunAt())).as("delay before retry %d", retry)
                    .isEqualTo(Duration.ofMillis(expectedDelays[retry - 1]));
            // Nobody nudges the dispatcher: the timer armed for the retry starts it.
            JobExecution running = db.awaitJob(jobId, JobStatus.RUNNING, retry + 1);
            assertThat(running.dispatchedAt()).isAfterOrEqualTo(pending.nextRunAt())
                    .isBefore(pending.nextRunAt().plus(BOUND));
        }
        producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, 3, "boom 3"));

        DeadLetterEvent deadLetter = value(recorder.await(Topics.JOB_DEAD_LETTER, jobId, 1).getFirst(),
                DeadLetterEvent.class);
        assertThat(deadLetter.reason()).isEqualTo("boom 3");
        assertThat(deadLetter.finalRetryCount()).isEqualTo(2);
        assertThat(deadLetter.tenant()).isEqualTo("acme");
        assertThat(deadLetter.labels()).isEqualTo(Map.of("team", "blue"));
    }

    @Test
    void aResultIsStoredAndPublishedWithTheCompletedStatusAgainOnARedelivery() throws Exception {
        UUID jobId = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, 0));
        db.awaitJob(jobId, JobStatus.RUNNING, 1);
        JsonNode result = mapper.readTree("{\"status\":200,\"body\":\"ok\",\"headers\":{\"a\":[\"1\",\"2\"]}}");

        producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 1, result));
        JobExecution completed = db.awaitJob(jobId, j -> j.status() == JobStatus.COMPLETED);
        assertThat(completed.result()).isEqualTo(result);
        producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 1, result));

        List<JobStatusChangedEvent> statuses = awaitStatuses(jobId, 3);
        assertThat(statuses).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.COMPLETED, JobStatus.COMPLETED);
        assertThat(statuses.get(0).result()).isNull();
        assertThat(statuses.get(1).result()).isEqualTo(result);
        assertThat(statuses.get(2)).isEqualTo(statuses.get(1));
    }
}
