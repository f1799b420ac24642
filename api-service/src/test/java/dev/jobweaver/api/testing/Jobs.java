package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.restassured.path.json.JsonPath;
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
        return Answers.postJson("/api/jobs", body);
    }

    /** Submits {@link #VALID}, asserts the 202, and returns the new job's id. */
    public static String submitOne() {
        return Answers.expect(submit(VALID), 202, "a valid job").getString("jobId");
    }

    /** GET /api/jobs/{id}, which must answer 200. */
    public static JsonPath get(String id) {
        return given().get("/api/jobs/" + id).then().statusCode(200).extract().jsonPath();
    }

    /** The count of the counter {@code name} with {@code tag=value}; 0 while it does not exist. */
    public static double count(MeterRegistry registry, String name, String tag, String value) {
        Counter counter = registry.find(name).tag(tag, value).counter();
        return counter == null ? 0 : counter.count();
    }
}
