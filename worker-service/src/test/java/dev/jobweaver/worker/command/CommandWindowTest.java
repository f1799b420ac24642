package dev.jobweaver.worker.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.messaging.Topics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Where a worker starts reading worker-commands: the first record of the window (or the end, when the window holds
 * none), whatever the group committed; and when it has caught up with what was there at assignment.
 */
class CommandWindowTest {

    private static final TopicPartition PARTITION = new TopicPartition(Topics.WORKER_COMMANDS, 0);
    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
    private static final Duration WINDOW = Duration.ofHours(24);

    /** A consumer whose records 0..4 were written 48, 30, 20, 10 and 1 hours ago. */
    private static final class Commands extends MockConsumer<String, byte[]> {

        private final long[] hoursAgo = {48, 30, 20, 10, 1};

        Commands() {
            super(AutoOffsetResetStrategy.EARLIEST.name());
            updateBeginningOffsets(Map.of(PARTITION, 0L));
            updateEndOffsets(Map.of(PARTITION, (long) hoursAgo.length));
            assign(List.of(PARTITION));
        }

        @Override
        public synchronized Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(
                Map<TopicPartition, Long> timestamps) {
            Map<TopicPartition, OffsetAndTimestamp> out = new HashMap<>();
            timestamps.forEach((partition, time) -> {
                for (int offset = 0; offset < hoursAgo.length; offset++) {
                    long at = NOW.minus(Duration.ofHours(hoursAgo[offset])).toEpochMilli();
                    if (at >= time) {
                        out.put(partition, new OffsetAndTimestamp(offset, at));
                        return;
                    }
                }
                out.put(partition, null);
            });
            return out;
        }
    }

    private final StoppedJobs stopped = new StoppedJobs(Clock.fixed(NOW, ZoneOffset.UTC), WINDOW, 100);

    @Test
    void itSeeksToTheFirstRecordOfTheWindowAndIsCurrentOnceItReadTheLastOneThereAtAssignment() {
        Commands consumer = new Commands();
        CommandWindow window = new CommandWindow(stopped, WINDOW, Clock.fixed(NOW, ZoneOffset.UTC));

        window.onPartitionsAssigned(consumer, List.of(PARTITION));

        assertThat(consumer.position(PARTITION)).as("the record of 20 hours ago, not the one of 30").isEqualTo(2);
        assertThat(stopped.isCurrent()).isFalse();
        window.handled(PARTITION, 3);
        assertThat(stopped.isCurrent()).isFalse();
        window.handled(PARTITION, 4);
        assertThat(stopped.isCurrent()).isTrue();
    }

    @Test
    void aWindowWithoutRecordsStartsAtTheEndAndIsCurrentAtOnce() {
        Commands consumer = new Commands();
        CommandWindow window = new CommandWindow(stopped, Duration.ofMinutes(30), Clock.fixed(NOW, ZoneOffset.UTC));

        window.onPartitionsAssigned(consumer, List.of(PARTITION));

        assertThat(consumer.position(PARTITION)).isEqualTo(5);
        assertThat(stopped.isCurrent()).isTrue();
    }
}
