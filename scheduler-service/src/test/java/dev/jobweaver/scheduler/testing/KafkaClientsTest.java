package dev.jobweaver.scheduler.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.messaging.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every test of the running scheduler shares, in the test's JVM or against the native executable: a producer,
 * a recorder of the scheduler's output topics ({@code run-job}, {@code job-status}, {@code job-dead-letter},
 * {@code worker-commands}) opened before each test and closed after it, and readers of their JSON. A subclass says
 * where the broker is and which mapper writes and reads the events.
 */
public abstract class KafkaClientsTest {

    protected static final Duration TIMEOUT = Waits.TIMEOUT;

    protected TestProducer producer;
    protected TopicRecorder recorder;

    /** The broker the scheduler under test uses. */
    protected abstract String bootstrapServers();

    /** The mapper that writes the test's events and reads the scheduler's, as the services' own mapper does. */
    protected abstract ObjectMapper mapper();

    @BeforeEach
    void startClients() {
        producer = new TestProducer(bootstrapServers(), mapper());
        recorder = TopicRecorder.start(bootstrapServers(), Topics.RUN_JOB, Topics.JOB_STATUS, Topics.JOB_DEAD_LETTER,
                Topics.WORKER_COMMANDS);
    }

    @AfterEach
    void stopClients() throws InterruptedException {
        producer.close();
        recorder.close();
    }

    /** The JSON value of {@code record} as {@code type}. */
    protected <T> T value(ConsumerRecord<String, byte[]> record, Class<T> type) {
        try {
            return mapper().readValue(record.value(), type);
        } catch (IOException e) {
            throw new AssertionError("unreadable record on " + record.topic(), e);
        }
    }

    /** {@code value} as the JSON bytes of a record. */
    protected byte[] jsonBytes(Object value) {
        try {
            return mapper().writeValueAsBytes(value);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** {@code value} as JSON text. */
    protected String json(Object value) {
        return new String(jsonBytes(value), StandardCharsets.UTF_8);
    }

    /** Publishes {@code command} on job-commands, keyed by its jobId, as the API does. */
    protected void command(JobCommandEvent command) {
        producer.sendJson(Topics.JOB_COMMANDS, command.jobId(), command);
    }

    /**
     * The job's status events in publication order, tombstones left out, once at least {@code count} records of the job
     * are on job-status.
     */
    protected List<JobStatusChangedEvent> awaitStatuses(UUID jobId, int count) {
        recorder.await(Topics.JOB_STATUS, jobId, count);
        return statuses(jobId);
    }

    /** The status events recorded for the job so far, tombstones left out. */
    protected List<JobStatusChangedEvent> statuses(UUID jobId) {
        return recorder.records(Topics.JOB_STATUS, jobId).stream().filter(r -> r.value() != null)
                .map(r -> value(r, JobStatusChangedEvent.class)).toList();
    }

    /** The commands recorded on worker-commands for the job so far. */
    protected List<JobCommandEvent> workerCommands(UUID jobId) {
        return recorder.records(Topics.WORKER_COMMANDS, jobId).stream()
                .map(r -> value(r, JobCommandEvent.class)).filter(Objects::nonNull).toList();
    }

    /**
     * Returns once the recorder holds every record published so far: after a sentinel showed an input consumed,
     * whatever the scheduler published for it is recorded by then, whichever partition the recorder fetches last.
     */
    protected void allRecorded() {
        recorder.awaitCaughtUp();
    }

    /**
     * Waits a second: for an input with no sentinel behind it to be consumed, and for what it published to be
     * recorded. Where a sentinel shows the input consumed, {@link #allRecorded} waits for exactly that instead.
     */
    protected static void settle() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
