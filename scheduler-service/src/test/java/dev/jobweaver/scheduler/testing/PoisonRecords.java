package dev.jobweaver.scheduler.testing;

import dev.jobweaver.local.testing.PoisonCorpus.Poison;
import dev.jobweaver.local.testing.QuarantineTopic;
import dev.jobweaver.local.testing.QuarantineTopic.Position;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** The poison corpus as the scheduler's topics carry it, and its quarantined copies. */
public final class PoisonRecords {

    /**
     * The largest value a record of a topic at the broker's default {@code max.message.bytes} (1 MiB + 12 bytes for
     * a whole batch) takes, with room for the batch's and the record's own bytes.
     */
    public static final int LARGEST_VALUE = 1024 * 1024 - 1024;

    private PoisonRecords() {
    }

    /**
     * {@code corpus} with every value the broker would refuse replaced by garbage of {@link #LARGEST_VALUE} bytes: a
     * record the topic refuses never reaches a consumer, while the largest one it takes is the one whose quarantined
     * copy (with its added headers) needs the quarantine producer's 2 MiB request size.
     */
    public static List<Poison> fitFor(List<Poison> corpus) {
        return corpus.stream().map(p -> p.value() == null || p.value().length <= LARGEST_VALUE ? p
                : new Poison(p.name() + " (cut to " + LARGEST_VALUE + " bytes)", p.key(), garbage())).toList();
    }

    /** {@link QuarantineTopic#awaitQuarantined} for up to a minute: the copies found, by their origin. */
    public static Map<Position, ConsumerRecord<String, byte[]>> awaitQuarantined(String bootstrap,
                                                                                 List<Position> origins) {
        return QuarantineTopic.awaitQuarantined(bootstrap, origins, Duration.ofSeconds(60));
    }

    private static byte[] garbage() {
        byte[] value = new byte[LARGEST_VALUE];
        Arrays.fill(value, (byte) 'x');
        return value;
    }
}
