package dev.jobweaver.common.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The repository's files as a test reads them: found from the module's directory, whatever depth it has. */
public final class RepositoryDocs {

    private RepositoryDocs() {
    }

    /** The repository's root: the nearest directory above the working directory that holds {@code docs/api.md}. */
    public static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docs/api.md"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no docs/api.md above " + Path.of("").toAbsolutePath());
    }

    public static String read(String relative) {
        try {
            return Files.readString(root().resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The cells of every table row of the file at {@code relative}, without the header separator rows. */
    public static List<List<String>> tableRows(String relative) {
        return read(relative).lines()
                .filter(line -> line.startsWith("|") && !line.startsWith("|---"))
                .map(line -> List.of(line.substring(1, line.lastIndexOf('|')).split("(?<!\\\\)\\|", -1)).stream()
                        .map(String::strip).toList())
                .toList();
    }
}
