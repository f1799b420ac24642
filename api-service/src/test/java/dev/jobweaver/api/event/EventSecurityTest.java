package dev.jobweaver.api.event;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.security.Roles;
import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Events;
import dev.jobweaver.api.testing.SecuredProfile;
import dev.jobweaver.api.testing.TestTokens;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/events} on the secured API: no credentials is 401, a viewer 403, a submitter publishes; an event
 * goes to the caller's own tenant and starts its workflows only, and naming another tenant is 403 and starts nothing.
 */
@QuarkusTest
@TestProfile(SecuredProfile.class)
@JobWeaverTest(database = "jobweaver_api")
class EventSecurityTest {

    private final String tenantA = "ev-a-" + UUID.randomUUID().toString().substring(0, 8);
    private final String tenantB = "ev-b-" + UUID.randomUUID().toString().substring(0, 8);

    private static Response post(String token, String path, String body) {
        return given().header("Authorization", TestTokens.bearer(token)).contentType(ContentType.JSON).body(body)
                .post(path);
    }

    private String listening(String tenant, String type) {
        String body = "{\"name\":\"on-event\",\"triggers\":[{\"event\":\"" + type + "\"}],\"nodes\":[{\"id\":"
                + "\"extract\",\"job\":" + Workflows.JOB + "}]}";
        return Answers.expect(post(TestTokens.token("operator", tenant, Roles.OPERATOR), "/api/workflows", body),
                201, "a workflow").getString("id");
    }

    @Test
    void withoutCredentials401AndAViewer403AndNothingStarts() throws Exception {
        String type = Events.freshType("order.created");
        String workflowId = listening(tenantA, type);
        String body = Events.body(null, type, null, null);

        Answers.assertRefused("no credentials", Events.publish(body), 401, "API.UNAUTHENTICATED", "");
        Answers.assertRefused("viewer", post(TestTokens.token("viewer", tenantA, Roles.VIEWER), "/api/events", body),
                403, "API.FORBIDDEN", "");
        assertThat(Events.runsOf(workflowId)).isZero();
    }

    @Test
    void aSubmittersEventStartsItsOwnTenantsWorkflowsOnlyAndMayNameNoOtherTenant() throws Exception {
        String type = Events.freshType("order.created");
        String own = listening(tenantA, type);
        String other = listening(tenantB, type);
        String submitterA = TestTokens.token("submitter", tenantA, Roles.SUBMITTER);

        Answers.assertRefused("another tenant", post(submitterA, "/api/events", Events.body(null, type, null,
                tenantB)), 403, "API.TENANT_FORBIDDEN", "");
        Response published = post(submitterA, "/api/events", Events.body(null, type, "{\"orderId\":3}", null));

        assertThat(Answers.expect(published, 202, "a submitter's event").getList("runs")).hasSize(1);
        assertThat(Events.runsOf(own)).isEqualTo(1);
        assertThat(Events.runsOf(other)).as("another tenant's workflow").isZero();
    }
}
