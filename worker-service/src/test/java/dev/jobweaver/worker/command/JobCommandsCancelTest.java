package dev.jobweaver.worker.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.JobLog;
import dev.jobweaver.worker.testing.PrometheusScrape;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafka.Outcome;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A CANCEL on worker-commands: a running attempt of the job is interrupted (a sleep at once, other steps at the next
 * boundary) and ends WORKER.CANCELLED, stored and published; a run-job record of a job cancelled before it arrived is
 * closed WORKER.CANCELLED without running.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class JobCommandsCancelTest extends WorkerKafkaTest {

    @Inject
    StoppedJobs stopped;

    private final JobLog log = new JobLog();

    @BeforeEach
    void listen() {
        log.listen();
    }

    @AfterEach
    void stopListening() {
        log.close();
    }

    @Test
    void aRunningSleepIsInterruptedAtOnceAndTheAttemptFailsCancelled() {
        double cancelledBefore = cancelled("while-running");
        String sleeping = "about to sleep " + UUID.randomUUID();
        RunJobEvent run = WorkerKafka.run(new Step.Log(sleeping), new Step.Sleep(30_000L));
        kafka.send(run, null);
        // the row is RUNNING before the attempt starts its steps; the log line says the sleep is next
        await().atMost(WAIT)
                .until(() -> log.messages().contains(sleeping) && "RUNNING".equals(outcome(run.eventId())));

        long sent = System.nanoTime();
        kafka.send(WorkerKafka.command(run.jobId(), JobCommand.CANCEL));
        Outcome outcome = firstOutcome(run.jobId());
        Duration took = Duration.ofNanos(System.nanoTime() - sent);

        assertThat(outcome.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(outcome.errorMessage()).isEqualTo("WORKER.CANCELLED: the job was cancelled while the attempt ran");
        Row row = row(run.eventId());
        assertThat(row.getString("outcome")).isEqualTo("FAILURE");
        assertThat(row.getString("error_message")).isEqualTo(outcome.errorMessage());
        // Well before the 30 s sleep would have run out (about a second on a quiet machine). The command's way in and
        // the outcome's way back through Kafka are part of the measure, hence the margin for a loaded one.
        assertThat(took).isLessThan(Duration.ofSeconds(10));
        assertThat(Duration.between(row.getOffsetDateTime("started_at"), row.getOffsetDateTime("finished_at")))
                .isLessThan(Duration.ofSeconds(25));
        await().atMost(WAIT).untilAsserted(() -> assertThat(cancelled("while-running"))
                .isGreaterThanOrEqualTo(cancelledBefore + 1));
    }

    @Test
    void aMultiStepRunStopsAtTheStepRunningWhenCancelledAndRunsNoLaterStep() {
        String before = "before the compute " + UUID.randomUUID();
        String after = "after the compute " + UUID.randomUUID();
        // Long enough to be running when the cancel comes (about 10 s on these machines), bounded by the derived bound.
        RunJobEvent run = WorkerKafka.run(new Step.Log(before), new Step.Compute(20_000_000_000L),
                new Step.Log(after), new Step.Sleep(10L));
        kafka.send(run, null);
        await().atMost(WAIT).until(() -> log.messages().contains(before));

        kafka.send(WorkerKafka.command(run.jobId(), JobCommand.CANCEL));
        Outcome outcome = firstOutcome(run.jobId());

        assertThat(outcome.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(outcome.errorMessage()).startsWith("WORKER.CANCELLED");
        assertThat(log.messages()).as("the LOG step after the cancelled COMPUTE").doesNotContain(after);
        assertThat(row(run.eventId()).getString("error_message")).startsWith("WORKER.CANCELLED");
    }

    @Test
    void aRunOfAJobCancelledBeforeItsRecordArrivedIsClosedCancelledWithoutRunning() {
        double cancelledBefore = cancelled("before-start");
        String step = "a step of a cancelled job " + UUID.randomUUID();
        RunJobEvent run = WorkerKafka.run(new Step.Log(step), new Step.Sleep(10L));
        kafka.send(WorkerKafka.command(run.jobId(), JobCommand.CANCEL));
        await().atMost(WAIT).until(() -> stopped.command(run.jobId()) == JobCommand.CANCEL);

        kafka.send(run, null);
        Outcome outcome = firstOutcome(run.jobId());

        assertThat(outcome.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(outcome.errorMessage())
                .isEqualTo("WORKER.CANCELLED: the job was cancelled before the attempt started");
        assertThat(row(run.eventId()).getString("outcome")).isEqualTo("FAILURE");
        assertThat(log.messages()).as("the handler was not called").doesNotContain(step);
        await().atMost(WAIT).untilAsserted(() -> assertThat(cancelled("before-start"))
                .isGreaterThanOrEqualTo(cancelledBefore + 1));

        // A redelivery re-publishes the stored outcome, as for any finished run.
        kafka.send(run, null);
        List<Outcome> both = await().atMost(WAIT).until(() -> kafka.outcomes(run.jobId()), l -> l.size() >= 2);
        assertThat(both.get(1).errorMessage()).isEqualTo(outcome.errorMessage());
        assertThat(both.get(1).eventIdHeader()).isEqualTo(outcome.eventIdHeader());
    }

    private static double cancelled(String when) {
        return PrometheusScrape.sum("jobweaver_worker_runs_cancelled_total", "when=\"" + when + "\"");
    }

    /** The stored outcome of run {@code eventId}, or null while it has no row. */
    private String outcome(UUID eventId) {
        List<Row> rows = pool.preparedQuery("SELECT outcome FROM execution_attempts WHERE event_id = $1")
                .execute(Tuple.of(eventId)).await().atMost(WAIT).stream().toList();
        return rows.isEmpty() ? null : rows.getFirst().getString("outcome");
    }

    private Row row(UUID eventId) {
        List<Row> rows = pool.preparedQuery("SELECT * FROM execution_attempts WHERE event_id = $1")
                .execute(Tuple.of(eventId)).await().atMost(WAIT).stream().toList();
        assertThat(rows).hasSize(1);
        return rows.getFirst();
    }
}
