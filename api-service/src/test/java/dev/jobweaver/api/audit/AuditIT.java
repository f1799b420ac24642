package dev.jobweaver.api.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.NativeExecutable;
import dev.jobweaver.api.testing.NativeProfile;
import dev.jobweaver.api.testing.Tenants;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The audit log in the native executable: an admin action is recorded with its path template, which the audit filter
 * reads from the resource method's annotations through {@code ResourceInfo}.
 */
class AuditIT extends NativeExecutable {

    @Test
    void anAdminActionIsRecordedWithItsTemplate() {
        String tenant = Tenants.fresh("audit");
        String id = Answers.expect(NativeProfile.asAdmin().contentType(ContentType.JSON)
                .body("{\"name\":\"ci\",\"roles\":[\"viewer\"]}").post("/api/tenants/" + tenant + "/api-keys"),
                201, "a key").getString("id");

        List<Map<String, Object>> entries = Answers.expect(NativeProfile.asAdmin().queryParam("tenant", tenant)
                .get("/api/audit"), 200, "the audit log").getList("entries");
        assertThat(entries).extracting(e -> e.get("action") + " " + e.get("objectId") + " " + e.get("status"))
                .containsExactly("POST /api/tenants/{tenant}/api-keys " + id + " 201");
        assertThat(entries.getFirst()).containsEntry("actorRole", "admin");
    }
}
