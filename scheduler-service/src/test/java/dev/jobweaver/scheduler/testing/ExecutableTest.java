package dev.jobweaver.scheduler.testing;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.messaging.Topics;
import java.util.UUID;

/**
 * Base of the {@code @QuarkusIntegrationTest} classes ({@code *IT}, run by failsafe under {@code -Pnative}): the
 * scheduler runs as its native executable, a process of its own, so a test reaches it only through Kafka and HTTP,
 * never through its beans.
 *
 * <p>The broker's address comes from the test resource ({@code @JobWeaverTest}): Quarkus passes what the resource
 * returns to the executable as system properties and sets the same properties in the test's JVM. The test's mapper
 * writes and reads the events as the services' mapper does: ISO-8601 instants, unknown fields ignored.
 */
public abstract class ExecutableTest extends KafkaClientsTest {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    /** Whether a run was seen dispatched to the standard worker since this JVM started. */
    private static volatile boolean standardWorkerSeen;

    /**
     * The worker the executable dispatches to: announced before each test, as a worker announces itself. The first
     * test waits until a probe job runs: until then the executable may not have read the heartbeat yet and would park
     * the test's jobs, which would then reach their first run a version or two later than a test expects.
     */
    @org.junit.jupiter.api.BeforeEach
    void standardWorkerLives() {
        producer.sendJson(Topics.WORKER_HEARTBEATS, StandardWorker.ID, StandardWorker.heartbeat());
        if (!standardWorkerSeen) {
            UUID probe = UUID.randomUUID();
            producer.sendJson(Topics.JOB_CREATED, probe, TestJobs.created(probe, 0));
            awaitRun(probe, 1);
            standardWorkerSeen = true;
        }
    }

    @Override
    protected String bootstrapServers() {
        String servers = System.getProperty("kafka.bootstrap.servers");
        if (servers == null) {
            throw new IllegalStateException("kafka.bootstrap.servers is not set: the class needs @JobWeaverTest");
        }
        return servers;
    }

    @Override
    protected ObjectMapper mapper() {
        return MAPPER;
    }

    /** A job of one LOG step submitted on job-created and dispatched: its first attempt is on run-job. */
    protected UUID dispatchedJob(int maxRetries) {
        return submitAndAwaitRun(TestJobs.created(UUID.randomUUID(), maxRetries)).jobId();
    }

    /** Publishes {@code event} on job-created, keyed by its jobId, as the API does; returns the run dispatched. */
    protected RunJobEvent submitAndAwaitRun(JobCreatedEvent event) {
        producer.sendJson(Topics.JOB_CREATED, event.jobId(), event);
        return awaitRun(event.jobId(), 1);
    }

    /** Waits until attempt {@code attempt} of the job is on run-job; returns it. */
    protected RunJobEvent awaitRun(UUID jobId, int attempt) {
        return recorder.await(Topics.RUN_JOB, jobId, attempt).stream().map(r -> value(r, RunJobEvent.class))
                .filter(run -> run.attempt() == attempt).findFirst()
                .orElseThrow(() -> new AssertionError("no run of attempt " + attempt + " of " + jobId));
    }
}
