package dev.jobweaver.api.hook;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Hooks;
import dev.jobweaver.api.testing.PerClassSettings;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The hook settings take effect: a public base URL makes the hook's url absolute, and the window is configurable. The
 * profile sets the base URL with a trailing slash, which is dropped, and a 30 s window.
 */
@QuarkusTest
@TestProfile(PerClassSettings.class)
@JobWeaverTest(database = "jobweaver_api")
class HookConfiguredTest {

    @Test
    void theUrlIsAbsoluteUnderThePublicBaseUrlAndLocationStaysAPath() {
        Response created = Hooks.create("{\"name\":\"public\",\"job\":" + Hooks.JOB + "}");

        assertThat(created.statusCode()).as(created.body().asString()).isEqualTo(201);
        String id = created.jsonPath().getString("id");
        assertThat(created.jsonPath().getString("url")).isEqualTo("https://jobweaver.example.com/api/hooks/" + id);
        assertThat(created.header("Location")).isEqualTo("/api/hooks/" + id);
        assertThat(given().get("/api/hooks/" + id).jsonPath().getString("url"))
                .isEqualTo("https://jobweaver.example.com/api/hooks/" + id);
    }

    @Test
    void theTimestampWindowIsTheConfiguredOne() throws Exception {
        Hooks.Created hook = Hooks.createJobHook("window");
        String late = UUID.randomUUID().toString();
        String recent = UUID.randomUUID().toString();

        Response refused = signedAt(hook, Instant.now().minusSeconds(60), late);
        Response accepted = signedAt(hook, Instant.now().minusSeconds(10), recent);

        assertThat(refused.statusCode()).as(refused.body().asString()).isEqualTo(401);
        assertThat(refused.jsonPath().getString("message")).contains("timestamp refused");
        assertThat(Hooks.jobsWithMarker(late)).isZero();
        assertThat(accepted.statusCode()).as(accepted.body().asString()).isEqualTo(202);
        assertThat(Hooks.jobsWithMarker(recent)).isEqualTo(1);
    }

    private static Response signedAt(Hooks.Created hook, Instant at, String marker) {
        byte[] body = ("{\"marker\":\"" + marker + "\"}").getBytes(StandardCharsets.UTF_8);
        String timestamp = Long.toString(at.getEpochSecond());
        return Hooks.call(hook.id(), body, Map.of(HookSignature.TIMESTAMP_HEADER, timestamp,
                HookSignature.SIGNATURE_HEADER, HookSignature.sign(hook.secret(), timestamp, body)));
    }
}
