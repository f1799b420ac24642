package dev.jobweaver.api.notification;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.NativeExecutable;
import dev.jobweaver.api.testing.NativeProfile;
import dev.jobweaver.api.testing.Subscriptions;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Subscriptions in the native executable: create (with its sealed secret), read, its deliveries, delete. */
@ExtendWith(NativeProfile.AsAdmin.class)
class SubscriptionIT extends NativeExecutable {

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
