package dev.jobweaver.scheduler.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.job.store.JobInserts.NewJob;
import dev.jobweaver.scheduler.job.store.JobInserts.Stored;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Limits kept in the database, a tenant's and a workflow's: rounds racing on separate connections never start more
 * jobs of a key than its limit, a saturated tenant holds back no other tenant, a job's end makes room for the next,
 * and ingestion stores a limited job PENDING instead of dispatching it. No worker runs here: a dispatched job stays
 * RUNNING, so the count after the rounds is the most that ever ran.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class LimitedDispatchTest extends KafkaAndDbTest {

    @Inject
    Dispatcher dispatcher;

    private final List<String> tenants = new ArrayList<>();

    @AfterEach
    void deleteTheRowsAndLimits() {
        for (String tenant : tenants) {
            db.deleteTenant(tenant);
            db.update("DELETE FROM tenant_limits WHERE tenant = $1", tenant);
        }
    }

    @Test
    void racingRoundsNeverStartMoreJobsOfATenantThanItsLimit() {
        String tenant = tenant();
        limit(tenant, 5);
        dueJobs(tenant, 200, null, null);

        ClaimRace.race(dispatcher, 2, 10);

        assertThat(count(tenant, JobStatus.RUNNING)).isEqualTo(5);
        assertThat(count(tenant, JobStatus.PENDING)).isEqualTo(195);
    }

    @Test
    void aJobsEndMakesRoomForOneMore() {
        String tenant = tenant();
        limit(tenant, 5);
        dueJobs(tenant, 20, null, null);
        ClaimRace.race(dispatcher, 2, 3);
        assertThat(count(tenant, JobStatus.RUNNING)).isEqualTo(5);

        db.update("UPDATE job_executions SET job_status = 'COMPLETED', finished_at = now() WHERE job_id IN"
                + " (SELECT job_id FROM job_executions WHERE tenant = $1 AND job_status = 'RUNNING' LIMIT 2)", tenant);
        ClaimRace.race(dispatcher, 2, 3);

        assertThat(count(tenant, JobStatus.RUNNING)).isEqualTo(5);
        assertThat(count(tenant, JobStatus.COMPLETED)).isEqualTo(2);
        assertThat(count(tenant, JobStatus.PENDING)).isEqualTo(13);
    }

    @Test
    void aTenantAtItsLimitDoesNotHoldBackAnother() {
        String limited = tenant();
        String other = tenant();
        limit(limited, 5);
        // The limited tenant's backlog is older, so it comes first in every level's order.
        dueJobs(limited, 200, null, null);
        dueJobs(other, 30, null, null);

        ClaimRace.race(dispatcher, 2, 5);

        assertThat(count(limited, JobStatus.RUNNING)).isEqualTo(5);
        assertThat(count(other, JobStatus.RUNNING)).isEqualTo(30);
    }

    @Test
    void racingRoundsNeverStartMoreJobsOfAWorkflowThanItsMaxConcurrency() {
        String tenant = tenant();
        UUID workflow = UUID.randomUUID();
        UUID unlimitedWorkflow = UUID.randomUUID();
        dueJobs(tenant, 60, workflow, 3);
        dueJobs(tenant, 10, unlimitedWorkflow, null);

        ClaimRace.race(dispatcher, 2, 10);

        assertThat(countWorkflow(workflow, JobStatus.RUNNING)).isEqualTo(3);
        assertThat(countWorkflow(unlimitedWorkflow, JobStatus.RUNNING)).isEqualTo(10);
    }

    @Test
    void ingestionStoresALimitedTenantsJobsPendingAndTheDispatcherStartsOnlyItsLimit() {
        String tenant = tenant();
        limit(tenant, 2);
        List<UUID> ids = IntStream.range(0, 10).mapToObj(i -> UUID.randomUUID()).toList();
        for (UUID id : ids) {
            producer.sendJson(Topics.JOB_CREATED, id.toString(), TestJobs.created(id, 0, control(tenant)));
        }

        await().atMost(TIMEOUT).until(() -> count(tenant, JobStatus.RUNNING) + count(tenant, JobStatus.PENDING) == 10);
        // The dispatcher, woken by the ingestion, starts the limit's worth; more rounds start nothing more.
        await().atMost(TIMEOUT).until(() -> count(tenant, JobStatus.RUNNING) == 2);
        ClaimRace.race(dispatcher, 2, 3);
        assertThat(count(tenant, JobStatus.RUNNING)).isEqualTo(2);
        assertThat(count(tenant, JobStatus.PENDING)).isEqualTo(8);
    }

    @Test
    void ingestionStoresAWorkflowJobWithALimitPendingAndCopiesTheLimit() {
        // Ingestion dispatches nothing while a due job waits: start from none.
        db.dispatchAllDue(dispatcher);
        String tenant = tenant();
        UUID workflow = UUID.randomUUID();
        UUID limited = UUID.randomUUID();
        UUID unlimited = UUID.randomUUID();
        List<NewJob> jobs = List.of(
                newJob(limited, tenant, JobOrigin.node(workflow, UUID.randomUUID(), "a", 4)),
                newJob(unlimited, tenant, JobOrigin.node(UUID.randomUUID(), UUID.randomUUID(), "b", null)));

        Stored stored = pool.withTransaction(tx -> inserts.insertIfAbsent(tx, jobs, 2, 0, Set.of())).await().atMost(TIMEOUT);

        assertThat(stored.inserted()).containsEntry(limited, JobStatus.PENDING)
                .containsEntry(unlimited, JobStatus.RUNNING);
        var row = pool.preparedQuery("SELECT workflow_id, workflow_max_running FROM job_executions"
                + " WHERE job_id = $1").execute(Tuple.of(limited)).await().atMost(TIMEOUT).iterator().next();
        assertThat(row.getUUID("workflow_id")).isEqualTo(workflow);
        assertThat(row.getInteger("workflow_max_running")).isEqualTo(4);
    }

    @Test
    void ingestionDispatchesNoJobOfALimitedType() {
        db.dispatchAllDue(dispatcher);
        String tenant = tenant();
        UUID limited = UUID.randomUUID();

        Stored stored = pool.withTransaction(tx -> inserts.insertIfAbsent(tx,
                List.of(newJob(limited, tenant, null)), 1, 0, Set.of("SIMULATION"))).await().atMost(TIMEOUT);

        assertThat(stored.inserted()).containsEntry(limited, JobStatus.PENDING);
    }

    private static JobControl control(String tenant) {
        return new JobControl(Priority.NORMAL, null, null, null, tenant, null);
    }

    /** A due SIMULATION job of {@code tenant}, made by {@code origin} (null for a client's submission). */
    private static NewJob newJob(UUID jobId, String tenant, JobOrigin origin) {
        return new NewJob(jobId, "SIMULATION", "t", null, TestJobs.LOG_INSTRUCTION, 0, Instant.now(), 60_000,
                control(tenant), origin);
    }

    private String tenant() {
        String tenant = "lim-" + UUID.randomUUID().toString().substring(0, 8);
        tenants.add(tenant);
        return tenant;
    }

    private void limit(String tenant, int maxRunning) {
        db.update("INSERT INTO tenant_limits (tenant, max_running, version, changed_at) VALUES ($1, $2, 1, now())",
                tenant, maxRunning);
    }

    /** {@code count} PENDING rows of {@code tenant} due a year ago, a millisecond apart, oldest first, spread over the three levels. */
    private void dueJobs(String tenant, int count, UUID workflow, Integer workflowMax) {
        pool.preparedQuery("INSERT INTO job_executions (job_id, job_type, trace_id, instruction,"
                        + " job_status, max_retries, next_run_at, created_at, updated_at, version, tenant, priority,"
                        + " workflow_id, workflow_max_running)"
                        + " SELECT gen_random_uuid(), 'SIMULATION', 't', $2::text::jsonb, 'PENDING', 0,"
                        + " now() - interval '365 days' + i * interval '1 millisecond', now(), now(), 0, $1,"
                        + " (ARRAY['HIGH', 'NORMAL', 'LOW'])[1 + i % 3], $3, $4"
                        + " FROM generate_series(1, $5) AS i")
                .execute(Tuple.from(new Object[] {tenant, TestJobs.LOG_INSTRUCTION, workflow, workflowMax, count}))
                .await().atMost(TIMEOUT);
    }

    private long count(String tenant, JobStatus status) {
        return countWhere("tenant", tenant, status);
    }

    private long countWorkflow(UUID workflow, JobStatus status) {
        return countWhere("workflow_id", workflow, status);
    }

    private long countWhere(String column, Object value, JobStatus status) {
        return pool.preparedQuery("SELECT count(*) AS n FROM job_executions WHERE " + column + " = $1"
                + " AND job_status = $2").execute(Tuple.of(value, status.name())).await().atMost(TIMEOUT)
                .iterator().next().getLong("n");
    }
}
