package dev.jobweaver.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JVM options and tracing settings every service gets, and how JOBWEAVER_JAVA_OPTS adds to them. */
class PlatformOptionsTest {

    @Test
    void noExtraOptionsKeepsTheDefaults() {
        assertEquals(Platform.Options.DEFAULT_JVM, Platform.Options.jvmWith(null));
        assertEquals(Platform.Options.DEFAULT_JVM, Platform.Options.jvmWith("   "));
    }

    @Test
    void extraOptionsComeAfterTheDefaultsSoTheyWin() {
        List<String> expected = new ArrayList<>(Platform.Options.DEFAULT_JVM);
        expected.add("-Xmx512m");
        expected.add("-XX:StartFlightRecording=filename=/tmp/%p.jfr");
        assertEquals(expected, Platform.Options.jvmWith("  -Xmx512m \t -XX:StartFlightRecording=filename=/tmp/%p.jfr "));
    }

    @Test
    void withoutATraceViewerNoSpanIsRecordedAndNoSqlKafkaOrHttpServerSpanIsMade() {
        assertEquals(Map.of("quarkus.otel.traces.sampler.arg", "0.0",
                        "quarkus.otel.instrument.vertx-sql-client", "false",
                        "quarkus.otel.instrument.vertx-http", "false",
                        "mp.messaging.connector.smallrye-kafka.tracing-enabled", "false"),
                Platform.withoutTraceViewer());
    }

    @Test
    void servicesGetTwoMallocArenasAndMappedLargeBlocksUnlessTheOperatorSaysOtherwise() {
        Map<String, String> env = new HashMap<>();
        ServiceProcess.tuneMalloc(env);
        assertEquals("2", env.get("MALLOC_ARENA_MAX"));
        assertEquals("32768", env.get("MALLOC_MMAP_THRESHOLD_"));

        Map<String, String> own = new HashMap<>(Map.of("MALLOC_ARENA_MAX", "4", "MALLOC_MMAP_THRESHOLD_", "131072"));
        ServiceProcess.tuneMalloc(own);
        assertEquals("4", own.get("MALLOC_ARENA_MAX"));
        assertEquals("131072", own.get("MALLOC_MMAP_THRESHOLD_"));
    }

    @Test
    void theShortConstructorRunsWithoutAotCachesAndStartsEverythingAtOnce() {
        Platform.Options options = new Platform.Options(Path.of("."), null, Map.of(), Map.of(), Map.of(),
                Platform.Options.DEFAULT_JVM, null, Duration.ofSeconds(1), 0);
        assertNull(options.aotCaches());
        assertFalse(options.oneAtATime());
    }
}
