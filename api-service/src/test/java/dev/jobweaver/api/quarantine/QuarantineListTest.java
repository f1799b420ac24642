package dev.jobweaver.api.quarantine;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/quarantine}: filtered by origin topic, reason and state (KEPT by default), newest first, paged like
 * the other lists; a bad parameter is a 400 naming it.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class QuarantineListTest {

    @Test
    void topicReasonAndStateFilterNewestFirstAndPaged() {
        String topic = "ql-" + UUID.randomUUID();
        String other = "ql-" + UUID.randomUUID();
        String first = UUID.randomUUID().toString();
        String second = UUID.randomUUID().toString();
        String invalid = UUID.randomUUID().toString();
        String elsewhere = UUID.randomUUID().toString();
        List<String> ids = QuarantinedRecords.publishAndAwait(
                QuarantinedRecords.copy(topic, 1, first),
                QuarantinedRecords.copy(topic, 2, second),
                QuarantinedRecords.copy(topic, 0, 3, invalid, "{}".getBytes(StandardCharsets.UTF_8), "INVALID",
                        "jobweaver-api", Map.of()),
                QuarantinedRecords.copy(other, 1, elsewhere));

        JsonPath all = QuarantinedRecords.list("topic=" + topic);
        assertThat(all.getLong("totalElements")).isEqualTo(3);
        assertThat(all.getList("records.key", String.class)).as("newest first").containsExactly(invalid, second,
                first);
        assertThat(all.getList("records.topic", String.class)).containsOnly(topic);

        JsonPath byReason = QuarantinedRecords.list("topic=" + topic + "&reason=invalid");
        assertThat(byReason.getList("records.key", String.class)).as("reason in any case").containsExactly(invalid);

        JsonPath page = QuarantinedRecords.list("topic=" + topic + "&reason=UNREADABLE&size=1&page=1");
        assertThat(page.getInt("page")).isEqualTo(1);
        assertThat(page.getInt("size")).isEqualTo(1);
        assertThat(page.getLong("totalElements")).isEqualTo(2);
        assertThat(page.getInt("totalPages")).isEqualTo(2);
        assertThat(page.getList("records.key", String.class)).containsExactly(first);

        given().post("/api/quarantine/" + ids.get(0) + "/discard").then().statusCode(200);
        assertThat(QuarantinedRecords.list("topic=" + topic).getList("records.key", String.class))
                .as("KEPT only, by default").containsExactly(invalid, second);
        assertThat(QuarantinedRecords.list("topic=" + topic + "&state=DISCARDED").getList("records.key",
                String.class)).containsExactly(first);
        assertThat(QuarantinedRecords.list("topic=" + topic + "&state=KEPT,DISCARDED").getLong("totalElements"))
                .isEqualTo(3);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "topic=a b!|query parameter topic",
            "reason=not-a-reason|query parameter reason",
            "state=LOST|query parameter state",
            "page=-1|query parameter page",
            "size=0|query parameter size",
            "size=x|query parameter size"})
    void aBadParameterIsA400NamingIt(String query, String named) {
        given().get("/api/quarantine?" + query).then().statusCode(400)
                .body("errorCode", equalTo("API.INVALID_PARAMETER"))
                .body("message", containsString(named));
    }
}
