package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;

import dev.jobweaver.api.hook.HookSignature;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;

/** Hook requests, signed calls and job counts the hook tests share. */
public final class Hooks {

    /** A small valid job template. */
    public static final String JOB = """
            {"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"hooked"}]},"maxRetryCount":1}""";

    private Hooks() {
    }

    /** A created hook: its id and its secret. */
    public record Created(String id, String secret) {
    }

    /** POST /api/hooks with {@code body} as JSON. */
    public static Response create(String body) {
        return Answers.postJson("/api/hooks", body);
    }

    /** Creates a hook making {@link #JOB}, asserts the 201, and returns its id and secret. */
    public static Created createJobHook(String name) {
        JsonPath created = Answers.expect(create("{\"name\":\"" + name + "\",\"job\":" + JOB + "}"), 201, "");
        return new Created(created.getString("id"), created.getString("secret"));
    }

    /** The current time as the timestamp header writes it. */
    public static String now() {
        return Long.toString(Instant.now().getEpochSecond());
    }

    /** POST /api/hooks/{id} with {@code body}'s raw bytes and the given headers (a null value: header not sent). */
    public static Response call(String id, byte[] body, Map<String, String> headers) {
        RequestSpecification request = given().contentType(ContentType.JSON).body(body);
        headers.forEach((name, value) -> {
            if (value != null) {
                request.header(name, value);
            }
        });
        return request.when().post("/api/hooks/" + id);
    }

    /** A call of hook {@code id} signed with {@code secret} now. */
    public static Response callSigned(String id, String secret, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String timestamp = now();
        return call(id, bytes, Map.of(HookSignature.TIMESTAMP_HEADER, timestamp,
                HookSignature.SIGNATURE_HEADER, HookSignature.sign(secret, timestamp, bytes)));
    }

    /** How many jobs the database holds whose payload's input has {@code "marker": marker}. */
    public static int jobsWithMarker(String marker) throws SQLException {
        return (int) Database.firstLong("SELECT count(*) FROM jobs WHERE instruction->'input'->>'marker' = ?", marker);
    }
}
