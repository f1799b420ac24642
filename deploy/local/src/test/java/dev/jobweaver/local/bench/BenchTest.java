package dev.jobweaver.local.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the command does before it touches a platform: help, and refusing to run against one that is not up. */
class BenchTest {

    @TempDir
    Path cwd;

    @Test
    void helpPrintsTheUsage() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertThat(Bench.run(List.of("--help"), cwd, new PrintStream(bytes))).isZero();
        assertThat(bytes.toString()).contains("usage: jobweaver bench");
    }

    @Test
    void withoutAPlatformItSaysSo() {
        assertThatThrownBy(() -> Bench.run(List.of("burst"), cwd, System.out))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("the platform is not up");
    }

    @Test
    void aStateFileLeftFromAnEarlierRunIsNotTakenForARunningPlatform() throws Exception {
        Path home = Files.createDirectories(cwd.resolve(".jobweaver"));
        long deadPid = new ProcessBuilder("true").start().onExit().get().pid();
        Files.writeString(home.resolve("platform.properties"), "postgres.port=1\nservice.api-service.url=http\\://"
                + "localhost\\:1\nservice.api-service.pid=" + deadPid + "\n");
        assertThatThrownBy(() -> Bench.run(List.of(), cwd, System.out))
                .hasMessageContaining("api-service (pid " + deadPid + ") is not running")
                .hasMessageContaining("left from an earlier run");
    }
}
