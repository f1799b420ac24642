package dev.jobweaver.worker.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafka.Outcome;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A job's {@code timeoutMs} bounds each attempt: past it the attempt fails with WORKER.TIMEOUT, at once. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class JobTimeoutTest extends WorkerKafkaTest {

    @Test
    void aSleepPastTheJobsTimeoutIsInterruptedAndFailsWithTimeout() {
        RunJobEvent run = WorkerKafka.run(JobType.SIMULATION,
                new JobPayload(List.of(new Step.Log("before"), new Step.Sleep(30_000L), new Step.Log("never"))),
                timeout(500));
        kafka.send(run, null);

        Outcome outcome = firstOutcome(run.jobId());
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(outcome.errorMessage()).isEqualTo("WORKER.TIMEOUT: the attempt ran longer than its timeoutMs of 500 ms");
        Row row = row(run.eventId());
        assertThat(row.getString("error_message")).startsWith("WORKER.TIMEOUT");
        // The 30 s sleep ended at the timeout, not at its own end nor at the worker's derived bound (60 s).
        assertThat(Duration.between(row.getOffsetDateTime("started_at"), row.getOffsetDateTime("finished_at")))
                .isBetween(Duration.ofMillis(450), Duration.ofSeconds(5));
    }

    @Test
    void aComputePastTheJobsTimeoutStopsAndFailsWithTimeout() {
        RunJobEvent run = WorkerKafka.run(JobType.SIMULATION,
                new JobPayload(List.of(new Step.Compute(100_000_000L), new Step.Compute(100_000_000L),
                        new Step.Compute(100_000_000L), new Step.Compute(100_000_000L))), timeout(1));
        kafka.send(run, null);

        Outcome outcome = firstOutcome(run.jobId());
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(outcome.errorMessage()).isEqualTo("WORKER.TIMEOUT: the attempt ran longer than its timeoutMs of 1 ms");
    }

    @Test
    void aJobWithinItsTimeoutCompletes() {
        RunJobEvent run = WorkerKafka.run(JobType.SIMULATION,
                new JobPayload(List.of(new Step.Sleep(50L), new Step.Log("in time"))), timeout(10_000));
        kafka.send(run, null);

        Outcome outcome = firstOutcome(run.jobId());
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_COMPLETED);
    }

    private static JobControl timeout(long millis) {
        return new JobControl(null, null, millis, null, null, null);
    }

    private Row row(UUID eventId) {
        List<Row> rows = pool.preparedQuery("SELECT * FROM execution_attempts WHERE event_id = $1")
                .execute(Tuple.of(eventId)).await().atMost(WAIT).stream().toList();
        assertThat(rows).hasSize(1);
        return rows.getFirst();
    }
}
