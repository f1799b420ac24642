package dev.jobweaver.worker.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.PoisonCorpus.Poison;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.testing.QuarantineTopic.Position;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafka.Outcome;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A REQUEUE on {@code worker-commands}, where the scheduler never sends one, is quarantined rather than remembered like
 * a cancel: the job's next run still runs.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class WorkerCommandRequeueTest extends WorkerKafkaTest {

    @Inject
    StoppedJobs stopped;

    @Test
    void aRequeueIsQuarantinedAndStopsNothing() throws Exception {
        UUID jobId = UUID.randomUUID();
        JobCommandEvent requeue = JobCommandEvent.requeue(jobId, null, Instant.now(), null, 1, Instant.now());
        List<Position> positions = QuarantineTopic.produce(WorkerKafka.bootstrap(), Topics.WORKER_COMMANDS,
                List.of(new Poison("requeue", jobId.toString(), WorkerKafka.JSON.writeValueAsBytes(requeue))));
        UUID after = UUID.randomUUID();
        kafka.send(WorkerKafka.command(after, JobCommand.CANCEL));

        await().atMost(WAIT).until(() -> stopped.command(after) == JobCommand.CANCEL);
        Map<Position, ConsumerRecord<String, byte[]>> found = QuarantineTopic.awaitQuarantined(
                WorkerKafka.bootstrap(), positions, WAIT);
        ConsumerRecord<String, byte[]> copy = found.get(positions.getFirst());
        assertThat(copy).isNotNull();
        assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON)).isEqualTo("INVALID");
        assertThat(QuarantineTopic.header(copy, QuarantineHeaders.DETAIL)).contains("REQUEUE");
        assertThat(stopped.command(jobId)).isNull();

        RunJobEvent run = new RunJobEvent(EventIds.runEventId(jobId, 2), jobId, 2, JobType.SIMULATION,
                new JobPayload(List.of(new Step.Log("requeued"))), null, Instant.now(), Instant.now(),
                Instant.now().plusSeconds(600));
        kafka.send(run, null);
        Outcome outcome = firstOutcome(jobId);
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_COMPLETED);
    }
}
