package dev.jobweaver.scheduler.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TopicRecorder;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A job whose (queue, type) no live worker serves is accepted, stays {@code PENDING} and is never dispatched; the
 * worker that comes for it gets it at once. Nothing fails for the order in which the platform's parts start.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class WaitingForAWorkerTest extends KafkaAndDbTest {

    @Test
    void aJobWaitsForAWorkerOfItsQueueAndTypeAndRunsWhenOneComes() throws Exception {
        String queue = "reports-" + UUID.randomUUID().toString().substring(0, 8);
        UUID jobId = UUID.randomUUID();
        UUID plain = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, jobId, job(jobId, "report.monthly", queue));
        producer.sendJson(Topics.JOB_CREATED, plain, TestJobs.created(plain, 0));

        // the standard worker takes the plain job; nobody takes the other, which is set aside, PENDING
        recorder.await(Topics.RUN_JOB, plain, 1);
        await().atMost(TIMEOUT).until(() -> parked(jobId));
        assertThat(db.get(jobId).status()).isEqualTo(JobStatus.PENDING);
        assertThat(db.get(jobId).attempt()).isZero();
        assertThat(recorder.records(Topics.RUN_JOB, jobId)).isEmpty();

        // a worker of another queue, or of the queue but another type, changes nothing
        announce("elsewhere", List.of("other-queue"), List.of("report.monthly"));
        announce("wrong-type", List.of(queue), List.of("report.weekly"));
        await().atMost(TIMEOUT).until(() -> {
            workers.refresh().await().atMost(TIMEOUT);
            return workers.live().serves(queue, "report.weekly") && workers.live().serves("other-queue",
                    "report.monthly");
        });
        assertThat(parked(jobId)).isTrue();
        assertThat(recorder.records(Topics.RUN_JOB, jobId)).isEmpty();

        // the worker creates its queue's run topic before it announces itself; the run goes there, not on run-job
        String topic = Topics.runJob(queue);
        createTopic(topic, 1);
        try (TopicRecorder queueRuns = TopicRecorder.start(bootstrapServers, topic)) {
            announce("reporter", List.of(queue), List.of("report.monthly", "report.weekly"));
            RunJobEvent run = value(queueRuns.await(topic, jobId, 1).getFirst(), RunJobEvent.class);
            assertThat(run.jobType()).isEqualTo(JobType.of("report.monthly"));
            assertThat(run.control().queue()).isEqualTo(queue);
            assertThat(run.attempt()).isEqualTo(1);
            assertThat(parked(jobId)).isFalse();
            assertThat(recorder.records(Topics.RUN_JOB, jobId)).isEmpty();
            assertThat(queueRuns.records(topic, plain)).as("the default queue's run stays on run-job").isEmpty();
        }
    }

    @Test
    void aWorkerThatLeavesServesNoMore() {
        String queue = "leaving-" + UUID.randomUUID().toString().substring(0, 8);
        String worker = "w-" + queue;
        announce(worker, List.of(queue), List.of("export.csv"));
        await().atMost(TIMEOUT).until(() -> {
            workers.refresh().await().atMost(TIMEOUT);
            return workers.live().serves(queue, "export.csv");
        });

        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        producer.sendJson(Topics.WORKER_HEARTBEATS, worker, new WorkerHeartbeatEvent(worker, List.of(queue),
                List.of("export.csv"), 4, 5_000, now, now.plusSeconds(1), true));
        await().atMost(TIMEOUT).until(() -> {
            workers.refresh().await().atMost(TIMEOUT);
            return !workers.live().serves(queue, "export.csv");
        });
        assertThat(workers.live().waitingFor(queue, "export.csv"))
                .isEqualTo("a worker for type export.csv on queue " + queue);

        UUID jobId = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, jobId, job(jobId, "export.csv", queue));
        await().atMost(TIMEOUT).until(() -> parked(jobId));
        assertThat(recorder.records(Topics.RUN_JOB, jobId)).isEmpty();
    }

    private static JobCreatedEvent job(UUID jobId, String type, String queue) {
        return new JobCreatedEvent(jobId, JobType.of(type), JsonNodeFactory.instance.objectNode().put("month", 11), 0,
                TestJobs.traceId(jobId), Instant.now(), new JobControl(null, null, null, null, null, null, queue));
    }

    private void announce(String worker, List<String> queues, List<String> types) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        producer.sendJson(Topics.WORKER_HEARTBEATS, worker, new WorkerHeartbeatEvent(worker, queues, types, 4,
                60_000, now, now, false));
    }

    private boolean parked(UUID jobId) {
        return pool.preparedQuery("SELECT 1 FROM parked_jobs WHERE job_id = $1").execute(Tuple.of(jobId))
                .await().atMost(Duration.ofSeconds(10)).rowCount() == 1;
    }
}
