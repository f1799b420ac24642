package dev.jobweaver.scheduler.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Ingestion stores the schedule tick a job came from ({@code JobCreatedEvent.origin}) in {@code schedule_id} and
 * {@code scheduled_for}, whether the job is stored new or over a cancel that came first; a submitted job has neither.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class IngestionServiceOriginTest extends KafkaAndDbTest {

    @Test
    void aScheduledJobIsStoredWithItsScheduleAndTickAndASubmittedOneWithout() {
        UUID scheduleId = UUID.randomUUID();
        Instant tick = Instant.parse("2026-11-26T02:00:00.123456789Z");
        UUID scheduled = sendScheduled(scheduleId, tick);
        UUID submitted = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, submitted, TestJobs.created(submitted, 0));

        db.awaitJob(scheduled, j -> true);
        db.awaitJob(submitted, j -> true);

        Row row = origin(scheduled);
        assertThat(row.getUUID("schedule_id")).isEqualTo(scheduleId);
        assertThat(row.getOffsetDateTime("scheduled_for").toInstant()).isEqualTo(tick.truncatedTo(ChronoUnit.MICROS));
        Row none = origin(submitted);
        assertThat(none.getUUID("schedule_id")).isNull();
        assertThat(none.getOffsetDateTime("scheduled_for")).isNull();
    }

    @Test
    void aScheduledJobWhoseCancelCameFirstIsStoredCancelledWithItsOrigin() {
        UUID scheduleId = UUID.randomUUID();
        UUID jobId = UUID.randomUUID();
        commandsApplied(TestJobs.cancel(jobId));

        sendScheduled(jobId, scheduleId, Instant.parse("2026-11-26T03:00:00Z"));

        db.awaitJob(jobId, j -> j.status() == JobStatus.CANCELLED && j.version() == 1);
        Row row = origin(jobId);
        assertThat(row.getUUID("schedule_id")).isEqualTo(scheduleId);
        assertThat(row.getOffsetDateTime("scheduled_for")).isEqualTo(OffsetDateTime.parse("2026-11-26T03:00:00Z"));
    }

    private Row origin(UUID jobId) {
        return pool.preparedQuery("SELECT schedule_id, scheduled_for FROM job_executions WHERE job_id = $1")
                .execute(Tuple.of(jobId)).await().atMost(TIMEOUT).iterator().next();
    }

    /** Publishes the job-created event of a job of its own made for {@code tick} of {@code scheduleId}; its id. */
    private UUID sendScheduled(UUID scheduleId, Instant tick) {
        UUID jobId = UUID.randomUUID();
        sendScheduled(jobId, scheduleId, tick);
        return jobId;
    }

    /** Publishes the job-created event of {@code jobId}, made for {@code tick} of {@code scheduleId}. */
    private void sendScheduled(UUID jobId, UUID scheduleId, Instant tick) {
        JobCreatedEvent e = TestJobs.created(jobId, 0);
        producer.sendJson(Topics.JOB_CREATED, jobId, new JobCreatedEvent(e.jobId(), e.jobType(), e.payload(),
                e.maxRetries(), e.traceId(), e.createdAt(), e.control(), new JobOrigin(scheduleId, tick)));
    }
}
