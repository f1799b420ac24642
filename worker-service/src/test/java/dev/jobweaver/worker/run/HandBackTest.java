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
 * again to a worker that declares the type. Its redelivery hands it back again, with the same eventId.
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
    void aRunOfADeclaredTypeIsNeverHandedBack() {
        RunJobEvent run = WorkerKafka.run(new dev.jobweaver.common.job.Step.Log("mine"));
        kafka.send(run, null);

        Outcome outcome = firstOutcome(run.jobId());
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(outcome.value().path("handedBack").isMissingNode()).isTrue();
    }
}
