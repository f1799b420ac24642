package dev.jobweaver.scheduler.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.scheduler.job.persistence.JobExecutionRepository;
import jakarta.inject.Inject;
import java.io.IOException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the integration tests share: a producer, a recorder of the scheduler's output topics, the database.
 * Subclasses carry {@code @QuarkusTest} and the {@code LocalStackResource} of deploy/local.
 */
public abstract class KafkaAndDbTest {

    @Inject
    protected ObjectMapper mapper;

    @Inject
    protected JobExecutionRepository repository;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    protected String bootstrapServers;

    protected TestProducer producer;
    protected TopicRecorder recorder;
    protected TestDb db;

    @BeforeEach
    void startClients() {
        producer = new TestProducer(bootstrapServers, mapper);
        recorder = TopicRecorder.start(bootstrapServers, Topics.RUN_JOB, Topics.JOB_STATUS, Topics.JOB_DEAD_LETTER);
        db = new TestDb(repository);
    }

    @AfterEach
    void stopClients() throws InterruptedException {
        producer.close();
        recorder.close();
    }

    /** The JSON value of {@code record} as {@code type}. */
    protected <T> T value(ConsumerRecord<String, byte[]> record, Class<T> type) {
        try {
            return mapper.readValue(record.value(), type);
        } catch (IOException e) {
            throw new AssertionError("unreadable record on " + record.topic(), e);
        }
    }
}
