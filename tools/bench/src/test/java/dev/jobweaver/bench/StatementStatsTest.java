package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.local.Ports;
import dev.jobweaver.local.Postgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link StatementStats} on a real server that keeps statement statistics: the services' statements since a reset,
 * per job the API stored in the window, without the bench's own reads; nothing on a server that keeps none.
 */
class StatementStatsTest {

    private static Path home;
    private static Postgres withStats;

    @BeforeAll
    static void start() throws Exception {
        home = Files.createTempDirectory("jobweaver-bench-stats-");
        withStats = new Postgres(home.resolve("stats"), Ports.free(), true);
        withStats.start();
        try (Connection api = DriverManager.getConnection(withStats.jdbcUrl("jobweaver_api"), Postgres.USER,
                Postgres.PASSWORD); Statement s = api.createStatement()) {
            s.execute("CREATE TABLE jobs (id int PRIMARY KEY, created_at timestamptz NOT NULL)");
            s.execute("INSERT INTO jobs VALUES (0, now() - interval '1 hour')");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        withStats.close();
        try (Stream<Path> all = Files.walk(home)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void theServicesStatementsSinceTheResetArePerStoredJob() throws Exception {
        try (StatementStats stats = StatementStats.open(withStats.port()).orElseThrow()) {
            Instant from = Instant.now().minusMillis(1);
            stats.reset();
            try (Connection api = DriverManager.getConnection(withStats.jdbcUrl("jobweaver_api"), Postgres.USER,
                    Postgres.PASSWORD); Statement s = api.createStatement()) {
                for (int i = 1; i <= 4; i++) {
                    s.execute("INSERT INTO jobs VALUES (" + i + ", now())");
                }
            }
            try (Connection bench = PlatformDb.connect(withStats.port(), "jobweaver_api");
                 Statement s = bench.createStatement()) {
                s.executeQuery("SELECT count(*) FROM jobs WHERE id > 0").close();
            }

            StatementCosts costs = stats.since(from);

            assertThat(costs.jobs()).as("the jobs stored since the window began").isEqualTo(4);
            assertThat(costs.rows()).filteredOn(r -> r.query().startsWith("INSERT INTO jobs"))
                    .singleElement().satisfies(insert -> {
                        assertThat(insert.database()).isEqualTo("jobweaver_api");
                        assertThat(insert.calls()).isEqualTo(4);
                        assertThat(costs.callsPerJob(insert)).isEqualTo(1.0);
                    });
            assertThat(costs.rows()).as("the bench's own reads")
                    .noneMatch(r -> r.query().contains("count(*) FROM jobs"));
        }
    }

    @Test
    void aServerWithoutStatementStatisticsHasNone() throws Exception {
        Postgres plain = new Postgres(home.resolve("plain"), Ports.free());
        try {
            plain.start();
            assertThat(StatementStats.open(plain.port())).isEmpty();
        } finally {
            plain.close();
        }
    }
}
