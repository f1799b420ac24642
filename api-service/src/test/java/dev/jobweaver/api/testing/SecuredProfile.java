package dev.jobweaver.api.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The API with credentials required, as in production: every security test class uses this one profile, so Quarkus
 * starts the secured API once for all of them. The bootstrap admin key is {@link TestTokens#BOOTSTRAP_ADMIN_KEY}.
 */
public class SecuredProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("jobweaver.security.enabled", "true",
                "jobweaver.security.bootstrap-admin-key", TestTokens.BOOTSTRAP_ADMIN_KEY);
    }
}
