package dev.jobweaver.api.notification;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Subscriptions;
import io.restassured.path.json.JsonPath;
import dev.jobweaver.api.testing.NativeProfile;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Subscriptions in the native executable: create (with its sealed secret), read, its deliveries, delete. */
@QuarkusIntegrationTest
@TestProfile(NativeProfile.class)
@JobWeaverTest(database = NativeProfile.DATABASE)
@ExtendWith(NativeProfile.AsAdmin.class)
class SubscriptionIT {

    @Test
    void aSubscriptionIsCreatedReadAndDeleted() {
        JsonPath created = Answers.expect(Subscriptions.create("""
                {"jobType":"SIMULATION","events":["COMPLETED","FAILED"],"url":"http://127.0.0.1:9/hook"}"""), 201,
                "a subscription");
        String id = created.getString("id");
        assertThat(created.getString("secret")).startsWith("whsec_");

        JsonPath read = Answers.expect(given().get("/api/subscriptions/" + id), 200, "the subscription");
        assertThat(read.getList("events", String.class)).containsExactly("COMPLETED", "FAILED");
        assertThat(read.getString("url")).isEqualTo("http://127.0.0.1:9/hook");
        assertThat(read.getString("secret")).isNull();
        assertThat(Answers.expect(given().get("/api/subscriptions/" + id + "/deliveries"), 200, "the deliveries")
                .getList("deliveries")).isEmpty();

        given().delete("/api/subscriptions/" + id).then().statusCode(204);
        given().get("/api/subscriptions/" + id).then().statusCode(404);
    }
}
