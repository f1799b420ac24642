package dev.jobweaver.api.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.Map;

/**
 * Points the service under test at {@link ApiStack} (real Kafka and PostgreSQL, database {@code jobweaver_api}); the
 * same configuration keys as deploy/local's {@code LocalStackResource}, whose stack start is flaky here (see
 * {@link ApiStack}).
 */
public class ApiStackResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new HashMap<>(ApiStack.get().serviceConfig("jobweaver_api"));
        config.put("quarkus.devservices.enabled", "false");
        return config;
    }

    @Override
    public void stop() {
        // The stack outlives each test class; its shutdown hook stops it with the JVM.
    }
}
