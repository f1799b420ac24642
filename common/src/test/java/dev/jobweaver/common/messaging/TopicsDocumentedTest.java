package dev.jobweaver.common.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.docs.RepositoryDocs;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** docs/events.md lists every topic of {@link Topics#ALL} with its default partition count, and no other. */
class TopicsDocumentedTest {

    private final Map<String, List<String>> documented = RepositoryDocs.tableRows("docs/events.md").stream()
            .filter(cells -> cells.size() == 5 && cells.get(0).matches("`[a-z-]+`"))
            .collect(Collectors.toMap(cells -> cells.get(0).replace("`", ""), cells -> cells, (a, b) -> a));

    @Test
    void everyTopicHasARowWithItsPartitionsAndCompaction() {
        for (Topics.TopicSpec topic : Topics.ALL) {
            assertThat(documented).as("docs/events.md's topic table has no row for %s", topic.name())
                    .containsKey(topic.name());
            String partitions = topic.partitions() + (topic.compacted() ? ", compacted" : "");
            assertThat(documented.get(topic.name()).get(1)).as("partitions of %s in docs/events.md", topic.name())
                    .isEqualTo(partitions);
        }
    }

    @Test
    void everyDocumentedTopicExists() {
        List<String> names = Topics.ALL.stream().map(Topics.TopicSpec::name).toList();
        assertThat(names).as("topics of docs/events.md's table that Topics.ALL does not have")
                .containsAll(documented.keySet());
    }
}
