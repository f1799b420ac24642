package dev.jobweaver.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service's log is rotated by its own logging while it runs; its out file (what the JVM prints outside logging) is
 * moved aside at start once it has grown past the limit.
 */
class ServiceLogRotationTest {

    @TempDir
    Path logs;

    @Test
    void theServiceLogsToItsFileInTheConsoleFormatRotatedWhileItRuns() {
        Path log = logs.resolve("worker-service.log");
        Map<String, String> config = ServiceProcess.withRotatingLog(log, Map.of("quarkus.http.port", "8082"));

        assertEquals("false", config.get("quarkus.log.console.enabled"));
        assertEquals("true", config.get("quarkus.log.file.enabled"));
        assertEquals(log.toString(), config.get("quarkus.log.file.path"));
        assertEquals("${quarkus.log.console.format}", config.get("quarkus.log.file.format"));
        assertEquals("64M", config.get("quarkus.log.file.rotation.max-file-size"));
        assertEquals("1", config.get("quarkus.log.file.rotation.max-backup-index"));
        assertEquals("false", config.get("quarkus.log.file.rotation.rotate-on-boot"), "a restart appends");
        assertEquals("8082", config.get("quarkus.http.port"));
    }

    @Test
    void anOperatorsOwnLoggingSettingsWin() {
        Map<String, String> config = ServiceProcess.withRotatingLog(logs.resolve("api-service.log"),
                Map.of("quarkus.log.file.rotation.max-file-size", "1M", "quarkus.log.console.enabled", "true"));

        assertEquals("1M", config.get("quarkus.log.file.rotation.max-file-size"));
        assertEquals("true", config.get("quarkus.log.console.enabled"));
    }

    @Test
    void anOutFileOverTheLimitMovesAsideAndReplacesTheOlderOne() throws IOException {
        Path out = Files.writeString(logs.resolve("worker-service.out"), "0123456789");
        Files.writeString(logs.resolve("worker-service.out.1"), "older");

        ServiceProcess.rotateIfOver(out, 9);

        assertFalse(Files.exists(out));
        assertEquals("0123456789", Files.readString(logs.resolve("worker-service.out.1")));
    }

    @Test
    void anOutFileAtOrUnderTheLimitStaysSoARestartAppendsToIt() throws IOException {
        Path out = Files.writeString(logs.resolve("api-service.out"), "0123456789");

        ServiceProcess.rotateIfOver(out, 10);

        assertEquals("0123456789", Files.readString(out));
        assertFalse(Files.exists(logs.resolve("api-service.out.1")));
    }

    @Test
    void aMissingOutFileIsNoError() throws IOException {
        ServiceProcess.rotateIfOver(logs.resolve("scheduler-service.out"), 0);
        assertFalse(Files.exists(logs.resolve("scheduler-service.out.1")));
    }
}
