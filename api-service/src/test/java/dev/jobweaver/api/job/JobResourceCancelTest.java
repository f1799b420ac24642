package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.JobCommands;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * POST /api/jobs/{id}/cancel: a PENDING or RUNNING job is answered 202 with the job and its CANCEL command is on
 * job-commands once, keyed and traced as the job; a finished job is 409 naming its status, with no command; an unknown
 * job 404, a bad id 400.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobResourceCancelTest {

    @Inject
    ObjectMapper mapper;

    @Inject
    MeterRegistry registry;

    @Test
    void aPendingJobIsAnswered202WithTheJobAndItsCancelIsPublishedOnce() throws Exception {
        String jobId = Jobs.submitOne();
        JsonPath before = Jobs.get(jobId);
        double accepted = Jobs.count(registry, "jobweaver.job.commands", "command", "cancel");

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            Response response = JobCommands.cancel(jobId);

            assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(202);
            assertThat(response.contentType()).startsWith("application/json");
            JsonPath job = response.jsonPath();
            assertThat(job.getMap("")).as("the job as GET shows it").isEqualTo(before.getMap(""));
            assertThat(job.getString("status")).isEqualTo("PENDING");
            JobCommands.single(probe, mapper, jobId, JobCommand.CANCEL, before.getString("traceId"));
        }
        assertThat(Jobs.count(registry, "jobweaver.job.commands", "command", "cancel")).isEqualTo(accepted + 1);
    }

    @Test
    void aRunningJobIsAnswered202AndItsCancelIsPublishedOnce() throws Exception {
        String jobId = Jobs.submitOne();
        StatusEvents.send(mapper, jobId, JobStatus.RUNNING, 2, 1, null);
        await().atMost(Duration.ofSeconds(20)).until(() -> "RUNNING".equals(Jobs.get(jobId).getString("status")));

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            Response response = JobCommands.cancel(jobId);

            assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(202);
            assertThat(response.jsonPath().getString("id")).isEqualTo(jobId);
            assertThat(response.jsonPath().getString("status")).isEqualTo("RUNNING");
            assertThat(response.jsonPath().getInt("attempts")).isEqualTo(1);
            JobCommands.single(probe, mapper, jobId, JobCommand.CANCEL, Jobs.get(jobId).getString("traceId"));
        }
    }

    @ParameterizedTest
    @EnumSource(value = JobStatus.class, names = {"COMPLETED", "FAILED", "CANCELLED", "REJECTED"})
    void aFinishedJobIs409NamingItsStatusAndNothingIsPublished(JobStatus status) throws Exception {
        String jobId = Jobs.submitOne();
        JobCommands.setStatus(jobId, status);

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            Response response = JobCommands.cancel(jobId);

            assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(409);
            JsonPath error = response.jsonPath();
            assertThat(error.getString("errorCode")).isEqualTo("API.JOB_NOT_CANCELLABLE");
            assertThat(error.getInt("status")).isEqualTo(409);
            assertThat(error.getString("jobId")).isEqualTo(jobId);
            assertThat(error.getString("message")).contains(jobId).contains("is " + status.name());
            assertThat(error.getString("timestamp")).isNotNull();
            probe.readToEnd();
            assertThat(probe.withKey(jobId)).as("commands of a finished job").isEmpty();
        }
        assertThat(Jobs.get(jobId).getString("status")).isEqualTo(status.name());
    }
}
