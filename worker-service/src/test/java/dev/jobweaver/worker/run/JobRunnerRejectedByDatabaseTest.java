package dev.jobweaver.worker.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.testing.QuarantineTopic.Position;
import dev.jobweaver.worker.testing.PrometheusScrape;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;

/**
 * Runs that pass the event rules but whose row the database refuses for good: each is quarantined once as
 * REJECTED_BY_DATABASE, never retried for ever, while the runs produced with it are stored and published. Before its
 * steps (the attempt cannot be recorded) nothing runs; after them (the outcome cannot be stored) nothing is published.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class JobRunnerRejectedByDatabaseTest extends WorkerKafkaTest {

    /** An attempt number the rules allow (at most 10,000) and a test-only constraint refuses. */
    private static final int REFUSED_ATTEMPT = 9_999;
    private static final String CONSTRAINT = "test_refuses_attempt_9999";
    private static final int GOOD = 8;

    @Test
    void anAttemptTheDatabaseRefusesIsQuarantinedBeforeItsStepsRun() throws Exception {
        RunJobEvent first = WorkerKafka.run(new Step.Log("must never run"));
        RunJobEvent refused = WorkerKafka.attempt(first, REFUSED_ATTEMPT, first.payload());
        pool.query("ALTER TABLE execution_attempts ADD CONSTRAINT " + CONSTRAINT + " CHECK (attempt <> "
                + REFUSED_ATTEMPT + ") NOT VALID").execute().await().atMost(WAIT);
        try {
            double before = rejected();
            Burst burst = burst(refused);

            ConsumerRecord<String, byte[]> copy = quarantined(burst.refused(), refused);
            assertThat(detail(copy)).contains("could not record the attempt", "23514", "its steps did not run");
            burst.assertGoodStoredAndPublished();
            assertThat(row(refused.eventId())).as("no row: the insert was refused").isNull();
            await().atMost(WAIT).untilAsserted(() -> assertThat(rejected()).isEqualTo(before + 1));
            burst.assertCommittedPast();
            assertThat(kafka.outcomes(refused.jobId())).as("nothing ran, nothing is published").isEmpty();
        } finally {
            pool.query("ALTER TABLE execution_attempts DROP CONSTRAINT IF EXISTS " + CONSTRAINT).execute()
                    .await().atMost(WAIT);
        }
    }

    @Test
    void anOutcomeTheDatabaseRefusesIsQuarantinedAfterItsStepsRanAndNothingIsPublished() throws Exception {
        // The steps run and fail with a message the rules allow, which a test-only constraint makes the database
        // refuse for good (SQL state 23514): storing the outcome fails, after the steps ran.
        String message = "refused by a test constraint " + java.util.UUID.randomUUID();
        RunJobEvent refused = WorkerKafka.run(new Step.Log("runs"), new Step.Fail(message));
        String constraint = "test_refuses_message_" + refused.eventId().toString().replace("-", "");
        pool.query("ALTER TABLE execution_attempts ADD CONSTRAINT " + constraint
                + " CHECK (error_message IS DISTINCT FROM '" + message + "') NOT VALID").execute()
                .await().atMost(WAIT);
        try {
            double before = rejected();
            Burst burst = burst(refused);

            ConsumerRecord<String, byte[]> copy = quarantined(burst.refused(), refused);
            assertThat(detail(copy)).contains("could not store the outcome", "23514",
                    "its steps ran; their outcome FAILURE was neither stored nor published");
            burst.assertGoodStoredAndPublished();
            Row row = row(refused.eventId());
            assertThat(row.getString("outcome")).as("the row stays as the run began it").isEqualTo("RUNNING");
            await().atMost(WAIT).untilAsserted(() -> assertThat(rejected()).isEqualTo(before + 1));
            burst.assertCommittedPast();
            assertThat(kafka.outcomes(refused.jobId())).as("no outcome it could not store").isEmpty();
        } finally {
            pool.query("ALTER TABLE execution_attempts DROP CONSTRAINT IF EXISTS " + constraint).execute()
                    .await().atMost(WAIT);
        }
    }

    /** Good runs, the refused one in their midst, all on one partition, then one good run after them. */
    private Burst burst(RunJobEvent refused) {
        List<RunJobEvent> good = new ArrayList<>();
        List<RecordMetadata> sent = new ArrayList<>();
        RecordMetadata refusedAt = null;
        for (int i = 0; i < GOOD; i++) {
            if (i == GOOD / 2) {
                refusedAt = kafka.send(refused, 1);
                sent.add(refusedAt);
            }
            RunJobEvent run = WorkerKafka.run(new Step.Sleep(50L), new Step.Log("good run " + i));
            good.add(run);
            sent.add(kafka.send(run, 1));
        }
        return new Burst(good, sent, new Position(Topics.RUN_JOB, refusedAt.partition(), refusedAt.offset()));
    }

    private record Burst(List<RunJobEvent> good, List<RecordMetadata> sent, Position refused) {

        void assertGoodStoredAndPublished() {
            for (RunJobEvent run : good) {
                assertThat(firstOutcome(run.jobId()).topic()).isEqualTo(Topics.JOB_COMPLETED);
            }
        }

        void assertCommittedPast() {
            long last = sent.stream().mapToLong(RecordMetadata::offset).max().orElseThrow();
            await().atMost(WAIT).untilAsserted(() -> {
                OffsetAndMetadata committed = kafka.committed(refused.partition());
                assertThat(committed).isNotNull();
                assertThat(committed.offset()).isGreaterThan(last);
            });
        }
    }

    private static ConsumerRecord<String, byte[]> quarantined(Position position, RunJobEvent original)
            throws JsonProcessingException {
        Map<Position, ConsumerRecord<String, byte[]>> found = QuarantineTopic.awaitQuarantined(
                WorkerKafka.bootstrap(), List.of(position), WAIT);
        assertThat(found).containsKey(position);
        ConsumerRecord<String, byte[]> copy = found.get(position);
        assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON)).isEqualTo("REJECTED_BY_DATABASE");
        assertThat(copy.value()).isEqualTo(WorkerKafka.JSON.writeValueAsBytes(original));
        assertThat(copy.key()).isEqualTo(original.jobId().toString());
        return copy;
    }

    private static String detail(ConsumerRecord<String, byte[]> copy) {
        return QuarantineTopic.header(copy, QuarantineHeaders.DETAIL);
    }

    private static double rejected() {
        return PrometheusScrape.sum("jobweaver_quarantined_total", "topic=\"run-job\"",
                "reason=\"rejected_by_database\"");
    }

    private Row row(UUID eventId) {
        List<Row> rows = pool.preparedQuery("SELECT * FROM execution_attempts WHERE event_id = $1")
                .execute(Tuple.of(eventId)).await().atMost(WAIT).stream().toList();
        return rows.isEmpty() ? null : rows.getFirst();
    }
}
