package dev.jobweaver.scheduler.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The defaults a worker's handler declares for its type reach the jobs of that type the scheduler accepts while the
 * worker lives: each field the job leaves unset, never one it sets.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class DeclaredDefaultsTest extends KafkaAndDbTest {

    @Test
    void aJobOfADeclaringTypeGetsItsDefaultsWhereItSetsNothingOfItsOwn() {
        String type = "report.d" + UUID.randomUUID().toString().substring(0, 8);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        producer.sendJson(Topics.WORKER_HEARTBEATS, "reporter-" + type, new WorkerHeartbeatEvent("reporter-" + type,
                List.of("default"), List.of(type), 4, 60_000, now, now, false, null,
                Map.of(type, new WorkerHeartbeatEvent.TypeDefaults(7_000L, List.of(250L, 500L), Priority.HIGH))));
        await().atMost(TIMEOUT).until(() -> {
            workers.refresh().await().atMost(TIMEOUT);
            return workers.live().defaultsFor(type) != null;
        });

        UUID plain = UUID.randomUUID();
        UUID own = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, plain, job(plain, type, null));
        producer.sendJson(Topics.JOB_CREATED, own, job(own, type,
                new JobControl(Priority.LOW, null, 60_000L, null, null, null)));

        JobExecution defaulted = db.awaitJob(plain, j -> true);
        assertThat(defaulted.control().priority()).isEqualTo(Priority.HIGH);
        assertThat(defaulted.control().timeoutMs()).isEqualTo(7_000L);
        assertThat(defaulted.control().retryDelaysMs()).containsExactly(250L, 500L);
        JobExecution kept = db.awaitJob(own, j -> true);
        assertThat(kept.control().priority()).as("the job's own").isEqualTo(Priority.LOW);
        assertThat(kept.control().timeoutMs()).isEqualTo(60_000L);
        assertThat(kept.control().retryDelaysMs()).as("what it left unset").containsExactly(250L, 500L);
    }

    private static JobCreatedEvent job(UUID jobId, String type, JobControl control) {
        return new JobCreatedEvent(jobId, JobType.of(type), JsonNodeFactory.instance.objectNode().put("month", 11), 2,
                TestJobs.traceId(jobId), Instant.now(), control);
    }
}
