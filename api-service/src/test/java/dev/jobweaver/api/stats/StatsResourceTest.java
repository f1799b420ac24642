package dev.jobweaver.api.stats;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code GET /api/stats/overview}: a window that is not 1..1440 minutes or a tenant that breaks the rule is a 400 naming
 * it; the counts and the per-minute series of a tenant's jobs, written straight into the read model with known times.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class StatsResourceTest {

    @ParameterizedTest(name = "minutes={0}")
    @ValueSource(strings = {"0", "1441", "-1", "abc", "1.5", "99999999999", " "})
    void aWindowOutsideOneToADayIsRefusedNamingIt(String minutes) {
        assertThat(refusedMessage("minutes", minutes))
                .startsWith("query parameter minutes must be an integer between 1 and 1440, got '");
    }

    @Test
    void aTenantThatBreaksTheRuleIsRefusedNamingIt() {
        assertThat(refusedMessage("tenant", "Not A Tenant"))
                .isEqualTo("query parameter tenant must match [a-z0-9][a-z0-9-]{0,62}, got 'Not A Tenant'");
    }

    /** Asks for the overview with one query parameter, checks it is an invalid-parameter 400, returns its message. */
    private static String refusedMessage(String parameter, String value) {
        Response response = given().queryParam(parameter, value).get("/api/stats/overview");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.INVALID_PARAMETER");
        return response.jsonPath().getString("message");
    }

    @Test
    void theBoundsOfTheWindowAreAccepted() {
        assertThat(given().queryParam("minutes", "1").get("/api/stats/overview").jsonPath().getList("series"))
                .hasSize(1);
        assertThat(given().queryParam("minutes", "1440").get("/api/stats/overview").jsonPath().getList("series"))
                .hasSize(1440);
        JsonPath absent = given().get("/api/stats/overview").then().statusCode(200).extract().jsonPath();
        assertThat(absent.getInt("minutes")).isEqualTo(60);
        assertThat(absent.getList("series")).hasSize(60);
        assertThat(absent.getMap("counts")).containsOnlyKeys("PENDING", "RUNNING", "COMPLETED", "FAILED",
                "CANCELLED");
    }

    @Test
    void aTenantsCountsAndSeriesFollowItsJobs() throws Exception {
        String tenant = "stats-" + UUID.randomUUID().toString().substring(0, 8);
        Instant now = Instant.now();
        try (Connection connection = Database.connect()) {
            insert(connection, tenant, "PENDING", now.minus(5, ChronoUnit.MINUTES), null, null);
            insert(connection, tenant, "PENDING", now.minus(5, ChronoUnit.MINUTES), null, null);
            insert(connection, tenant, "RUNNING", now.minus(4, ChronoUnit.MINUTES), now.minus(3, ChronoUnit.MINUTES),
                    null);
            for (int i = 0; i < 3; i++) {
                insert(connection, tenant, "COMPLETED", now.minus(10, ChronoUnit.MINUTES),
                        now.minus(10, ChronoUnit.MINUTES), now.minus(2, ChronoUnit.MINUTES));
            }
            insert(connection, tenant, "FAILED", now.minus(10, ChronoUnit.MINUTES), now.minus(9, ChronoUnit.MINUTES),
                    now.minus(9, ChronoUnit.MINUTES));
            insert(connection, tenant, "CANCELLED", now.minus(8, ChronoUnit.MINUTES), null,
                    now.minus(7, ChronoUnit.MINUTES));
            // a job created long before the window and still pending counts in every minute's depth
            insert(connection, tenant, "PENDING", now.minus(3, ChronoUnit.HOURS), null, null);
        }

        JsonPath overview = given().queryParam("minutes", "15").queryParam("tenant", tenant)
                .get("/api/stats/overview").then().statusCode(200).extract().jsonPath();

        assertThat(overview.getString("tenant")).isEqualTo(tenant);
        assertThat(overview.getMap("counts", String.class, Integer.class)).isEqualTo(Map.of("PENDING", 3,
                "RUNNING", 1, "COMPLETED", 3, "FAILED", 1, "CANCELLED", 1));
        assertThat(overview.getList("estimated")).isEmpty();
        List<Map<String, Object>> series = overview.getList("series");
        assertThat(series).hasSize(15);
        assertThat(series.stream().mapToInt(m -> (Integer) m.get("completed")).sum()).isEqualTo(3);
        assertThat(series.stream().mapToInt(m -> (Integer) m.get("failed")).sum()).isEqualTo(1);
        Map<String, Object> last = series.getLast();
        assertThat(last.get("pending")).isEqualTo(3);
        assertThat(last.get("running")).isEqualTo(1);
        // eleven minutes ago only the old job waited, and nothing ran
        Map<String, Object> early = series.get(series.size() - 12);
        assertThat(early.get("pending")).isEqualTo(1);
        assertThat(early.get("running")).isEqualTo(0);
        // the minutes are consecutive, oldest first
        Instant first = Instant.parse((String) series.getFirst().get("minute"));
        Instant lastMinute = Instant.parse((String) last.get("minute"));
        assertThat(ChronoUnit.MINUTES.between(first, lastMinute)).isEqualTo(14);
    }

    private static void insert(Connection connection, String tenant, String status, Instant createdAt,
                               Instant startedAt, Instant finishedAt) throws Exception {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO jobs (id, type, instruction, trace_id, status, max_retries, created_at, updated_at,
                                  started_at, finished_at, tenant)
                VALUES (?, 'SIMULATION', '{"steps":[{"action":"LOG","message":"x"}]}'::jsonb,
                        '0af7651916cd43dd8448eb211c80319c', ?, 0, ?, ?, ?, ?, ?)""")) {
            insert.setObject(1, UUID.randomUUID());
            insert.setString(2, status);
            insert.setTimestamp(3, Timestamp.from(createdAt));
            insert.setTimestamp(4, Timestamp.from(createdAt));
            insert.setTimestamp(5, startedAt == null ? null : Timestamp.from(startedAt));
            insert.setTimestamp(6, finishedAt == null ? null : Timestamp.from(finishedAt));
            insert.setString(7, tenant);
            insert.executeUpdate();
        }
    }
}
