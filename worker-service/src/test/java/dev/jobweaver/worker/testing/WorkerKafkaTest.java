package dev.jobweaver.worker.testing;

import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;

/**
 * What the worker's broker-and-database tests in the test JVM share: {@link WorkerKafkaSupport} and the worker's pool.
 * Subclasses carry {@code @QuarkusTest} and {@code @JobWeaverTest} (testing module).
 */
public abstract class WorkerKafkaTest extends WorkerKafkaSupport {

    @Inject
    protected Pool pool;
}
