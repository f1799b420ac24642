package dev.jobweaver.scheduler.observability;

import dev.jobweaver.common.metrics.StoreSizes;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * The scheduler's table and index sizes ({@link StoreSizes}: {@code jobweaver_store_table_bytes} and
 * {@code jobweaver_store_index_bytes} by {@code table}), read every
 * {@code jobweaver.scheduler.metrics.store-sizes-refresh-interval}. The figures are the shared database's, so every
 * scheduler replica reports the same ones.
 *
 * <p>Thread: the refresh runs on the scheduler's timer and queries without blocking (its own event loop), one at a
 * time; scrapes only read the last figures.
 */
@ApplicationScoped
public class StoreSizeGauges {

    private static final Logger LOG = Logger.getLogger(StoreSizeGauges.class);

    private final StoreSizes sizes;

    public StoreSizeGauges(MeterRegistry registry, Pool pool) {
        this.sizes = new StoreSizes(registry, pool);
    }

    @Scheduled(every = "${jobweaver.scheduler.metrics.store-sizes-refresh-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refresh() {
        return GaugeRefresh.of(sizes.refresh(), ignored -> { }, LOG, "table and index sizes");
    }
}
