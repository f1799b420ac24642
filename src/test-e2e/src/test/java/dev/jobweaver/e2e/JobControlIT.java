package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Job control on the packaged services: priority, tenant and labels travel with the job and filter the list; a delayed
 * job waits for its time and then starts promptly; a per-job timeout fails a long attempt with WORKER.TIMEOUT; a job's
 * own retry delays replace the backoff.
 */
@HealthyPlatform
class JobControlIT {

    @Test
    void priorityTenantAndLabelsAreShownAndFilterTheList() {
        JobWeaverClient api = E2ePlatform.api();
        String run = UUID.randomUUID().toString().substring(0, 8);
        UUID low = api.submitAccepted(body("\"priority\":\"LOW\",\"tenant\":\"team-e2e\",\"labels\":{\"run\":\"" + run
                + "\",\"suite\":\"job-control\"}"));
        UUID high = api.submitAccepted(body("\"priority\":\"HIGH\",\"tenant\":\"team-e2e\",\"labels\":{\"run\":\""
                + run + "\"}"));

        JsonNode job = api.awaitAll(List.of(low), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(low);
        assertThat(job.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(job.path("priority").asText()).isEqualTo("LOW");
        assertThat(job.path("tenant").asText()).isEqualTo("team-e2e");
        assertThat(job.path("labels").path("suite").asText()).isEqualTo("job-control");

        assertThat(ids(api.get("/api/jobs?label=run:" + run + "&size=100").body()))
                .containsExactlyInAnyOrder(low.toString(), high.toString());
        assertThat(ids(api.get("/api/jobs?label=run:" + run + "&label=suite:job-control").body()))
                .containsExactly(low.toString());
        assertThat(ids(api.get("/api/jobs?label=run:" + run + "&priority=HIGH").body()))
                .containsExactly(high.toString());
        assertThat(ids(api.get("/api/jobs?label=run:" + run + "&tenant=default").body())).isEmpty();
        assertThat(api.get("/api/jobs?priority=URGENT").status()).isEqualTo(400);
    }

    @Test
    void aDelayedJobWaitsForItsTimeThenStartsPromptly() {
        JobWeaverClient api = E2ePlatform.api();
        Instant before = Instant.now();
        UUID id = api.submitAccepted(body("\"delayMs\":3000"));

        JsonNode waiting = api.job(id);
        assertThat(waiting.path("status").asText()).isEqualTo("PENDING");
        Instant runAt = Instant.parse(waiting.path("runAt").asText());
        assertThat(runAt).isBetween(before.plusMillis(3000), Instant.now().plusMillis(3000));

        JsonNode done = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(id);
        assertThat(done.path("status").asText()).isEqualTo("COMPLETED");
        Instant started = Executions.firstStart(id);
        assertThat(started).as("the worker's start, never before runAt " + runAt).isAfterOrEqualTo(runAt);
        // the bench measures the p99 against 100 ms; here one job on a shared CI machine gets a wide bound
        assertThat(Duration.between(runAt, started)).as("start after runAt").isLessThan(Duration.ofSeconds(2));
        System.out.printf("[measure] delayed job started %d ms after its runAt%n",
                Duration.between(runAt, started).toMillis());
    }

    @Test
    void anAttemptOverItsTimeoutFailsWithWorkerTimeout() {
        JobWeaverClient api = E2ePlatform.api();
        long t0 = System.nanoTime();
        UUID id = api.submitAccepted("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"SLEEP\","
                + "\"durationMs\":30000}]},\"maxRetryCount\":0,\"timeoutMs\":500}");

        JsonNode job = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(id);

        assertThat(job.path("status").asText()).isEqualTo("FAILED");
        assertThat(job.path("lastError").asText()).contains("WORKER.TIMEOUT");
        assertThat(job.path("timeoutMs").asLong()).isEqualTo(500);
        assertThat((System.nanoTime() - t0) / 1_000_000).as("ms to FAILED, far below the 30 s sleep")
                .isLessThan(15_000);
    }

    @Test
    void aJobsOwnRetryDelaysReplaceTheBackoff() {
        JobWeaverClient api = E2ePlatform.api();
        UUID id = api.submitAccepted("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"FAIL\","
                + "\"message\":\"always\"}]},\"maxRetryCount\":2,\"retryDelaysMs\":[100,200]}");

        JsonNode job = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(id);

        assertThat(job.path("status").asText()).isEqualTo("FAILED");
        assertThat(job.path("attempts").asInt()).isEqualTo(3);
        assertThat(job.path("retryDelaysMs").size()).isEqualTo(2);
        // Without the job's delays the e2e platform's backoff (2 s, then 4 s, no jitter) would set the gaps between
        // the attempts, 6 s together at least; with them, each gap is its delay plus an outcome's way to the
        // scheduler and a dispatch.
        List<Duration> gaps = Executions.gaps(id);
        assertThat(gaps).as("gaps between the 3 attempts").hasSize(2);
        assertThat(gaps.get(0).plus(gaps.get(1))).as("both gaps, 100 and 200 ms asked: %s", gaps)
                .isLessThan(E2ePlatform.BACKOFF_BASE.multipliedBy(3));
        System.out.printf("[measure] retries with their own delays of 100 and 200 ms: gaps %d and %d ms%n",
                gaps.get(0).toMillis(), gaps.get(1).toMillis());
    }

    @Test
    void badJobControlIsRefusedNamingTheField() {
        JobWeaverClient api = E2ePlatform.api();

        JobWeaverClient.Answer both = api.submit(body("\"delayMs\":1000,\"runAt\":\"2030-01-01T00:00:00Z\""));
        assertThat(both.status()).isEqualTo(400);
        assertThat(both.body().path("message").asText()).contains("runAt").contains("delayMs");

        JobWeaverClient.Answer priority = api.submit(body("\"priority\":\"URGENT\""));
        assertThat(priority.status()).isEqualTo(400);
        assertThat(priority.body().path("message").asText()).contains("priority");

        JobWeaverClient.Answer type = api.submit("{\"jobType\":\"ROCKET LAUNCH\",\"payload\":{}}");
        assertThat(type.status()).isEqualTo(400);
        assertThat(type.body().path("message").asText()).contains("jobType").contains("ROCKET LAUNCH");
    }

    private static String body(String control) {
        return "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"control\"}]},"
                + "\"maxRetryCount\":0," + control + "}";
    }

    private static List<String> ids(JsonNode page) {
        return page.path("jobs").findValuesAsText("id");
    }
}
