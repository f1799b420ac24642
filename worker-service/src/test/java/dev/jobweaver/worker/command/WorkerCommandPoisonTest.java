package dev.jobweaver.worker.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.PoisonCorpus;
import dev.jobweaver.testing.PoisonCorpus.Poison;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.testing.QuarantineTopic.Position;
import dev.jobweaver.worker.testing.PrometheusScrape;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Hostile {@code worker-commands} records: every one is quarantined as it was, at its origin, none is applied, and
 * the good command after them applies.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class WorkerCommandPoisonTest extends WorkerKafkaTest {

    /** A whole corpus goes through the quarantine: longer than one record's {@link #WAIT}. */
    private static final Duration CORPUS_WAIT = Duration.ofSeconds(120);

    @Inject
    StoppedJobs stopped;

    @Test
    void everyPoisonIsQuarantinedAtItsOriginAndTheNextGoodCommandApplies() throws Exception {
        UUID poisoned = UUID.randomUUID();
        List<Poison> corpus = corpus(poisoned);
        double quarantinedBefore = quarantined();

        List<Position> positions = QuarantineTopic.produce(WorkerKafka.bootstrap(), Topics.WORKER_COMMANDS, corpus);
        UUID good = UUID.randomUUID();
        kafka.send(WorkerKafka.command(good, JobCommand.CANCEL));

        await().atMost(CORPUS_WAIT).until(() -> stopped.command(good) == JobCommand.CANCEL);
        Map<Position, ConsumerRecord<String, byte[]>> found = QuarantineTopic.awaitQuarantined(
                WorkerKafka.bootstrap(), positions, CORPUS_WAIT);
        assertThat(found.keySet()).as("every poison is in the quarantine at its origin").containsAll(positions);
        for (int i = 0; i < corpus.size(); i++) {
            Poison poison = corpus.get(i);
            ConsumerRecord<String, byte[]> copy = found.get(positions.get(i));
            assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON)).as(poison.name())
                    .isIn("UNREADABLE", "INVALID");
            assertThat(copy.value()).as(poison.name()).isEqualTo(poison.value());
            assertThat(copy.key()).as(poison.name()).isEqualTo(poison.key());
            assertThat(QuarantineTopic.header(copy, QuarantineHeaders.DETAIL)).as(poison.name()).isNotBlank();
        }
        assertThat(stopped.command(poisoned)).as("no poison was applied, not even under another key").isNull();
        await().atMost(CORPUS_WAIT).untilAsserted(() -> assertThat(quarantined())
                .isGreaterThanOrEqualTo(quarantinedBefore + corpus.size()));
    }

    /** The hostile records made from one good CANCEL of job {@code jobId}, with a field of every kind. */
    private static List<Poison> corpus(UUID jobId) throws JsonProcessingException {
        JobCommandEvent template = new JobCommandEvent(jobId, JobCommand.CANCEL, "0af7651916cd43dd8448eb211c80319c",
                Instant.now().truncatedTo(ChronoUnit.MILLIS));
        List<Poison> corpus = PoisonCorpus.of(WorkerKafka.JSON.writeValueAsString(template), jobId.toString(),
                Set.of("jobId", "command", "requestedAt"));
        assertThat(corpus).extracting(Poison::name).contains("not JSON", "null key", "key is not the jobId",
                "jobId: missing", "command: unknown enum value", "requestedAt: timestamp out of range",
                "traceId: over-long string");
        return corpus;
    }

    private static double quarantined() {
        return PrometheusScrape.sum("jobweaver_quarantined_total", "topic=\"worker-commands\"");
    }
}
