package dev.jobweaver.api.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.HashMap;
import java.util.Map;

/**
 * {@link FastDeliveries} with a 10 s answer timeout and a minute before giving up: an endpoint that never answers holds
 * its slots long enough for a test on a loaded machine to see what else is sent meanwhile.
 */
public class PatientDeliveries implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(new FastDeliveries().getConfigOverrides());
        overrides.put("jobweaver.api.notifications.request-timeout", "10s");
        overrides.put("jobweaver.api.notifications.give-up-after", "60s");
        return overrides;
    }
}
