package dev.jobweaver.worker.run;

import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.handler.RunResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.worker.testing.PrometheusScrape;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafka.Outcome;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;

/** A record's way through the worker against the real broker and database: runs, idempotency, failures, threads. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class JobRunnerTest extends WorkerKafkaTest {

    @Test
    void aJobRunsAndItsCompletionIsPublishedWithTheOutcomeEventId() {
        RunJobEvent run = WorkerKafka.run(new Step.Log("hello " + UUID.randomUUID()), new Step.Compute(1000L),
                new Step.HttpCall("http://example.invalid", 10L), new Step.Sleep(10L));
        kafka.send(run, null);

        Outcome outcome = firstOutcome(run.jobId());
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(outcome.eventIdHeader()).isEqualTo(EventIds.outcomeEventId(run.eventId()).toString());
        assertThat(outcome.value().path("eventId").asText()).isEqualTo(run.eventId().toString());
        assertThat(outcome.value().path("attempt").asInt()).isEqualTo(1);
        assertThat(row(run.eventId()).getString("outcome")).isEqualTo("SUCCESS");
    }

    @Test
    void aFailingStepProducesJobFailedWithItsMessageAndStopsTheRun() {
        String message = "simulated failure " + UUID.randomUUID();
        RunJobEvent run = WorkerKafka.run(new Step.Log("before"), new Step.Fail(message), new Step.Sleep(30_000L));
        kafka.send(run, null);

        Outcome outcome = firstOutcome(run.jobId());
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(outcome.errorMessage()).isEqualTo(message);
        assertThat(outcome.key()).isEqualTo(run.jobId().toString());
        Row row = row(run.eventId());
        assertThat(row.getString("outcome")).isEqualTo("FAILURE");
        assertThat(row.getString("error_message")).isEqualTo(message);
        // The SLEEP after the FAIL did not run: the run ended well within its 30 s.
        assertThat(Duration.between(row.getOffsetDateTime("started_at"), row.getOffsetDateTime("finished_at")))
                .isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aDuplicateOfAFinishedRunRepublishesTheStoredOutcomeWithoutRunningAgain() {
        RunJobEvent run = WorkerKafka.run(new Step.Sleep(200L), new Step.Log("once"));
        double republishedBefore = PrometheusScrape.sum("jobweaver_worker_outcomes_total", "outcome=\"republished\"");
        kafka.send(run, null);
        Outcome first = await().atMost(WAIT).until(() -> kafka.outcomes(run.jobId()), l -> l.size() == 1).getFirst();
        Row stored = row(run.eventId());

        kafka.send(run, null); // the scheduler dispatched the same attempt again
        Outcome second = await().atMost(WAIT).until(() -> kafka.outcomes(run.jobId()), l -> l.size() == 2).get(1);

        assertThat(second.eventIdHeader()).isEqualTo(first.eventIdHeader());
        // Not run again: the re-published outcome carries the first run's times, and the row did not change.
        assertThat(second.value().path("startedAt").asText()).isEqualTo(first.value().path("startedAt").asText());
        assertThat(second.value().path("finishedAt").asText()).isEqualTo(first.value().path("finishedAt").asText());
        assertThat(row(run.eventId()).getOffsetDateTime("finished_at")).isEqualTo(stored.getOffsetDateTime("finished_at"));
        assertThat(PrometheusScrape.sum("jobweaver_worker_outcomes_total", "outcome=\"republished\""))
                .isEqualTo(republishedBefore + 1);
    }

    @Test
    void aDuplicateOfARunInProgressWaitsForItThenRepublishesItsOutcome() {
        RunJobEvent run = WorkerKafka.run(new Step.Sleep(1_500L), new Step.Log("in progress"));
        double waitedBefore = PrometheusScrape.sum("jobweaver_worker_outcomes_total",
                "outcome=\"duplicate-in-progress\"");
        kafka.send(run, null);
        await().atMost(WAIT).until(() -> rowOrNull(run.eventId()) != null);

        kafka.send(run, null); // dispatched again while the first delivery still runs it

        List<Outcome> both = await().atMost(WAIT).until(() -> kafka.outcomes(run.jobId()), l -> l.size() == 2);
        assertThat(both).extracting(Outcome::eventIdHeader).containsOnly(both.getFirst().eventIdHeader());
        assertThat(both.get(1).value().path("startedAt").asText()).as("one run: the same times")
                .isEqualTo(both.getFirst().value().path("startedAt").asText());
        assertThat(PrometheusScrape.sum("jobweaver_worker_outcomes_total", "outcome=\"duplicate-in-progress\""))
                .isEqualTo(waitedBefore + 1);
    }

    @Test
    void aRunLeftRunningByAStoppedWorkerIsClosedAsFailedAndReported() {
        RunJobEvent run = WorkerKafka.run(new Step.Log("never runs here"));
        OffsetDateTime started = OffsetDateTime.now().minusMinutes(5).truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        pool.preparedQuery("INSERT INTO execution_attempts (event_id, job_id, attempt, trace_id, started_at, outcome,"
                        + " worker_id) VALUES ($1, $2, 1, NULL, $3, 'RUNNING', 'a-worker-that-died')")
                .execute(Tuple.of(run.eventId(), run.jobId(), started)).await().atMost(WAIT);

        kafka.send(run, null);

        Outcome outcome = firstOutcome(run.jobId());
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(outcome.errorMessage()).isEqualTo(RunResult.WORKER_STOPPED_MESSAGE);
        assertThat(outcome.value().path("workerId").asText()).isEqualTo("a-worker-that-died");
        Row row = row(run.eventId());
        assertThat(row.getString("outcome")).isEqualTo("FAILURE");
        assertThat(row.getOffsetDateTime("started_at").toInstant()).isEqualTo(started.toInstant());
    }

    @Test
    void aRunStillGoingOnAnotherWorkerIsWaitedForNotFailed() {
        RunJobEvent run = WorkerKafka.run(new Step.Log("runs on the other worker"));
        OffsetDateTime started = OffsetDateTime.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        pool.preparedQuery("INSERT INTO execution_attempts (event_id, job_id, attempt, trace_id, started_at, outcome,"
                        + " worker_id) VALUES ($1, $2, 1, NULL, $3, 'RUNNING', 'a-worker-still-running')")
                .execute(Tuple.of(run.eventId(), run.jobId(), started)).await().atMost(WAIT);

        kafka.send(run, null); // the partition moved while the other worker runs it
        await().pollDelay(Duration.ofSeconds(2)).atMost(WAIT).until(() -> true);
        assertThat(kafka.outcomes(run.jobId())).as("nothing published while the other worker runs it").isEmpty();

        OffsetDateTime finished = OffsetDateTime.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        pool.preparedQuery("UPDATE execution_attempts SET outcome = 'SUCCESS', finished_at = $2 WHERE event_id = $1")
                .execute(Tuple.of(run.eventId(), finished)).await().atMost(WAIT);

        Outcome outcome = firstOutcome(run.jobId());
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(outcome.value().path("workerId").asText()).isEqualTo("a-worker-still-running");
        assertThat(row(run.eventId()).getString("outcome")).isEqualTo("SUCCESS");
    }

    @Test
    void stepsRunOnVirtualThreads() {
        double virtualBefore = PrometheusScrape.sum("jobweaver_worker_steps_total", "action=\"COMPUTE\"",
                "virtual_thread=\"true\"");
        // Tests that call the StepExecutor on their own platform thread count there too: compare, not mere presence.
        double platformBefore = PrometheusScrape.sum("jobweaver_worker_steps_total", "virtual_thread=\"false\"");
        RunJobEvent run = WorkerKafka.run(new Step.Compute(10L), new Step.Compute(20L), new Step.Log("on a virtual thread"));
        kafka.send(run, null);
        firstOutcome(run.jobId());

        assertThat(PrometheusScrape.sum("jobweaver_worker_steps_total", "action=\"COMPUTE\"", "virtual_thread=\"true\""))
                .isEqualTo(virtualBefore + 2);
        assertThat(PrometheusScrape.sum("jobweaver_worker_steps_total", "virtual_thread=\"false\""))
                .as("steps run on a platform thread").isEqualTo(platformBefore);
    }

    @Test
    void aMalformedRecordIsQuarantinedAndCommittedPast() {
        double before = PrometheusScrape.sum("jobweaver_quarantined_total", "topic=\"run-job\"",
                "reason=\"unreadable\"");
        RecordMetadata bad = kafka.sendRaw(UUID.randomUUID().toString(), "{not json", UUID.randomUUID(), 0, null);
        RunJobEvent after = WorkerKafka.run(new Step.Log("after the malformed one"));
        RecordMetadata good = kafka.send(after, 0);

        firstOutcome(after.jobId());
        await().atMost(WAIT).untilAsserted(() -> assertThat(PrometheusScrape.sum("jobweaver_quarantined_total",
                "topic=\"run-job\"", "reason=\"unreadable\"")).isEqualTo(before + 1));
        await().atMost(WAIT).untilAsserted(() -> {
            OffsetAndMetadata committed = kafka.committed(0);
            assertThat(committed).isNotNull();
            assertThat(committed.offset()).isGreaterThan(Math.max(bad.offset(), good.offset()));
        });
    }

    private Row row(UUID eventId) {
        List<Row> rows = pool.preparedQuery("SELECT * FROM execution_attempts WHERE event_id = $1")
                .execute(Tuple.of(eventId)).await().atMost(WAIT).stream().toList();
        assertThat(rows).hasSize(1);
        return rows.getFirst();
    }

    /** The run's row, or null while there is none. */
    private Row rowOrNull(UUID eventId) {
        List<Row> rows = pool.preparedQuery("SELECT * FROM execution_attempts WHERE event_id = $1")
                .execute(Tuple.of(eventId)).await().atMost(WAIT).stream().toList();
        return rows.isEmpty() ? null : rows.getFirst();
    }
}
