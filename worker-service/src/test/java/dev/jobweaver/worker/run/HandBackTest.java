package dev.jobweaver.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.PrometheusScrape;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafka.Outcome;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A run of a type this worker has no handler for is handed back, unrun and unrecorded: the scheduler dispatches it
 * again to a worker that declares the type. Its redelivery hands it back again, with the same eventId. So is a run
 * that nobody began and that arrives after its lease ended, while one begun in time keeps its outcome.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class HandBackTest extends WorkerKafkaTest {

    @Test
    void aRunOfAnUndeclaredTypeIsHandedBackUnrunAndUnrecorded() {
        double before = PrometheusScrape.sum("jobweaver_worker_outcomes_total", "outcome=\"handed-back\"");
        UUID jobId = UUID.randomUUID();
        RunJobEvent run = new RunJobEvent(EventIds.runEventId(jobId, 1), jobId, 1, JobType.of("invoice.total"),
                JsonNodeFactory.instance.objectNode().put("number", "7"), null, Instant.now(), Instant.now(),
                Instant.now().plusSeconds(600), JobControl.DEFAULTS);
        kafka.send(run, null);

        Outcome handedBack = firstOutcome(jobId);
        assertThat(handedBack.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(handedBack.value().path("handedBack").asBoolean()).isTrue();
        assertThat(handedBack.errorMessage())
                .isEqualTo("WORKER.UNKNOWN_JOB_TYPE: this worker has no handler for job type invoice.total"
                        + " (it runs [HTTP, SIMULATION])");
        assertThat(handedBack.eventIdHeader()).isEqualTo(EventIds.outcomeEventId(run.eventId()).toString());
        assertThat(handedBack.value().path("attempt").asInt()).isEqualTo(1);
        assertThat(pool.preparedQuery("SELECT 1 FROM execution_attempts WHERE job_id = $1").execute(Tuple.of(jobId))
                .await().atMost(WAIT).rowCount()).as("nothing recorded: it did not run here").isZero();
        assertThat(PrometheusScrape.sum("jobweaver_worker_outcomes_total", "outcome=\"handed-back\""))
                .isEqualTo(before + 1);
    }

    @Test
    void aRunNobodyBeganThatArrivesAfterItsLeaseIsHandedBackUnrun() {
        RunJobEvent fresh = WorkerKafka.run(new dev.jobweaver.common.job.Step.Log("too late"));
        RunJobEvent late = new RunJobEvent(fresh.eventId(), fresh.jobId(), 1, fresh.jobType(), fresh.payload(), null,
                Instant.now().minusSeconds(120), Instant.now().minusSeconds(90), Instant.now().minusSeconds(30),
                null);
        kafka.send(late, null);

        Outcome handedBack = firstOutcome(late.jobId());
        assertThat(handedBack.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(handedBack.value().path("handedBack").asBoolean()).isTrue();
        assertThat(handedBack.errorMessage()).startsWith("WORKER.LEASE_ENDED: the run arrived after its lease ended");
        assertThat(pool.preparedQuery("SELECT 1 FROM execution_attempts WHERE job_id = $1")
                .execute(Tuple.of(late.jobId())).await().atMost(WAIT).rowCount()).as("not run, not recorded").isZero();
    }

    @Test
    void aRunBegunBeforeItsLeaseEndedIsRepublishedWhenItComesAgainAfterIt() {
        RunJobEvent run = WorkerKafka.run(new dev.jobweaver.common.job.Step.Log("in time"));
        kafka.send(run, null);
        Outcome first = firstOutcome(run.jobId());

        // the same run delivered again once its lease has ended: it was begun, so its outcome counts
        kafka.send(new RunJobEvent(run.eventId(), run.jobId(), 1, run.jobType(), run.payload(), null,
                run.createdAt(), run.dispatchedAt(), Instant.now().minusSeconds(1), null), null);

        Outcome again = org.awaitility.Awaitility.await().atMost(WAIT)
                .until(() -> kafka.outcomes(run.jobId()), l -> l.size() == 2).get(1);
        assertThat(first.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(again.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(again.value().path("handedBack").isMissingNode()).isTrue();
        assertThat(again.eventIdHeader()).isEqualTo(first.eventIdHeader());
    }

    @Test
    void aRunOfADeclaredTypeIsNeverHandedBack() {
        RunJobEvent run = WorkerKafka.run(new dev.jobweaver.common.job.Step.Log("mine"));
        kafka.send(run, null);

        Outcome outcome = firstOutcome(run.jobId());
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(outcome.value().path("handedBack").isMissingNode()).isTrue();
    }
}
