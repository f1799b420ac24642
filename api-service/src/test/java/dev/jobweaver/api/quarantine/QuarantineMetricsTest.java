package dev.jobweaver.api.quarantine;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.testing.JobWeaverTest;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code jobweaver_quarantine_records_kept}, the gauge JobWeaverQuarantinedRecords reads, follows the KEPT rows: up by
 * a stored copy, down by a discard; and the review's counters count what was stored and discarded.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class QuarantineMetricsTest {

    private static final String KEPT_SQL = "SELECT count(*) FROM quarantined_records WHERE state = ?";

    @Inject MeterRegistry registry;

    @Test
    void theKeptGaugeFollowsTheKeptRecords() throws Exception {
        double stored = registry.counter("jobweaver.quarantine.records.stored", "result", "stored").count();
        double discarded = registry.counter("jobweaver.quarantine.records.discarded").count();
        String id = QuarantinedRecords.publishAndAwait(QuarantinedRecords.copy("qm-" + UUID.randomUUID(), 1,
                UUID.randomUUID().toString())).getFirst();
        long keptNow = Database.firstLong(KEPT_SQL, "KEPT");
        assertThat(keptNow).isPositive();
        await().atMost(Duration.ofSeconds(15)).until(() -> kept() == keptNow);
        assertThat(registry.counter("jobweaver.quarantine.records.stored", "result", "stored").count())
                .isGreaterThanOrEqualTo(stored + 1);

        given().post("/api/quarantine/" + id + "/discard").then().statusCode(200);

        await().atMost(Duration.ofSeconds(15)).until(() -> kept() == Database.firstLong(KEPT_SQL, "KEPT"));
        assertThat(kept()).isLessThan(keptNow + 1);
        assertThat(registry.counter("jobweaver.quarantine.records.discarded").count()).isEqualTo(discarded + 1);
    }

    private double kept() {
        return registry.get("jobweaver.quarantine.records.kept").gauge().value();
    }
}
