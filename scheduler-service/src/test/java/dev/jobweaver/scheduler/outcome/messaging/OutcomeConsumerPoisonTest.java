package dev.jobweaver.scheduler.outcome.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.local.testing.LocalStackResource;
import dev.jobweaver.local.testing.PoisonCorpus;
import dev.jobweaver.local.testing.PoisonCorpus.Poison;
import dev.jobweaver.local.testing.QuarantineTopic;
import dev.jobweaver.local.testing.QuarantineTopic.Position;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.PoisonRecords;
import dev.jobweaver.scheduler.testing.QuarantineCounts;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Every hostile record of job-completed and job-failed is quarantined at its position, and the outcomes around it
 * are applied.
 */
@QuarkusTest
@QuarkusTestResource(value = LocalStackResource.class,
        initArgs = @ResourceArg(name = LocalStackResource.DATABASE, value = "jobweaver_scheduler"))
class OutcomeConsumerPoisonTest extends KafkaAndDbTest {

    /** What an outcome cannot do without: its job, and the attempt it reports on (0 is none). */
    private static final Set<String> REQUIRED = Set.of("jobId", "attempt");

    @Inject
    QuarantineCounts quarantined;

    @Test
    void everyPoisonOfJobCompletedIsQuarantinedAndTheCompletionsAroundItAreApplied() {
        everyPoisonIsQuarantinedAndTheOutcomesAroundItAreApplied(Topics.JOB_COMPLETED,
                jobId -> TestJobs.completed(jobId, 1), JobStatus.COMPLETED);
    }

    @Test
    void everyPoisonOfJobFailedIsQuarantinedAndTheFailuresAroundItAreApplied() {
        everyPoisonIsQuarantinedAndTheOutcomesAroundItAreApplied(Topics.JOB_FAILED,
                jobId -> TestJobs.failed(jobId, 1, "failed for the test"), JobStatus.FAILED);
    }

    private void everyPoisonIsQuarantinedAndTheOutcomesAroundItAreApplied(String topic, Function<UUID, ?> outcome,
                                                                          JobStatus applied) {
        UUID base = UUID.randomUUID();
        List<Poison> corpus = PoisonCorpus.of(json(outcome.apply(base)), base.toString(), REQUIRED);
        double before = quarantined.total(topic);

        // A good outcome first, then one after every few poisons; each good one ends a job dispatched for it.
        List<Poison> records = new ArrayList<>();
        List<UUID> good = new ArrayList<>();
        List<Integer> poisonIndexes = new ArrayList<>();
        for (int i = 0; i < corpus.size(); i++) {
            if (i % 6 == 0) {
                UUID jobId = runningJob();
                good.add(jobId);
                records.add(new Poison("good " + jobId, jobId.toString(), bytes(outcome.apply(jobId))));
            }
            poisonIndexes.add(records.size());
            records.add(corpus.get(i));
        }
        List<Position> positions = QuarantineTopic.produce(bootstrapServers, topic, records);
        UUID last = runningJob();
        producer.sendJson(topic, last, outcome.apply(last));

        db.awaitJob(last, j -> j.status() == applied);
        good.forEach(jobId -> db.awaitJob(jobId, j -> j.status() == applied));

        List<Position> poisonPositions = poisonIndexes.stream().map(positions::get).toList();
        Map<Position, ConsumerRecord<String, byte[]>> found = PoisonRecords.awaitQuarantined(bootstrapServers,
                poisonPositions);
        for (int i = 0; i < corpus.size(); i++) {
            Poison poison = corpus.get(i);
            ConsumerRecord<String, byte[]> copy = found.get(poisonPositions.get(i));
            assertThat(copy).as("quarantined copy of '%s'", poison.name()).isNotNull();
            assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON)).as(poison.name())
                    .isIn(QuarantineReason.UNREADABLE.name(), QuarantineReason.INVALID.name());
            assertThat(copy.key()).as(poison.name()).isEqualTo(poison.key());
            assertThat(copy.value()).as(poison.name()).isEqualTo(poison.value());
        }
        // at least once: a record an earlier test's consumer quarantined without committing is counted again
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(quarantined.total(topic) - before).isGreaterThanOrEqualTo(corpus.size()));
    }

    private byte[] bytes(Object value) {
        try {
            return mapper.writeValueAsBytes(value);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private String json(Object value) {
        return new String(bytes(value), java.nio.charset.StandardCharsets.UTF_8);
    }
}
