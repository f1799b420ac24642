package dev.jobweaver.api.quarantine;

import dev.jobweaver.api.platform.background.RoundFailures;
import dev.jobweaver.common.metrics.Counters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The metrics of the quarantine review, exported at {@code /q/metrics} with the {@code jobweaver_} prefix: the records
 * waiting for review (the gauge the alert JobWeaverQuarantinedRecords reads), and counters of what was stored,
 * replayed and discarded. Counters are per instance; the gauge is the table's, the same on every instance.
 */
@ApplicationScoped
public class QuarantineMetrics {

    private static final Logger LOG = Logger.getLogger(QuarantineMetrics.class);

    private final Counter stored;
    private final Counter repeated;
    private final Counter storedBare;
    private final Counter replayed;
    private final Counter discarded;
    /** -1 until the first count, so that a gauge at 0 always means none waits. */
    private final AtomicLong kept = new AtomicLong(-1);
    private final QuarantineStore store;

    public QuarantineMetrics(MeterRegistry registry, QuarantineStore store) {
        this.store = store;
        this.stored = Counters.of(registry, "jobweaver.quarantine.records.stored",
                "Quarantined records consumed from jobweaver-quarantine and stored for review, by result", "result",
                "stored");
        this.repeated = Counters.of(registry, "jobweaver.quarantine.records.stored",
                "Quarantined records consumed from jobweaver-quarantine and stored for review, by result", "result",
                "repeated");
        this.storedBare = Counters.of(registry, "jobweaver.quarantine.records.stored",
                "Quarantined records consumed from jobweaver-quarantine and stored for review, by result", "result",
                "bare");
        this.replayed = Counters.of(registry, "jobweaver.quarantine.records.replayed",
                "Quarantined records published again to their topic, acknowledged by Kafka");
        this.discarded = Counters.of(registry, "jobweaver.quarantine.records.discarded",
                "Quarantined records discarded by an admin");
        Gauge.builder("jobweaver.quarantine.records.kept", kept, AtomicLong::get)
                .description("Quarantined records waiting for review (KEPT), counted every"
                        + " jobweaver.api.quarantine.kept-refresh; -1 before the first count")
                .register(registry);
    }

    /** Of {@code consumed} copies, {@code stored} were new; the others were stored before (a redelivery). */
    void stored(int consumed, int stored) {
        this.stored.increment(stored);
        repeated.increment(Math.max(0, consumed - stored));
    }

    /** A copy was refused as read and stored bare. */
    void storedBare() {
        storedBare.increment();
    }

    void replayed() {
        replayed.increment();
    }

    void discarded() {
        discarded.increment();
    }

    /**
     * Counts the kept records again. A scrape reads the last count: counting per scrape would query the database from
     * the metrics endpoint's event loop.
     */
    @Scheduled(every = "${jobweaver.api.quarantine.kept-refresh:15s}", concurrentExecution =
            Scheduled.ConcurrentExecution.SKIP, identity = "quarantine-kept",
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refreshKept() {
        return RoundFailures.logged(store.countKept().invoke(kept::set), LOG, Logger.Level.DEBUG,
                "the kept quarantined records were not counted");
    }
}
