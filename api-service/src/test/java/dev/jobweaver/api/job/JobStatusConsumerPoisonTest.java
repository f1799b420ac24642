package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.ConsumerTestSupport;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.PoisonCorpus;
import dev.jobweaver.testing.PoisonCorpus.Poison;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.testing.QuarantineTopic.Position;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Every hostile record of a poison corpus on {@code job-status} is quarantined at its position with its original key
 * and bytes, while the good records around it reach the read model and the partition keeps moving. The corpus's record
 * without a key is left out: {@code job-status} is compacted, so the broker refuses it and it never reaches the
 * consumer.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobStatusConsumerPoisonTest extends ConsumerTestSupport {

    /** The fields without which a status event is refused (the others have a usable default when absent). */
    private static final Set<String> REQUIRED = Set.of("jobId", "status", "version");

    @Test
    void everyPoisonIsQuarantinedAndEveryGoodRecordApplied() {
        String target = Jobs.submitOne();
        List<Poison> corpus = PoisonCorpus.of(new String(goodJson(target), StandardCharsets.UTF_8), target, REQUIRED)
                .stream().filter(poison -> poison.key() != null).toList(); // compacted: no record without a key
        List<String> goodJobs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            goodJobs.add(Jobs.submitOne());
        }
        double quarantinedBefore = quarantined();

        // a good record before, between and after runs of poison
        List<Poison> records = new ArrayList<>();
        List<Boolean> isPoison = new ArrayList<>();
        int perGood = corpus.size() / (goodJobs.size() - 1) + 1;
        for (int i = 0; i < goodJobs.size(); i++) {
            records.add(new Poison("good " + i, goodJobs.get(i), goodJson(goodJobs.get(i))));
            isPoison.add(false);
            for (Poison poison : corpus.subList(Math.min(i * perGood, corpus.size()),
                    Math.min((i + 1) * perGood, corpus.size()))) {
                records.add(poison);
                isPoison.add(true);
            }
        }
        List<Position> positions = QuarantineTopic.produce(KafkaProbe.bootstrapServers(), Topics.JOB_STATUS, records);
        List<Position> poisonPositions = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            if (isPoison.get(i)) {
                poisonPositions.add(positions.get(i));
            }
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> goodJobs.stream()
                .allMatch(id -> "COMPLETED".equals(Jobs.get(id).getString("status"))));
        Map<Position, ConsumerRecord<String, byte[]>> found = QuarantineTopic.awaitQuarantined(
                KafkaProbe.bootstrapServers(), poisonPositions, Duration.ofSeconds(60));
        for (int i = 0; i < records.size(); i++) {
            if (!isPoison.get(i)) {
                assertThat(found).as("good record %s", records.get(i).name()).doesNotContainKey(positions.get(i));
                continue;
            }
            Poison poison = records.get(i);
            ConsumerRecord<String, byte[]> copy = found.get(positions.get(i));
            assertThat(copy).as("quarantined copy of '%s' at %s", poison.name(), positions.get(i)).isNotNull();
            assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON)).as(poison.name())
                    .isIn(QuarantineReason.UNREADABLE.name(), QuarantineReason.INVALID.name());
            assertThat(copy.key()).as(poison.name()).isEqualTo(poison.key());
            assertThat(Arrays.equals(copy.value(), poison.value())).as("original bytes of '%s'", poison.name())
                    .isTrue();
        }
        // At least one count per record of the corpus: a record an earlier test's consumer quarantined but could not
        // commit before it stopped is delivered again and counted again (at least once).
        await().atMost(Duration.ofSeconds(10)).until(() -> quarantined() >= quarantinedBefore + corpus.size());
        JsonPath untouched = Jobs.get(target);
        assertThat(untouched.getString("status")).as("no poison reached the job it names").isEqualTo("PENDING");
        assertThat(untouched.getString("lastError")).isNull();

        // nothing stalls: a record produced after the corpus is applied too
        String after = Jobs.submitOne();
        StatusEvents.send(mapper, after, JobStatus.COMPLETED, 2, 1, null);
        await().atMost(Duration.ofSeconds(20)).until(() -> "COMPLETED".equals(Jobs.get(after).getString("status")));
    }

    /** Records of job-status this service quarantined, for any reason. */
    private double quarantined() {
        return Arrays.stream(QuarantineReason.values()).mapToDouble(r -> quarantine.count(Topics.JOB_STATUS, r)).sum();
    }

    /** A terminal status of {@code jobId} with every field set, so that the corpus mutates each one. */
    private byte[] goodJson(String jobId) {
        Instant now = Instant.now();
        return StatusEvents.json(mapper, new JobStatusChangedEvent(UUID.fromString(jobId), JobStatus.COMPLETED, 3, 2,
                1, 2, now.plusSeconds(1), "the first attempt failed", "0af7651916cd43dd8448eb211c80319c", now,
                now.minusSeconds(1), now));
    }
}
