package dev.jobweaver.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The broker's JVM options, how a stack's and JOBWEAVER_KAFKA_JAVA_OPTS add to them, and its request threads. */
class KafkaBrokerOptionsTest {

    @Test
    void theBrokerRunsOnAFixedHeapWithEveryJitTier() {
        List<String> options = KafkaBroker.jvmOptions("512m", List.of(), null);
        assertTrue(options.containsAll(List.of("-Xms512m", "-Xmx512m", "--sun-misc-unsafe-memory-access=allow")),
                options::toString);
        assertTrue(options.stream().noneMatch(o -> o.startsWith("-XX:TieredStopAtLevel")), options::toString);
        assertEquals(options, KafkaBroker.jvmOptions("512m", List.of(), " \t "));
    }

    @Test
    void extraOptionsComeLastSoTheyWin() {
        List<String> defaults = KafkaBroker.jvmOptions("256m", List.of(), null);
        List<String> options = KafkaBroker.jvmOptions("256m", List.of(),
                "  -XX:TieredStopAtLevel=1 \t -XX:+UseSerialGC ");
        assertEquals(defaults, options.subList(0, defaults.size()));
        assertEquals(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
                options.subList(defaults.size(), options.size()));
    }

    @Test
    void theStacksOptionsComeAfterTheBrokersOwnAndBeforeTheEnvironments() {
        List<String> defaults = KafkaBroker.jvmOptions("256m", List.of(), null);
        List<String> options = KafkaBroker.jvmOptions("256m", List.of("-XX:TieredStopAtLevel=1"),
                "-XX:TieredStopAtLevel=4");
        assertEquals(defaults, options.subList(0, defaults.size()));
        assertEquals(List.of("-XX:TieredStopAtLevel=1", "-XX:TieredStopAtLevel=4"),
                options.subList(defaults.size(), options.size()));
    }

    @Test
    void testStacksStopTheBrokerAtC1() throws Exception {
        LocalStack.Settings tests = LocalStack.Settings.ephemeral();
        Files.delete(tests.home());
        assertEquals(List.of("-XX:TieredStopAtLevel=1"), tests.kafkaJvmOptions());
        assertEquals(List.of(), new LocalStack.Settings(Path.of("home"), 1, 2, 3, "512m", Map.of(), false)
                .kafkaJvmOptions());
    }

    @Test
    void requestThreadsFollowTheCoresWithinKafkasDefaults() {
        assertEquals(java.util.Map.of("num.io.threads", "2", "num.network.threads", "1"), KafkaBroker.threads(1));
        assertEquals(java.util.Map.of("num.io.threads", "2", "num.network.threads", "1"), KafkaBroker.threads(2));
        assertEquals(java.util.Map.of("num.io.threads", "8", "num.network.threads", "2"), KafkaBroker.threads(8));
        assertEquals(java.util.Map.of("num.io.threads", "8", "num.network.threads", "3"), KafkaBroker.threads(64));
    }
}
