package dev.jobweaver.api.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The API with credentials required, as in production: every security test class uses this one profile, so Quarkus
 * starts the secured API once for all of them. The bootstrap admin key is {@link TestTokens#BOOTSTRAP_ADMIN_KEY}.
 * Tenant {@value #RATE_LIMITED_TENANT} may submit 2 jobs at once and then one every 10 s, so that a third submission
 * in a row is refused however slow the machine is.
 */
public class SecuredProfile implements QuarkusTestProfile {

    /** The tenant with a submission rate of its own: 0.1 a second, burst 2. */
    public static final String RATE_LIMITED_TENANT = "rl-test";

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("jobweaver.security.enabled", "true",
                "jobweaver.security.bootstrap-admin-key", TestTokens.BOOTSTRAP_ADMIN_KEY,
                "jobweaver.security.rate-limit.tenants.\"" + RATE_LIMITED_TENANT + "\".per-second", "0.1",
                "jobweaver.security.rate-limit.tenants.\"" + RATE_LIMITED_TENANT + "\".burst", "2");
    }
}
