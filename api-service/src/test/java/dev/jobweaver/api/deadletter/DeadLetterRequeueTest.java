package dev.jobweaver.api.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.DeadLetters;
import dev.jobweaver.api.testing.JobCommands;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * POST /api/dead-letters/{jobId}/requeue: an OPEN dead letter is answered 202, REQUEUED, once its one REQUEUE (with
 * the new payload, normalised, and retry count) is on job-commands; a second requeue is 409 naming its state; a
 * workflow node's job is requeued as any job is; a job without a dead letter 404.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class DeadLetterRequeueTest {

    @Inject
    ObjectMapper mapper;

    @Inject
    MeterRegistry registry;

    @Test
    void aRequeueWithAPayloadAndRetriesPublishesOneRequeueAndMarksItRequeued() throws Exception {
        Instant failedAt = Instant.now().minusSeconds(30).truncatedTo(ChronoUnit.MICROS);
        String jobId = DeadLetters.storeOpen(failedAt);
        String traceId = Jobs.get(jobId).getString("traceId");
        double requeued = counter("jobweaver.dead.letters.requeued");
        double commands = Jobs.count(registry, "jobweaver.job.commands", "command", "requeue");

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            // "extra" is not part of a SIMULATION payload: dropped, as POST /api/jobs drops it
            Response response = DeadLetters.requeue(jobId, """
                    {"payload":{"steps":[{"action":"LOG","message":"again"}],"extra":1},"maxRetryCount":2}""");

            assertThat(response.statusCode()).as(response.asString()).isEqualTo(202);
            JsonPath body = response.jsonPath();
            assertThat(body.getString("jobId")).isEqualTo(jobId);
            assertThat(body.getString("state")).isEqualTo("REQUEUED");
            assertThat(body.getInt("requeueCount")).isEqualTo(1);
            assertThat(Instant.parse(body.getString("requeuedAt"))).isBetween(Instant.now().minusSeconds(60),
                    Instant.now());

            JobCommandEvent command = JobCommands.single(probe, mapper, jobId, JobCommand.REQUEUE, traceId);
            assertThat(command.maxRetryCount()).isEqualTo(2);
            assertThat(command.failedAt()).as("the failure it requeues").isEqualTo(failedAt);
            assertThat(mapper.convertValue(command.payload(), Map.class)).isEqualTo(
                    mapper.readValue("{\"steps\":[{\"action\":\"LOG\",\"message\":\"again\"}]}", Map.class));
        }
        Map<String, String> row = DeadLetters.row(jobId);
        assertThat(row.get("state")).isEqualTo("REQUEUED");
        assertThat(row.get("requeue_count")).isEqualTo("1");
        assertThat(counter("jobweaver.dead.letters.requeued")).isEqualTo(requeued + 1);
        assertThat(Jobs.count(registry, "jobweaver.job.commands", "command", "requeue")).isEqualTo(commands + 1);
        // the job shows the payload it runs with from now on
        assertThat(Jobs.get(jobId).getString("payload.steps[0].message")).isEqualTo("again");
    }

    @Test
    void aRequeueWithoutABodyKeepsTheJobsPayloadAndRetries() throws Exception {
        String jobId = DeadLetters.storeOpen(Instant.now().minusSeconds(30));
        String traceId = Jobs.get(jobId).getString("traceId");
        String payloadBefore = Jobs.get(jobId).getString("payload");

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            Response response = DeadLetters.requeue(jobId, null);

            assertThat(response.statusCode()).as(response.asString()).isEqualTo(202);
            JobCommandEvent command = JobCommands.single(probe, mapper, jobId, JobCommand.REQUEUE, traceId);
            assertThat(command.payload()).isNull();
            assertThat(command.maxRetryCount()).isNull();
        }
        assertThat(DeadLetters.row(jobId).get("state")).isEqualTo("REQUEUED");
        assertThat(Jobs.get(jobId).getString("payload")).as("its own payload, unchanged").isEqualTo(payloadBefore);
    }

    @Test
    void aSecondRequeueIs409NamingTheStateAndSendsNothing() throws Exception {
        String jobId = DeadLetters.storeOpen(Instant.now().minusSeconds(30));
        assertThat(DeadLetters.requeue(jobId, "{}").statusCode()).isEqualTo(202);

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            Response again = DeadLetters.requeue(jobId, "{\"maxRetryCount\":1}");
            Response withPayload = DeadLetters.requeue(jobId, "{\"payload\":{\"steps\":[{\"action\":\"LOG\","
                    + "\"message\":\"x\"}]}}");

            for (Response response : new Response[] {again, withPayload}) {
                assertThat(response.statusCode()).as(response.asString()).isEqualTo(409);
                assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.DEAD_LETTER_NOT_OPEN");
                assertThat(response.jsonPath().getString("message")).contains("REQUEUED");
                assertThat(response.jsonPath().getString("jobId")).isEqualTo(jobId);
            }
            assertThat(probe.readToEnd().stream().filter(r -> jobId.equals(r.key())))
                    .as("no command").isEmpty();
        }
        assertThat(DeadLetters.row(jobId).get("requeue_count")).isEqualTo("1");
    }

    @Test
    void aWorkflowNodesJobIsRequeuedAsAnyJobIs() throws Exception {
        Instant failedAt = Instant.now().minusSeconds(30).truncatedTo(ChronoUnit.MICROS);
        String jobId = DeadLetters.storeOpen(failedAt);
        DeadLetters.makeNode(jobId);
        String traceId = Jobs.get(jobId).getString("traceId");

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            Response response = DeadLetters.requeue(jobId, null);

            // the scheduler requeues the node's job and resumes its run in the same transaction
            assertThat(response.statusCode()).as(response.asString()).isEqualTo(202);
            JobCommandEvent command = JobCommands.single(probe, mapper, jobId, JobCommand.REQUEUE, traceId);
            assertThat(command.failedAt()).as("the failure it requeues").isEqualTo(failedAt);
        }
        assertThat(DeadLetters.row(jobId).get("state")).isEqualTo("REQUEUED");
    }

    @Test
    void aJobWithoutADeadLetterIs404() {
        String jobId = UUID.randomUUID().toString();

        for (Response response : new Response[] {DeadLetters.requeue(jobId, null), DeadLetters.requeue(jobId,
                "{\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"x\"}]}}")}) {
            assertThat(response.statusCode()).as(response.asString()).isEqualTo(404);
            assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.DEAD_LETTER_NOT_FOUND");
        }
    }

    private double counter(String name) {
        var counter = registry.find(name).counter();
        return counter == null ? 0 : counter.count();
    }
}
