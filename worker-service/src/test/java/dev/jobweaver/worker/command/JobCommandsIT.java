package dev.jobweaver.worker.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.WorkerDatabase;
import dev.jobweaver.worker.testing.WorkerDatabase.AttemptRow;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafka.Outcome;
import dev.jobweaver.worker.testing.WorkerKafkaSupport;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The executable reads worker-commands: a CANCEL interrupts a running sleep and the attempt ends WORKER.CANCELLED. */
@QuarkusIntegrationTest
@JobWeaverTest(database = WorkerDatabase.NAME)
class JobCommandsIT extends WorkerKafkaSupport {

    @Test
    void aCancelInterruptsARunningSleep() {
        RunJobEvent run = WorkerKafka.run(new Step.Sleep(30_000L));
        kafka.send(run, null);
        await().atMost(WAIT).until(() -> WorkerDatabase.find(run.eventId()).map(AttemptRow::outcome),
                outcome -> outcome.filter("RUNNING"::equals).isPresent());

        long sent = System.nanoTime();
        kafka.send(WorkerKafka.command(run.jobId(), JobCommand.CANCEL));
        Outcome outcome = firstOutcome(run.jobId());

        assertThat(outcome.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(outcome.errorMessage()).isEqualTo("WORKER.CANCELLED: the job was cancelled while the attempt ran");
        // well before the 30 s sleep would have ended, with a margin for a loaded machine
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(10));
        assertThat(WorkerDatabase.attempt(run.eventId()).outcome()).isEqualTo("FAILURE");
    }
}
