package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/** The requests and checks the resource helpers ({@link Jobs}, {@link Schedules}, ...) share. */
public final class Answers {

    private Answers() {
    }

    /** POST {@code path} with {@code body} as JSON. */
    public static Response postJson(String path, String body) {
        return given().contentType(ContentType.JSON).body(body).when().post(path);
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
     * {@code errorCode}, whose message contains {@code messagePart} and no stack trace; {@code rule} names the case.
     */
    public static void assertRefused(String rule, Response response, int status, String errorCode,
                                     String messagePart) {
        assertThat(response.statusCode()).as(rule + ": " + response.asString()).isEqualTo(status);
        assertThat(response.contentType()).startsWith("application/json");
        assertThat(response.jsonPath().getString("errorCode")).as(rule).isEqualTo(errorCode);
        assertThat(response.jsonPath().getInt("status")).isEqualTo(status);
        assertThat(response.jsonPath().getString("message")).as(rule).contains(messagePart)
                .doesNotContain("at dev.jobweaver", "Exception:");
    }
}
