package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;

import dev.jobweaver.local.LocalStack;
import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.specification.RequestSpecification;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The profile of the {@code *IT} classes, which run the native executable ({@code -Pnative}) as production runs it:
 * the {@code prod} profile, credentials required. Every such class uses this one profile, so the executable starts
 * once for the whole suite.
 *
 * <p>{@link SecuredProfile}'s settings, and what the {@code %test} profile gives the JVM tests, given here as
 * configuration since the executable holds no test resources: the key that seals webhook secrets, the test issuer and
 * its public key (by file), loopback webhook destinations. Kafka and PostgreSQL come from {@code @JobWeaverTest}.
 *
 * <p>A test reaches the broker through {@link #bootstrapServers()}: the test resource's configuration goes to the
 * executable, not into this JVM's configuration, whereas the stack itself runs in this JVM.
 */
public class NativeProfile extends SecuredProfile {

    /** The service's database, as {@code @JobWeaverTest} names it. */
    public static final String DATABASE = "jobweaver_api";

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(super.getConfigOverrides());
        config.putAll(Map.of("jobweaver.security.secret-key", "ZGV2LWFuZC10ZXN0LW9ubHktc2VjcmV0LWtleS0wMDE=",
                "mp.jwt.verify.issuer", TestTokens.ISSUER,
                "mp.jwt.verify.publickey.location", testResource("security/jwt-public.pem"),
                "jobweaver.api.notifications.allow-private", "true"));
        return config;
    }

    /** The Kafka broker the executable uses. */
    public static String bootstrapServers() {
        return LocalStack.shared().serviceConfig(DATABASE).get("kafka.bootstrap.servers");
    }

    /** A request with the bootstrap admin key. */
    public static RequestSpecification asAdmin() {
        return given().header("Authorization", TestTokens.bearer(TestTokens.BOOTSTRAP_ADMIN_KEY));
    }

    /** A request with a JWT of {@code tenant} carrying {@code roles}. */
    public static RequestSpecification withToken(String tenant, String... roles) {
        return given().header("Authorization", TestTokens.bearer(TestTokens.token("native-it", tenant, roles)));
    }

    /**
     * Sends every request of a test that does not choose its own credentials with the bootstrap admin key, so that the
     * request helpers the JVM tests share ({@code Jobs}, {@code Schedules}, ...) serve the secured executable too.
     */
    public static final class AsAdmin implements BeforeEachCallback, AfterEachCallback {

        @Override
        public void beforeEach(ExtensionContext context) {
            RestAssured.requestSpecification = new RequestSpecBuilder()
                    .addHeader("Authorization", TestTokens.bearer(TestTokens.BOOTSTRAP_ADMIN_KEY)).build();
        }

        @Override
        public void afterEach(ExtensionContext context) {
            RestAssured.requestSpecification = null;
        }
    }

    private static String testResource(String name) {
        URL url = NativeProfile.class.getClassLoader().getResource(name);
        if (url == null) {
            throw new IllegalStateException("no test resource " + name);
        }
        try {
            return "file:" + Path.of(url.toURI()).toAbsolutePath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
