package dev.jobweaver.scheduler.job.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.JobStateMachine;
import dev.jobweaver.scheduler.job.store.JobInserts.NewJob;
import dev.jobweaver.scheduler.job.store.JobInserts.Stored;
import dev.jobweaver.scheduler.testing.TestDb;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Storing new jobs: straight to RUNNING when a slot is free and nobody waits, PENDING otherwise. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobInsertsTest {

    /**
     * Longer than a test run: the rows dispatched here stay RUNNING, and a shorter lease would expire during a later
     * test class, whose lease sweep would count them.
     */
    private static final long LEASE_MILLIS = 3_661_500;

    @Inject
    JobInserts inserts;

    @Inject
    JobReads reads;

    @Inject
    Pool pool;

    @Inject
    Dispatcher dispatcher;

    private TestDb db;

    @BeforeEach
    void noJobWaits() {
        db = new TestDb(pool, reads);
        db.dispatchAllDue(dispatcher);
    }

    @Test
    void aJobStoredRunningIsItsPendingRowDispatchedAtTheStatementsClock() {
        NewJob job = newJob();

        Stored stored = insert(List.of(job), 1, 0);

        assertThat(stored.inserted()).containsExactly(Map.entry(job.jobId(), JobStatus.RUNNING));
        Instant now = stored.now();
        JobExecution expected = JobStateMachine.dispatch(job.pendingRow(now), now, now.plusMillis(LEASE_MILLIS));
        assertThat(db.get(job.jobId())).usingRecursiveComparison().ignoringFields("instruction").isEqualTo(expected);
        assertThat(expected.attempt()).isEqualTo(1);
        assertThat(expected.version()).isEqualTo(1);
    }

    @Test
    void onlyTheFirstJobsOfThePollGoStraightToRunningUpToTheCap() {
        List<NewJob> jobs = IntStream.range(0, 3).mapToObj(i -> newJob()).toList();

        Stored stored = insert(jobs, 2, 0);

        assertThat(jobs).extracting(j -> stored.inserted().get(j.jobId()))
                .containsExactly(JobStatus.RUNNING, JobStatus.RUNNING, JobStatus.PENDING);
        JobExecution waiting = db.get(jobs.getLast().jobId());
        assertThat(waiting.attempt()).isZero();
        assertThat(waiting.version()).isZero();
        assertThat(waiting.leaseUntil()).isNull();
        assertThat(waiting.dispatchedAt()).isNull();
        assertThat(waiting.nextRunAt()).isEqualTo(stored.now());
        db.dispatchAllDue(dispatcher);
    }

    @Test
    void noJobIsStoredRunningAtTheInFlightLimit() {
        insert(List.of(newJob()), 1, 0); // at least this one is RUNNING
        NewJob job = newJob();

        Stored stored = insert(List.of(job), 1, 1);

        assertThat(stored.inserted()).containsExactly(Map.entry(job.jobId(), JobStatus.PENDING));
        db.dispatchAllDue(dispatcher);
    }

    @Test
    void noJobIsStoredRunningWhileADueJobWaitsForItsSlot() {
        UUID waiting = db.pending(TestJobs.LOG_INSTRUCTION, 0, -1);
        NewJob job = newJob();

        Stored stored = insert(List.of(job), 1, 0);

        assertThat(stored.inserted()).containsExactly(Map.entry(job.jobId(), JobStatus.PENDING));
        // The dispatcher takes them in the order they became due.
        db.dispatchAllDue(dispatcher);
        assertThat(db.get(waiting).dispatchedAt()).isBeforeOrEqualTo(db.get(job.jobId()).dispatchedAt());
    }

    @Test
    void withNoDispatchAllowedEveryJobIsStoredPendingAndAJobAlreadyThereIsLeftAsItIs() {
        NewJob known = newJob();
        insert(List.of(known), 1, 0);
        NewJob fresh = newJob();

        Stored stored = insert(List.of(known, fresh), 0, 0);

        assertThat(stored.inserted()).containsExactly(Map.entry(fresh.jobId(), JobStatus.PENDING));
        assertThat(db.get(known.jobId()).status()).isEqualTo(JobStatus.RUNNING);
        db.dispatchAllDue(dispatcher);
    }

    private Stored insert(List<NewJob> jobs, int dispatchAtMost, int maxInFlight) {
        return pool.withTransaction(tx -> inserts.insertIfAbsent(tx, jobs, dispatchAtMost, maxInFlight))
                .await().atMost(Duration.ofSeconds(30));
    }

    private static NewJob newJob() {
        UUID jobId = UUID.randomUUID();
        return new NewJob(jobId, "SIMULATION", TestJobs.traceId(jobId), null, TestJobs.LOG_INSTRUCTION, 2,
                Instant.now().minusMillis(40).truncatedTo(ChronoUnit.MICROS), LEASE_MILLIS);
    }
}
