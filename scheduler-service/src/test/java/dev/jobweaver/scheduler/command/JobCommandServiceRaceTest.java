package dev.jobweaver.scheduler.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.sweep.LeaseSweeper;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A cancel against what else moves a job: dispatch rounds, outcomes of its run, the lease sweep. A cancelled job ends
 * CANCELLED and never reports COMPLETED; a job that got a run got a workers' CANCEL; a job that completed first stays
 * COMPLETED.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCommandServiceRaceTest extends KafkaAndDbTest {

    private static final String TENANT = "cancel-race";

    @Inject
    Dispatcher dispatcher;

    @Inject
    LeaseSweeper sweeper;

    @AfterEach
    void deleteBulkJobs() {
        db.deleteTenant(TENANT);
    }

    @Test
    void cancelsArrivingWhileDispatchRoundsRunEndEveryJobCancelledAndEveryRunIsCancelledAtTheWorkers() {
        // Both sides of the race, whatever the machine's speed: 50 jobs claimed before any cancel, 50 due in an hour
        // (never claimed), and 100 becoming due one after another over half a second while rounds claim them, all
        // cancelled in a random order.
        List<UUID> jobs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            UUID jobId = UUID.randomUUID();
            double dueIn = i < 50 ? 0 : i < 100 ? 3600 : (i - 100) * 0.005;
            db.insertPending(jobId, TestJobs.LOG_INSTRUCTION, Priority.NORMAL, TENANT, dueIn);
            jobs.add(jobId);
        }
        dispatcher.dispatchRound().await().atMost(Duration.ofSeconds(30));
        List<UUID> cancelOrder = new ArrayList<>(jobs);
        Collections.shuffle(cancelOrder);
        CompletableFuture<Void> cancels = CompletableFuture.runAsync(
                () -> cancelOrder.forEach(jobId -> command(TestJobs.cancel(jobId))));
        while (!cancels.isDone()) {
            dispatcher.dispatchRound().await().atMost(Duration.ofSeconds(30));
        }
        cancels.join();
        db.dispatchAllDue(dispatcher);

        jobs.forEach(jobId -> db.awaitJob(jobId, j -> j.status() == JobStatus.CANCELLED));
        jobs.forEach(jobId -> recorder.await(Topics.JOB_STATUS, jobId, 1));
        allRecorded();
        int dispatched = 0;
        for (UUID jobId : jobs) {
            List<JobStatusChangedEvent> statuses = statuses(jobId);
            assertThat(statuses).as("statuses of %s", jobId).extracting(JobStatusChangedEvent::status)
                    .containsOnlyOnce(JobStatus.CANCELLED).doesNotContain(JobStatus.COMPLETED);
            assertThat(statuses.getLast().status()).isEqualTo(JobStatus.CANCELLED);
            if (!recorder.records(Topics.RUN_JOB, jobId).isEmpty()) {
                dispatched++;
                assertThat(statuses).extracting(JobStatusChangedEvent::status)
                        .containsExactly(JobStatus.RUNNING, JobStatus.CANCELLED);
                assertThat(workerCommands(jobId)).as("workers' commands for %s, which got a run", jobId)
                        .extracting(JobCommandEvent::command).containsExactly(JobCommand.CANCEL);
            } else {
                assertThat(workerCommands(jobId)).isEmpty();
            }
        }
        assertThat(dispatched).as("jobs that got a run: the 50 claimed first, and none of the 50 due later")
                .isBetween(50, 150);
        jobs.subList(0, 50).forEach(jobId -> assertThat(recorder.records(Topics.RUN_JOB, jobId)).isNotEmpty());
        jobs.subList(50, 100).forEach(jobId -> assertThat(recorder.records(Topics.RUN_JOB, jobId)).isEmpty());
    }

    @Test
    void outcomesOfACancelledRunChangeAndPublishNothing() {
        UUID jobId = runningJob();
        command(TestJobs.cancel(jobId));
        JobExecution cancelled = db.awaitJob(jobId, j -> j.status() == JobStatus.CANCELLED);

        UUID sentinel = runningJob();
        sendBeforeSentinel(Topics.JOB_COMPLETED, List.of(jobId), List.of(TestJobs.completed(jobId, 1)), sentinel,
                TestJobs.completed(sentinel, 1), j -> j.status() == JobStatus.COMPLETED);
        UUID otherSentinel = runningJob();
        sendBeforeSentinel(Topics.JOB_FAILED, List.of(jobId),
                List.of(TestJobs.failed(jobId, 1, "WORKER.CANCELLED: cancelled by its client")), otherSentinel,
                TestJobs.failed(otherSentinel, 1, "boom"), j -> j.status() == JobStatus.FAILED);

        assertThat(db.get(jobId)).isEqualTo(cancelled);
        allRecorded();
        assertThat(statuses(jobId)).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.CANCELLED);
    }

    @Test
    void aJobThatCompletedBeforeItsCancelStaysCompleted() {
        UUID jobId = runningJob();
        producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 1));
        JobExecution completed = db.awaitJob(jobId, j -> j.status() == JobStatus.COMPLETED);

        commandsApplied(TestJobs.cancel(jobId));

        assertThat(db.get(jobId)).isEqualTo(completed);
        allRecorded();
        assertThat(statuses(jobId)).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.COMPLETED);
        assertThat(workerCommands(jobId)).isEmpty();
    }

    @Test
    void aCancelAndASuccessSentTogetherEndTheJobOneWayOnlyAndPublishOnlyThat() {
        List<UUID> jobs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            jobs.add(runningJob());
        }
        CompletableFuture<Void> cancels = CompletableFuture.runAsync(
                () -> jobs.forEach(jobId -> command(TestJobs.cancel(jobId))));
        jobs.forEach(jobId -> producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 1)));
        cancels.join();

        for (UUID jobId : jobs) {
            JobStatus end = db.awaitJob(jobId, j -> j.status() != JobStatus.RUNNING).status();
            assertThat(end).isIn(JobStatus.CANCELLED, JobStatus.COMPLETED);
        }
        commandsApplied();
        jobs.forEach(jobId -> recorder.await(Topics.JOB_STATUS, jobId, 2));
        settle();
        for (UUID jobId : jobs) {
            JobStatus end = db.get(jobId).status();
            assertThat(statuses(jobId)).as("statuses of %s, which ended %s", jobId, end)
                    .extracting(JobStatusChangedEvent::status).containsExactly(JobStatus.RUNNING, end);
        }
    }

    @Test
    void anExpiredLeaseOfACancelledJobIsNotSwept() {
        UUID jobId = runningJob();
        command(TestJobs.cancel(jobId));
        db.awaitJob(jobId, j -> j.status() == JobStatus.CANCELLED);
        db.update("UPDATE job_executions SET lease_until = now() - interval '1 second' WHERE job_id = $1", jobId);
        JobExecution cancelled = db.get(jobId);

        sweeper.sweepAll().await().atMost(Duration.ofSeconds(30));

        assertThat(db.get(jobId)).isEqualTo(cancelled);
        allRecorded();
        assertThat(statuses(jobId)).extracting(JobStatusChangedEvent::status)
                .containsExactly(JobStatus.RUNNING, JobStatus.CANCELLED);
    }
}
