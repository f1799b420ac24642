package dev.jobweaver.scheduler.observability;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.testing.JobWeaverTest;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The queue gauges on the real database: the grouped query counts each queue's due jobs and the jobs set aside for
 * want of a worker, nothing else; the backlog refresh sets the gauges from it and from the live workers, and a queue
 * whose jobs and workers are gone reads 0.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class QueueGaugesRefreshTest extends KafkaAndDbTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Inject
    MeterRegistry registry;

    @Test
    void theQueryCountsTheDueAndTheParkedJobsOfEachQueueOnce() {
        String due = queue("due");
        String parked = queue("parked");
        String later = queue("later");
        // Rows of an uncommitted transaction, read in it: no claim of the running dispatcher parks or takes them.
        Map<String, QueueRow> rows = inRolledBackTransaction(tx -> insert(tx, due, "PENDING", -100, null)
                .chain(() -> insert(tx, due, "PENDING", -30, null))
                .chain(() -> insert(tx, due, "PENDING", 3600, null))
                .chain(() -> insert(tx, due, "RUNNING", -500, null))
                // set aside, due again in 10 minutes; its wait counts from its parking
                .chain(() -> insert(tx, parked, "PENDING", 600, 200))
                // set aside long ago and due again: counted once, from its parking
                .chain(() -> insert(tx, parked, "PENDING", -5, 900))
                // cancelled while set aside (the row stays until a release forgets it): not waiting
                .chain(() -> insert(tx, parked, "CANCELLED", 600, 3000))
                .chain(() -> insert(tx, later, "PENDING", 60, null))
                .chain(() -> reads.queueBacklog(tx)))
                .stream().collect(Collectors.toMap(QueueRow::queue, r -> r));

        assertThat(rows).containsKeys(due, parked).doesNotContainKey(later);
        assertThat(rows.get(due).depth()).isEqualTo(2);
        assertThat(rows.get(due).oldestAgeSeconds()).isCloseTo(100, within(1.0));
        assertThat(rows.get(parked).depth()).isEqualTo(2);
        assertThat(rows.get(parked).oldestAgeSeconds()).isCloseTo(900, within(1.0));
    }

    @Test
    void theRefreshSetsEachQueuesDepthAndWorkersAndAQueueThatEmptiesReadsZero() {
        String queue = queue("refresh");
        String worker = "worker-" + queue;
        List<UUID> jobs = List.of(UUID.randomUUID(), UUID.randomUUID());
        try {
            // committed: the dispatcher sets them aside (no worker serves the queue); they wait either way
            for (UUID jobId : jobs) {
                db.update("INSERT INTO job_executions (job_id, job_type, instruction, job_status, max_retries,"
                        + " next_run_at, created_at, updated_at, queue) VALUES ($1, 'SIMULATION', '{}'::jsonb,"
                        + " 'PENDING', 0, now() - interval '1 minute', now(), now(), $2)", jobId, queue);
            }
            await().atMost(TIMEOUT).untilAsserted(() -> {
                assertThat(value(QueueGauges.DEPTH, queue)).isEqualTo(2.0);
                assertThat(value(QueueGauges.WORKERS, queue)).isEqualTo(0.0);
                assertThat(value(QueueGauges.OLDEST_AGE, queue)).isGreaterThan(0.0);
            });

            // a worker of the queue, of another type than the jobs': it serves the queue, the jobs still wait
            db.update("INSERT INTO workers (worker_id, queues, types, capacity, started_at, sent_at, live_until)"
                    + " VALUES ($1, $2, $3, 4, now(), now(), now() + interval '1 hour')", worker,
                    new String[] {queue}, new String[] {"report.monthly"});
            workers.refresh().await().atMost(TIMEOUT);
            await().atMost(TIMEOUT).untilAsserted(() -> {
                assertThat(value(QueueGauges.WORKERS, queue)).isEqualTo(1.0);
                assertThat(value(QueueGauges.DEPTH, queue)).isEqualTo(2.0);
            });

            db.update("DELETE FROM job_executions WHERE job_id = ANY($1)", (Object) jobs.toArray(UUID[]::new));
            await().atMost(TIMEOUT).untilAsserted(() -> {
                assertThat(value(QueueGauges.DEPTH, queue)).isZero();
                assertThat(value(QueueGauges.OLDEST_AGE, queue)).isZero();
            });

            db.update("UPDATE workers SET live_until = now() - interval '1 second' WHERE worker_id = $1", worker);
            workers.refresh().await().atMost(TIMEOUT);
            await().atMost(TIMEOUT).untilAsserted(() -> assertThat(value(QueueGauges.WORKERS, queue)).isZero());

            String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
            assertThat(metrics).contains("jobweaver_queue_pending_depth{queue=\"" + queue + "\"} 0.0",
                    "jobweaver_queue_pending_oldest_age_seconds{queue=\"default\"}",
                    "jobweaver_queue_workers{queue=\"default\"} 1.0");
        } finally {
            db.update("DELETE FROM job_executions WHERE job_id = ANY($1)", (Object) jobs.toArray(UUID[]::new));
            db.update("DELETE FROM workers WHERE worker_id = $1", worker);
        }
    }

    private static String queue(String what) {
        return what + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A job of {@code queue}, due {@code dueIn} s from now; set aside {@code parkedAgo} s ago unless null. */
    private static Uni<Void> insert(SqlConnection tx, String queue, String status, long dueIn,
                                    Integer parkedAgo) {
        UUID jobId = UUID.randomUUID();
        String job = "INSERT INTO job_executions (job_id, job_type, instruction, job_status, max_retries, next_run_at,"
                + " lease_until, created_at, updated_at, queue) VALUES ($1, 'SIMULATION', '{}'::jsonb, $2::text, 0,"
                + " now() + make_interval(secs => $3),"
                + " CASE WHEN $2::text = 'RUNNING' THEN now() + interval '1 minute' END, now(), now(), $4)";
        Uni<Void> inserted = tx.preparedQuery(job)
                .execute(Tuple.of(jobId, status, (double) dueIn, queue)).replaceWithVoid();
        if (parkedAgo == null) {
            return inserted;
        }
        return inserted.chain(() -> tx.preparedQuery("INSERT INTO parked_jobs (job_id, queue, job_type, parked_at)"
                        + " VALUES ($1, $2, 'SIMULATION', now() - make_interval(secs => $3))")
                .execute(Tuple.of(jobId, queue, (double) parkedAgo)).replaceWithVoid());
    }

    private <T> T inRolledBackTransaction(Function<SqlConnection, Uni<T>> work) {
        return pool.withConnection(c -> c.begin().chain(tx -> work.apply(c).call(tx::rollback)))
                .await().atMost(TIMEOUT);
    }

    private double value(String name, String queue) {
        Gauge gauge = registry.find(name).tag("queue", queue).gauge();
        assertThat(gauge).as("%s{queue=%s}", name, queue).isNotNull();
        return gauge.value();
    }
}
