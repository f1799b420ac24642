package dev.jobweaver.api.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.DeadLetters;
import dev.jobweaver.testing.JobWeaverTest;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@code jobweaver_dead_letters_open} follows the table's OPEN dead letters, counted on its timer (1 s in tests). */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class DeadLetterMetricsTest {

    @Inject
    MeterRegistry registry;

    @Test
    void theOpenGaugeFollowsTheTable() throws Exception {
        await().atMost(Duration.ofSeconds(10)).until(() -> gauge() == openInTable());
        long before = openInTable();

        String first = DeadLetters.storeOpen(Instant.now());
        DeadLetters.storeOpen(Instant.now());
        await().atMost(Duration.ofSeconds(10)).until(() -> gauge() == before + 2);

        assertThat(DeadLetters.discard(first, "{\"reason\":\"done\"}").statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> gauge() == before + 1);
        assertThat(openInTable()).isEqualTo(before + 1);
    }

    private long gauge() {
        Gauge gauge = registry.find("jobweaver.dead.letters.open").gauge();
        return gauge == null ? -2 : (long) gauge.value();
    }

    private static long openInTable() throws Exception {
        try (Connection db = Database.connect(); Statement query = db.createStatement();
             ResultSet rows = query.executeQuery("SELECT count(*) FROM dead_letters WHERE state = 'OPEN'")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
