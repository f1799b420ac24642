package dev.jobweaver.scheduler.testing;

import dev.jobweaver.local.testing.LocalStackResource;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * {@link LocalStackResource}, started again if the first start fails.
 *
 * <p>Why: on a loaded machine, deploy/local's topic provisioning sometimes sees {@code UnknownTopicOrPartition}
 * right after creating the topics (metadata not yet propagated) and gives up, failing every test class. A failed
 * stack is closed by its own JVM shutdown hook; the next attempt starts a fresh one.
 */
public class RetryingLocalStackResource extends LocalStackResource {

    private static final Logger LOG = Logger.getLogger(RetryingLocalStackResource.class);
    private static final int ATTEMPTS = 3;

    @Override
    public Map<String, String> start() {
        RuntimeException last = null;
        for (int i = 1; i <= ATTEMPTS; i++) {
            try {
                return super.start();
            } catch (RuntimeException e) {
                last = e;
                LOG.warnf("local stack start %d of %d failed: %s", i, ATTEMPTS, e);
            }
        }
        throw last;
    }
}
