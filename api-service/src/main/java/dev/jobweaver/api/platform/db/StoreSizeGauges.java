package dev.jobweaver.api.platform.db;

import dev.jobweaver.api.platform.background.RoundFailures;
import dev.jobweaver.common.metrics.StoreSizes;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * The API's table and index sizes ({@link StoreSizes}: {@code jobweaver_store_table_bytes} and
 * {@code jobweaver_store_index_bytes} by {@code table}), read every {@code jobweaver.api.store.sizes-refresh}. The
 * figures are the database's, so every API replica reports the same ones.
 *
 * <p>Thread: the refresh runs on the scheduler's timer and queries without blocking (its own event loop), one at a
 * time; scrapes only read the last figures.
 */
@ApplicationScoped
public class StoreSizeGauges {

    private static final Logger LOG = Logger.getLogger(StoreSizeGauges.class);

    private final StoreSizes sizes;

    /**
     * {@code config} is the period's typed home, read by {@code @Scheduled} through its key; taking it here registers
     * the mapping, which Quarkus otherwise leaves out, refusing the key as unknown, and checks it at start.
     */
    public StoreSizeGauges(MeterRegistry registry, Pool pool, StoreConfig config) {
        if (config.sizesRefresh().isNegative() || config.sizesRefresh().isZero()) {
            throw new IllegalArgumentException("jobweaver.api.store.sizes-refresh must be positive: "
                    + config.sizesRefresh());
        }
        this.sizes = new StoreSizes(registry, pool);
    }

    @Scheduled(every = "${jobweaver.api.store.sizes-refresh:60s}", concurrentExecution =
            Scheduled.ConcurrentExecution.SKIP, identity = "store-sizes",
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refresh() {
        // DEBUG, as the other gauges' rounds: a failure leaves the last figures, and sizes move over hours
        return RoundFailures.logged(sizes.refresh(), LOG, Logger.Level.DEBUG, "the table sizes were not read");
    }
}
