package dev.jobweaver.common.observability;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Set;

/**
 * Drops the two per-client gauges of the reactive SQL client ({@code postgresql.queue.size},
 * {@code postgresql.current}), which Micrometer cannot hold for this client.
 *
 * <h2>Why</h2>
 * Vert.x creates one client-metrics object per connection factory, one per event loop that opens a connection, and
 * Quarkus' binder registers both gauges in each under the same name and tags. Micrometer keeps the first gauge, so the
 * figure covers one event loop's connections only, and the second registration logs a WARN at every start of every
 * service ("This Gauge has been already registered"). The timers and counters of the same binder
 * ({@code postgresql.queue.delay}, {@code postgresql.processing}, {@code postgresql.completed}) are shared correctly
 * and stay; the pool's own meters ({@code sql.pool.*}) stay as well.
 */
@Singleton
public class SqlClientGauges {

    /** The per-client gauges whose registration repeats. */
    static final Set<String> DROPPED = Set.of("postgresql.queue.size", "postgresql.current");

    /** The filter, picked up by Quarkus' Micrometer extension for every registry. */
    @Produces
    @Singleton
    public MeterFilter dropRepeatedClientGauges() {
        return new MeterFilter() {
            @Override
            public MeterFilterReply accept(Meter.Id id) {
                return id.getType() == Meter.Type.GAUGE && DROPPED.contains(id.getName()) ? MeterFilterReply.DENY
                        : MeterFilterReply.NEUTRAL;
            }
        };
    }
}
