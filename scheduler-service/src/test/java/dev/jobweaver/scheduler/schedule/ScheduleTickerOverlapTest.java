package dev.jobweaver.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.testing.ScheduleKafkaTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code overlap: SKIP} skips a tick while the schedule has a job {@code PENDING} or {@code RUNNING} or a workflow run
 * not ended, or its last tick's job or run is still on its way through the API; {@code ALLOW} fires every tick regardless. Each test runs the
 * rounds itself over ticks made due in the database.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class ScheduleTickerOverlapTest extends ScheduleKafkaTest {

    @Inject
    ScheduleTicker ticker;

    @Test
    void skipSkipsWhileAJobOfTheScheduleIsActiveOrOnItsWayAndFiresOnceItFinished() {
        UUID scheduleId = UUID.randomUUID();
        UUID running = UUID.randomUUID();
        scheduledJob(running, scheduleId, "RUNNING");
        roundOverDueTimer(scheduleId, Overlap.SKIP);
        ScheduleTimer skipped = schedules.timer(scheduleId);
        assertThat(skipped.lastJobId()).as("nothing fired while a job runs").isNull();
        assertThat(skipped.nextRunAt()).isAfter(Instant.now().minusSeconds(1));

        // The job finished: the first due tick fires, the others of the round are skipped (its job is on its way).
        db.update("UPDATE job_executions SET job_status = 'COMPLETED' WHERE job_id = $1", running);
        roundWithNextTick(scheduleId, threeSecondsAgo());
        ScheduleFiredEvent first = schedules.awaitFired(scheduleId, 1, TIMEOUT).getFirst();
        ScheduleTimer afterFire = schedules.timer(scheduleId);
        assertThat(afterFire.lastJobId()).isEqualTo(first.jobId());

        // Its job has not reached job_executions yet, within the grace: the ticks after it are skipped.
        roundWithNextTick(scheduleId, first.scheduledFor().plusSeconds(1));
        assertThat(schedules.timer(scheduleId).lastJobId()).isEqualTo(first.jobId());

        // The job came and finished: the next due tick fires.
        scheduledJob(first.jobId(), scheduleId, "COMPLETED");
        roundWithNextTick(scheduleId, first.scheduledFor().plusSeconds(1));
        List<ScheduleFiredEvent> fired = schedules.awaitFired(scheduleId, 2, TIMEOUT);
        assertThat(fired.get(1).scheduledFor()).isAfter(first.scheduledFor());
        // That job is on its way in turn: nothing more fires.
        schedules.awaitAllRecorded();
        assertThat(schedules.fired(scheduleId)).hasSize(2);
    }

    @Test
    void skipSkipsWhileAWorkflowRunOfTheScheduleIsActiveOrOnItsWayAndFiresOnceItEnded() {
        UUID scheduleId = UUID.randomUUID();
        UUID running = UUID.randomUUID();
        scheduledRun(running, scheduleId, "RUNNING");
        roundOverDueTimer(scheduleId, Overlap.SKIP);
        assertThat(schedules.timer(scheduleId).lastJobId()).as("nothing fired while a run is active").isNull();

        // The run ended: the first due tick fires; its run has reached neither table yet, so the next ticks skip.
        db.update("UPDATE workflow_runs SET status = 'COMPLETED', finished_at = now() WHERE run_id = $1", running);
        roundWithNextTick(scheduleId, threeSecondsAgo());
        ScheduleFiredEvent first = schedules.awaitFired(scheduleId, 1, TIMEOUT).getFirst();
        roundWithNextTick(scheduleId, first.scheduledFor().plusSeconds(1));
        assertThat(schedules.timer(scheduleId).lastJobId()).isEqualTo(first.jobId());

        // The tick's run (its id is the tick's job id) came and runs: still skipped. Once it ended, the next fires.
        scheduledRun(first.jobId(), scheduleId, "RUNNING");
        roundWithNextTick(scheduleId, first.scheduledFor().plusSeconds(1));
        schedules.awaitAllRecorded();
        assertThat(schedules.fired(scheduleId)).hasSize(1);
        db.update("UPDATE workflow_runs SET status = 'FAILED', finished_at = now() WHERE run_id = $1", first.jobId());
        ticker.round().await().atMost(TIMEOUT);
        assertThat(schedules.awaitFired(scheduleId, 2, TIMEOUT).get(1).scheduledFor())
                .isAfter(first.scheduledFor());
    }

    @Test
    void allowFiresEveryDueTickWhileAJobOfTheScheduleIsActive() {
        UUID scheduleId = UUID.randomUUID();
        scheduledJob(UUID.randomUUID(), scheduleId, "PENDING");
        roundOverDueTimer(scheduleId, Overlap.ALLOW);

        List<ScheduleFiredEvent> fired = schedules.awaitFired(scheduleId, 3, TIMEOUT);
        assertThat(fired.stream().map(ScheduleFiredEvent::scheduledFor).distinct()).hasSize(fired.size());
    }

    /** Three ticks (and a fraction) of a one-second schedule due: late, but far within the misfire threshold. */
    private static Instant threeSecondsAgo() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(3);
    }

    /**
     * A one-second {@code FIRE_ONCE} timer of {@code scheduleId}, anchored a day back, with three ticks due; then one
     * round.
     */
    private void roundOverDueTimer(UUID scheduleId, Overlap overlap) {
        Instant anchor = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofDays(1));
        schedules.insertTimer(scheduleId, "PT1S", anchor, threeSecondsAgo(), Misfire.FIRE_ONCE, overlap);
        ticker.round().await().atMost(TIMEOUT);
    }

    /** One round after the timer of {@code scheduleId} was set to fire {@code next}. */
    private void roundWithNextTick(UUID scheduleId, Instant next) {
        schedules.setNextRunAt(scheduleId, next);
        ticker.round().await().atMost(TIMEOUT);
    }

    /** A workflow run of the schedule in workflow_runs, as the run consumer stores a tick's run. */
    private void scheduledRun(UUID runId, UUID scheduleId, String status) {
        db.update("INSERT INTO workflow_runs (run_id, workflow_id, version, tenant, on_failure, status,"
                + " progress_version, created_at, updated_at, schedule_id)"
                + " VALUES ($1, $2, 1, 'default', 'FAIL_FAST', $3, 0, now(), now(), $4)",
                runId, UUID.randomUUID(), status, scheduleId);
    }

    /** A job of the schedule in job_executions, as ingestion stores a tick's job. */
    private void scheduledJob(UUID jobId, UUID scheduleId, String status) {
        db.update("INSERT INTO job_executions (job_id, job_type, trace_id, instruction, job_status, max_retries,"
                + " next_run_at, created_at, updated_at, schedule_id, scheduled_for)"
                + " VALUES ($1, 'SIMULATION', $2, $3::text::jsonb, $4, 0, now(), now(), now(), $5, $6)",
                jobId, TestJobs.traceId(jobId), TestJobs.LOG_INSTRUCTION, status, scheduleId,
                Instant.now().atOffset(ZoneOffset.UTC));
    }
}
