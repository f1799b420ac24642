package dev.jobweaver.scheduler.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.job.store.JobReads;
import dev.jobweaver.scheduler.testing.SmallBatchProfile;
import dev.jobweaver.scheduler.testing.TestDb;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TestProducer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import dev.jobweaver.scheduler.testing.StandardWorker;
import dev.jobweaver.scheduler.worker.WorkerPool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Under a flood of HIGH jobs, NORMAL and LOW jobs are still dispatched at about their share of the rounds: they do
 * not wait for the HIGH backlog to drain, although every HIGH job of it became due before them and more keep coming.
 * Rounds of ten (SmallBatchProfile) make the backlog hundreds of rounds long.
 */
@QuarkusTest
@TestProfile(SmallBatchProfile.class)
@JobWeaverTest(database = "jobweaver_scheduler")
class PriorityDispatchTest {

    private static final Logger LOG = Logger.getLogger(PriorityDispatchTest.class);
    private static final String TENANT = "priority-flood";
    private static final int HIGH_BACKLOG = 3_000;
    private static final int NORMAL = 100;
    private static final int LOW = 50;

    @Inject
    Dispatcher dispatcher;

    @Inject
    JobReads reads;

    @Inject
    Pool pool;

    @Inject
    ObjectMapper mapper;

    @Inject
    WorkerPool workers;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private TestDb db;

    @AfterEach
    void deleteTheFlood() {
        db.deleteTenant(TENANT);
    }

    @Test
    void lowAndNormalJobsProgressWhileHighJobsFloodIn() throws Exception {
        db = new TestDb(pool, reads);
        StandardWorker.lives(pool, workers);
        db.dispatchAllDue(dispatcher);
        // The HIGH backlog became due a day ago, the others an hour ago: oldest-first alone would run every HIGH job
        // first, and so would strict priorities. max_retries marks the backlog (3) apart from the arrivals (1).
        insert(Priority.HIGH, HIGH_BACKLOG, 86_400, 3);
        insert(Priority.NORMAL, NORMAL, 3_600, 0);
        insert(Priority.LOW, LOW, 3_600, 0);

        AtomicBoolean flooding = new AtomicBoolean(true);
        AtomicInteger arrived = new AtomicInteger();
        Thread flood = Thread.ofVirtual().start(() -> {
            try (TestProducer producer = new TestProducer(bootstrapServers, mapper)) {
                JobControl high = new JobControl(Priority.HIGH, null, null, null, TENANT, null);
                while (flooding.get() && arrived.get() < 2_000) {
                    UUID jobId = UUID.randomUUID();
                    producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, 1, high));
                    arrived.incrementAndGet();
                }
            }
        });
        try {
            dispatcher.wake();
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
                    .until(() -> pending(Priority.LOW) == 0 && pending(Priority.NORMAL) == 0);
        } finally {
            flooding.set(false);
            flood.join();
        }

        long highAfterLow = backlogDispatchedAfterLast(Priority.LOW);
        long highAfterNormal = backlogDispatchedAfterLast(Priority.NORMAL);
        LOG.infof("HIGH jobs that arrived meanwhile: %d; of the %d HIGH jobs due before them, %d were still waiting when"
                + " the last LOW job was dispatched and %d when the last NORMAL one was", arrived.get(), HIGH_BACKLOG,
                highAfterLow, highAfterNormal);
        // LOW comes first in a tenth of the rounds and needs five of them (ten jobs each): about fifty rounds,
        // against the three hundred of the backlog. Failing this takes fewer than five LOW-first rounds in two hundred.
        assertThat(highAfterLow).as("HIGH backlog left when LOW was done").isGreaterThan(1_000);
        assertThat(highAfterNormal).as("HIGH backlog left when NORMAL was done").isGreaterThan(1_000);
        assertThat(arrived.get()).as("HIGH jobs kept arriving").isPositive();
    }

    private void insert(Priority level, int count, int dueSecondsAgo, int maxRetries) {
        db.update("INSERT INTO job_executions (job_id, job_type, trace_id, instruction, job_status, max_retries,"
                + " next_run_at, created_at, updated_at, priority, tenant)"
                + " SELECT gen_random_uuid(), 'SIMULATION', NULL, $1::text::jsonb, 'PENDING', $2,"
                + " now() - make_interval(secs => $3) + i * interval '1 millisecond', now(), now(), $4, $5"
                + " FROM generate_series(1, $6) i",
                TestJobs.LOG_INSTRUCTION, maxRetries, (double) dueSecondsAgo, level.name(), TENANT, count);
    }

    private long pending(Priority level) {
        return count("SELECT count(*) AS n FROM job_executions WHERE tenant = $1 AND priority = $2"
                + " AND job_status = 'PENDING'", TENANT, level.name());
    }

    /** Jobs of the HIGH backlog still PENDING, or dispatched later, when the last job of {@code level} went. */
    private long backlogDispatchedAfterLast(Priority level) {
        return count("SELECT count(*) AS n FROM job_executions WHERE tenant = $1 AND priority = 'HIGH'"
                + " AND max_retries = 3 AND (dispatched_at IS NULL OR dispatched_at > (SELECT max(dispatched_at)"
                + " FROM job_executions WHERE tenant = $1 AND priority = $2))", TENANT, level.name());
    }

    private long count(String sql, Object... args) {
        Row row = pool.preparedQuery(sql).execute(Tuple.from(args)).await().atMost(Duration.ofSeconds(30))
                .iterator().next();
        return row.getLong("n");
    }
}
