package dev.jobweaver.testing;

import dev.jobweaver.local.LocalStack;
import io.quarkus.test.common.QuarkusTestResourceConfigurableLifecycleManager;
import java.util.HashMap;
import java.util.Map;

/**
 * The Quarkus test resource behind {@link JobWeaverTest}: points the service under test at the real Kafka and
 * PostgreSQL of {@link LocalStack#shared()}, with the annotation's database.
 *
 * <p>The stack starts on the first test class that needs it and stops when the test JVM exits, so {@link #stop()}
 * does nothing: later test classes reuse the running broker and server.
 */
public class LocalStackResource implements QuarkusTestResourceConfigurableLifecycleManager<JobWeaverTest> {

    private String database = "postgres";

    @Override
    public void init(JobWeaverTest annotation) {
        database = annotation.database();
    }

    @Override
    public Map<String, String> start() {
        LocalStack stack = LocalStack.shared();
        Map<String, String> config = new HashMap<>(stack.serviceConfig(database));
        config.putAll(stack.migrationConfig(database)); // the service under test migrates its schema as it starts
        config.put("quarkus.devservices.enabled", "false");
        return config;
    }

    @Override
    public void stop() {
        // The shared stack outlives each test class; its shutdown hook stops it with the JVM.
    }
}
