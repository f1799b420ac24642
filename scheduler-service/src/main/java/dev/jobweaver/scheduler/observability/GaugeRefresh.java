package dev.jobweaver.scheduler.observability;

import io.smallrye.mutiny.Uni;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * A scheduled refresh of gauges from the database (a gauge must not query on scrape). A refresh that fails leaves the
 * gauges at their last values until the next one, so it is logged at debug level and never fails the tick.
 */
public final class GaugeRefresh {

    private GaugeRefresh() {
    }

    /**
     * Reads with {@code read} and hands the result to {@code update}; a failure is logged to {@code log} as "could not
     * refresh the {@code what}" and completes the refresh.
     */
    public static <T> Uni<Void> of(Uni<T> read, Consumer<? super T> update, Logger log, String what) {
        return read
                .invoke(update)
                .onFailure().invoke(e -> log.debugf("could not refresh the %s: %s", what, e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
