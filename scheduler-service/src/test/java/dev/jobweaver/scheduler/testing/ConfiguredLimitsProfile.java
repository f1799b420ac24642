package dev.jobweaver.scheduler.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** Limits set by configuration: at most 12 jobs running over all tenants, 3 of them HTTP jobs, 4 of queue reports. */
public class ConfiguredLimitsProfile implements QuarkusTestProfile {

    public static final int GLOBAL = 12;
    public static final int HTTP = 3;
    public static final String QUEUE = "reports";
    public static final int REPORTS = 4;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("jobweaver.scheduler.limits.max-running", String.valueOf(GLOBAL),
                "jobweaver.scheduler.limits.job-types.HTTP", String.valueOf(HTTP),
                "jobweaver.scheduler.limits.queues." + QUEUE, String.valueOf(REPORTS));
    }
}
