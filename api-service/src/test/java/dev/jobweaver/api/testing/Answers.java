package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** The requests and checks the resource helpers ({@link Jobs}, {@link Schedules}, ...) share. */
public final class Answers {

    private Answers() {
    }

    /** POST {@code path} with {@code body} as JSON. */
    public static Response postJson(String path, String body) {
        return given().contentType(ContentType.JSON).body(body).when().post(path);
    }

    /** PUT {@code path} with {@code body} as JSON. */
    public static Response putJson(String path, String body) {
        return given().contentType(ContentType.JSON).body(body).when().put(path);
    }

    /**
     * {@code response}'s JSON when it has {@code status}; else an AssertionError saying what was expected
     * ({@code "for " + what}, unless {@code what} is empty) and what came instead.
     */
    public static JsonPath expect(Response response, int status, String what) {
        if (response.statusCode() != status) {
            throw new AssertionError("expected " + status + (what.isEmpty() ? "" : " for " + what) + ", got "
                    + response.statusCode() + ": " + response.body().asString());
        }
        return response.jsonPath();
    }

    /**
     * Asserts that {@code response} is a JSON error answer with {@code status} (in the status line and the body) and
     * {@code errorCode}, whose message contains {@code messagePart} and no stack trace, stamped with its time;
     * {@code rule} names the case.
     */
    public static void assertRefused(String rule, Response response, int status, String errorCode,
                                     String messagePart) {
        assertThat(response.statusCode()).as(rule + ": " + response.asString()).isEqualTo(status);
        assertThat(response.contentType()).startsWith("application/json");
        assertThat(response.jsonPath().getString("errorCode")).as(rule).isEqualTo(errorCode);
        assertThat(response.jsonPath().getInt("status")).isEqualTo(status);
        assertThat(response.jsonPath().getString("message")).as(rule).contains(messagePart)
                .doesNotContain("at dev.jobweaver", "Exception:");
        assertThat(response.jsonPath().getString("timestamp")).as(rule).isNotBlank();
    }

    /**
     * Asserts that {@code call} is refused as {@link #assertRefused} says and that {@code state}, read before and after
     * it, reads the same: the refusal changed nothing.
     */
    public static void assertRefusedChangingNothing(String rule, Callable<?> state, Supplier<Response> call, int status,
                                                    String errorCode, String messagePart) throws Exception {
        Object before = state.call();
        assertRefused(rule, call.get(), status, errorCode, messagePart);
        assertThat(state.call()).as(rule + ": nothing changed").isEqualTo(before);
    }

    /**
     * Asserts that POST {@code path} refuses a body over the 64 KiB limit with a 413 and {@code validBody} sent as
     * text/plain with a 415 naming the Content-Type.
     */
    public static void assertBodyOverTheLimitAndNotJsonRefused(String path, String validBody) {
        String big = "{\"name\":\"" + "n".repeat(70_000) + "\"}";
        assertRefused("too large", postJson(path, big), 413, "API.PAYLOAD_TOO_LARGE", "larger than 65536 bytes");
        assertNotJsonRefused(path, validBody);
    }

    /** Asserts that POST {@code path} with {@code body} sent as text/plain is a 415 naming the type it takes. */
    public static void assertNotJsonRefused(String path, String body) {
        assertRefused("text/plain", given().contentType(ContentType.TEXT).body(body).post(path), 415,
                "API.UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json");
    }
}
