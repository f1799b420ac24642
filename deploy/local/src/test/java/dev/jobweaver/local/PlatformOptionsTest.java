package dev.jobweaver.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JVM options every service gets, and how JOBWEAVER_JAVA_OPTS adds to them. */
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
}
