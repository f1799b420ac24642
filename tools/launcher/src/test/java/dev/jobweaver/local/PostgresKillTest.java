package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@link Postgres#kill()}: SIGKILL, then a start on the same data folder that recovers every committed row. */
class PostgresKillTest {

    @Test
    void aKilledServerStartsAgainOnItsDataAndKeepsWhatWasCommitted() throws Exception {
        Path home = Files.createTempDirectory("jobweaver-pg-kill-");
        Postgres postgres = new Postgres(home.resolve("data"), Ports.free());
        try {
            postgres.start();
            long first = postgres.pid();
            try (Connection c = connect(postgres); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE survivors (n int)");
                s.execute("INSERT INTO survivors SELECT generate_series(1, 1000)");
            }

            postgres.kill();
            assertThat(postgres.isRunning()).isFalse();
            assertThat(postgres.pid()).isEqualTo(-1);
            assertThat(ProcessHandle.of(first).map(ProcessHandle::isAlive).orElse(false)).as("the old postmaster")
                    .isFalse();
            postgres.kill(); // nothing left to kill: no-op

            postgres.start();
            assertThat(postgres.isRunning()).isTrue();
            assertThat(postgres.pid()).isPositive().isNotEqualTo(first);
            try (Connection c = connect(postgres); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM survivors")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(1000);
            }
            assertThat(Files.readString(home.resolve("postgres.log")))
                    .as("the second start recovered from the WAL").contains("database system was interrupted");
        } finally {
            postgres.close();
            try (Stream<Path> all = Files.walk(home)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static Connection connect(Postgres postgres) throws Exception {
        return DriverManager.getConnection(postgres.jdbcUrl("jobweaver_api"), Postgres.USER, Postgres.PASSWORD);
    }
}
