package dev.jobweaver.api.notification;

import static dev.jobweaver.api.testing.Answers.assertRefused;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Endpoints;
import dev.jobweaver.api.testing.FastDeliveries;
import dev.jobweaver.api.testing.JobCommands;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.Subscriptions;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/subscriptions}: create (201, Location, the secret once), read (no secret), delete (204, deliveries with
 * it), the delivery log and its bound; every bad input a 400 naming the field, unknown ids 404, never a 500.
 */
@QuarkusTest
@TestProfile(FastDeliveries.class)
@JobWeaverTest(database = "jobweaver_api")
class SubscriptionResourceTest {

    private static final String URL = "https://hooks.example.com/jobweaver";

    @Test
    void aSubscriptionToAJobIsCreatedWithItsSecretOnceAndReadWithout() {
        String jobId = Jobs.submitOne();

        Response created = Subscriptions.create("{\"jobId\":\"" + jobId + "\",\"events\":[\"COMPLETED\",\"FAILED\"],"
                + "\"url\":\"" + URL + "\"}");

        assertThat(created.statusCode()).as(created.body().asString()).isEqualTo(201);
        JsonPath body = created.jsonPath();
        String id = body.getString("id");
        assertThat(created.header("Location")).isEqualTo("/api/subscriptions/" + id);
        assertThat(body.getString("jobId")).isEqualTo(jobId);
        assertThat(body.getList("events")).containsExactly("COMPLETED", "FAILED");
        assertThat(body.getString("url")).isEqualTo(URL);
        assertThat(Instant.parse(body.getString("createdAt"))).isBefore(Instant.now().plusSeconds(1));
        String secret = body.getString("secret");
        assertThat(secret).startsWith("whsec_");
        assertThat(Base64.getDecoder().decode(secret.substring(6))).hasSizeBetween(24, 32);
        assertThat(body.getMap("")).doesNotContainKeys("scheduleId", "workflowId", "jobType");

        Response read = given().get("/api/subscriptions/" + id);

        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.jsonPath().getString("id")).isEqualTo(id);
        assertThat(read.jsonPath().getString("jobId")).isEqualTo(jobId);
        assertThat(read.jsonPath().getList("events")).containsExactly("COMPLETED", "FAILED");
        assertThat(read.jsonPath().getString("createdAt")).isEqualTo(body.getString("createdAt"));
        assertThat(read.jsonPath().getMap("")).doesNotContainKey("secret");
        assertThat(read.body().asString()).doesNotContain(secret.substring(6));
    }

    @ParameterizedTest
    @CsvSource({
            "scheduleId, 3fa85f64-5717-4562-b3fc-2c963f66afa6, SCHEDULED",
            "workflowId, 3fa85f64-5717-4562-b3fc-2c963f66afa6, STARTED",
            "jobType, HTTP, RETRYING"})
    void everyKindOfTargetIsAccepted(String target, String value, String event) {
        Response created = Subscriptions.create("{\"" + target + "\":\"" + value + "\",\"events\":[\"" + event
                + "\"],\"url\":\"" + URL + "\"}");

        assertThat(created.statusCode()).as(created.body().asString()).isEqualTo(201);
        assertThat(created.jsonPath().getString(target)).isEqualTo(value);
        given().delete("/api/subscriptions/" + created.jsonPath().getString("id")).then().statusCode(204);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no target                | {"events":["COMPLETED"],"url":"https://a.example"}                                               | API.INVALID_SUBSCRIPTION_REQUEST | exactly one of jobId, scheduleId, workflowId, jobType is required, got none
            two targets              | {"jobType":"HTTP","scheduleId":"3fa85f64-5717-4562-b3fc-2c963f66afa6","events":["COMPLETED"],"url":"https://a.example"} | API.INVALID_SUBSCRIPTION_REQUEST | got scheduleId and jobType
            jobId not a UUID         | {"jobId":"42","events":["COMPLETED"],"url":"https://a.example"}                                  | API.INVALID_SUBSCRIPTION_REQUEST | jobId must be a UUID
            jobId a number           | {"jobId":42,"events":["COMPLETED"],"url":"https://a.example"}                                    | API.MALFORMED_JSON              | jobId must be a string, got an integer
            scheduleId not a UUID    | {"scheduleId":"x","events":["COMPLETED"],"url":"https://a.example"}                              | API.INVALID_SUBSCRIPTION_REQUEST | scheduleId must be a UUID
            malformed jobType        | {"jobType":"BA TCH","events":["COMPLETED"],"url":"https://a.example"}                            | API.INVALID_SUBSCRIPTION_REQUEST | jobType must be a job type's name, [A-Za-z][A-Za-z0-9_.-]{0,99}, got 'BA TCH'
            events missing           | {"jobType":"HTTP","url":"https://a.example"}                                                     | API.INVALID_SUBSCRIPTION_REQUEST | events is required
            events empty             | {"jobType":"HTTP","events":[],"url":"https://a.example"}                                         | API.INVALID_SUBSCRIPTION_REQUEST | events must not be empty
            events not an array      | {"jobType":"HTTP","events":"COMPLETED","url":"https://a.example"}                                | API.MALFORMED_JSON              | events must be an array, got a string
            event not a string       | {"jobType":"HTTP","events":[1],"url":"https://a.example"}                                        | API.MALFORMED_JSON              | events[0] must be a string, got an integer
            unknown event            | {"jobType":"HTTP","events":["COMPLETED","DONE"],"url":"https://a.example"}                       | API.INVALID_SUBSCRIPTION_REQUEST | events[1] 'DONE' is not a known event; valid events are SCHEDULED, STARTED, RETRYING, COMPLETED, FAILED, CANCELLED
            duplicate event          | {"jobType":"HTTP","events":["FAILED","FAILED"],"url":"https://a.example"}                        | API.INVALID_SUBSCRIPTION_REQUEST | events[1] 'FAILED' is given twice
            url missing              | {"jobType":"HTTP","events":["FAILED"]}                                                           | API.INVALID_SUBSCRIPTION_REQUEST | url is required
            url not a string         | {"jobType":"HTTP","events":["FAILED"],"url":{}}                                                  | API.MALFORMED_JSON              | url must be a string, got an object
            url relative             | {"jobType":"HTTP","events":["FAILED"],"url":"/hooks"}                                            | API.INVALID_SUBSCRIPTION_REQUEST | url must be an absolute http or https URL
            url ftp                  | {"jobType":"HTTP","events":["FAILED"],"url":"ftp://a.example/x"}                                 | API.INVALID_SUBSCRIPTION_REQUEST | url must be an absolute http or https URL
            url with credentials     | {"jobType":"HTTP","events":["FAILED"],"url":"https://u:p@a.example/x"}                           | API.INVALID_SUBSCRIPTION_REQUEST | url must not carry credentials
            url not a URL            | {"jobType":"HTTP","events":["FAILED"],"url":"https://a b"}                                       | API.INVALID_SUBSCRIPTION_REQUEST | url is not a valid URL
            not JSON                 | {jobType                                                                                         | API.MALFORMED_JSON              | request body is not valid JSON
            trailing data            | {"jobType":"HTTP","events":["FAILED"],"url":"https://a.example"} x                               | API.MALFORMED_JSON              | request body is not valid JSON
            duplicate key            | {"jobType":"HTTP","jobType":"HTTP","events":["FAILED"],"url":"https://a.example"}                | API.MALFORMED_JSON              | Duplicate field 'jobType'
            an array                 | []                                                                                               | API.MALFORMED_JSON              | request body must be a JSON object, got an array
            """)
    void aBadRequestIs400NamingTheField(String name, String body, String errorCode, String message) {
        assertRefused(name, Subscriptions.create(body), 400, errorCode, message);
    }

    @Test
    void aTooLongUrlAndAnEmptyBodyAre400() {
        String longUrl = "https://a.example/" + "x".repeat(2048);
        Response tooLong = Subscriptions.create("{\"jobType\":\"HTTP\",\"events\":[\"FAILED\"],\"url\":\"" + longUrl
                + "\"}");
        Response empty = given().contentType(ContentType.JSON).post("/api/subscriptions");

        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(tooLong.jsonPath().getString("message")).contains("url must be at most 2048 characters");
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(empty.jsonPath().getString("errorCode")).isEqualTo("API.MALFORMED_JSON");
    }

    @Test
    void anUnknownJobIs404NamingIt() {
        String jobId = UUID.randomUUID().toString();

        Response response = Subscriptions.create("{\"jobId\":\"" + jobId + "\",\"events\":[\"COMPLETED\"],"
                + "\"url\":\"" + URL + "\"}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.JOB_NOT_FOUND");
        assertThat(response.jsonPath().getString("jobId")).isEqualTo(jobId);
        assertThat(response.jsonPath().getString("message")).contains("jobId");
    }

    @Test
    void aBodyThatIsNotJsonContentIs415() {
        Answers.assertNotJsonRefused("/api/subscriptions", "{}");
    }

    @Test
    void unknownSubscriptionsAre404AndBadIdsAndLimits400() {
        String unknown = UUID.randomUUID().toString();

        Endpoints every = new Endpoints().get("/api/subscriptions/{id}").delete("/api/subscriptions/{id}")
                .get("/api/subscriptions/{id}/deliveries");
        every.refuse(unknown, 404, "API.SUBSCRIPTION_NOT_FOUND", unknown);
        for (String bad : List.of("nope", "42", "x")) {
            every.refuse(bad, 400, "API.INVALID_PARAMETER", "UUID");
        }
        String id = subscribeToNothing();
        for (String limit : List.of("0", "1001", "ten", "-1")) {
            Response response = given().queryParam("limit", limit).get("/api/subscriptions/" + id + "/deliveries");
            assertThat(response.statusCode()).as("limit=%s", limit).isEqualTo(400);
            assertThat(response.jsonPath().getString("message")).contains("limit must be an integer between 1 and 1000");
        }
    }

    @Test
    void theLogShowsADeliveryNotAttemptedYetAndIsBoundedByLimit() throws Exception {
        String id = subscribeToNothing();
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        UUID jobId = UUID.randomUUID();
        // due in an hour, so the sender leaves them alone
        insertDelivery(first, id, jobId, Instant.now().minusSeconds(2));
        insertDelivery(second, id, jobId, Instant.now().minusSeconds(1));

        List<Map<String, Object>> log = Subscriptions.log(id);
        JsonPath limited = given().queryParam("limit", 1).get("/api/subscriptions/" + id + "/deliveries").then()
                .statusCode(200).extract().jsonPath();

        assertThat(log).hasSize(2);
        assertThat(log.getFirst()).containsEntry("deliveryId", second.toString()).containsEntry("attempt", 0)
                .containsEntry("event", "FAILED").containsEntry("jobId", jobId.toString())
                .containsEntry("state", "PENDING");
        assertThat(log.getFirst().get("attemptedAt")).isNull();
        assertThat(log.getFirst().get("status")).isNull();
        assertThat(log.get(1)).containsEntry("deliveryId", first.toString());
        assertThat(limited.getList("deliveries")).hasSize(1);
        assertThat(limited.getString("deliveries[0].deliveryId")).isEqualTo(second.toString());
    }

    @Test
    void deletingASubscriptionDeletesItsDeliveries() throws Exception {
        String id = subscribeToNothing();
        UUID delivery = UUID.randomUUID();
        insertDelivery(delivery, id, UUID.randomUUID(), Instant.now());
        assertThat(JobCommands.rows("deliveries", "subscription_id", id)).isEqualTo(1);

        Response deleted = given().delete("/api/subscriptions/" + id);

        assertThat(deleted.statusCode()).isEqualTo(204);
        assertThat(deleted.body().asString()).isEmpty();
        assertThat(JobCommands.rows("deliveries", "subscription_id", id)).isZero();
        assertThat(given().get("/api/subscriptions/" + id).statusCode()).isEqualTo(404);
        assertThat(given().delete("/api/subscriptions/" + id).statusCode()).isEqualTo(404);
    }

    /**
     * A subscription to a schedule no job comes from, so that nothing is sent to its URL (whose host need not resolve:
     * each attempt judges the host again).
     */
    private static String subscribeToNothing() {
        Response created = Subscriptions.create("{\"scheduleId\":\"" + UUID.randomUUID() + "\",\"events\":[\"FAILED\"],"
                + "\"url\":\"" + URL + "\"}");
        assertThat(created.statusCode()).as(created.body().asString()).isEqualTo(201);
        return created.jsonPath().getString("id");
    }

    /** A PENDING delivery, made at {@code createdAt} and due in an hour. */
    private static void insertDelivery(UUID id, String subscription, UUID jobId, Instant createdAt) throws Exception {
        try (Connection connection = Database.connect(); PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO deliveries (id, subscription_id, job_id, event, body, state, attempts, next_attempt_at,"
                        + " changed_at, created_at) VALUES (?, ?, ?, 'FAILED', '{}', 'PENDING', 0,"
                        + " now() + interval '1 hour', ?, ?)")) {
            insert.setObject(1, id);
            insert.setObject(2, UUID.fromString(subscription));
            insert.setObject(3, jobId);
            insert.setTimestamp(4, Timestamp.from(createdAt));
            insert.setTimestamp(5, Timestamp.from(createdAt));
            insert.executeUpdate();
        }
    }
}
