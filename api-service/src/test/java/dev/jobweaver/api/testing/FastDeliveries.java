package dev.jobweaver.api.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Webhook deliveries on a test's time scale: retries from 200 ms doubling up to 1 s, given up 4 s after the delivery
 * was made, and small sending bounds (8 at once, 2 per subscription) so that a test can fill a subscription's slots
 * with a few deliveries. Retries due sooner than the 1 s poll interval wake the sender by timer. The answer timeout
 * stays the default 10 s: an endpoint that never answers must hold its slots long enough for a test to see another
 * subscriber's delivery pass it ({@code DeliverySenderIsolationTest}); every other endpoint of these tests answers at
 * once. The lease outlasts a connect plus an answer, as the service requires.
 */
public class FastDeliveries implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "jobweaver.api.notifications.first-retry-delay", "200ms",
                "jobweaver.api.notifications.max-retry-delay", "1s",
                "jobweaver.api.notifications.give-up-after", "4s",
                "jobweaver.api.notifications.connect-timeout", "1s",
                "jobweaver.api.notifications.request-timeout", "10s",
                "jobweaver.api.notifications.lease", "15s",
                "jobweaver.api.notifications.max-in-flight", "8",
                "jobweaver.api.notifications.max-in-flight-per-subscription", "2");
    }
}
