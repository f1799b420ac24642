package dev.jobweaver.worker.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafka.Outcome;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A handler's result travels with the outcome: stored with the run, published in {@code job-completed}, and published
 * again, unchanged, for a duplicate of the run; a row stored before results existed replays without one. HTTP jobs
 * call a server on 127.0.0.1, which the test configuration allows.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class OutcomeResultTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final AtomicInteger hits = new AtomicInteger();
    private static WorkerKafka kafka;
    private static HttpServer server;
    private static String base;

    @Inject
    Pool pool;

    @BeforeAll
    static void start() throws IOException {
        kafka = new WorkerKafka();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/hello", exchange -> {
            hits.incrementAndGet();
            byte[] body = "hello \"worker\"".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (var out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.createContext("/down", exchange -> {
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterAll
    static void stop() {
        kafka.close();
        server.stop(0);
    }

    @Test
    void anHttpJobsResultIsPublishedStoredAndRepublishedForADuplicate() {
        RunJobEvent run = WorkerKafka.run(JobType.HTTP, new HttpCallPayload("GET", base + "/hello", null, null, null,
                null), null);
        int hitsBefore = hits.get();
        kafka.send(run, null);

        Outcome first = await().atMost(WAIT).until(() -> kafka.outcomes(run.jobId()), l -> l.size() == 1).getFirst();
        assertThat(first.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(first.value().path("result")).isEqualTo(WorkerKafka.JSON.createObjectNode()
                .put("status", 200).put("body", "hello \"worker\"").put("truncated", false));
        assertThat(row(run.eventId()).getString("result")).isEqualTo(
                "{\"body\": \"hello \\\"worker\\\"\", \"status\": 200, \"truncated\": false}");

        kafka.send(run, null); // the scheduler dispatched the same attempt again
        Outcome second = await().atMost(WAIT).until(() -> kafka.outcomes(run.jobId()), l -> l.size() == 2).get(1);

        assertThat(second.value().path("result")).isEqualTo(first.value().path("result"));
        assertThat(hits.get()).as("the duplicate did not call again").isEqualTo(hitsBefore + 1);
    }

    @Test
    void anHttpJobAnsweredWithAnUnexpectedStatusFailsNamingIt() {
        RunJobEvent run = WorkerKafka.run(JobType.HTTP, new HttpCallPayload("POST", base + "/down", null, "{}",
                List.of(200), 5_000L), null);
        kafka.send(run, null);

        Outcome outcome = await().atMost(WAIT).until(() -> kafka.outcomes(run.jobId()), l -> !l.isEmpty()).getFirst();
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(outcome.errorMessage())
                .isEqualTo("WORKER.HTTP_CALL_FAILED: POST " + base + "/down answered 503, expected one of [200]");
        assertThat(row(run.eventId()).getString("result")).isNull();
    }

    @Test
    void aRunStoredBeforeResultsExistedIsRepublishedWithoutOne() {
        RunJobEvent run = WorkerKafka.run(JobType.HTTP, new HttpCallPayload("GET", base + "/hello", null, null, null,
                null), null);
        OffsetDateTime started = OffsetDateTime.now().minusMinutes(1).truncatedTo(ChronoUnit.MICROS);
        // A finished row as the worker wrote it before the result column: result stays NULL.
        pool.preparedQuery("INSERT INTO execution_attempts (event_id, job_id, attempt, trace_id, started_at,"
                        + " finished_at, outcome, worker_id) VALUES ($1, $2, 1, NULL, $3, $3, 'SUCCESS', 'an-old-worker')")
                .execute(Tuple.of(run.eventId(), run.jobId(), started)).await().atMost(WAIT);
        int hitsBefore = hits.get();

        kafka.send(run, null);

        Outcome outcome = await().atMost(WAIT).until(() -> kafka.outcomes(run.jobId()), l -> !l.isEmpty()).getFirst();
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(outcome.value().path("workerId").asText()).isEqualTo("an-old-worker");
        assertThat(outcome.value().has("result")).isFalse();
        assertThat(hits.get()).as("not run again").isEqualTo(hitsBefore);
    }

    private Row row(UUID eventId) {
        List<Row> rows = pool.preparedQuery("SELECT result::text AS result FROM execution_attempts WHERE event_id = $1")
                .execute(Tuple.of(eventId)).await().atMost(WAIT).stream().toList();
        assertThat(rows).hasSize(1);
        return rows.getFirst();
    }
}
