package dev.jobweaver.scheduler.command.messaging;

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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Every hostile record of job-commands is quarantined at its position, and the commands around it are applied. */
@QuarkusTest
@QuarkusTestResource(value = LocalStackResource.class,
        initArgs = @ResourceArg(name = LocalStackResource.DATABASE, value = "jobweaver_scheduler"))
class JobCommandConsumerPoisonTest extends KafkaAndDbTest {

    /** What a command cannot do without: its job, what to do, and when it was asked for. */
    private static final Set<String> REQUIRED = Set.of("jobId", "command", "requestedAt");

    @Inject
    QuarantineCounts quarantined;

    @Test
    void everyPoisonOfJobCommandsIsQuarantinedAndTheCancelsAroundItAreApplied() {
        UUID base = UUID.randomUUID();
        List<Poison> corpus = PoisonCorpus.of(json(TestJobs.cancel(base)), base.toString(), REQUIRED);
        double before = quarantined.total(Topics.JOB_COMMANDS);

        // A good cancel first, then one after every few poisons; each good one cancels a job for later.
        List<Poison> records = new ArrayList<>();
        List<UUID> good = new ArrayList<>();
        List<Integer> poisonIndexes = new ArrayList<>();
        for (int i = 0; i < corpus.size(); i++) {
            if (i % 6 == 0) {
                UUID jobId = delayedJob();
                good.add(jobId);
                records.add(new Poison("good " + jobId, jobId.toString(), bytes(TestJobs.cancel(jobId))));
            }
            poisonIndexes.add(records.size());
            records.add(corpus.get(i));
        }
        List<Position> positions = QuarantineTopic.produce(bootstrapServers, Topics.JOB_COMMANDS, records);
        UUID last = delayedJob();
        command(TestJobs.cancel(last));

        db.awaitJob(last, j -> j.status() == JobStatus.CANCELLED);
        good.forEach(jobId -> db.awaitJob(jobId, j -> j.status() == JobStatus.CANCELLED));
        assertThat(db.find(base)).as("no poison was applied as a cancel of its key").isEmpty();

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
                assertThat(quarantined.total(Topics.JOB_COMMANDS) - before).isGreaterThanOrEqualTo(corpus.size()));
    }

    private byte[] bytes(Object value) {
        try {
            return mapper.writeValueAsBytes(value);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private String json(Object value) {
        return new String(bytes(value), StandardCharsets.UTF_8);
    }
}
