package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.Response;

/** Request bodies and calls the integration tests share. */
public final class Jobs {

    /** A small valid job. */
    public static final String VALID = """
            {"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"hi"},{"action":"SLEEP","durationMs":10}]},"maxRetryCount":2}""";

    private Jobs() {
    }

    /** POST /api/jobs with {@code body} as JSON. */
    public static Response submit(String body) {
        return given().contentType(ContentType.JSON).body(body).when().post("/api/jobs");
    }
}
