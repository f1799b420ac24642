package dev.jobweaver.api.job;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.JobCommands;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.api.testing.Broker;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * With Kafka stopped, submissions are still answered 202 at once (the job is committed; Kafka delays it, it does not
 * refuse it), readiness and start-up stay UP, readiness shows the backlog and the broker's state; once Kafka is back, every one of those
 * jobs reaches job-created within seconds (the relay's retry, not the sweeper's age rule), exactly once, and the
 * backlog empties. A cancel or delete, which waits for Kafka, is answered 503 with Retry-After within its timeout,
 * changes nothing and is never published afterwards; retried once Kafka is back, it succeeds. A workflow run's retry
 * is answered 503 likewise, the run as it was (its RETRY may still reach Kafka later: it names the end it retries, so
 * the one repeated after the outage retries once), and succeeds once Kafka is back. (One class, so that the
 * broker is stopped once for both.)
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobSubmissionKafkaOutageTest {

    @Inject
    ObjectMapper mapper;

    @Test
    void jobsAcceptedWhileKafkaIsDownArePublishedOnceWhenItIsBack() throws Exception {
        List<String> accepted = new ArrayList<>();
        String toCancel = Jobs.submitOne();
        String toDelete = Jobs.submitOne();
        JobCommands.setStatus(toDelete, JobStatus.FAILED);
        String workflowId = Workflows.createOne();
        String failedRun = Workflows.start(workflowId, "{}").getString("runId");
        KafkaProbe.sendAll(List.of(Workflows.progress(mapper, Workflows.progressEvent(UUID.fromString(failedRun),
                workflowId, 1, WorkflowRunStatus.FAILED, Map.of("extract", NodeStatus.FAILED), List.of()))));
        await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(Workflows.run(failedRun)
                .getString("status")));
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED);
             KafkaProbe commands = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            // one accepted and published before the outage, so the producer has live metadata when the broker goes
            String before = Jobs.submitOne();
            probe.pollUntil(seen -> seen.stream().anyMatch(r -> before.equals(r.key())), Duration.ofSeconds(30));
            // likewise for the command producer
            String cancelledBefore = Jobs.submitOne();
            assertThat(JobCommands.cancel(cancelledBefore).statusCode()).isEqualTo(202);

            Broker.stop();
            try {
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                        .until(() -> String.valueOf(relay().get("kafka")).startsWith("unreachable"));
                for (int i = 0; i < 5; i++) {
                    long started = System.nanoTime();
                    Response response = Jobs.submit(Jobs.VALID);
                    long tookMs = (System.nanoTime() - started) / 1_000_000;

                    assertThat(response.statusCode()).as("submission while Kafka is down: " + response.body().asString())
                            .isEqualTo(202);
                    // answered on commit: nothing waits for the broker
                    assertThat(tookMs).as("answer time while Kafka is down").isLessThan(2_000);
                    String jobId = response.jsonPath().getString("jobId");
                    accepted.add(jobId);
                    assertThat(Jobs.get(jobId).getString("status")).isEqualTo("PENDING");
                }
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250))
                        .until(() -> ((Number) relay().get("backlogJobs")).longValue() >= accepted.size());
                assertThat(given().get("/q/health/ready").statusCode()).as("ready while Kafka is down").isEqualTo(200);
                // a pod started during the outage must not be restarted by its start-up probe
                assertThat(given().get("/q/health/started").statusCode()).as("started while Kafka is down").isEqualTo(200);
                assertThat(relay()).containsEntry("accepting", true);

                // both at once: each waits out the command timeout on its own
                try (ExecutorService callers = Executors.newFixedThreadPool(2)) {
                    Future<?> cancel = callers.submit(() -> commandRefused(JobCommands::cancel, "cancel", toCancel));
                    Future<?> delete = callers.submit(() -> commandRefused(JobCommands::delete, "delete", toDelete));
                    awaitCall(cancel);
                    awaitCall(delete);
                }
                // a workflow run's retry waits for Kafka too: 503 within the command timeout, the run as it was
                long started = System.nanoTime();
                Response retry = given().post("/api/workflow-runs/" + failedRun + "/retry");
                assertThat(retry.statusCode()).as("retry while Kafka is down: " + retry.asString()).isEqualTo(503);
                assertThat(retry.jsonPath().getString("errorCode")).isEqualTo("API.SERVICE_UNAVAILABLE");
                assertThat(retry.jsonPath().getString("message")).contains("retry of workflow run " + failedRun)
                        .contains("Kafka");
                assertThat(retry.header("Retry-After")).isEqualTo("5");
                assertThat((System.nanoTime() - started) / 1_000_000).as("within the command timeout")
                        .isLessThan(8_000L);
                assertThat(Workflows.run(failedRun).getString("status")).isEqualTo("FAILED");
                assertThat(Jobs.get(toCancel).getString("status")).isEqualTo("PENDING");
                assertThat(Jobs.get(toDelete).getString("status")).as("a delete refused deletes nothing")
                        .isEqualTo("FAILED");
            } finally {
                Broker.start();
            }

            // The relay retries what Kafka refused every second: the jobs flow within seconds of the broker's
            // return, long before the sweeper's age rule (38 s) would publish them.
            List<ConsumerRecord<String, byte[]>> records = probe.pollUntil(
                    seen -> seen.stream().map(ConsumerRecord::key).collect(Collectors.toSet()).containsAll(accepted),
                    Duration.ofSeconds(15));
            assertThat(records.stream().map(ConsumerRecord::key).collect(Collectors.toSet()))
                    .as("jobs accepted during the outage on job-created within 15 s of the broker's return")
                    .containsAll(accepted);
            // keep listening a little: a second copy would come from the sweeper or a producer retry
            records = probe.pollFor(Duration.ofSeconds(3));
            Map<String, Long> copies = records.stream().map(ConsumerRecord::key)
                    .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));

            for (String jobId : accepted) {
                assertThat(copies.get(jobId)).as("copies of job %s on job-created", jobId).isEqualTo(1L);
            }
            // a command answered 503 was given up by the producer before the answer: never sent afterwards
            commands.pollFor(Duration.ofSeconds(3));
            assertThat(commands.withKey(toCancel)).as("cancels refused during the outage, on job-commands").isEmpty();
            assertThat(commands.withKey(toDelete)).as("deletes refused during the outage, on job-commands").isEmpty();
        }
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250))
                .until(() -> ((Number) relay().get("backlogJobs")).longValue() == 0);
        assertThat(String.valueOf(relay().get("kafka"))).startsWith("reachable");
        assertThat(JobCommands.cancel(toCancel).statusCode()).as("a cancel retried once Kafka is back").isEqualTo(202);
        assertThat(JobCommands.delete(toDelete).statusCode()).as("a delete retried once Kafka is back").isEqualTo(204);
        assertThat(given().post("/api/workflow-runs/" + failedRun + "/retry").statusCode())
                .as("a run's retry repeated once Kafka is back").isEqualTo(202);
    }

    /** {@code command} of {@code jobId} while Kafka is down: 503 with Retry-After within the command timeout (5 s). */
    private static void commandRefused(Function<String, Response> command, String name, String jobId) {
        long started = System.nanoTime();
        Response response = command.apply(jobId);
        long tookMs = (System.nanoTime() - started) / 1_000_000;

        assertThat(response.statusCode()).as(name + " while Kafka is down: " + response.body().asString())
                .isEqualTo(503);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.SERVICE_UNAVAILABLE");
        assertThat(response.jsonPath().getString("jobId")).isEqualTo(jobId);
        assertThat(response.jsonPath().getString("message")).contains(name).contains(jobId).contains("retry later");
        assertThat(response.header("Retry-After")).isEqualTo("5");
        // the timeout plus its grace (5.5 s), and a little for the request itself
        assertThat(tookMs).as(name + " answer time while Kafka is down").isBetween(1_000L, 8_000L);
    }

    /** Waits for {@code call} and fails as it failed. */
    private static void awaitCall(Future<?> call) throws Exception {
        try {
            call.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /** The relay's readiness details. */
    static Map<String, Object> relay() {
        JsonPath health = new JsonPath(given().get("/q/health/ready").body().asString());
        return health.getMap("checks.find { it.name.startsWith('outbox relay') }.data");
    }
}
