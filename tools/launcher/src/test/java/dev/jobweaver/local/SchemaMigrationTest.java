package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The migration start's command line and its failures. That it migrates a real database is covered end to end:
 * every platform the e2e tests start migrates first, and its services refuse to start on an unmigrated schema.
 */
class SchemaMigrationTest {

    @TempDir
    Path dir;

    @Test
    void theServiceMigratesAsItStartsThenExitsWithoutTakingItsPortOrExportingSpans() {
        SchemaMigration migration = new SchemaMigration("worker-service", dir.resolve("quarkus-run.jar"),
                Map.of("quarkus.datasource.jdbc.url", "jdbc:postgresql://127.0.0.1:5432/jobweaver_worker",
                        "quarkus.http.port", "8082"), Map.of(), dir);

        List<String> command = migration.command();

        assertThat(command).contains("-Dquarkus.datasource.jdbc.url=jdbc:postgresql://127.0.0.1:5432/jobweaver_worker",
                "-Dquarkus.flyway.migrate-at-start=true", "-Dquarkus.init-and-exit=true", "-Dquarkus.http.port=0",
                "-Dquarkus.otel.sdk.disabled=true",
                "-Dquarkus.log.category.\"io.quarkus.runtime.shutdown.ShutdownRecorder\".level=OFF");
        assertThat(command).doesNotContain("-Dquarkus.http.port=8082");
        assertThat(command.subList(command.size() - 2, command.size()))
                .containsExactly("-jar", dir.resolve("quarkus-run.jar").toString());
        assertThat(migration.logFile()).isEqualTo(dir.resolve("worker-service-migration.log"));
    }

    @Test
    void flywaysVerdictIsReadWhetherItAppliedMigrationsOrFoundNone() {
        assertThat(SchemaMigration.FLYWAY_DONE.matcher("12:00:01 INFO [or.fl.co.in.co.DbMigrate] (main) Successfully"
                + " applied 26 migrations to schema \"public\", now at version v27 (execution time 00:00.110s)").find())
                .isTrue();
        assertThat(SchemaMigration.FLYWAY_DONE.matcher("Successfully applied 1 migration to schema \"public\"").find())
                .isTrue();
        assertThat(SchemaMigration.FLYWAY_DONE.matcher("[or.fl.co.in.co.DbMigrate] (main) Schema \"public\" is up to"
                + " date. No migration necessary.").find()).isTrue();
        assertThat(SchemaMigration.FLYWAY_DONE.matcher("Successfully validated 26 migrations (execution time 00:00.020s)")
                .find()).isFalse();
    }

    @Test
    void onceFlywaySaysTheSchemaIsCurrentTheProcessIsStoppedRatherThanAwaited() throws Exception {
        Path pid = dir.resolve("pid");
        SchemaMigration migration = new SchemaMigration("api-service", Files.writeString(dir.resolve("run.jar"), ""),
                Map.of(), Map.of(), dir);

        migration.run(List.of("sh", "-c", "echo $$ > " + pid + "; echo 'Successfully applied 3 migrations to schema"
                + " \"public\", now at version v3'; exec sleep 60"));

        long process = Long.parseLong(Files.readString(pid).trim());
        assertThat(ProcessHandle.of(process).map(ProcessHandle::isAlive).orElse(false))
                .as("the migration's process after run() returned").isFalse();
    }

    @Test
    void aVerdictInTheLogFromAnEarlierRunDoesNotEndThisOne() throws Exception {
        Files.writeString(dir.resolve("worker-service-migration.log"),
                "Schema \"public\" is up to date. No migration necessary.\n");
        SchemaMigration migration = new SchemaMigration("worker-service",
                Files.writeString(dir.resolve("run.jar"), ""), Map.of(), Map.of(), dir);

        assertThatThrownBy(() -> migration.run(List.of("sh", "-c", "sleep 0.3; echo 'no database'; exit 3")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("worker-service: schema migration failed (exit 3)")
                .hasMessageContaining("no database");
    }

    @Test
    void aServiceThatIsNotBuiltIsNamed() {
        SchemaMigration migration = new SchemaMigration("api-service", dir.resolve("missing.jar"), Map.of(), Map.of(), dir);

        assertThatThrownBy(migration::run).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("api-service is not built");
    }

    @Test
    void aFailedMigrationShowsTheEndOfItsLog() throws Exception {
        Path notAJar = Files.writeString(dir.resolve("broken.jar"), "not a jar");
        SchemaMigration migration = new SchemaMigration("scheduler-service", notAJar, Map.of(), Map.of(), dir);

        assertThatThrownBy(migration::run).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("scheduler-service: schema migration failed (exit 1)")
                .hasMessageContaining("broken.jar");
    }
}
