package dev.jobweaver.api.job;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Job control end to end in the API: a submission's priority, start, timeout, retry delays, tenant and labels reach
 * the JobCreatedEvent and GET; an HTTP job's payload likewise; a request of the original API is unchanged.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobResourceJobControlTest {

    @Inject
    ObjectMapper mapper;

    private JobCreatedEvent published(KafkaProbe probe, String jobId) throws Exception {
        return probe.first(jobId, mapper, JobCreatedEvent.class);
    }

    private static String accepted(Response response) {
        assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(202);
        return response.jsonPath().getString("jobId");
    }

    @Test
    void everyControlFieldReachesTheEventAndGet() throws Exception {
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            String jobId = accepted(Jobs.submit("""
                    {"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"hi"}]},"maxRetryCount":2,
                     "priority":"HIGH","delayMs":60000,"timeoutMs":5000,"retryDelaysMs":[100,2000],"tenant":"acme",
                     "labels":{"team":"billing","env":"prod"}}"""));

            JobCreatedEvent event = published(probe, jobId);
            JobControl control = event.control();
            assertThat(control).isNotNull();
            assertThat(control.priority()).isEqualTo(Priority.HIGH);
            assertThat(control.runAt()).as("delayMs resolved against the acceptance")
                    .isEqualTo(event.createdAt().plusSeconds(60));
            assertThat(control.timeoutMs()).isEqualTo(5000L);
            assertThat(control.retryDelaysMs()).containsExactly(100L, 2000L);
            assertThat(control.tenant()).isEqualTo("acme");
            assertThat(control.labels()).isEqualTo(Map.of("team", "billing", "env", "prod"));

            JsonPath job = Jobs.get(jobId);
            assertThat(job.getString("priority")).isEqualTo("HIGH");
            assertThat(Instant.parse(job.getString("runAt"))).isEqualTo(control.runAt());
            assertThat(Instant.parse(job.getString("nextRunAt"))).as("PENDING until its start")
                    .isEqualTo(control.runAt());
            assertThat(job.getString("status")).isEqualTo("PENDING");
            assertThat(job.getLong("timeoutMs")).isEqualTo(5000L);
            assertThat(job.getList("retryDelaysMs", Long.class)).containsExactly(100L, 2000L);
            assertThat(job.getString("tenant")).isEqualTo("acme");
            assertThat(job.getMap("labels", String.class, String.class))
                    .isEqualTo(Map.of("team", "billing", "env", "prod"));
        }
    }

    @Test
    void runAtIsTheStartAndAPastOneMeansAtOnce() throws Exception {
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            Instant start = Instant.now().plus(Duration.ofDays(30)).truncatedTo(ChronoUnit.SECONDS);
            String later = accepted(Jobs.submit("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":"
                    + "\"LOG\",\"message\":\"hi\"}]},\"runAt\":\""
                    // ISO_OFFSET_DATE_TIME writes the seconds even when they are 0, which toString() leaves out
                    + DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(start.atOffset(ZoneOffset.ofHours(1))) + "\"}"));
            String past = accepted(Jobs.submit("""
                    {"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"hi"}]},
                     "runAt":"2001-01-01T00:00:00Z"}"""));

            assertThat(published(probe, later).control().runAt()).isEqualTo(start);
            JsonPath laterJob = Jobs.get(later);
            assertThat(Instant.parse(laterJob.getString("runAt"))).isEqualTo(start);
            assertThat(Instant.parse(laterJob.getString("nextRunAt"))).isEqualTo(start);

            JobCreatedEvent pastEvent = published(probe, past);
            assertThat(pastEvent.control().runAt()).isEqualTo(pastEvent.createdAt());
            JsonPath pastJob = Jobs.get(past);
            assertThat(pastJob.getString("nextRunAt")).isEqualTo(pastJob.getString("createdAt"));
        }
    }

    @Test
    void aRequestOfTheOriginalApiCarriesNoControlAndShowsTheDefaults() throws Exception {
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            String jobId = accepted(Jobs.submit(Jobs.VALID));

            String json = new String(probe.first(jobId).value(), StandardCharsets.UTF_8);
            assertThat(json).doesNotContain("control");

            String body = given().get("/api/jobs/" + jobId).then().statusCode(200).extract().asString();
            JsonPath job = new JsonPath(body);
            assertThat(job.getString("priority")).isEqualTo("NORMAL");
            assertThat(job.getString("tenant")).isEqualTo("default");
            assertThat(body).doesNotContain("\"runAt\"").doesNotContain("\"timeoutMs\"")
                    .doesNotContain("\"retryDelaysMs\"").doesNotContain("\"labels\"").doesNotContain("\"result\"");
        }
    }

    @Test
    void anHttpJobIsAcceptedAndShownWithItsPayload() throws Exception {
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            String jobId = accepted(Jobs.submit("""
                    {"jobType":"HTTP","payload":{"method":"POST","url":"https://hooks.example/x","headers":{"X-A":"1"},
                     "body":"{}","expectedStatus":[200,201],"timeoutMs":10000}}"""));

            JobCreatedEvent event = published(probe, jobId);
            assertThat(event.jobType()).isEqualTo(JobType.HTTP);
            assertThat(Payloads.http(event.payload()).url()).isEqualTo("https://hooks.example/x");
            assertThat(Payloads.http(event.payload()).expectedStatus()).containsExactly(200, 201);

            JsonPath job = Jobs.get(jobId);
            assertThat(job.getString("type")).isEqualTo("HTTP");
            assertThat(job.getString("payload.method")).isEqualTo("POST");
            assertThat(job.getString("payload.headers.X-A")).isEqualTo("1");
        }
    }

    @Test
    void badControlFieldsAre400sNamingTheField() {
        String steps = "\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"hi\"}]}";
        Map<String, String> refused = Map.of(
                "{\"jobType\":\"SIMULATION\"," + steps + ",\"runAt\":\"2001-01-31T09:00:00Z\",\"delayMs\":5}",
                "runAt and delayMs must not both be given",
                "{\"jobType\":\"SIMULATION\"," + steps + ",\"delayMs\":31536000001}", "delayMs must be between 0",
                "{\"jobType\":\"SIMULATION\"," + steps + ",\"runAt\":\"soon\"}", "runAt must be an ISO-8601 instant",
                "{\"jobType\":\"SIMULATION\"," + steps + ",\"tenant\":\"ACME\"}", "tenant must match",
                "{\"jobType\":\"SIMULATION\"," + steps + ",\"priority\":\"URGENT\"}", "priority 'URGENT'",
                "{\"jobType\":\"HTTP\",\"payload\":{\"method\":\"GET\"}}", "payload.url is required",
                "{\"jobType\":\"1BATCH\"," + steps + "}", "jobType is not valid: a job type must be a letter");
        refused.forEach((body, message) -> {
            Response response = Jobs.submit(body);
            assertThat(response.statusCode()).as(body).isEqualTo(400);
            assertThat(response.jsonPath().getString("errorCode")).as(body).isEqualTo("API.INVALID_JOB_REQUEST");
            assertThat(response.jsonPath().getString("message")).as(body).contains(message);
        });
    }
}
