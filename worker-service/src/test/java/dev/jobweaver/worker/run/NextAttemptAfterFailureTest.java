package dev.jobweaver.worker.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafka.Outcome;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A job whose last attempt failed for good and that is run again (a requeue of its dead letter) arrives as its next
 * attempt, a run with a new eventId: the worker runs it, while a redelivery of either attempt only re-publishes that
 * attempt's stored outcome. Runs are told apart by (jobId, attempt), never by jobId alone.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class NextAttemptAfterFailureTest extends WorkerKafkaTest {

    @Test
    void theNextAttemptOfAFailedJobRunsAndRedeliveriesOfEitherAttemptDoNot() {
        RunJobEvent first = WorkerKafka.run(new Step.Fail("broken"));
        UUID jobId = first.jobId();
        kafka.send(first, null);
        Outcome failed = awaitOutcomes(jobId, 1).getFirst();
        assertThat(failed.topic()).isEqualTo(Topics.JOB_FAILED);

        kafka.send(first, null); // a redelivery of attempt 1
        Outcome republished = awaitOutcomes(jobId, 2).get(1);
        assertThat(republished.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(republished.eventIdHeader()).isEqualTo(failed.eventIdHeader());
        assertThat(republished.value().path("finishedAt").asText())
                .isEqualTo(failed.value().path("finishedAt").asText());

        // Attempt 2, with the payload the requeue gave it.
        RunJobEvent second = WorkerKafka.attempt(first, 2,
                Payloads.tree(new JobPayload(List.of(new Step.Log("fixed")))));
        kafka.send(second, null);
        Outcome completed = awaitOutcomes(jobId, 3).get(2);
        assertThat(completed.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(completed.value().path("attempt").asInt()).isEqualTo(2);
        assertThat(completed.eventIdHeader()).isEqualTo(EventIds.outcomeEventId(second.eventId()).toString());

        kafka.send(second, null); // a redelivery of attempt 2
        Outcome again = awaitOutcomes(jobId, 4).get(3);
        assertThat(again.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(again.value().path("finishedAt").asText())
                .isEqualTo(completed.value().path("finishedAt").asText());

        List<Row> rows = pool.preparedQuery("SELECT attempt, outcome FROM execution_attempts WHERE job_id = $1"
                + " ORDER BY attempt").execute(Tuple.of(jobId)).await().atMost(WAIT).stream().toList();
        assertThat(rows).extracting(r -> r.getInteger("attempt") + " " + r.getString("outcome"))
                .containsExactly("1 FAILURE", "2 SUCCESS");
    }
}
