package dev.jobweaver.worker.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.Map;

/**
 * Points the worker under test at {@link WorkerStack} (real Kafka and PostgreSQL, database {@code jobweaver_worker}),
 * with the same configuration keys as deploy/local's {@code LocalStackResource}.
 */
public class WorkerStackResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new HashMap<>(WorkerStack.get().serviceConfig("jobweaver_worker"));
        config.put("quarkus.devservices.enabled", "false");
        return config;
    }

    @Override
    public void stop() {
        // The stack outlives each test class; its shutdown hook stops it with the JVM.
    }
}
