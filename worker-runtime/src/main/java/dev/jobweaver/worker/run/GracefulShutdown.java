package dev.jobweaver.worker.run;

import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * Shutdown in order: stop taking records, let the runs in progress finish (up to
 * {@code jobweaver.worker.shutdown-grace-period}), then let the Kafka connector close, which makes the commit strategy
 * commit everything completed ({@code OutOfOrderCommitHandler#terminate}) before the consumers leave the group.
 *
 * <p>{@link ShutdownEvent} is observed before the container destroys the connector, so the runs still have the
 * database, the producers and the consumers they need to finish and publish.
 */
@ApplicationScoped
class GracefulShutdown {

    private static final Logger LOG = Logger.getLogger(GracefulShutdown.class);

    @Inject RunDispatcher dispatcher;

    void onShutdown(@Observes @Priority(1) ShutdownEvent event) {
        dispatcher.startDraining();
        if (dispatcher.awaitIdle()) {
            LOG.info("every run in progress finished; committing and leaving the group");
        } else {
            LOG.warnf("%d runs still in progress at the end of the grace period; their records stay uncommitted and"
                    + " will be delivered again", dispatcher.running());
        }
    }
}
