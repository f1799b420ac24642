package dev.jobweaver.scheduler.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.JobFailedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TopicRecorder;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A queue whose live workers run different types: a run goes to a partition a worker that declares its type holds, and
 * a run a worker hands back unrun (it has no handler for the type) is dispatched again, without a retry spent.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class MixedPoolTest extends KafkaAndDbTest {

    @Test
    void aRunOfATypeOnlySomeWorkersDeclareGoesToThePartitionsTheyHold() throws Exception {
        String queue = "mixed-" + UUID.randomUUID().toString().substring(0, 8);
        String topic = Topics.runJob(queue);
        createTopic(topic, 3);
        announce("simulator-" + queue, queue, List.of("SIMULATION"), Map.of(queue, List.of(0)));
        announce("reporter-" + queue, queue, List.of("report.monthly"), Map.of(queue, List.of(1, 2)));
        await().atMost(TIMEOUT).until(() -> {
            workers.refresh().await().atMost(TIMEOUT);
            return workers.live().partitionsFor(queue, "report.monthly") != null;
        });
        assertThat(workers.live().partitionsFor(queue, "report.monthly")).containsExactly(1, 2);
        assertThat(workers.live().partitionsFor(queue, "SIMULATION")).containsExactly(0);

        try (TopicRecorder runs = TopicRecorder.start(bootstrapServers, topic)) {
            List<UUID> reports = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                UUID jobId = UUID.randomUUID();
                reports.add(jobId);
                producer.sendJson(Topics.JOB_CREATED, jobId, job(jobId, "report.monthly", queue));
            }
            List<Integer> partitions = new ArrayList<>();
            for (UUID jobId : reports) {
                ConsumerRecord<String, byte[]> run = runs.await(topic, jobId, 1).getFirst();
                assertThat(run.key()).isEqualTo(jobId.toString());
                partitions.add(run.partition());
            }
            assertThat(partitions).as("never the partition of the worker without the type").doesNotContain(0)
                    .contains(1, 2);
        }
    }

    @Test
    void aRunHandedBackUnrunIsDispatchedAgainWithoutSpendingARetry() {
        UUID jobId = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, 0)); // no retry to spend
        recorder.await(Topics.RUN_JOB, jobId, 1);
        db.awaitJob(jobId, JobStatus.RUNNING, 1);

        Instant now = Instant.now();
        producer.sendJson(Topics.JOB_FAILED, jobId, new JobFailedEvent(EventIds.runEventId(jobId, 1), jobId, 1,
                TestJobs.traceId(jobId), "WORKER.UNKNOWN_JOB_TYPE: this worker has no handler for job type SIMULATION"
                + " (it runs [invoice.total])", now, now, "billing-worker", true));

        List<ConsumerRecord<String, byte[]>> dispatched = recorder.await(Topics.RUN_JOB, jobId, 2);
        RunJobEvent again = value(dispatched.get(1), RunJobEvent.class);
        assertThat(again.attempt()).isEqualTo(2);
        JobExecution job = db.awaitJob(jobId, JobStatus.RUNNING, 2);
        assertThat(job.retryCount()).as("a hand-back is not a failure").isZero();
        assertThat(job.maxRetries()).isZero();
        assertThat(job.lastError()).startsWith("WORKER.UNKNOWN_JOB_TYPE: this worker has no handler");
        // dispatched again only after the hand-back delay (1 s): the run does not bounce at full speed
        assertThat(ChronoUnit.MILLIS.between(
                Instant.ofEpochMilli(dispatched.get(0).timestamp()), Instant.ofEpochMilli(dispatched.get(1).timestamp())))
                .isGreaterThanOrEqualTo(900);

        producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 2));
        assertThat(db.awaitJob(jobId, JobStatus.COMPLETED, 2).attempt()).isEqualTo(2);
    }

    private void announce(String worker, String queue, List<String> types, Map<String, List<Integer>> partitions) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        producer.sendJson(Topics.WORKER_HEARTBEATS, worker, new WorkerHeartbeatEvent(worker, List.of(queue), types, 4,
                60_000, now, now, false, partitions));
    }

    private static JobCreatedEvent job(UUID jobId, String type, String queue) {
        return new JobCreatedEvent(jobId, JobType.of(type), JsonNodeFactory.instance.objectNode().put("month", 11), 0,
                TestJobs.traceId(jobId), Instant.now(), new JobControl(null, null, null, null, null, null, queue));
    }
}
