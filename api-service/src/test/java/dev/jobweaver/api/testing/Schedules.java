package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.messaging.Topics;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.UUID;

/** Schedule bodies and calls the integration tests share. */
public final class Schedules {

    /** A valid schedule: every minute, a small job. */
    public static final String VALID = """
            {"name":"every minute","cron":"* * * * *","job":%s}""".formatted(Jobs.VALID);

    private Schedules() {
    }

    /** POST /api/schedules with {@code body} as JSON. */
    public static Response create(String body) {
        return Answers.postJson("/api/schedules", body);
    }

    /** Creates {@code body}, asserts the 201, and returns the schedule as answered. */
    public static JsonPath createOne(String body) {
        return Answers.expect(create(body), 201, "a valid schedule");
    }

    /** Creates {@link #VALID} and returns its id. */
    public static String createOne() {
        return createOne(VALID).getString("id");
    }

    /** Publishes {@code event} on schedule-fired, keyed by its scheduleId, as the scheduler would. */
    public static void fire(ObjectMapper mapper, ScheduleFiredEvent event) {
        KafkaProbe.send(Topics.SCHEDULE_FIRED, event.scheduleId().toString(), json(mapper, event));
    }

    /** {@code event} as the scheduler writes it. */
    public static byte[] json(ObjectMapper mapper, Object event) {
        try {
            return mapper.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The jobs a schedule made, as GET /api/jobs?scheduleId= lists them. */
    public static JsonPath jobsOf(String scheduleId) {
        return given().queryParam("scheduleId", scheduleId).get("/api/jobs").then().statusCode(200).extract()
                .jsonPath();
    }

    /** A random id no schedule has. */
    public static String unknownId() {
        return UUID.randomUUID().toString();
    }
}
