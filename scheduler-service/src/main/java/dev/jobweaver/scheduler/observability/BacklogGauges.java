package dev.jobweaver.scheduler.observability;

import dev.jobweaver.common.job.Priority;
import dev.jobweaver.scheduler.SchedulerConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The backlog gauges, {@code jobweaver_jobs_pending_depth} and {@code jobweaver_jobs_pending_oldest_age_seconds} by
 * {@code priority} and {@code tenant}, set from each refresh's grouped rows with a bounded number of tenants.
 *
 * <p>The tenants with the deepest backlogs get series of their own; the rest are summed under {@code tenant="other"}
 * (their oldest age is the oldest of them). A series whose tenant no longer has a due job is removed, so a tenant that
 * was busy once does not stay in every scrape. The {@code other} series of each priority is always there (0 when
 * empty): both metrics are in every scrape, and a dashboard shows 0 rather than no data when nothing waits.
 */
@Startup
@ApplicationScoped
public class BacklogGauges {

    /** The tenant label of the backlog of the tenants beyond the cap. */
    public static final String OTHER = "other";
    static final String DEPTH = "jobweaver.jobs.pending.depth";
    static final String OLDEST_AGE = "jobweaver.jobs.pending.oldest.age";

    private final MeterRegistry registry;
    private final int maxTenants;
    /** Touched by one refresh at a time (the refresh skips while one runs); read by scrapes through the holders. */
    private final Map<Series, Holder> series = new HashMap<>();

    @Inject
    public BacklogGauges(MeterRegistry registry, SchedulerConfig config) {
        this(registry, config.metrics().backlogMaxTenants());
    }

    BacklogGauges(MeterRegistry registry, int maxTenants) {
        if (maxTenants < 0) {
            throw new IllegalArgumentException("backlog-max-tenants must not be negative: " + maxTenants);
        }
        this.registry = registry;
        this.maxTenants = maxTenants;
        for (Priority priority : Priority.values()) {
            holder(new Series(priority.name(), OTHER));
        }
    }

    /** One priority and tenant's series. */
    record Series(String priority, String tenant) {
    }

    /** Sets the gauges from one refresh's rows (every due group), capping the tenants and removing what is gone. */
    public synchronized void update(List<BacklogRow> rows) {
        Set<String> kept = keptTenants(rows);
        Map<Series, long[]> depth = new HashMap<>();
        Map<Series, double[]> age = new HashMap<>();
        for (BacklogRow row : rows) {
            Series key = new Series(row.priority(), kept.contains(row.tenant()) ? row.tenant() : OTHER);
            depth.computeIfAbsent(key, k -> new long[1])[0] += row.depth();
            double[] oldest = age.computeIfAbsent(key, k -> new double[1]);
            oldest[0] = Math.max(oldest[0], row.oldestAgeSeconds());
        }
        Set<Series> present = new HashSet<>(depth.keySet());
        for (Priority priority : Priority.values()) {
            present.add(new Series(priority.name(), OTHER));
        }
        series.entrySet().removeIf(entry -> {
            if (present.contains(entry.getKey())) {
                return false;
            }
            registry.remove(entry.getValue().depthGauge);
            registry.remove(entry.getValue().ageGauge);
            return true;
        });
        for (Series key : present) {
            Holder holder = holder(key);
            long[] d = depth.get(key);
            double[] a = age.get(key);
            holder.depth = d == null ? 0 : d[0];
            holder.oldestAgeSeconds = a == null ? 0 : a[0];
        }
    }

    /** The series there are now, with their depth and oldest age (for tests and logs). */
    synchronized Map<Series, double[]> snapshot() {
        Map<Series, double[]> copy = new HashMap<>();
        series.forEach((key, holder) -> copy.put(key, new double[] {holder.depth, holder.oldestAgeSeconds}));
        return copy;
    }

    /** The {@code maxTenants} tenants with the most due jobs over all priorities; ties go to the name, for stable series. */
    private Set<String> keptTenants(List<BacklogRow> rows) {
        Map<String, Long> byTenant = new HashMap<>();
        for (BacklogRow row : rows) {
            byTenant.merge(row.tenant(), row.depth(), Long::sum);
        }
        Set<String> kept = new HashSet<>();
        byTenant.entrySet().stream()
                .filter(e -> !OTHER.equals(e.getKey()))
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .limit(maxTenants)
                .forEach(e -> kept.add(e.getKey()));
        return kept;
    }

    private Holder holder(Series key) {
        return series.computeIfAbsent(key, k -> {
            Holder holder = new Holder();
            Tags tags = Tags.of("priority", k.priority(), "tenant", k.tenant());
            holder.depthGauge = Gauge.builder(DEPTH, holder, h -> h.depth)
                    .description("Jobs PENDING and due (next_run_at reached), waiting for dispatch")
                    .tags(tags).strongReference(true).register(registry);
            holder.ageGauge = Gauge.builder(OLDEST_AGE, holder, h -> h.oldestAgeSeconds)
                    .description("How long the job due longest has waited since it became due")
                    .baseUnit("seconds").tags(tags).strongReference(true).register(registry);
            return holder;
        });
    }

    /** One series' values, read by the gauges at each scrape. */
    private static final class Holder {
        volatile double depth;
        volatile double oldestAgeSeconds;
        Gauge depthGauge;
        Gauge ageGauge;
    }
}
