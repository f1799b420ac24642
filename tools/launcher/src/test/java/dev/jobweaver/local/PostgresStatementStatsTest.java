package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The statement statistics {@code up --sql-stats} asks for, and the tools' role that keeps the bench's reads out of
 * them, on a real server.
 */
class PostgresStatementStatsTest {

    @Test
    void withStatementStatsEachStatementIsCountedUnderTheUserThatRanIt() throws Exception {
        withServer(true, postgres -> {
            try (Connection platform = connect(postgres, Postgres.USER, "jobweaver_api");
                 Statement s = platform.createStatement()) {
                s.execute("CREATE TABLE counted (n int)");
                for (int i = 0; i < 3; i++) {
                    s.execute("INSERT INTO counted VALUES (" + i + ")");
                }
            }
            try (Connection tools = connect(postgres, Postgres.TOOLS_USER, "postgres");
                 Statement s = tools.createStatement();
                 ResultSet rs = s.executeQuery("SELECT r.rolname, s.calls FROM pg_stat_statements s"
                         + " JOIN pg_roles r ON r.oid = s.userid JOIN pg_database d ON d.oid = s.dbid"
                         + " WHERE d.datname = 'jobweaver_api' AND s.query LIKE 'INSERT INTO counted%'")) {
                assertThat(rs.next()).as("the inserts are one normalised statement").isTrue();
                assertThat(rs.getString(1)).isEqualTo(Postgres.USER);
                assertThat(rs.getLong(2)).isEqualTo(3);
                assertThat(rs.next()).isFalse();
            }
        });
    }

    @Test
    void withoutThemTheToolsRoleStillConnectsAndTheViewIsAbsent() throws Exception {
        withServer(false, postgres -> {
            try (Connection tools = connect(postgres, Postgres.TOOLS_USER, "jobweaver_scheduler");
                 Statement s = tools.createStatement()) {
                assertThatThrownBy(() -> s.executeQuery("SELECT count(*) FROM pg_stat_statements"))
                        .isInstanceOf(SQLException.class);
            }
        });
    }

    private interface WithServer {
        void accept(Postgres postgres) throws Exception;
    }

    private static void withServer(boolean statementStats, WithServer body) throws Exception {
        Path home = Files.createTempDirectory("jobweaver-pg-stats-");
        Postgres postgres = new Postgres(home.resolve("data"), Ports.free(), statementStats);
        try {
            postgres.start();
            body.accept(postgres);
        } finally {
            postgres.close();
            try (Stream<Path> all = Files.walk(home)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static Connection connect(Postgres postgres, String user, String database) throws SQLException {
        return DriverManager.getConnection(postgres.jdbcUrl(database), user, Postgres.PASSWORD);
    }
}
