package dev.jobweaver.common.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.local.LocalStack;
import dev.jobweaver.local.Postgres;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.mutiny.sqlclient.Pool;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SchemaGuard} against a real PostgreSQL: a scratch database whose Flyway history each test writes. It lives
 * here, not in common, because common cannot depend on tools/launcher (which depends on common).
 */
class SchemaGuardTest {

    private static final String DATABASE = "jobweaver_schema_guard";

    private static LocalStack stack;
    private static Vertx vertx;

    @BeforeAll
    static void scratchDatabase() throws SQLException {
        stack = LocalStack.shared();
        vertx = Vertx.vertx();
        try (Connection c = DriverManager.getConnection(stack.postgres().jdbcUrl("postgres"), Postgres.USER,
                Postgres.PASSWORD); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + DATABASE);
        }
    }

    @AfterAll
    static void closeVertx() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void noHistory() throws SQLException {
        sql("DROP TABLE IF EXISTS flyway_schema_history");
    }

    private static void sql(String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(stack.postgres().jdbcUrl(DATABASE), Postgres.USER,
                Postgres.PASSWORD); Statement s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        }
    }

    /** Flyway's own columns, in part: the guard reads only version and success. */
    private static void history(String... rows) throws SQLException {
        sql("CREATE TABLE flyway_schema_history (installed_rank int PRIMARY KEY, version varchar(50),"
                + " description varchar(200), success boolean NOT NULL)");
        for (int i = 0; i < rows.length; i++) {
            sql("INSERT INTO flyway_schema_history VALUES (" + (i + 1) + ", " + rows[i] + ")");
        }
    }

    private static SchemaGuard guard(int port, String required) {
        String url = "postgresql://127.0.0.1:" + port + "/" + DATABASE;
        io.vertx.sqlclient.Pool pool = PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri(url).setUser(Postgres.USER).setPassword(Postgres.PASSWORD)
                        .setConnectTimeout(2000))
                .using(vertx)
                .build();
        return new SchemaGuard(Pool.newInstance(pool), required, url);
    }

    private static SchemaGuard guard(String required) {
        return guard(stack.postgres().port(), required);
    }

    @Test
    void aDatabaseNobodyMigratedStopsTheStartWithTheFix() {
        assertThatThrownBy(() -> guard("2").check(null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(DATABASE + " has no schema yet")
                .hasMessageContaining("QUARKUS_DATASOURCE_JDBC_URL");
    }

    @Test
    void anOlderSchemaStopsTheStart() throws SQLException {
        history("'1', 'first', true");

        assertThatThrownBy(() -> guard("2").check(null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is at schema version 1; this build needs 2");
    }

    @Test
    void aFailedMigrationStopsTheStart() throws SQLException {
        history("'1', 'first', true", "'2', 'second', false");

        assertThatThrownBy(() -> guard("2").check(null)).hasMessageContaining("failed migration to version 2");
    }

    @Test
    void theCurrentSchemaStarts() throws SQLException {
        history("'1', 'first', true", "'2', 'second', true", "NULL, 'a repeatable migration', true");

        SchemaGuard guard = guard("2");
        assertThat(guard.read().applied()).contains("2");
        assertThatCode(() -> guard.check(null)).doesNotThrowAnyException();
    }

    @Test
    void aNewerSchemaStarts() throws SQLException {
        history("'1', 'first', true", "'2', 'second', true", "'3', 'third', true");

        assertThatCode(() -> guard("2").check(null)).doesNotThrowAnyException();
    }

    @Test
    void anUnreachableDatabaseLeavesTheVerdictToReadiness() {
        assertThatCode(() -> guard(1, "2").check(null)).doesNotThrowAnyException();
    }

    @Test
    void messagesNameTheDatabaseOfTheReactiveUrl() {
        assertThat(SchemaGuard.databaseOf("postgresql://127.0.0.1:5432/jobweaver_api")).isEqualTo("jobweaver_api");
        assertThat(SchemaGuard.databaseOf("postgresql://db:5432/jobweaver_worker?sslmode=require"))
                .isEqualTo("jobweaver_worker");
    }
}
