package dev.jobweaver.api.job;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.testing.ConsumerTestSupport;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * job-status carries a completed job's result into the read model; a status without one (any other status, or an
 * event written before results existed) still applies and keeps the result the job has; CANCELLED is a terminal status
 * like the others.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobStatusConsumerResultTest extends ConsumerTestSupport {

    private static JobStatusChangedEvent withResult(JobStatusChangedEvent e, JsonNode result) {
        return new JobStatusChangedEvent(e.jobId(), e.status(), e.version(), e.attempts(), e.retryCount(),
                e.maxRetries(), e.nextRunAt(), e.lastError(), e.traceId(), e.changedAt(), e.startedAt(),
                e.finishedAt(), result);
    }

    @Test
    void theResultOfACompletionIsShownAndKept() throws Exception {
        String jobId = Jobs.submitOne();
        JsonNode result = mapper.readTree("{\"status\":201,\"body\":\"created\",\"headers\":{\"a\":[\"1\"]}}");

        KafkaProbe.send(Topics.JOB_STATUS, jobId, StatusEvents.json(mapper,
                withResult(StatusEvents.event(jobId, JobStatus.COMPLETED, 3, 1, null), result)));

        await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(Jobs.get(jobId).getString("status")));
        String body = given().get("/api/jobs/" + jobId).then().statusCode(200).extract().asString();
        assertThat(mapper.readTree(body).get("result")).isEqualTo(result);

        // a later status without a result (a newer version, as a requeue would send) leaves it in place
        StatusEvents.send(mapper, jobId, JobStatus.COMPLETED, 4, 2, null);
        await().atMost(Duration.ofSeconds(20)).until(() -> Jobs.get(jobId).getInt("attempts") == 2);
        assertThat(mapper.readTree(given().get("/api/jobs/" + jobId).then().extract().asString()).get("result"))
                .isEqualTo(result);
    }

    @Test
    void anEventWrittenBeforeResultsExistedStillApplies() {
        String jobId = Jobs.submitOne();
        Instant now = Instant.now();
        // the wire format of a scheduler that knows no result: no "result" field at all
        String old = "{\"jobId\":\"" + jobId + "\",\"status\":\"COMPLETED\",\"version\":2,\"attempts\":1,"
                + "\"retryCount\":0,\"maxRetries\":2,\"nextRunAt\":null,\"lastError\":null,"
                + "\"traceId\":\"0af7651916cd43dd8448eb211c80319c\",\"changedAt\":\"" + now + "\",\"startedAt\":\""
                + now + "\",\"finishedAt\":\"" + now + "\"}";

        KafkaProbe.send(Topics.JOB_STATUS, jobId, old.getBytes(StandardCharsets.UTF_8));

        await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(Jobs.get(jobId).getString("status")));
        String body = given().get("/api/jobs/" + jobId).then().statusCode(200).extract().asString();
        assertThat(body).doesNotContain("\"result\"");
        assertThat(new JsonPath(body).getString("finishedAt")).isNotNull();
    }

    @Test
    void cancelledIsApplied() {
        String jobId = Jobs.submitOne();

        StatusEvents.send(mapper, jobId, JobStatus.CANCELLED, 2, 0, null);

        await().atMost(Duration.ofSeconds(20)).until(() -> "CANCELLED".equals(Jobs.get(jobId).getString("status")));
        assertThat(Jobs.get(jobId).getString("finishedAt")).as("CANCELLED is terminal").isNotNull();
    }
}
