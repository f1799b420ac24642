package dev.jobweaver.scheduler.outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.JobFailedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.QuarantineTopic.Position;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.PoisonRecords;
import dev.jobweaver.scheduler.testing.QuarantineCounts;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * An outcome the rules let through but the database refuses is quarantined alone, and the outcomes of its batch are
 * applied. Only job-failed can carry one (its error message becomes {@code last_error}); nothing of a job-completed
 * record that passes the rules reaches a column that could refuse it, and its batches take the same path.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class OutcomeConsumerQuarantineTest extends KafkaAndDbTest {

    @Inject
    QuarantineCounts quarantined;

    @Test
    void aFailureTheDatabaseRefusesIsQuarantinedAndTheOtherOutcomesOfItsBatchAreApplied() throws Exception {
        double rejectedBefore = quarantined.count(Topics.JOB_FAILED, QuarantineReason.REJECTED_BY_DATABASE.label());
        List<UUID> jobs = List.of(runningJob(), runningJob(), runningJob(), runningJob(), runningJob());
        UUID bad = jobs.get(2);
        // A failure message the rules allow, which a test-only constraint makes the database refuse (SQL state 23514).
        String refusedMessage = "refused by a test constraint " + bad;
        List<JobFailedEvent> outcomes = jobs.stream().map(jobId -> TestJobs.failed(jobId, 1,
                jobId.equals(bad) ? refusedMessage : "failed for the test")).toList();

        List<Long> offsets;
        try (AutoCloseable refusal = db.refuseRowsUnless("last_error IS DISTINCT FROM '" + refusedMessage + "'")) {
            // One partition, one produce request: one batch of the consumer.
            offsets = producer.sendTogether(Topics.JOB_FAILED, 0, jobs, outcomes);
            PoisonRecords.awaitQuarantined(bootstrapServers, List.of(new Position(Topics.JOB_FAILED, 0,
                    offsets.get(2))));
        }

        jobs.stream().filter(jobId -> !jobId.equals(bad))
                .forEach(jobId -> db.awaitJob(jobId, j -> j.status() == JobStatus.FAILED));
        Position origin = new Position(Topics.JOB_FAILED, 0, offsets.get(2));
        Map<Position, ConsumerRecord<String, byte[]>> found = PoisonRecords.awaitQuarantined(bootstrapServers,
                List.of(origin));
        assertThat(found).containsKey(origin);
        ConsumerRecord<String, byte[]> copy = found.get(origin);
        assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON))
                .isEqualTo(QuarantineReason.REJECTED_BY_DATABASE.name());
        assertThat(copy.key()).isEqualTo(bad.toString());
        assertThat(db.get(bad).status()).as("the refused outcome changed nothing").isEqualTo(JobStatus.RUNNING);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(quarantined.count(Topics.JOB_FAILED,
                QuarantineReason.REJECTED_BY_DATABASE.label()) - rejectedBefore).isEqualTo(1.0));

        // The partition goes on: the next outcome of the same job, behind it, is applied.
        producer.sendTogether(Topics.JOB_FAILED, 0, List.of(bad), List.of(TestJobs.failed(bad, 1, "broken pipe")));
        assertThat(db.awaitJob(bad, j -> j.status() == JobStatus.FAILED).lastError()).isEqualTo("broken pipe");
    }
}
