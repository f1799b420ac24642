package dev.jobweaver.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The run-job channel subscribes to the run topics of the worker's queues, configured once. */
class RunJobTopicsTest {

    private static SmallRyeConfig config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(properties, "test", 100))
                .withInterceptors(new RunJobTopics()).build();
    }

    @Test
    void aWorkerOfTheDefaultQueueKeepsTheChannelsOwnTopic() {
        SmallRyeConfig config = config(Map.of(RunJobTopics.TOPIC, "run-job", RunJobTopics.QUEUES, "default"));

        assertThat(config.getOptionalValue(RunJobTopics.TOPIC, String.class)).contains("run-job");
        assertThat(config.getOptionalValue(RunJobTopics.TOPICS, String.class)).isEmpty();
    }

    @Test
    void aWorkerOfOtherQueuesReadsTheirTopicsInsteadOfTheTopic() {
        SmallRyeConfig config = config(Map.of(RunJobTopics.TOPIC, "run-job", RunJobTopics.QUEUES,
                "default, images,reports"));

        assertThat(config.getOptionalValue(RunJobTopics.TOPIC, String.class)).isEmpty();
        assertThat(config.getOptionalValue(RunJobTopics.TOPICS, String.class))
                .contains("run-job,run-job.images,run-job.reports");
    }

    @Test
    void theTopicsToCreateAreThoseOfTheQueuesOtherThanTheDefault() {
        assertThat(QueueTopics.topicsToEnsure(List.of("default"))).isEmpty();
        assertThat(QueueTopics.topicsToEnsure(List.of("images", "default", "reports")))
                .containsExactly("run-job.images", "run-job.reports");
        assertThatThrownBy(() -> QueueTopics.topicsToEnsure(List.of("Images")))
                .hasMessage("jobweaver.worker.queues: 'Images' is not a queue's name, [a-z0-9][a-z0-9-]{0,62}");
    }
}
