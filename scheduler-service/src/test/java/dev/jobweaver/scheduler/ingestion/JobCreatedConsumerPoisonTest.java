package dev.jobweaver.scheduler.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.PoisonCorpus.Poison;
import dev.jobweaver.testing.PoisonCorpus;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.PoisonRecords.Produced;
import dev.jobweaver.scheduler.testing.PoisonRecords;
import dev.jobweaver.scheduler.testing.QuarantineCounts;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Every hostile record of job-created is quarantined at its position, and the jobs around it are stored. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
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

        // All in one stream of the single partition.
        Produced produced = PoisonRecords.produceAmongGood(bootstrapServers, Topics.JOB_CREATED, corpus, 5,
                UUID::randomUUID, jobId -> goodJson(jobId).getBytes(StandardCharsets.UTF_8));
        UUID last = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, last, TestJobs.created(last, 0));

        db.awaitJob(last, j -> true);
        produced.good().forEach(jobId -> db.awaitJob(jobId, j -> true));
        assertThat(db.find(base)).as("the good event the corpus was made from was never produced").isEmpty();

        List<ConsumerRecord<String, byte[]>> copies = PoisonRecords.assertQuarantinedAsProduced(bootstrapServers,
                corpus, produced.poisons());
        for (int i = 0; i < corpus.size(); i++) {
            assertThat(QuarantineTopic.header(copies.get(i), QuarantineHeaders.DETAIL)).as(corpus.get(i).name())
                    .isNotBlank();
        }
        quarantined.awaitCountedSince(Topics.JOB_CREATED, before, corpus.size());
    }

    /** A valid job with a SLEEP and a LOG step, as the API publishes it. */
    private String goodJson(UUID jobId) {
        return json(TestJobs.created(jobId, 2, new Step.Sleep(5L), new Step.Log("hi")));
    }
}
