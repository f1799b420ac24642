package dev.jobweaver.scheduler.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Dispatch rounds of ten jobs: a backlog of a few thousand jobs then takes hundreds of rounds, enough for each
 * priority level to come first in its share of them.
 */
public class SmallBatchProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("jobweaver.scheduler.dispatch.batch-size", "10");
    }
}
