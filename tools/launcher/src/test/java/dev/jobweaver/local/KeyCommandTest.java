package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code jobweaver key}: the admin key of a home, alone on its line, or a refusal that says how to get one. */
class KeyCommandTest {

    @TempDir
    Path root;

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = JobWeaverLocal.commandLine(root, new PrintStream(printed, true,
                StandardCharsets.UTF_8));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @Test
    void printsTheKeyUpMadeForTheRepositorysHome() {
        PlatformSecrets secrets = PlatformSecrets.loadOrCreate(root.resolve(".jobweaver"));

        assertThat(run("key", "--root", root.toString())).isZero();
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEqualTo(secrets.adminKey() + System.lineSeparator());
    }

    @Test
    void readsTheHomeGivenWithHome() {
        PlatformSecrets secrets = PlatformSecrets.loadOrCreate(root.resolve("elsewhere"));

        assertThat(run("key", "--home", root.resolve("elsewhere").toString())).isZero();
        assertThat(printed.toString(StandardCharsets.UTF_8).strip()).isEqualTo(secrets.adminKey());
    }

    @Test
    void withoutAKeyYetItRefusesAndNamesUp() {
        assertThat(run("key", "--root", root.toString())).isEqualTo(2);
        assertThat(printed.size()).isZero();
        assertThat(err.toString()).startsWith("jobweaver key: no admin key yet: ")
                .contains(root.resolve(".jobweaver/secrets.properties").toString(), "./jobweaver up");
        assertThat(root.resolve(".jobweaver")).as("nothing is made").doesNotExist();
    }
}
