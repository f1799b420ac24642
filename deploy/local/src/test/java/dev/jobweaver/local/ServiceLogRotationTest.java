package dev.jobweaver.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A service's log is moved aside at start only once it has grown past the limit. */
class ServiceLogRotationTest {

    @TempDir
    Path logs;

    @Test
    void aLogOverTheLimitMovesAsideAndReplacesTheOlderOne() throws IOException {
        Path log = Files.writeString(logs.resolve("worker-service.log"), "0123456789");
        Files.writeString(logs.resolve("worker-service.log.1"), "older");

        ServiceProcess.rotateIfOver(log, 9);

        assertFalse(Files.exists(log));
        assertEquals("0123456789", Files.readString(logs.resolve("worker-service.log.1")));
    }

    @Test
    void aLogAtOrUnderTheLimitStaysSoARestartAppendsToIt() throws IOException {
        Path log = Files.writeString(logs.resolve("api-service.log"), "0123456789");

        ServiceProcess.rotateIfOver(log, 10);

        assertEquals("0123456789", Files.readString(log));
        assertFalse(Files.exists(logs.resolve("api-service.log.1")));
    }

    @Test
    void aMissingLogIsNoError() throws IOException {
        ServiceProcess.rotateIfOver(logs.resolve("scheduler-service.log"), 0);
        assertFalse(Files.exists(logs.resolve("scheduler-service.log.1")));
    }
}
