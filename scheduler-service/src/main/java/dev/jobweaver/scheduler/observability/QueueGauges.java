package dev.jobweaver.scheduler.observability;

import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.worker.LiveWorkers;
import dev.jobweaver.common.worker.WorkerStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The queue gauges, by {@code queue}: {@code jobweaver_queue_pending_depth} (jobs waiting to run: due, or set aside
 * until a live worker serves them), {@code jobweaver_queue_pending_oldest_age_seconds} and
 * {@code jobweaver_queue_workers} (the live workers that serve the queue), set from each backlog refresh's grouped
 * rows and the workers this replica last read.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A queue whose jobs are gone reads 0 at the next refresh, never its last depth; its series stays, at 0, for
 *       {@link #RETAIN} after the queue last had a waiting job or a worker, so a scrape sees it drop, and is then
 *       removed, so that a queue used once does not stay in every scrape. The {@code default} queue's series is always
 *       there.</li>
 *   <li>The {@code default} queue and every queue a live worker serves have series of their own. Of the others (queue
 *       names are chosen by clients) the {@code maxQueues} deepest do; the rest are summed under
 *       {@code queue="_other"}, a name no queue can have, which has no worker: a queue there that waits still shows in
 *       the depth and in the queue-without-workers alert.</li>
 *   <li>Before this replica's first read of the workers the worker gauges are NaN (unknown), not 0, so that a
 *       starting scheduler does not report every queue workerless.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * {@link #update} is called by one refresh at a time (the refresh skips while one runs); scrapes read the holders'
 * volatile values.
 */
@Startup
@ApplicationScoped
public class QueueGauges {

    /** The queue label of the queues beyond the cap; not a valid queue name (no underscore in one). */
    public static final String OTHER = "_other";
    /** How long a queue's series stays at 0 after it last had a waiting job or a worker. */
    static final Duration RETAIN = Duration.ofMinutes(15);
    /** Queues without a worker given series of their own, beyond {@code default}. */
    static final int MAX_QUEUES = 50;
    static final String DEPTH = "jobweaver.queue.pending.depth";
    static final String OLDEST_AGE = "jobweaver.queue.pending.oldest.age";
    static final String WORKERS = "jobweaver.queue.workers";

    private final MeterRegistry registry;
    private final int maxQueues;
    private final Clock clock;
    private final Map<String, Holder> series = new HashMap<>();

    @Inject
    public QueueGauges(MeterRegistry registry) {
        this(registry, MAX_QUEUES, Clock.systemUTC());
    }

    QueueGauges(MeterRegistry registry, int maxQueues, Clock clock) {
        if (maxQueues < 0) {
            throw new IllegalArgumentException("the queue cap must not be negative: " + maxQueues);
        }
        this.registry = registry;
        this.maxQueues = maxQueues;
        this.clock = clock;
        // the three metrics are in every scrape from the start, and a dashboard shows 0 rather than no data
        holder(JobControl.DEFAULT_QUEUE);
    }

    /**
     * Sets the gauges from one refresh's rows (every queue that has a waiting job) and the live workers as last read
     * ({@link LiveWorkers#UNKNOWN} before the first read).
     */
    public synchronized void update(List<QueueRow> rows, LiveWorkers live) {
        Instant now = clock.instant();
        Map<String, Integer> workers = new HashMap<>();
        for (WorkerStore.LiveWorker worker : live.workers()) {
            for (String queue : Set.copyOf(worker.queues())) {
                workers.merge(queue, 1, Integer::sum);
            }
        }
        Set<String> kept = keptQueues(rows, workers.keySet());
        Map<String, long[]> depth = new HashMap<>();
        Map<String, double[]> age = new HashMap<>();
        for (QueueRow row : rows) {
            String key = kept.contains(row.queue()) ? row.queue() : OTHER;
            depth.computeIfAbsent(key, k -> new long[1])[0] += row.depth();
            double[] oldest = age.computeIfAbsent(key, k -> new double[1]);
            oldest[0] = Math.max(oldest[0], row.oldestAgeSeconds());
        }
        Set<String> present = new HashSet<>(depth.keySet());
        present.addAll(workers.keySet());
        for (String queue : present) {
            holder(queue).seenAt = now;
        }
        series.entrySet().removeIf(entry -> {
            if (entry.getKey().equals(JobControl.DEFAULT_QUEUE)
                    || !entry.getValue().seenAt.plus(RETAIN).isBefore(now)) {
                return false;
            }
            registry.remove(entry.getValue().depthGauge);
            registry.remove(entry.getValue().ageGauge);
            registry.remove(entry.getValue().workersGauge);
            return true;
        });
        // every series there is gets this refresh's value, 0 for a queue that no longer waits: none keeps a stale one
        series.forEach((queue, holder) -> {
            long[] d = depth.get(queue);
            double[] a = age.get(queue);
            holder.depth = d == null ? 0 : d[0];
            holder.oldestAgeSeconds = a == null ? 0 : a[0];
            holder.workers = live.known() ? workers.getOrDefault(queue, 0) : Double.NaN;
        });
    }

    /**
     * {@code default}, the queues that have a worker, and the {@code maxQueues} others with the most waiting jobs;
     * ties go to the name, for stable series.
     */
    private Set<String> keptQueues(List<QueueRow> rows, Set<String> served) {
        Set<String> kept = new HashSet<>(served);
        kept.add(JobControl.DEFAULT_QUEUE);
        rows.stream()
                .filter(row -> !kept.contains(row.queue()))
                .sorted(Comparator.comparingLong(QueueRow::depth).reversed().thenComparing(QueueRow::queue))
                .limit(maxQueues)
                .map(QueueRow::queue)
                .toList()
                .forEach(kept::add);
        return kept;
    }

    private Holder holder(String queue) {
        return series.computeIfAbsent(queue, q -> {
            Holder holder = new Holder();
            Tags tags = Tags.of("queue", q);
            holder.depthGauge = Gauge.builder(DEPTH, holder, h -> h.depth)
                    .description("Jobs of the queue waiting to run: PENDING and due, or set aside until a live worker serves them")
                    .tags(tags).strongReference(true).register(registry);
            holder.ageGauge = Gauge.builder(OLDEST_AGE, holder, h -> h.oldestAgeSeconds)
                    .description("How long the queue's job waiting longest has waited since it became due")
                    .baseUnit("seconds").tags(tags).strongReference(true).register(registry);
            holder.workersGauge = Gauge.builder(WORKERS, holder, h -> h.workers)
                    .description("Live workers serving the queue, as this scheduler last read them (NaN before its first read)")
                    .tags(tags).strongReference(true).register(registry);
            return holder;
        });
    }

    /** One queue's values, read by the gauges at each scrape. */
    private static final class Holder {
        volatile double depth;
        volatile double oldestAgeSeconds;
        volatile double workers = Double.NaN;
        /** When the queue last had a waiting job or a worker; touched by {@link #update} only. */
        Instant seenAt = Instant.EPOCH;
        Gauge depthGauge;
        Gauge ageGauge;
        Gauge workersGauge;
    }
}
