package dev.jobweaver.scheduler.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The periodic work of production (the dispatch poll every second, the gauges at their periods), for idle costs. */
public class ProductionPollingProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "jobweaver.scheduler.dispatch.interval", "1s",
                "jobweaver.scheduler.metrics.refresh-interval", "5s",
                "jobweaver.scheduler.metrics.delayed-refresh-interval", "60s",
                "jobweaver.scheduler.lease.sweep-interval", "5s");
    }
}
