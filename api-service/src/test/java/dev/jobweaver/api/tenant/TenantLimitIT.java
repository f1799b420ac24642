package dev.jobweaver.api.tenant;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.NativeExecutable;
import dev.jobweaver.api.testing.NativeProfile;
import dev.jobweaver.api.testing.Tenants;
import dev.jobweaver.common.messaging.Topics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A tenant's limit in the native executable: set (and published on tenant-limits), read, removed. */
@ExtendWith(NativeProfile.AsAdmin.class)
class TenantLimitIT extends NativeExecutable {

    @Test
    void aLimitIsSetPublishedReadAndRemoved() {
        String tenant = Tenants.fresh("native");
        String path = "/api/tenants/" + tenant + "/limits";

        try (KafkaProbe limits = KafkaProbe.atEndOf(NativeProfile.bootstrapServers(), Topics.TENANT_LIMITS)) {
            assertThat(Answers.expect(Answers.putJson(path, "{\"maxRunning\":3}"), 200, "the limit")
                    .getInt("maxRunning")).isEqualTo(3);
            assertThat(limits.first(tenant).value()).isNotEmpty();
        }
        assertThat(Answers.expect(given().get(path), 200, "the limit").getInt("maxRunning")).isEqualTo(3);

        given().delete(path).then().statusCode(204);
        given().get(path).then().statusCode(404);
    }
}
