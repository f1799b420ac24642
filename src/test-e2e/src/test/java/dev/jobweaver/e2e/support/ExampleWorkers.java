package dev.jobweaver.e2e.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.local.Platform;
import dev.jobweaver.local.Ports;
import dev.jobweaver.local.ServiceProcess;
import java.nio.file.Path;
import java.util.List;

/**
 * Worker pools beside the e2e platform's standard worker, each started once per platform and kept until it stops: the
 * example project {@code examples/billing-worker} (built by the test suite), and standard workers of named queues.
 */
public final class ExampleWorkers {

    /** The example worker's name: its worker id in attempts and in {@code GET /api/queues}. */
    public static final String BILLING = "billing-worker";

    private static final Path BILLING_JAR = Path.of(System.getProperty("jobweaver.root", "../.."))
            .resolve("examples/billing-worker/target/quarkus-app/quarkus-run.jar").toAbsolutePath().normalize();

    private ExampleWorkers() {
    }

    /** The example billing worker ({@code invoice.total} on queue {@code billing}), started and ready. */
    public static synchronized ServiceProcess billing() {
        return billing(BILLING, List.of());
    }

    /**
     * Another instance of the example worker, named {@code name}, serving {@code queues} instead of its own
     * configuration's (empty: its own), started and ready.
     */
    public static synchronized ServiceProcess billing(String name, List<String> queues) {
        assertThat(BILLING_JAR).as("the example worker, built by the test suite").isRegularFile();
        return pool(new Platform.WorkerPool(name, BILLING_JAR, queues, Ports.stable()));
    }

    /** A standard worker named {@code name} serving only {@code queue}, started and ready. */
    public static synchronized ServiceProcess standard(String name, String queue) {
        return pool(new Platform.WorkerPool(name, null, List.of(queue), Ports.stable()));
    }

    private static ServiceProcess pool(Platform.WorkerPool pool) {
        Platform platform = E2ePlatform.get();
        for (ServiceProcess running : platform.workerPools()) {
            if (running.spec().name().equals(pool.name())) {
                return running;
            }
        }
        return platform.startWorkerPool(pool);
    }
}
