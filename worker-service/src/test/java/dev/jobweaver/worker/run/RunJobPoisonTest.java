package dev.jobweaver.worker.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.PoisonCorpus;
import dev.jobweaver.testing.PoisonCorpus.Poison;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.testing.QuarantineTopic.Position;
import dev.jobweaver.worker.testing.PrometheusScrape;
import dev.jobweaver.worker.testing.WorkerKafka;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.Test;

/**
 * Hostile {@code run-job} records between good ones: every bad one is quarantined as it was, at its origin, every good
 * one runs, and no partition stalls behind a bad one.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class RunJobPoisonTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    /** A good record goes in after every this many poisons. */
    private static final int GOOD_EVERY = 5;
    @Inject
    Pool pool;

    @Test
    void everyPoisonIsQuarantinedAtItsOriginAndTheGoodRecordsAroundItRun() throws Exception {
        List<Poison> corpus = corpus();
        double quarantinedBefore = quarantined();

        List<Poison> records = new ArrayList<>();
        Map<Integer, Poison> poisonAt = new HashMap<>();
        List<RunJobEvent> good = new ArrayList<>();
        for (int i = 0; i < corpus.size(); i++) {
            if (i % GOOD_EVERY == 0) {
                RunJobEvent run = WorkerKafka.run(new Step.Log("good record " + i + " among poisons"));
                good.add(run);
                records.add(record(run));
            }
            poisonAt.put(records.size(), corpus.get(i));
            records.add(corpus.get(i));
        }
        List<Position> positions = QuarantineTopic.produce(WorkerKafka.bootstrap(), Topics.RUN_JOB, records);
        RunJobEvent last = WorkerKafka.run(new Step.Log("good record after the corpus"));
        Position lastPosition = QuarantineTopic.produce(WorkerKafka.bootstrap(), Topics.RUN_JOB,
                List.of(record(last))).getFirst();

        List<Position> poisoned = poisonAt.keySet().stream().sorted().map(positions::get).toList();
        Map<Position, ConsumerRecord<String, byte[]>> found = QuarantineTopic.awaitQuarantined(
                WorkerKafka.bootstrap(), poisoned, WAIT);
        assertThat(found.keySet()).as("every poison is in the quarantine at its origin").containsAll(poisoned);
        for (Map.Entry<Integer, Poison> entry : poisonAt.entrySet()) {
            Poison poison = entry.getValue();
            ConsumerRecord<String, byte[]> copy = found.get(positions.get(entry.getKey()));
            assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON)).as(poison.name())
                    .isIn("UNREADABLE", "INVALID");
            assertThat(copy.value()).as(poison.name()).isEqualTo(poison.value());
            assertThat(copy.key()).as(poison.name()).isEqualTo(poison.key());
            assertThat(QuarantineTopic.header(copy, QuarantineHeaders.DETAIL)).as(poison.name()).isNotBlank();
        }

        for (RunJobEvent run : good) {
            await().atMost(WAIT).untilAsserted(() -> assertThat(outcome(run.eventId())).isEqualTo("SUCCESS"));
        }
        await().atMost(WAIT).untilAsserted(() -> assertThat(outcome(last.eventId())).isEqualTo("SUCCESS"));
        // At least the corpus: a record an earlier test's consumer quarantined but could not commit before it stopped
        // is delivered to this one and quarantined again (at least once), which counts too.
        await().atMost(WAIT).untilAsserted(() -> assertThat(quarantined())
                .isGreaterThanOrEqualTo(quarantinedBefore + corpus.size()));
        // Nothing holds a partition back: each committed offset passes every record produced to it.
        Map<Integer, Long> highest = new HashMap<>();
        for (Position position : positions) {
            highest.merge(position.partition(), position.offset(), Math::max);
        }
        highest.merge(lastPosition.partition(), lastPosition.offset(), Math::max);
        try (WorkerKafka kafka = new WorkerKafka()) {
            highest.forEach((partition, offset) -> await().atMost(WAIT).untilAsserted(() -> {
                OffsetAndMetadata committed = kafka.committed(partition);
                assertThat(committed).isNotNull();
                assertThat(committed.offset()).as("committed offset of run-job-" + partition).isGreaterThan(offset);
            }));
        }
    }

    /** The hostile records made from one good run-job event with a field of every kind. */
    private static List<Poison> corpus() throws JsonProcessingException {
        UUID jobId = UUID.randomUUID();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        RunJobEvent template = new RunJobEvent(EventIds.runEventId(jobId, 1), jobId, 1, JobType.SIMULATION,
                new JobPayload(List.of(new Step.Sleep(5L), new Step.Log("hello"), new Step.Compute(1000L),
                        new Step.HttpCall("http://example.invalid/call", 5L), new Step.Fail("boom", 1))),
                "0af7651916cd43dd8448eb211c80319c", now, now, now.plusSeconds(600));
        List<Poison> corpus = PoisonCorpus.of(WorkerKafka.JSON.writeValueAsString(template), jobId.toString(),
                Set.of("eventId", "jobId", "jobType", "payload.steps[0].action",
                        "payload.steps[0].durationMs", "payload.steps[1].message"));
        assertThat(corpus).hasSizeGreaterThanOrEqualTo(20);
        assertThat(corpus).extracting(Poison::name).contains("1 MiB value", "null key",
                "key is not the jobId", "payload.steps[1].message: over-long string", "attempt: negative");
        return corpus;
    }

    private static Poison record(RunJobEvent run) throws JsonProcessingException {
        return new Poison("good " + run.jobId(), run.jobId().toString(), WorkerKafka.JSON.writeValueAsBytes(run));
    }

    private static double quarantined() {
        return PrometheusScrape.sum("jobweaver_quarantined_total", "topic=\"run-job\"");
    }

    /** The stored outcome of run {@code eventId}, or null while it has no row. */
    private String outcome(UUID eventId) {
        List<Row> rows = pool.preparedQuery("SELECT outcome FROM execution_attempts WHERE event_id = $1")
                .execute(Tuple.of(eventId)).await().atMost(Duration.ofSeconds(30)).stream().toList();
        return rows.isEmpty() ? null : rows.getFirst().getString("outcome");
    }
}
