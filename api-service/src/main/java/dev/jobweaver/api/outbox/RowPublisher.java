package dev.jobweaver.api.outbox;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.Record;
import java.util.List;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * A feature's publisher of rows that are their own outbox: the feature says what one change of a row sends and how it
 * is recorded once Kafka acknowledged it ({@link #change}), and this publishes it through {@link RowOutbox}, which
 * states the guarantees and threads. A change that is not acknowledged stays unpublished in its row, and the feature's
 * {@link RowRepublisher} publishes it again.
 *
 * @param <C> one change of a row, say a schedule's timing
 */
public abstract class RowPublisher<C> {

    private final RowOutbox outbox;
    private final MutinyEmitter<Record<String, byte[]>> emitter;
    private final Logger log;

    /**
     * @param emitter   the feature's outgoing channel
     * @param publisher the feature's publisher, whose log shows a change published without the caller waiting that
     *                  failed
     */
    protected RowPublisher(RowOutbox outbox, MutinyEmitter<Record<String, byte[]>> emitter, Class<?> publisher) {
        this.outbox = outbox;
        this.emitter = emitter;
        this.log = Logger.getLogger(publisher);
    }

    /** For the container's client proxy, which hands every call to the bean. */
    protected RowPublisher() {
        this.outbox = null;
        this.emitter = null;
        this.log = null;
    }

    /**
     * What publishing a row's change does.
     *
     * @param what     the change in a failure, say "the limit of tenant t"
     * @param version  which version of the row it is in a log line, say "version 3", or null
     * @param problem  the rule its event breaks, or null ({@link RowOutbox#publish})
     * @param records  what it sends, one after the other
     * @param recorded the feature's bookkeeping that the row is published, run once Kafka acknowledged every record
     */
    public record Change(String what, String version, String problem, List<RowOutbox.Outgoing> records,
                         Supplier<Uni<?>> recorded) {

        private String described() {
            return version == null ? what : what + " (" + version + ")";
        }
    }

    /** What publishing {@code change} sends and records. */
    protected abstract Change change(C change);

    /**
     * Publishes {@code change}; completes once Kafka acknowledged it and the row records it as published, or fails
     * (the row stays unpublished for the republisher).
     */
    public Uni<Void> publish(C change) {
        return send(change(change));
    }

    /** {@link #publish}, without the caller waiting; a failure is logged and left to the republisher. */
    public void publishLater(C change) {
        sendLater(change(change));
    }

    /** Publishes what {@code change} describes; see {@link #publish}. */
    protected Uni<Void> send(Change change) {
        return outbox.publish(emitter, change.what(), change.problem(), change.records(), change.recorded());
    }

    /** {@link #send}, without the caller waiting; a failure is logged and left to the republisher. */
    protected void sendLater(Change change) {
        RowOutbox.later(log, send(change), change::described);
    }
}
