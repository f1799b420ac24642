package dev.jobweaver.worker.command;

import dev.jobweaver.worker.WorkerConfig;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * Where the {@code worker-commands} consumer starts: at the first record of the last
 * {@code jobweaver.worker.commands.window}, whatever the group has (it commits nothing), so that every start reads the
 * recent cancels and deletes again. Tracks the reading up to the end offsets seen at assignment and then tells
 * {@link StoppedJobs} the worker is current.
 *
 * <p>{@link #onPartitionsAssigned} runs on the consumer's poll thread (its calls to the broker block it, once per
 * assignment); {@link #handled} on the channel's event loop.
 */
@ApplicationScoped
@Identifier(CommandWindow.NAME)
class CommandWindow implements KafkaConsumerRebalanceListener {

    /** The name the channel's {@code consumer-rebalance-listener.name} gives. */
    public static final String NAME = "jobweaver-worker-commands-window";

    private static final Logger LOG = Logger.getLogger(CommandWindow.class);

    private final StoppedJobs stopped;
    private final Duration window;
    private final Clock clock;
    /** The offset each partition must be read up to (exclusive) before the worker is current. */
    private final Map<TopicPartition, Long> catchUpTo = new ConcurrentHashMap<>();

    @Inject
    public CommandWindow(StoppedJobs stopped, WorkerConfig config) {
        this(stopped, config.commands().window(), Clock.systemUTC());
    }

    /** A listener reading back {@code window} from {@code clock}'s now, telling {@code stopped} when current. */
    public CommandWindow(StoppedJobs stopped, Duration window, Clock clock) {
        this.stopped = stopped;
        this.window = window;
        this.clock = clock;
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        long since = clock.millis() - window.toMillis();
        Map<TopicPartition, Long> times = new HashMap<>();
        partitions.forEach(p -> times.put(p, since));
        Map<TopicPartition, OffsetAndTimestamp> starts = consumer.offsetsForTimes(times);
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        for (TopicPartition partition : partitions) {
            OffsetAndTimestamp start = starts.get(partition);
            long end = ends.getOrDefault(partition, 0L);
            // No record in the window: start at the end, where the next command will be.
            long from = start == null ? end : start.offset();
            consumer.seek(partition, from);
            if (from < end) {
                catchUpTo.put(partition, end);
            } else {
                catchUpTo.remove(partition);
            }
            LOG.infof("worker-commands: reading %s from offset %d (the window of %s), %d record(s) to catch up on",
                    partition, from, window, end - from);
        }
        if (catchUpTo.isEmpty()) {
            stopped.markCurrent();
        }
    }

    @Override
    public void onPartitionsRevoked(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        partitions.forEach(catchUpTo::remove);
    }

    /** The record at {@code offset} of {@code partition} was applied or set aside. */
    public void handled(TopicPartition partition, long offset) {
        if (stopped.isCurrent()) {
            return;
        }
        Long target = catchUpTo.get(partition);
        if (target != null && offset + 1 >= target) {
            catchUpTo.remove(partition, target);
            if (catchUpTo.isEmpty()) {
                LOG.infof("worker-commands: caught up with the recent cancels and deletes (%d job(s) known)",
                        stopped.size());
                stopped.markCurrent();
            }
        }
    }
}
