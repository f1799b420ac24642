package dev.jobweaver.scheduler.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import dev.jobweaver.scheduler.job.Outcome;
import dev.jobweaver.scheduler.job.store.JobInserts.NewJob;
import dev.jobweaver.scheduler.job.store.JobInserts.Stored;
import dev.jobweaver.scheduler.outcome.OutcomeService.Applied;
import dev.jobweaver.scheduler.outcome.OutcomeService.Received;
import dev.jobweaver.scheduler.outcome.OutcomeService.Result;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestDb;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An outcome for a job the scheduler cannot see yet: ingestion dispatched it and has not committed, since the worker
 * was faster than the commit.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class OutcomeServiceUnseenJobTest extends KafkaAndDbTest {

    @Inject
    OutcomeService outcomes;

    @Inject
    Dispatcher dispatcher;

    @Test
    void anOutcomeThatOvertakesTheCommitOfItsJobWaitsForTheCommitInsteadOfBeingIgnored() throws Exception {
        db.dispatchAllDue(dispatcher);
        UUID jobId = UUID.randomUUID();
        NewJob job = new NewJob(jobId, "SIMULATION", TestJobs.traceId(jobId), null, TestJobs.LOG_INSTRUCTION, 0,
                Instant.now().truncatedTo(ChronoUnit.MICROS), 60_000);
        SqlConnection connection = pool.getConnection().await().atMost(TIMEOUT);
        try {
            // Ingestion's transaction, stopped between its publish and its commit.
            Transaction ingestion = connection.begin().await().atMost(TIMEOUT);
            Stored stored = inserts.insertIfAbsent(connection, List.of(job), 1, 0).await().atMost(TIMEOUT);
            assertThat(stored.inserted()).containsExactly(Map.entry(jobId, JobStatus.RUNNING));

            CompletableFuture<List<Applied>> applying = outcomes.applyAll(List.of(new Received(
                    Outcome.of(TestJobs.completed(jobId, 1)), Topics.JOB_COMPLETED, null)))
                    .subscribeAsCompletionStage();
            db.awaitBlockedBehind(TestDb.backend(connection));
            assertThat(applying).as("the outcome waits for the transaction that stores its job").isNotDone();

            ingestion.commit().await().atMost(TIMEOUT);
            List<Applied> applied = applying.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);

            assertThat(applied).extracting(Applied::result).containsExactly(Result.APPLIED);
            assertThat(db.get(jobId).status()).isEqualTo(JobStatus.COMPLETED);
        } finally {
            connection.close().await().atMost(TIMEOUT);
        }
    }
}
