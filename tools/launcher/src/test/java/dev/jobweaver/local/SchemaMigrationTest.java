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
