package dev.jobweaver.api.platform.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's docs as the API's tests read them, found from the module's directory. */
final class ApiDocs {

    private ApiDocs() {
    }

    static Path file(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(relative))) {
                return dir.resolve(relative);
            }
        }
        throw new IllegalStateException("no " + relative + " above " + Path.of("").toAbsolutePath());
    }

    static String read(String relative) {
        try {
            return Files.readString(file(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
