package dev.jobweaver.worker.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.PrometheusScrape;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A DELETE on worker-commands: the job's rows leave execution_attempts, and a later run-job record of the job is
 * acknowledged without being run, stored or published; a run of the job in progress here is interrupted first.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class JobCommandsDeleteTest extends WorkerKafkaTest {

    @Test
    void aDeleteRemovesTheJobsAttemptsAndALaterRecordOfTheJobIsSkipped() {
        RunJobEvent first = WorkerKafka.run(new Step.Log("a job to delete"));
        kafka.send(first, null);
        firstOutcome(first.jobId());
        assertThat(rows(first.jobId())).isEqualTo(1);

        kafka.send(WorkerKafka.command(first.jobId(), JobCommand.DELETE));
        await().atMost(WAIT).until(() -> rows(first.jobId()) == 0);

        double skippedBefore = outcomes("skipped-deleted");
        RunJobEvent second = WorkerKafka.attempt(first, 2, first.payload());
        kafka.send(second, null);
        await().atMost(WAIT).untilAsserted(() -> assertThat(outcomes("skipped-deleted"))
                .isGreaterThanOrEqualTo(skippedBefore + 1));

        assertThat(rows(first.jobId())).as("nothing stored").isZero();
        assertThat(kafka.outcomes(first.jobId())).as("nothing published after the first outcome").hasSize(1);
    }

    @Test
    void aDeleteOfAJobRunningHereInterruptsItAndLeavesNoRowAndNoOutcome() {
        RunJobEvent run = WorkerKafka.run(new Step.Sleep(30_000L));
        kafka.send(run, null);
        await().atMost(WAIT).until(() -> rows(run.jobId()) == 1);
        double deletedBefore = outcomes("deleted");

        kafka.send(WorkerKafka.command(run.jobId(), JobCommand.DELETE));
        await().atMost(WAIT).untilAsserted(() -> assertThat(outcomes("deleted"))
                .isGreaterThanOrEqualTo(deletedBefore + 1));

        assertThat(rows(run.jobId())).isZero();
        assertThat(kafka.outcomes(run.jobId())).isEmpty();
    }

    /** How many records the worker handled with {@code outcome}. */
    private static double outcomes(String outcome) {
        return PrometheusScrape.sum("jobweaver_worker_outcomes_total", "outcome=\"" + outcome + "\"");
    }

    private long rows(UUID jobId) {
        return pool.preparedQuery("SELECT count(*) AS n FROM execution_attempts WHERE job_id = $1")
                .execute(Tuple.of(jobId)).await().atMost(WAIT).iterator().next().getLong("n");
    }
}
