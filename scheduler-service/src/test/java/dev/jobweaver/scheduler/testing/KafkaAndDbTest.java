package dev.jobweaver.scheduler.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.store.JobClaims;
import dev.jobweaver.scheduler.job.store.JobInserts;
import dev.jobweaver.scheduler.job.store.JobReads;
import dev.jobweaver.scheduler.job.store.JobUpdates;
import io.vertx.mutiny.sqlclient.Pool;
import dev.jobweaver.scheduler.worker.WorkerPool;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the integration tests in the test's JVM share: {@link KafkaClientsTest}'s producer and recorder, the injected
 * mapper and broker address, and the database. Subclasses carry {@code @QuarkusTest} and {@code @JobWeaverTest}
 * (testing module).
 */
public abstract class KafkaAndDbTest extends KafkaClientsTest {

    @Inject
    protected ObjectMapper mapper;

    @Inject
    protected Pool pool;

    @Inject
    protected JobInserts inserts;

    @Inject
    protected JobClaims claims;

    @Inject
    protected JobUpdates updates;

    @Inject
    protected JobReads reads;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    protected String bootstrapServers;

    protected TestDb db;

    /** Creates {@code topic} with {@code partitions}, as a worker creates its queue's topic; one there already stays. */
    protected void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    @Override
    protected String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    protected ObjectMapper mapper() {
        return mapper;
    }

    @Inject
    protected WorkerPool workers;

    @BeforeEach
    void openDb() {
        db = new TestDb(pool, reads);
        StandardWorker.lives(pool, workers);
    }

    /** A job ingested from job-created and dispatched: RUNNING at attempt 1, with no retry left. */
    protected UUID runningJob() {
        UUID jobId = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, 0));
        db.awaitJob(jobId, JobStatus.RUNNING, 1);
        return jobId;
    }

    /** A job that ran once and completed: COMPLETED. */
    protected UUID completedJob() {
        UUID jobId = runningJob();
        producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 1));
        db.awaitJob(jobId, j -> j.status() == JobStatus.COMPLETED);
        return jobId;
    }

    /** A job for later, cancelled before it was due: CANCELLED. */
    protected UUID cancelledJob() {
        UUID jobId = delayedJob();
        command(TestJobs.cancel(jobId));
        db.awaitJob(jobId, j -> j.status() == JobStatus.CANCELLED);
        return jobId;
    }

    /** A job that ran once and failed with {@code error}, with no retry left: FAILED and dead-lettered. */
    protected UUID deadLetteredJob(String error) {
        UUID jobId = runningJob();
        producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, 1, error));
        db.awaitJob(jobId, j -> j.status() == JobStatus.FAILED);
        recorder.await(Topics.JOB_DEAD_LETTER, jobId, 1);
        return jobId;
    }

    /** A job ingested from job-created for an hour from now: PENDING, not due. */
    protected UUID delayedJob() {
        UUID jobId = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.createdForLater(jobId));
        db.awaitJob(jobId, JobStatus.PENDING, 0);
        return jobId;
    }

    /** Publishes {@code command} on job-commands, keyed by its jobId, as the API does. */
    protected void command(JobCommandEvent command) {
        producer.sendJson(Topics.JOB_COMMANDS, command.jobId(), command);
    }

    /**
     * Sends {@code values} (keyed {@code keys}) and then the sentinel's record to one partition of {@code topic} in one
     * produce request, and returns once the sentinel's job matches {@code sentinelApplied}: the records before it have
     * been consumed by then, since a partition is consumed in order. How a test waits for a record that must change
     * nothing.
     */
    protected void sendBeforeSentinel(String topic, List<UUID> keys, List<?> values, UUID sentinel, Object sentinelValue,
                                      Predicate<JobExecution> sentinelApplied) {
        List<Object> allKeys = new ArrayList<>(keys);
        allKeys.add(sentinel);
        List<Object> allValues = new ArrayList<>(values);
        allValues.add(sentinelValue);
        producer.sendTogether(topic, 0, allKeys, allValues);
        db.awaitJob(sentinel, sentinelApplied);
    }

    /** Sends {@code commands} on job-commands and returns once they have been applied (a sentinel cancel behind them). */
    protected void commandsApplied(JobCommandEvent... commands) {
        UUID sentinel = delayedJob();
        sendBeforeSentinel(Topics.JOB_COMMANDS, List.of(commands).stream().map(JobCommandEvent::jobId).toList(),
                List.of(commands), sentinel, TestJobs.cancel(sentinel), j -> j.status() == JobStatus.CANCELLED);
    }
}
