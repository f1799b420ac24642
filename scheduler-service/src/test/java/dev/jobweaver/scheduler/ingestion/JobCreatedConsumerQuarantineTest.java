package dev.jobweaver.scheduler.ingestion;

import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.Priority;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.Consumed;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.quarantine.RecordOrigin;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.PoisonCorpus.Poison;
import dev.jobweaver.testing.QuarantineTopic.Position;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.scheduler.ingestion.IngestionService.Accepted;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.PoisonRecords;
import dev.jobweaver.scheduler.testing.QuarantineCounts;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * A job that can never be stored is set aside and never holds back the jobs behind it: the one reported (a
 * {@code traceId} of 100 characters, which made every round fail with {@code value too long for type character
 * varying(64)} and retried it forever) is refused by the rules before SQL, and a job the rules let through but the
 * database refuses is found by splitting its round.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCreatedConsumerQuarantineTest extends KafkaAndDbTest {

    private static final String TRACE_ID_OF_100 = "0af7651916cd43dd8448eb211c80319c".repeat(4).substring(0, 100);

    @Inject
    IngestionService ingestion;

    @Inject
    Quarantine quarantine;

    @Inject
    QuarantineCounts quarantined;

    @Test
    void theJobWithATraceIdOf100CharactersIsQuarantinedBeforeSqlAndTheJobsBehindItAreStored() throws Exception {
        double invalidBefore = quarantined.count(Topics.JOB_CREATED, QuarantineReason.INVALID.label());
        UUID bad = UUID.randomUUID();
        JobCreatedEvent reported = withTraceId(TestJobs.created(bad, 0), TRACE_ID_OF_100);
        List<UUID> behind = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
        List<Poison> produced = new ArrayList<>();
        produced.add(new Poison("traceId of 100 characters", bad.toString(), mapper.writeValueAsBytes(reported)));
        for (UUID jobId : behind) {
            produced.add(new Poison("good", jobId.toString(), mapper.writeValueAsBytes(TestJobs.created(jobId, 0))));
        }

        List<Position> positions = QuarantineTopic.produce(bootstrapServers, Topics.JOB_CREATED, produced);

        behind.forEach(jobId -> db.awaitJob(jobId, j -> true));
        assertThat(db.find(bad)).isEmpty();
        ConsumerRecord<String, byte[]> copy = quarantinedAt(positions.getFirst());
        assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON)).isEqualTo(QuarantineReason.INVALID.name());
        assertThat(QuarantineTopic.header(copy, QuarantineHeaders.DETAIL))
                .isEqualTo("traceId must be 32 lower-case hex characters, got 100 characters");
        assertThat(copy.value()).isEqualTo(produced.getFirst().value());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                quarantined.count(Topics.JOB_CREATED, QuarantineReason.INVALID.label()) - invalidBefore)
                .isEqualTo(1.0));
    }

    @Test
    void aJobWhoseControlBreaksTheRulesIsQuarantinedBeforeSqlAndTheJobsBehindItAreStored() throws Exception {
        UUID bad = UUID.randomUUID();
        JobCreatedEvent badTenant = TestJobs.created(bad, 0,
                new JobControl(Priority.HIGH, null, null, null, "Not A Tenant", null));
        List<UUID> behind = List.of(UUID.randomUUID(), UUID.randomUUID());
        List<Poison> produced = new ArrayList<>();
        produced.add(new Poison("tenant out of its pattern", bad.toString(), mapper.writeValueAsBytes(badTenant)));
        for (UUID jobId : behind) {
            produced.add(new Poison("good", jobId.toString(), mapper.writeValueAsBytes(TestJobs.created(jobId, 0,
                    new JobControl(Priority.LOW, null, null, null, "acme", null)))));
        }

        List<Position> positions = QuarantineTopic.produce(bootstrapServers, Topics.JOB_CREATED, produced);

        behind.forEach(jobId -> assertThat(db.awaitJob(jobId, j -> true).control().tenant()).isEqualTo("acme"));
        assertThat(db.find(bad)).isEmpty();
        ConsumerRecord<String, byte[]> copy = quarantinedAt(positions.getFirst());
        assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON)).isEqualTo(QuarantineReason.INVALID.name());
        assertThat(QuarantineTopic.header(copy, QuarantineHeaders.DETAIL)).startsWith("tenant must match");
    }

    @Test
    void aJobTheDatabaseRefusesIsQuarantinedAndTheOtherJobsOfItsPollAreStored() throws Exception {
        double rejectedBefore = quarantined.count(Topics.JOB_CREATED,
                QuarantineReason.REJECTED_BY_DATABASE.label());
        // A job that passes every rule, which a (test-only) constraint makes the database refuse (SQL state 23514).
        UUID bad = UUID.randomUUID();
        List<UUID> good = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
        List<UUID> keys = List.of(good.get(0), good.get(1), bad, good.get(2), good.get(3));
        List<JobCreatedEvent> values = keys.stream().map(jobId -> TestJobs.created(jobId, 0)).toList();

        ConsumerRecord<String, byte[]> copy;
        try (AutoCloseable refusal = db.refuseRowsUnless("job_id <> '" + bad + "'")) {
            List<Long> offsets = producer.sendTogether(Topics.JOB_CREATED, 0, keys, values);
            good.forEach(jobId -> db.awaitJob(jobId, j -> true));
            copy = quarantinedAt(new Position(Topics.JOB_CREATED, 0, offsets.get(2)));
        }
        assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON))
                .isEqualTo(QuarantineReason.REJECTED_BY_DATABASE.name());
        assertThat(copy.key()).isEqualTo(bad.toString());
        assertThat(db.find(bad)).isEmpty();
        // The job after the poll is stored too: nothing stalls.
        UUID next = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, next, TestJobs.created(next, 0));
        db.awaitJob(next, j -> true);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(quarantined.count(Topics.JOB_CREATED,
                QuarantineReason.REJECTED_BY_DATABASE.label()) - rejectedBefore).isEqualTo(1.0));
    }

    @Test
    void aRoundWhoseInsertFailsWithValueTooLongIsSplitAndOnlyThatJobIsQuarantined() throws Exception {
        // The reported failure itself, in SQL: the event reaches the round without the rules (as it did before
        // them), and trace_id is VARCHAR(64).
        JobCreatedConsumer consumer = new JobCreatedConsumer(ingestion, quarantine, mapper);
        List<UUID> jobIds = new ArrayList<>();
        List<Consumed<Accepted>> round = new ArrayList<>();
        long firstOffset = -1_000_000L * (1 + ThreadLocalRandom.current().nextInt(1_000_000));
        for (int i = 0; i < 7; i++) {
            UUID jobId = UUID.randomUUID();
            jobIds.add(jobId);
            JobCreatedEvent event = i == 4 ? withTraceId(TestJobs.created(jobId, 0), TRACE_ID_OF_100)
                    : TestJobs.created(jobId, 0);
            // Positions no record can have, so that this copy cannot be mistaken for another test's.
            RecordOrigin origin = new RecordOrigin(Topics.JOB_CREATED, 0, firstOffset - i, null, jobId.toString(),
                    new RecordHeaders(), mapper.writeValueAsBytes(event));
            round.add(new Consumed.Usable<>(new Accepted(event, null), origin));
        }

        consumer.round(round).await().atMost(Duration.ofSeconds(60));

        for (int i = 0; i < jobIds.size(); i++) {
            assertThat(db.find(jobIds.get(i)).isPresent()).as("job %d stored", i).isEqualTo(i != 4);
        }
        ConsumerRecord<String, byte[]> copy = quarantinedAt(new Position(Topics.JOB_CREATED, 0, firstOffset - 4));
        assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON))
                .isEqualTo(QuarantineReason.REJECTED_BY_DATABASE.name());
        assertThat(QuarantineTopic.header(copy, QuarantineHeaders.DETAIL))
                .contains("value too long for type character varying(64)");
        assertThat(copy.value()).isEqualTo(round.get(4).origin().value());
    }

    private ConsumerRecord<String, byte[]> quarantinedAt(Position origin) {
        Map<Position, ConsumerRecord<String, byte[]>> found = PoisonRecords.awaitQuarantined(bootstrapServers,
                List.of(origin));
        assertThat(found).as("quarantined copy of %s", origin).containsKey(origin);
        return found.get(origin);
    }

    private static JobCreatedEvent withTraceId(JobCreatedEvent e, String traceId) {
        return new JobCreatedEvent(e.jobId(), e.jobType(), e.payload(), e.maxRetries(), traceId, e.createdAt(),
                e.control());
    }
}
