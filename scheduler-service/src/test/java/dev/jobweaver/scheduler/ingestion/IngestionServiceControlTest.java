package dev.jobweaver.scheduler.ingestion;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.job.JobType;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.SchedulerConfig;
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Ingestion stores each job's control (priority, start time, timeout, retry delays, tenant, labels) and the run
 * carries it; an event from before job control is a NORMAL job of the default tenant; a job for later waits PENDING.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class IngestionServiceControlTest extends KafkaAndDbTest {

    @Inject
    Dispatcher dispatcher;

    @Inject
    SchedulerConfig config;

    @Test
    void aJobsControlIsStoredAndTravelsOnItsRunWithALeaseCoveringItsTimeout() {
        UUID jobId = UUID.randomUUID();
        JobControl control = new JobControl(Priority.HIGH, null, 1_500L, List.of(100L, 200L), "acme",
                Map.of("team", "blue", "env", "test"));
        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, 2, control));

        RunJobEvent run = value(recorder.await(Topics.RUN_JOB, jobId, 1).getFirst(), RunJobEvent.class);
        assertThat(run.control()).isEqualTo(control);
        assertThat(Duration.between(run.dispatchedAt(), run.leaseUntil()))
                .isEqualTo(Duration.ofMillis(1_500).plus(config.lease().grace()));

        JobExecution row = db.awaitJob(jobId, JobStatus.RUNNING, 1);
        assertThat(row.control()).isEqualTo(control);
        assertThat(row.leaseUntil()).isEqualTo(run.leaseUntil());
    }

    @Test
    void anEventFromBeforeJobControlIsANormalJobOfTheDefaultTenantAndRuns() {
        UUID jobId = UUID.randomUUID();
        // As an API without job control wrote it: no control, the payload a plain object.
        String json = "{\"jobId\":\"" + jobId + "\",\"jobType\":\"SIMULATION\","
                + "\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"old\"}]},\"maxRetries\":1,"
                + "\"traceId\":\"" + TestJobs.traceId(jobId) + "\",\"createdAt\":\"" + Instant.now() + "\"}";
        producer.send(Topics.JOB_CREATED, jobId, json.getBytes(StandardCharsets.UTF_8), Map.of());

        RunJobEvent run = value(recorder.await(Topics.RUN_JOB, jobId, 1).getFirst(), RunJobEvent.class);
        assertThat(run.control().priority()).isEqualTo(Priority.NORMAL);
        assertThat(run.control().tenant()).isEqualTo(JobControl.DEFAULT_TENANT);
        assertThat(run.control().timeoutMs()).isNull();
        assertThat(run.control().retryDelaysMs()).isNull();
        assertThat(run.payload().path("steps").get(0).path("message").asText()).isEqualTo("old");
        JobExecution row = db.awaitJob(jobId, JobStatus.RUNNING, 1);
        assertThat(row.control().priority()).isEqualTo(Priority.NORMAL);
        assertThat(row.control().tenant()).isEqualTo(JobControl.DEFAULT_TENANT);
    }

    @Test
    void aJobForLaterWaitsPendingUntilItsStartAndArmsTheTimer() {
        UUID jobId = UUID.randomUUID();
        Instant runAt = Instant.now().plus(Duration.ofHours(2));
        try {
            producer.sendJson(Topics.JOB_CREATED, jobId,
                    TestJobs.created(jobId, 0, new JobControl(null, runAt, null, null, null, null)));

            JobExecution row = db.awaitJob(jobId, j -> true);
            assertThat(row.status()).isEqualTo(JobStatus.PENDING);
            assertThat(row.attempt()).isZero();
            assertThat(row.nextRunAt()).isEqualTo(runAt.truncatedTo(ChronoUnit.MICROS));
            assertThat(row.control().runAt()).isEqualTo(runAt.truncatedTo(ChronoUnit.MICROS));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> dispatcher.timerDue() != null
                    && !dispatcher.timerDue().isAfter(row.nextRunAt()));
            // A full round later it is still waiting.
            dispatcher.dispatchRound().await().atMost(Duration.ofSeconds(30));
            assertThat(db.get(jobId).status()).isEqualTo(JobStatus.PENDING);
            assertThat(recorder.records(Topics.RUN_JOB, jobId)).isEmpty();
        } finally {
            db.update("DELETE FROM job_executions WHERE job_id = $1", jobId);
        }
    }

    @Test
    void anHttpJobHasNoStepsItsPayloadTravelsAsItCameAndItsLeaseCoversItsRequestTimeout() throws Exception {
        UUID jobId = UUID.randomUUID();
        JsonNode payload = mapper.readTree("{\"method\":\"POST\",\"url\":\"https://example.test/hook\","
                + "\"headers\":{\"X-Trace\":\"1\"},\"body\":\"{}\",\"expectedStatus\":[200,201],\"timeoutMs\":2000}");
        producer.sendJson(Topics.JOB_CREATED, jobId, new JobCreatedEvent(jobId, JobType.HTTP, payload, 0,
                TestJobs.traceId(jobId), Instant.now(), null));

        RunJobEvent run = value(recorder.await(Topics.RUN_JOB, jobId, 1).getFirst(), RunJobEvent.class);
        assertThat(run.jobType()).isEqualTo(JobType.HTTP);
        assertThat(run.payload()).isEqualTo(payload);
        assertThat(Duration.between(run.dispatchedAt(), run.leaseUntil()))
                .isEqualTo(Duration.ofMillis(2_000).plus(config.lease().grace()));
        assertThat(db.awaitJob(jobId, JobStatus.RUNNING, 1).jobType()).isEqualTo("HTTP");
    }
}
