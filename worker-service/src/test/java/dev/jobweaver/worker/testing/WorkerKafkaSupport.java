package dev.jobweaver.worker.testing;

import static org.awaitility.Awaitility.await;

import dev.jobweaver.worker.testing.WorkerKafka.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * What the worker's broker tests share, whether the service runs in the test JVM ({@code @QuarkusTest}) or as its
 * executable ({@code @QuarkusIntegrationTest}): one {@link WorkerKafka} for the class and waits on its outcomes. Nothing
 * here is injected, so that a test of the executable can extend it.
 */
public abstract class WorkerKafkaSupport {

    /** How long a test waits for the worker to act on what it sent. */
    protected static final Duration WAIT = Duration.ofSeconds(60);

    /** One for the tests of a class: its outcome reader keeps gathering in the background between them. */
    protected static WorkerKafka kafka;

    /** The outcomes published for {@code jobId}, once there are at least {@code count}; waits up to {@link #WAIT}. */
    protected static List<Outcome> awaitOutcomes(UUID jobId, int count) {
        return await().atMost(WAIT).pollDelay(Duration.ZERO).until(() -> kafka.outcomes(jobId), l -> l.size() >= count);
    }

    /** The first outcome published for {@code jobId}; waits up to {@link #WAIT}. */
    protected static Outcome firstOutcome(UUID jobId) {
        return awaitOutcomes(jobId, 1).getFirst();
    }

    @BeforeAll
    static void openWorkerKafka() {
        kafka = new WorkerKafka();
    }

    @AfterAll
    static void closeWorkerKafka() {
        kafka.close();
    }
}
