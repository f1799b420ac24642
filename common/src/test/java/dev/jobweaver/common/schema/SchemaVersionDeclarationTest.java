package dev.jobweaver.common.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every service declares, as {@value SchemaGuard#VERSION}, the version of its newest migration: the version its
 * {@link SchemaGuard} requires. A migration added without raising it would let the service start on a schema that
 * lacks it; raising it without a migration would stop every start. Reads the services' sources from the repository.
 */
class SchemaVersionDeclarationTest {

    private static final Pattern MIGRATION = Pattern.compile("V([0-9._]+)__.+\\.sql");

    /**
     * @param declaration module, migrations folder and the properties file that declares the version, separated by
     *     {@code |}: the worker runtime keeps its migrations apart from an application's own
     */
    @ParameterizedTest
    @ValueSource(strings = {"api-service|db/migration|application.properties",
            "scheduler-service|db/migration|application.properties",
            "worker-runtime|db/jobweaver-worker|META-INF/microprofile-config.properties"})
    void theDeclaredVersionIsTheNewestMigration(String declaration) throws IOException {
        String[] parts = declaration.split("\\|");
        String service = parts[0];
        Path resources = Path.of("..", service, "src", "main", "resources");
        String newest;
        try (Stream<Path> files = Files.list(resources.resolve(parts[1]))) {
            newest = files.map(f -> MIGRATION.matcher(f.getFileName().toString()))
                    .filter(Matcher::matches)
                    .map(m -> m.group(1).replace('_', '.'))
                    .max(SchemaVersion::compare)
                    .orElseThrow(() -> new AssertionError(service + " has no versioned migration"));
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(resources.resolve(parts[2]))) {
            properties.load(reader);
        }

        assertThat(properties.getProperty(SchemaGuard.VERSION))
                .as("%s in %s/%s", SchemaGuard.VERSION, service, parts[2])
                .isEqualTo(newest);
    }
}
