package dev.jobweaver.common.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README opens with what JobWeaver is and then the two commands, within its first 25 lines, and its "Read more"
 * links every page of docs/.
 */
class ReadmeTest {

    private final String readme = RepositoryDocs.read("README.md");

    @Test
    void theTwoCommandsStandWithinTheFirst25Lines() {
        List<String> top = readme.lines().limit(25).toList();
        assertThat(top).as("the README's first 25 lines")
                .anyMatch(line -> line.startsWith("./jobweaver up "))
                .anyMatch(line -> line.startsWith("./jobweaver test "));
    }

    @Test
    void readMoreLinksEveryPageOfDocs() throws IOException {
        String readMore = readme.substring(readme.indexOf("\n## Read more"));
        try (Stream<java.nio.file.Path> pages = Files.list(RepositoryDocs.root().resolve("docs"))) {
            List<String> unlinked = pages.map(p -> p.getFileName().toString()).filter(name -> name.endsWith(".md"))
                    .filter(name -> !readMore.contains("(docs/" + name + ")")).sorted().toList();
            assertThat(unlinked).as("pages of docs/ the README's Read more does not link").isEmpty();
        }
    }
}
