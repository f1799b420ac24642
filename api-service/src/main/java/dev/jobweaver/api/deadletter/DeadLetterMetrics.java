package dev.jobweaver.api.deadletter;

import dev.jobweaver.api.platform.background.RoundFailures;
import dev.jobweaver.common.metrics.Counters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/** The metrics of the dead-letter review, exported at {@code /q/metrics} with the {@code jobweaver_} prefix. */
@ApplicationScoped
public class DeadLetterMetrics {

    private static final Logger LOG = Logger.getLogger(DeadLetterMetrics.class);

    /** What a received dead letter did. */
    public enum Received {
        /** It stored a new dead letter, or reopened one for a newer failure. */
        OPENED("opened"),
        /** Its failure was not newer than the one stored: a redelivery. */
        REPEATED("repeated"),
        /** The read model has no such job (it was deleted): nothing to review. */
        UNKNOWN_JOB("unknown-job");

        private final String label;

        Received(String label) {
            this.label = label;
        }
    }

    private final Map<Received, Counter> received = new EnumMap<>(Received.class);
    private final Counter requeued;
    private final Counter discarded;
    /** -1 until the first count, so that a gauge at 0 always means none is open. */
    private final AtomicLong open = new AtomicLong(-1);
    private final DeadLetterStatements statements;

    public DeadLetterMetrics(MeterRegistry registry, DeadLetterStatements statements) {
        this.statements = statements;
        for (Received result : Received.values()) {
            received.put(result, Counters.of(registry, "jobweaver.dead.letters.received",
                    "Dead letters consumed from job-dead-letter, by what they did", "result", result.label));
        }
        this.requeued = Counters.of(registry, "jobweaver.dead.letters.requeued",
                "Dead letters requeued: their REQUEUE acknowledged by Kafka and their state committed");
        this.discarded = Counters.of(registry, "jobweaver.dead.letters.discarded",
                "Dead letters discarded by an operator");
        Gauge.builder("jobweaver.dead.letters.open", open, AtomicLong::get)
                .description("Dead letters waiting for review (OPEN), counted every"
                        + " jobweaver.api.dead-letters.open-refresh; -1 before the first count")
                .register(registry);
    }

    /** {@code count} consumed dead letters did {@code result}. */
    public void received(Received result, int count) {
        if (count > 0) {
            received.get(result).increment(count);
        }
    }

    /** {@code count} dead letters were requeued. */
    public void requeued(int count) {
        requeued.increment(count);
    }

    /** A dead letter was discarded. */
    public void discarded() {
        discarded.increment();
    }

    /**
     * Counts the open dead letters again. A scrape reads the last count: counting per scrape would query the database
     * from the metrics endpoint's event loop, and a table of many dead letters would slow every scrape.
     */
    @Scheduled(every = "${jobweaver.api.dead-letters.open-refresh:15s}", concurrentExecution =
            Scheduled.ConcurrentExecution.SKIP, identity = "dead-letters-open",
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refreshOpen() {
        return RoundFailures.logged(statements.countOpen().invoke(open::set), LOG, Logger.Level.DEBUG,
                "the open dead letters were not counted");
    }
}
