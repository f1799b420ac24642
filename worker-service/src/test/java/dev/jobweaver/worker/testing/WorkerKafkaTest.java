package dev.jobweaver.worker.testing;

import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * What the worker's broker-and-database tests share: one {@link WorkerKafka} for the class and the worker's pool.
 * Subclasses carry {@code @QuarkusTest} and {@code @JobWeaverTest} (testing module).
 */
public abstract class WorkerKafkaTest {

    /** How long a test waits for the worker to act on what it sent. */
    protected static final Duration WAIT = Duration.ofSeconds(60);

    /** One for the tests of a class: its outcome reader keeps gathering in the background between them. */
    protected static WorkerKafka kafka;

    @Inject
    protected Pool pool;

    @BeforeAll
    static void openWorkerKafka() {
        kafka = new WorkerKafka();
    }

    @AfterAll
    static void closeWorkerKafka() {
        kafka.close();
    }
}
