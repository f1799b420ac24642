package dev.jobweaver.scheduler.ingestion.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.job.Step;
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
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Every hostile record of job-created is quarantined at its position, and the jobs around it are stored. */
@QuarkusTest
@QuarkusTestResource(value = LocalStackResource.class,
        initArgs = @ResourceArg(name = LocalStackResource.DATABASE, value = "jobweaver_scheduler"))
class JobCreatedConsumerPoisonTest extends KafkaAndDbTest {

    /** The fields a JobCreatedEvent of {@link #goodJson} cannot do without. */
    private static final Set<String> REQUIRED = Set.of("jobId", "jobType", "payload.steps[0].action",
            "payload.steps[0].durationMs", "payload.steps[1].action", "payload.steps[1].message");

    @Inject
    QuarantineCounts quarantined;

    @Test
    void everyPoisonIsQuarantinedAtItsPositionAndTheGoodJobsAroundItAreStored() throws Exception {
        UUID base = UUID.randomUUID();
        List<Poison> corpus = PoisonCorpus.of(goodJson(base), base.toString(), REQUIRED);
        double before = quarantined.total(Topics.JOB_CREATED);

        // A good job first, then one after every few poisons, all in one stream of the single partition.
        List<Poison> records = new ArrayList<>();
        List<UUID> good = new ArrayList<>();
        List<Integer> poisonIndexes = new ArrayList<>();
        for (int i = 0; i < corpus.size(); i++) {
            if (i % 5 == 0) {
                UUID jobId = UUID.randomUUID();
                good.add(jobId);
                records.add(new Poison("good " + jobId, jobId.toString(), goodJson(jobId).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            }
            poisonIndexes.add(records.size());
            records.add(corpus.get(i));
        }
        List<Position> positions = QuarantineTopic.produce(bootstrapServers, Topics.JOB_CREATED, records);
        UUID last = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, last, TestJobs.created(last, 0));

        db.awaitJob(last, j -> true);
        good.forEach(jobId -> db.awaitJob(jobId, j -> true));
        assertThat(db.find(base)).as("the good event the corpus was made from was never produced").isEmpty();

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
            assertThat(QuarantineTopic.header(copy, QuarantineHeaders.DETAIL)).as(poison.name()).isNotBlank();
        }
        // at least once: a record an earlier test's consumer quarantined without committing is counted again
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(quarantined.total(Topics.JOB_CREATED) - before).isGreaterThanOrEqualTo(corpus.size()));
    }

    /** A valid job with a SLEEP and a LOG step, as the API publishes it. */
    private String goodJson(UUID jobId) throws Exception {
        return mapper.writeValueAsString(TestJobs.created(jobId, 2, new Step.Sleep(5L), new Step.Log("hi")));
    }
}
