package dev.jobweaver.api.quarantine;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/quarantine/{id}/discard}: a KEPT record becomes DISCARDED (200, with who and when), once, and the
 * audit log holds it; an unknown id is a 404 and a malformed one a 400 naming it, for a replay as for a discard.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class QuarantineDiscardTest {

    @Test
    void aKeptRecordIsDiscardedOnceAndNeverReplayed() {
        String topic = "qd-" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        String id = QuarantinedRecords.publishAndAwait(QuarantinedRecords.copy(topic, 1, key)).getFirst();

        given().post("/api/quarantine/" + id + "/discard").then().statusCode(200)
                .body("id", equalTo(id))
                .body("state", equalTo("DISCARDED"))
                .body("stateChangedAt", notNullValue())
                .body("stateChangedBy", notNullValue());

        given().post("/api/quarantine/" + id + "/discard").then().statusCode(409)
                .body("errorCode", equalTo("API.QUARANTINED_RECORD_NOT_KEPT"))
                .body("message", containsString("DISCARDED"));
        given().post("/api/quarantine/" + id + "/replay").then().statusCode(409)
                .body("errorCode", equalTo("API.QUARANTINED_RECORD_NOT_KEPT"))
                .body("message", containsString("DISCARDED"));
        assertThat(QuarantinedRecords.find(topic, key).orElseThrow()).containsEntry("state", "DISCARDED");

        // the audit log holds the discard, answered, and the refusals after it
        List<Integer> statuses = given().queryParam("action", "POST /api/quarantine/{id}/discard")
                .queryParam("size", "100").get("/api/audit").then().statusCode(200).extract().jsonPath()
                .getList("entries.findAll { it.objectId == '" + id + "' }.status", Integer.class);
        assertThat(statuses).containsExactlyInAnyOrder(200, 409);
    }

    @ParameterizedTest
    @ValueSource(strings = {"replay", "discard"})
    void anUnknownIdIsA404(String action) {
        given().post("/api/quarantine/" + UUID.randomUUID() + "/" + action).then().statusCode(404)
                .body("errorCode", equalTo("API.QUARANTINED_RECORD_NOT_FOUND"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"replay", "discard"})
    void aMalformedIdIsA400NamingIt(String action) {
        given().post("/api/quarantine/not-a-uuid/" + action).then().statusCode(400)
                .body("errorCode", equalTo("API.INVALID_PARAMETER"))
                .body("message", containsString("path parameter id"));
    }
}
