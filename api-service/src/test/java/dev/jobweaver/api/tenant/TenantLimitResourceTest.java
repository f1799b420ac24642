package dev.jobweaver.api.tenant;

import static dev.jobweaver.api.testing.Answers.assertRefused;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Endpoints;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.Tenants;
import dev.jobweaver.common.event.TenantLimitEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code /api/tenants/{tenant}/limits}: every bad input is a 400 naming the field and stores nothing; a limit set, read,
 * changed and removed; each change published on {@code tenant-limits}, keyed by the tenant, with increasing versions,
 * the removal without {@code maxRunning}.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class TenantLimitResourceTest {

    private static final String PATH = "/api/tenants/{id}/limits";

    @Inject
    ObjectMapper mapper;

    static Stream<Arguments> badBodies() {
        return Stream.of(
                Arguments.of("zero", "{\"maxRunning\":0}", "API.INVALID_TENANT_LIMIT_REQUEST",
                        "maxRunning must be between 1 and 100000, got 0"),
                Arguments.of("negative", "{\"maxRunning\":-1}", "API.INVALID_TENANT_LIMIT_REQUEST",
                        "maxRunning must be between 1 and 100000, got -1"),
                Arguments.of("too large", "{\"maxRunning\":100001}", "API.INVALID_TENANT_LIMIT_REQUEST",
                        "maxRunning must be between 1 and 100000, got 100001"),
                Arguments.of("beyond a long", "{\"maxRunning\":99999999999999999999}",
                        "API.INVALID_TENANT_LIMIT_REQUEST", "maxRunning must be between 1 and 100000"),
                Arguments.of("missing", "{}", "API.INVALID_TENANT_LIMIT_REQUEST", "maxRunning is required"),
                Arguments.of("null", "{\"maxRunning\":null}", "API.INVALID_TENANT_LIMIT_REQUEST",
                        "maxRunning is required"),
                Arguments.of("a string", "{\"maxRunning\":\"10\"}", "API.MALFORMED_JSON",
                        "maxRunning must be an integer from 1 to 100000, got a string"),
                Arguments.of("a decimal", "{\"maxRunning\":1.5}", "API.MALFORMED_JSON",
                        "maxRunning must be an integer from 1 to 100000, got a decimal number"),
                Arguments.of("a boolean", "{\"maxRunning\":true}", "API.MALFORMED_JSON",
                        "maxRunning must be an integer"),
                Arguments.of("not an object", "[10]", "API.MALFORMED_JSON", "must be a JSON object"),
                Arguments.of("bad JSON", "{\"maxRunning\":", "API.MALFORMED_JSON", "not valid JSON"),
                Arguments.of("trailing data", "{\"maxRunning\":3} {}", "API.MALFORMED_JSON", "not valid JSON"),
                Arguments.of("duplicate key", "{\"maxRunning\":3,\"maxRunning\":4}", "API.MALFORMED_JSON",
                        "Duplicate field 'maxRunning'"),
                Arguments.of("empty", "", "API.MALFORMED_JSON", "request body is empty"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBodies")
    void aBadBodyIsRefusedAndStoresNothing(String rule, String body, String errorCode, String messagePart)
            throws Exception {
        Tenants.assertRefusedStoringNothing("tenant_limits", tenant -> put(tenant, body), rule, errorCode,
                messagePart);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.jobweaver.api.testing.Tenants#invalid")
    void aBadTenantIsRefusedByEveryMethod(String tenant) {
        new Endpoints().putJson(PATH, "{\"maxRunning\":3}").get(PATH).delete(PATH)
                .refuse(tenant, 400, "API.INVALID_TENANT_LIMIT_REQUEST", Tenants.BAD_TENANT_MESSAGE);
    }

    @Test
    void anUnknownFieldIsIgnoredAsEverywhereInTheApi() {
        Response response = put(tenant(), "{\"maxRunning\":4,\"burst\":9}");
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
        assertThat(response.jsonPath().getInt("maxRunning")).isEqualTo(4);
    }

    @Test
    void theBoundsAreAccepted() {
        String tenant = tenant();
        assertThat(put(tenant, "{\"maxRunning\":1}").statusCode()).isEqualTo(200);
        assertThat(put(tenant, "{\"maxRunning\":100000}").jsonPath().getInt("maxRunning")).isEqualTo(100000);
    }

    @Test
    void aLimitIsSetReadChangedAndRemovedAndEachChangeIsPublished() throws Exception {
        String tenant = tenant();
        assertRefused("no limit yet", given().get(path(tenant)), 404, "API.TENANT_LIMIT_NOT_FOUND",
                "tenant " + tenant + " has no limit");
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.TENANT_LIMITS)) {
            Instant before = Instant.now().minusSeconds(1);
            Response set = put(tenant, "{\"maxRunning\":10}");
            assertThat(set.statusCode()).as(set.asString()).isEqualTo(200);
            assertThat(set.jsonPath().getString("tenant")).isEqualTo(tenant);
            assertThat(set.jsonPath().getInt("maxRunning")).isEqualTo(10);
            Instant updatedAt = Instant.parse(set.jsonPath().getString("updatedAt"));
            assertThat(updatedAt).isAfter(before);

            Response read = given().get(path(tenant));
            assertThat(read.statusCode()).isEqualTo(200);
            assertThat(read.jsonPath().getString("tenant")).isEqualTo(tenant);
            assertThat(read.jsonPath().getInt("maxRunning")).isEqualTo(10);
            assertThat(Instant.parse(read.jsonPath().getString("updatedAt"))).isEqualTo(updatedAt);

            Response changed = put(tenant, "{\"maxRunning\":3}");
            assertThat(changed.statusCode()).isEqualTo(200);
            assertThat(changed.jsonPath().getInt("maxRunning")).isEqualTo(3);
            assertThat(given().get(path(tenant)).jsonPath().getInt("maxRunning")).isEqualTo(3);

            assertThat(given().delete(path(tenant)).statusCode()).isEqualTo(204);
            assertRefused("removed", given().get(path(tenant)), 404, "API.TENANT_LIMIT_NOT_FOUND", "has no limit");
            assertThat(given().delete(path(tenant)).statusCode()).as("removing no limit").isEqualTo(204);

            List<ConsumerRecord<String, byte[]>> records = probe.pollUntil(
                    seen -> seen.stream().filter(r -> tenant.equals(r.key())).count() >= 3, Duration.ofSeconds(20));
            List<TenantLimitEvent> events = new ArrayList<>();
            for (ConsumerRecord<String, byte[]> record : records) {
                if (tenant.equals(record.key())) {
                    assertThat(record.value()).as("never a tombstone").isNotNull();
                    events.add(mapper.readValue(record.value(), TenantLimitEvent.class));
                }
            }
            // one partition per key: the events of a tenant arrive in the order they were published
            assertThat(events).extracting(TenantLimitEvent::tenant).containsOnly(tenant);
            assertThat(events).extracting(TenantLimitEvent::version).containsExactly(1L, 2L, 3L);
            assertThat(events).extracting(TenantLimitEvent::maxRunning).containsExactly(10, 3, null);
            assertThat(events.get(0).changedAt()).isEqualTo(updatedAt);
            assertThat(probe.pollFor(Duration.ofSeconds(2)).stream().filter(r -> tenant.equals(r.key())).count())
                    .as("removing no limit publishes nothing").isEqualTo(3);
            await().atMost(Duration.ofSeconds(20)).until(() -> publishedVersion(tenant) == 3);
        }

        // a limit set again goes on counting from the removal
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.TENANT_LIMITS)) {
            assertThat(put(tenant, "{\"maxRunning\":7}").statusCode()).isEqualTo(200);
            TenantLimitEvent event = probe.first(tenant, mapper, TenantLimitEvent.class);
            assertThat(event.version()).isEqualTo(4);
            assertThat(event.maxRunning()).isEqualTo(7);
        }
    }

    private static String tenant() {
        return Tenants.fresh("t");
    }

    private static String path(String tenant) {
        return PATH.replace("{id}", tenant);
    }

    private static Response put(String tenant, String body) {
        return Answers.putJson(path(tenant), body);
    }

    /** The row's acknowledged version, -1 without a row. */
    static long publishedVersion(String tenant) throws SQLException {
        return Database.firstLong("SELECT published_version FROM tenant_limits WHERE tenant = ?", tenant);
    }
}
