package dev.jobweaver.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The broker's JVM options, how JOBWEAVER_KAFKA_JAVA_OPTS adds to them, and its request threads. */
class KafkaBrokerOptionsTest {

    @Test
    void theBrokerRunsOnAFixedHeapWithC1Only() {
        List<String> options = KafkaBroker.jvmOptions("512m", null);
        assertTrue(options.containsAll(List.of("-Xms512m", "-Xmx512m", "-XX:TieredStopAtLevel=1",
                "--sun-misc-unsafe-memory-access=allow")), options::toString);
        assertEquals(options, KafkaBroker.jvmOptions("512m", " \t "));
    }

    @Test
    void extraOptionsComeLastSoTheyWin() {
        List<String> defaults = KafkaBroker.jvmOptions("256m", null);
        List<String> options = KafkaBroker.jvmOptions("256m", "  -XX:TieredStopAtLevel=4 \t -XX:+UseSerialGC ");
        assertEquals(defaults, options.subList(0, defaults.size()));
        assertEquals(List.of("-XX:TieredStopAtLevel=4", "-XX:+UseSerialGC"),
                options.subList(defaults.size(), options.size()));
    }

    @Test
    void requestThreadsFollowTheCoresWithinKafkasDefaults() {
        assertEquals(java.util.Map.of("num.io.threads", "2", "num.network.threads", "1"), KafkaBroker.threads(1));
        assertEquals(java.util.Map.of("num.io.threads", "2", "num.network.threads", "1"), KafkaBroker.threads(2));
        assertEquals(java.util.Map.of("num.io.threads", "8", "num.network.threads", "2"), KafkaBroker.threads(8));
        assertEquals(java.util.Map.of("num.io.threads", "8", "num.network.threads", "3"), KafkaBroker.threads(64));
    }
}
