package dev.jobweaver.scheduler.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.testing.ConfiguredLimitsProfile;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Limits set by configuration ({@link ConfiguredLimitsProfile}): rounds racing on separate connections never start
 * more jobs than the global limit, nor more jobs of a type than its limit. No worker runs: a dispatched job stays
 * RUNNING, so the count after the rounds is the most that ever ran.
 */
@QuarkusTest
@TestProfile(ConfiguredLimitsProfile.class)
@JobWeaverTest(database = "jobweaver_scheduler")
class ConfiguredLimitsTest extends KafkaAndDbTest {

    private static final String HTTP_INSTRUCTION = "{\"method\":\"GET\",\"url\":\"http://example.test/\"}";

    @Inject
    Dispatcher dispatcher;

    private final String tenant = "cfg-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void noJobRuns() {
        // The global limit counts every running job: those other test classes left RUNNING (no worker ends them)
        // would take its room.
        db.update("UPDATE job_executions SET job_status = 'FAILED', finished_at = now() WHERE job_status = 'RUNNING'");
    }

    @AfterEach
    void deleteTheRows() {
        db.deleteTenant(tenant);
    }

    @Test
    void racingRoundsNeverStartMoreJobsThanTheGlobalLimit() {
        dueJobs("SIMULATION", TestJobs.LOG_INSTRUCTION, 100);

        ClaimRace.race(dispatcher, 2, 10);

        assertThat(countAllRunning()).isEqualTo(ConfiguredLimitsProfile.GLOBAL);
        assertThat(count("SIMULATION", JobStatus.PENDING)).isEqualTo(100 - ConfiguredLimitsProfile.GLOBAL);
    }

    @Test
    void racingRoundsNeverStartMoreJobsOfATypeThanItsLimit() {
        dueJobs("HTTP", HTTP_INSTRUCTION, 40);
        dueJobs("SIMULATION", TestJobs.LOG_INSTRUCTION, 5);

        ClaimRace.race(dispatcher, 2, 10);

        assertThat(count("HTTP", JobStatus.RUNNING)).isEqualTo(ConfiguredLimitsProfile.HTTP);
        assertThat(count("SIMULATION", JobStatus.RUNNING)).as("other types are not held back").isEqualTo(5);
    }

    @Test
    void racingRoundsNeverStartMoreJobsOfAQueueThanItsLimit() throws Exception {
        // a live worker of the queue, or its jobs would wait for one instead; it made its queue's topic first
        createTopic(Topics.runJob(ConfiguredLimitsProfile.QUEUE), 1);
        db.update("INSERT INTO workers (worker_id, queues, types, capacity, started_at, sent_at, live_until)"
                + " VALUES ('reporter', '{" + ConfiguredLimitsProfile.QUEUE + "}', '{SIMULATION}', 100, now(), now(),"
                + " now() + interval '1 day') ON CONFLICT (worker_id) DO UPDATE SET live_until = excluded.live_until");
        workers.refresh().await().atMost(TIMEOUT);
        dueJobs("SIMULATION", TestJobs.LOG_INSTRUCTION, 30, ConfiguredLimitsProfile.QUEUE);
        dueJobs("SIMULATION", TestJobs.LOG_INSTRUCTION, 5);

        ClaimRace.race(dispatcher, 2, 10);

        assertThat(countInQueue(ConfiguredLimitsProfile.QUEUE, JobStatus.RUNNING))
                .isEqualTo(ConfiguredLimitsProfile.REPORTS);
        assertThat(countInQueue("default", JobStatus.RUNNING)).as("the default queue is not held back").isEqualTo(5);
        assertThat(dispatcher.limitsQueue(ConfiguredLimitsProfile.QUEUE)).isTrue();
        assertThat(dispatcher.limitsQueue(null)).isFalse();
    }

    @Test
    void aLimitOfAMalformedQueueOrBelowOneStopsTheStart() {
        assertThat(Dispatcher.queueLimits(Map.of("reports", 2))).containsEntry("reports", 2);
        assertThatThrownBy(() -> Dispatcher.queueLimits(Map.of("Reports", 2)))
                .hasMessageStartingWith("jobweaver.scheduler.limits.queues: Reports is not a queue's name");
        assertThatThrownBy(() -> Dispatcher.queueLimits(Map.of("reports", 0)))
                .hasMessage("jobweaver.scheduler.limits.queues.reports must be at least 1, got 0");
    }

    private long countInQueue(String queue, JobStatus status) {
        return pool.preparedQuery("SELECT count(*) AS n FROM job_executions WHERE tenant = $1"
                        + " AND queue = $2 AND job_status = $3")
                .execute(Tuple.of(tenant, queue, status.name())).await().atMost(TIMEOUT).iterator().next().getLong("n");
    }

    /** {@code count} PENDING rows of this test's tenant due a year ago, a millisecond apart, oldest first, spread over the three levels. */
    private void dueJobs(String type, String instruction, int count) {
        dueJobs(type, instruction, count, null);
    }

    /** As above, on {@code queue} (null: the default queue). */
    private void dueJobs(String type, String instruction, int count, String queue) {
        pool.preparedQuery("INSERT INTO job_executions (job_id, job_type, trace_id, instruction,"
                        + " job_status, max_retries, next_run_at, created_at, updated_at, version, tenant, priority,"
                        + " queue)"
                        + " SELECT gen_random_uuid(), $2, 't', $3::text::jsonb, 'PENDING', 0,"
                        + " now() - interval '365 days' + i * interval '1 millisecond', now(), now(), 0, $1,"
                        + " (ARRAY['HIGH', 'NORMAL', 'LOW'])[1 + i % 3], coalesce($5, 'default')"
                        + " FROM generate_series(1, $4) AS i")
                .execute(Tuple.of(tenant, type, instruction, count, queue)).await().atMost(TIMEOUT);
    }

    private long count(String type, JobStatus status) {
        return pool.preparedQuery("SELECT count(*) AS n FROM job_executions WHERE tenant = $1"
                        + " AND job_type = $2 AND job_status = $3").execute(Tuple.of(tenant, type, status.name()))
                .await().atMost(TIMEOUT).iterator().next().getLong("n");
    }

    private long countAllRunning() {
        return pool.query("SELECT count(*) AS n FROM job_executions WHERE job_status = 'RUNNING'")
                .execute().await().atMost(TIMEOUT).iterator().next().getLong("n");
    }
}
