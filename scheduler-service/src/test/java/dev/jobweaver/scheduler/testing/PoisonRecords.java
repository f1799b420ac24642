package dev.jobweaver.scheduler.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.PoisonCorpus.Poison;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.testing.QuarantineTopic.Position;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** The quarantined copies of the poison records a scheduler test produced. */
public final class PoisonRecords {

    private PoisonRecords() {
    }

    /** A corpus as produced among good records: the good records' jobs, and where each poison landed. */
    public record Produced(List<UUID> good, List<Position> poisons) {
    }

    /**
     * The three bad records every keyed topic's consumer quarantines, as produced to partition 1 of {@code topic}: one
     * that is not JSON, one that breaks a rule of its event, and one keyed by another id than its own; by offset.
     */
    public record BadRecords(String topic, long notJson, long invalid, long otherKey) {

        /**
         * Produces the three, in that order, ahead of whatever the test sends next to the same partition: the not-JSON
         * and the {@code invalid} value keyed {@code key}, the {@code otherKey} value keyed by a random id.
         */
        public static BadRecords produce(TestProducer producer, String topic, UUID key, byte[] invalid,
                                         byte[] otherKey) {
            long notJson = producer.sendRaw(topic, 1, key.toString(), "{not json".getBytes(StandardCharsets.UTF_8));
            long invalidAt = producer.sendRaw(topic, 1, key.toString(), invalid);
            long otherKeyAt = producer.sendRaw(topic, 1, UUID.randomUUID().toString(), otherKey);
            return new BadRecords(topic, notJson, invalidAt, otherKeyAt);
        }

        /** The position of the record at {@code offset} of partition 1. */
        public Position at(long offset) {
            return new Position(topic, 1, offset);
        }

        /**
         * Waits for the quarantined copies of the three and of the records at {@code others} (same partition), asserts
         * the three's reasons, and that the details of the invalid and the wrongly keyed one name
         * {@code invalidDetail} and {@code otherKeyDetail}; returns every copy by its origin.
         */
        public Map<Position, ConsumerRecord<String, byte[]>> assertQuarantined(String bootstrap, String invalidDetail,
                                                                               String otherKeyDetail, long... others) {
            List<Position> origins = new ArrayList<>(List.of(at(notJson), at(invalid), at(otherKey)));
            for (long offset : others) {
                origins.add(at(offset));
            }
            Map<Position, ConsumerRecord<String, byte[]>> copies = awaitQuarantined(bootstrap, origins);
            assertThat(reason(copies.get(at(notJson)))).isEqualTo(QuarantineReason.UNREADABLE.name());
            assertThat(reason(copies.get(at(invalid)))).isEqualTo(QuarantineReason.INVALID.name());
            assertThat(QuarantineTopic.header(copies.get(at(invalid)), QuarantineHeaders.DETAIL))
                    .contains(invalidDetail);
            assertThat(QuarantineTopic.header(copies.get(at(otherKey)), QuarantineHeaders.DETAIL))
                    .contains(otherKeyDetail);
            return copies;
        }
    }

    /** The reason header of a quarantined copy, failing the test where no copy was found. */
    public static String reason(ConsumerRecord<String, byte[]> copy) {
        assertThat(copy).isNotNull();
        return QuarantineTopic.header(copy, QuarantineHeaders.REASON);
    }

    /** {@link QuarantineTopic#awaitQuarantined} for up to a minute: the copies found, by their origin. */
    public static Map<Position, ConsumerRecord<String, byte[]>> awaitQuarantined(String bootstrap,
                                                                                 List<Position> origins) {
        return QuarantineTopic.awaitQuarantined(bootstrap, origins, Duration.ofSeconds(60));
    }

    /**
     * Produces {@code corpus} to {@code topic} in one stream, with a good record of a job from {@code goodJob} first and
     * again after every {@code every} poisons: that the good ones are applied shows the consumer went on past each
     * poison.
     */
    public static Produced produceAmongGood(String bootstrap, String topic, List<Poison> corpus, int every,
                                            Supplier<UUID> goodJob, Function<UUID, byte[]> goodValue) {
        List<Poison> records = new ArrayList<>();
        List<UUID> good = new ArrayList<>();
        List<Integer> poisonIndexes = new ArrayList<>();
        for (int i = 0; i < corpus.size(); i++) {
            if (i % every == 0) {
                UUID jobId = goodJob.get();
                good.add(jobId);
                records.add(new Poison("good " + jobId, jobId.toString(), goodValue.apply(jobId)));
            }
            poisonIndexes.add(records.size());
            records.add(corpus.get(i));
        }
        List<Position> positions = QuarantineTopic.produce(bootstrap, topic, records);
        return new Produced(good, poisonIndexes.stream().map(positions::get).toList());
    }

    /**
     * Asserts that every poison of {@code corpus} was quarantined from its position in {@code poisons} as it was
     * produced, as UNREADABLE or INVALID; returns the copies in the corpus's order.
     */
    public static List<ConsumerRecord<String, byte[]>> assertQuarantinedAsProduced(String bootstrap,
                                                                                   List<Poison> corpus,
                                                                                   List<Position> poisons) {
        Map<Position, ConsumerRecord<String, byte[]>> found = awaitQuarantined(bootstrap, poisons);
        List<ConsumerRecord<String, byte[]>> copies = new ArrayList<>();
        for (int i = 0; i < corpus.size(); i++) {
            Poison poison = corpus.get(i);
            ConsumerRecord<String, byte[]> copy = found.get(poisons.get(i));
            assertThat(copy).as("quarantined copy of '%s'", poison.name()).isNotNull();
            assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON)).as(poison.name())
                    .isIn(QuarantineReason.UNREADABLE.name(), QuarantineReason.INVALID.name());
            assertThat(copy.key()).as(poison.name()).isEqualTo(poison.key());
            assertThat(copy.value()).as(poison.name()).isEqualTo(poison.value());
            copies.add(copy);
        }
        return copies;
    }
}
