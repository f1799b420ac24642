package dev.jobweaver.bench;

import java.io.ByteArrayOutputStream;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** What a test of a command of the launcher's command line shares: a working folder, the output and the errors. */
abstract class CommandTestBase {

    @TempDir
    Path cwd;

    final StringWriter err = new StringWriter();
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** Runs {@code jobweaver args} with relative paths against {@link #cwd}; returns the exit status. */
    int execute(String... args) {
        return Fixtures.execute(cwd, out, err, args);
    }
}
