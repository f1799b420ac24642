package dev.jobweaver.scheduler.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Jobs for later start at their time, never before, woken by the dispatch timer alone: the periodic poll never fires
 * in tests (interval 1 h), so a job dispatched here was dispatched by the timer.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class DelayedDispatchTest extends KafkaAndDbTest {

    private static final Logger LOG = Logger.getLogger(DelayedDispatchTest.class);
    /**
     * Generous on two shared cores beside the other services' suites, where a transaction may wait a second for a core;
     * the timer itself aims at a millisecond after the start, and the median says how close it gets.
     */
    private static final Duration BOUND = Duration.ofSeconds(2);

    @Inject
    Dispatcher dispatcher;

    @Test
    void delayedJobsStartAtTheirTimeNeverBefore() {
        db.dispatchAllDue(dispatcher);
        Instant base = Instant.now().plusMillis(1_500);
        List<UUID> jobs = IntStream.range(0, 10).mapToObj(i -> UUID.randomUUID()).toList();
        for (int i = 0; i < jobs.size(); i++) {
            UUID jobId = jobs.get(i);
            producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, 0,
                    new JobControl(null, base.plusMillis(150L * i), null, null, null, null)));
        }

        List<Long> lateness = new ArrayList<>();
        for (UUID jobId : jobs) {
            JobExecution running = db.awaitJob(jobId, JobStatus.RUNNING, 1);
            assertThat(running.dispatchedAt()).as("dispatched not before its start").isAfterOrEqualTo(running.nextRunAt());
            lateness.add(Duration.between(running.nextRunAt(), running.dispatchedAt()).toMillis());
        }
        LOG.infof("delayed jobs dispatched after their start by (ms): %s", lateness);
        assertThat(lateness).allSatisfy(ms -> assertThat(ms).isLessThan(BOUND.toMillis()));
        assertThat(lateness.stream().sorted().toList().get(lateness.size() / 2)).as("median lateness (ms)")
                .isLessThan(250);
    }

    @Test
    void aJobDueBeforeTheArmedOneIsStillDispatchedOnTime() {
        UUID later = UUID.randomUUID();
        UUID sooner = UUID.randomUUID();
        Instant now = Instant.now();
        try {
            producer.sendJson(Topics.JOB_CREATED, later, TestJobs.created(later, 0,
                    new JobControl(null, now.plusSeconds(30), null, null, null, null)));
            db.awaitJob(later, j -> true);
            producer.sendJson(Topics.JOB_CREATED, sooner, TestJobs.created(sooner, 0,
                    new JobControl(null, now.plusMillis(1_500), null, null, null, null)));

            JobExecution running = db.awaitJob(sooner, JobStatus.RUNNING, 1);
            assertThat(running.dispatchedAt()).isAfterOrEqualTo(running.nextRunAt())
                    .isBefore(running.nextRunAt().plus(BOUND));
            assertThat(db.get(later).status()).isEqualTo(JobStatus.PENDING);
        } finally {
            db.update("DELETE FROM job_executions WHERE job_id = $1", later);
        }
    }

    @Test
    void aJobLeftForLaterInTheTableIsDispatchedOnTimeAfterAStart() {
        // As after a restart: the row is there, and no timer of this process knows about it.
        // due in 5 s, so that a slow start still arms its timer before the job is due
        UUID jobId = db.pending(TestJobs.LOG_INSTRUCTION, 0, 5);
        JobExecution waiting = db.get(jobId);

        dispatcher.start(null);

        Awaitility.await().atMost(Duration.ofSeconds(4)).until(() -> dispatcher.timerDue() != null
                && !dispatcher.timerDue().isAfter(waiting.nextRunAt()));
        JobExecution running = db.awaitJob(jobId, JobStatus.RUNNING, 1);
        assertThat(running.dispatchedAt()).isAfterOrEqualTo(waiting.nextRunAt())
                .isBefore(waiting.nextRunAt().plus(BOUND));
    }
}
