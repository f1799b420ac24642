package dev.jobweaver.scheduler.testing;

import dev.jobweaver.local.testing.QuarantineTopic;
import dev.jobweaver.local.testing.QuarantineTopic.Position;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** The quarantined copies of the poison records a scheduler test produced. */
public final class PoisonRecords {

    private PoisonRecords() {
    }

    /** {@link QuarantineTopic#awaitQuarantined} for up to a minute: the copies found, by their origin. */
    public static Map<Position, ConsumerRecord<String, byte[]>> awaitQuarantined(String bootstrap,
                                                                                 List<Position> origins) {
        return QuarantineTopic.awaitQuarantined(bootstrap, origins, Duration.ofSeconds(60));
    }
}
