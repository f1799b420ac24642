package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;

import dev.jobweaver.testing.WebhookReceiver;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;

/** Subscription requests and reads the notification tests share. */
public final class Subscriptions {

    private Subscriptions() {
    }

    /** POST /api/subscriptions with {@code body} as JSON. */
    public static Response create(String body) {
        return Answers.postJson("/api/subscriptions", body);
    }

    /**
     * Subscribes receiver {@code name} to {@code target} ({@code "jobId"}, ...) = {@code value} for {@code events},
     * asserts the 201, registers the secret with the receiver, and returns the subscription's id.
     */
    public static String subscribe(WebhookReceiver receiver, String name, String target, String value,
                                   String... events) {
        String body = "{\"" + target + "\":\"" + value + "\",\"events\":[" + String.join(",",
                List.of(events).stream().map(e -> "\"" + e + "\"").toList()) + "],\"url\":\"" + receiver.url(name)
                + "\"}";
        JsonPath created = Answers.expect(create(body), 201, body);
        receiver.secret(name, created.getString("secret"));
        return created.getString("id");
    }

    /** The delivery log of subscription {@code id}, which must answer 200. */
    public static List<Map<String, Object>> log(String id) {
        JsonPath log = given().get("/api/subscriptions/" + id + "/deliveries").then().statusCode(200).extract()
                .jsonPath();
        return log.getList("deliveries");
    }
}
