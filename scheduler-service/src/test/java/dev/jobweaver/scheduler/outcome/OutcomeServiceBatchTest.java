package dev.jobweaver.scheduler.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.Outcome;
import dev.jobweaver.scheduler.outcome.OutcomeService.Applied;
import dev.jobweaver.scheduler.outcome.OutcomeService.Received;
import dev.jobweaver.scheduler.outcome.OutcomeService.Result;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** Outcomes applied a batch at a time: one transaction, each outcome judged against the state the ones before left. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class OutcomeServiceBatchTest extends KafkaAndDbTest {

    @Inject
    OutcomeService outcomes;

    @Test
    void aBatchAppliesEveryJobsOutcomeAndJudgesRepeatsAgainstTheBatchsOwnChanges() {
        List<UUID> jobs = IntStream.range(0, 20).mapToObj(i -> runningJob(0)).toList();
        UUID twice = jobs.getFirst();
        List<Received> batch = new ArrayList<>(jobs.stream().map(id -> completed(id, 1)).toList());
        batch.add(completed(twice, 1)); // a redelivery right behind the original, in the same poll

        List<Applied> applied = apply(batch);

        assertThat(applied.subList(0, 20)).extracting(Applied::result).containsOnly(Result.APPLIED);
        assertThat(applied.getLast().result()).isEqualTo(Result.REPUBLISHED);
        for (UUID id : jobs) {
            JobExecution job = db.get(id);
            assertThat(job.status()).as("job %s", id).isEqualTo(JobStatus.COMPLETED);
            assertThat(job.version()).as("job %s", id).isEqualTo(2);
        }
        List<JobStatusChangedEvent> statuses = awaitStatuses(twice, 3);
        assertThat(statuses).extracting(JobStatusChangedEvent::version).containsExactly(1L, 2L, 2L);
    }

    @Test
    void twoTransitionsOfOneJobInABatchAreAppliedInOrderAndWrittenOnce() {
        UUID jobId = runningJob(0);
        UUID other = runningJob(2);

        // other: fails (PENDING, retry scheduled), then a late success of the same attempt completes it.
        List<Applied> applied = apply(List.of(failed(other, 1, "first"), failed(jobId, 1, "no retries"),
                completed(other, 1)));

        assertThat(applied).extracting(Applied::result)
                .containsExactly(Result.APPLIED, Result.APPLIED, Result.APPLIED);
        JobExecution done = db.get(other);
        assertThat(done.status()).isEqualTo(JobStatus.COMPLETED);
        assertThat(done.retryCount()).isEqualTo(1);
        assertThat(done.version()).isEqualTo(3);
        assertThat(awaitStatuses(other, 3))
                .extracting(JobStatusChangedEvent::status, JobStatusChangedEvent::version)
                .containsExactly(Tuple.tuple(JobStatus.RUNNING, 1L),
                        Tuple.tuple(JobStatus.PENDING, 2L),
                        Tuple.tuple(JobStatus.COMPLETED, 3L));
        assertThat(db.get(jobId).status()).isEqualTo(JobStatus.FAILED);
        assertThat(value(recorder.await(Topics.JOB_DEAD_LETTER, jobId, 1).getFirst(), DeadLetterEvent.class).reason())
                .isEqualTo("no retries");
    }

    @Test
    void anUnknownJobInABatchDoesNotHoldBackTheOthers() {
        UUID known = runningJob(0);
        UUID unknown = UUID.randomUUID();

        List<Applied> applied = apply(List.of(completed(unknown, 1), completed(known, 1)));

        assertThat(applied).extracting(Applied::result).containsExactly(Result.UNKNOWN_JOB, Result.APPLIED);
        assertThat(db.get(known).status()).isEqualTo(JobStatus.COMPLETED);
    }

    private List<Applied> apply(List<Received> batch) {
        return outcomes.applyAll(batch).await().atMost(Duration.ofSeconds(30));
    }

    private static Received completed(UUID jobId, int attempt) {
        return new Received(Outcome.of(TestJobs.completed(jobId, attempt)), Topics.JOB_COMPLETED, null);
    }

    private static Received failed(UUID jobId, int attempt, String error) {
        return new Received(Outcome.of(TestJobs.failed(jobId, attempt, error)), Topics.JOB_FAILED, null);
    }

    /** A job ingested from job-created and dispatched: RUNNING at attempt 1. */
    private UUID runningJob(int maxRetries) {
        UUID jobId = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, maxRetries));
        db.awaitJob(jobId, JobStatus.RUNNING, 1);
        return jobId;
    }
}
