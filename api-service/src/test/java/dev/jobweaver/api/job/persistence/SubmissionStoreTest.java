package dev.jobweaver.api.job.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.local.testing.LocalStackResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The group statements of the submission path on the real database: jobs and outbox rows stored together, the outbox
 * cleared for acknowledged jobs, and the compensation rule (REJECTED only when the outbox row was still there and the
 * scheduler never reported the job, waiting for a sweeper that holds the row).
 */
@QuarkusTest
@QuarkusTestResource(value = LocalStackResource.class,
        initArgs = @ResourceArg(name = LocalStackResource.DATABASE, value = "jobweaver_api"))
class SubmissionStoreTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    SubmissionStore store;

    private static SubmissionStore.NewJob newJob() {
        return new SubmissionStore.NewJob(UUID.randomUUID(), "SIMULATION",
                "{\"steps\":[{\"action\":\"LOG\",\"message\":\"x\"}]}", "0af7651916cd43dd8448eb211c80319c", 2,
                Instant.now().truncatedTo(ChronoUnit.MICROS), UUID.randomUUID(),
                "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
    }

    private static String status(UUID jobId) throws Exception {
        try (Connection db = Database.connect();
             PreparedStatement query = db.prepareStatement("SELECT status FROM jobs WHERE id = ?")) {
            query.setObject(1, jobId);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static boolean outboxHas(UUID jobId) throws Exception {
        try (Connection db = Database.connect();
             PreparedStatement query = db.prepareStatement("SELECT 1 FROM job_outbox WHERE job_id = ?")) {
            query.setObject(1, jobId);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static void execute(String sql, UUID jobId) throws Exception {
        try (Connection db = Database.connect(); PreparedStatement statement = db.prepareStatement(sql)) {
            statement.setObject(1, jobId);
            statement.executeUpdate();
        }
    }

    @Test
    void aGroupIsStoredWithItsOutboxRowsAndClearedOnceAcknowledged() throws Exception {
        SubmissionStore.NewJob first = newJob();
        SubmissionStore.NewJob second = newJob();

        store.insert(List.of(first, second)).await().atMost(WAIT);

        try (Connection db = Database.connect();
             PreparedStatement query = db.prepareStatement("SELECT j.status, j.instruction->'steps'->0->>'message',"
                     + " j.max_retries, j.created_at, o.event_id, o.traceparent FROM jobs j JOIN job_outbox o"
                     + " ON o.job_id = j.id WHERE j.id = ?")) {
            query.setObject(1, first.id());
            try (ResultSet rs = query.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("PENDING");
                assertThat(rs.getString(2)).isEqualTo("x");
                assertThat(rs.getInt(3)).isEqualTo(2);
                assertThat(rs.getTimestamp(4).toInstant()).isEqualTo(first.createdAt());
                assertThat(rs.getObject(5)).isEqualTo(first.eventId());
                assertThat(rs.getString(6)).isEqualTo(first.traceparent());
            }
        }
        assertThat(outboxHas(second.id())).isTrue();

        int removed = store.removeOutbox(List.of(first.id(), second.id())).await().atMost(WAIT);

        assertThat(removed).isEqualTo(2);
        assertThat(outboxHas(first.id())).isFalse();
        assertThat(status(second.id())).isEqualTo("PENDING");
    }

    @Test
    void compensationRejectsOnlyJobsStillInTheOutboxAndNeverReported() throws Exception {
        SubmissionStore.NewJob unsent = newJob();
        SubmissionStore.NewJob sweptMeanwhile = newJob();
        SubmissionStore.NewJob reported = newJob();
        store.insert(List.of(unsent, sweptMeanwhile, reported)).await().atMost(WAIT);
        execute("DELETE FROM job_outbox WHERE job_id = ?", sweptMeanwhile.id());
        execute("UPDATE jobs SET status = 'RUNNING', status_version = 2 WHERE id = ?", reported.id());

        Set<UUID> rejected = store.reject(List.of(
                new SubmissionStore.Rejection(unsent.id(), "Kafka down"),
                new SubmissionStore.Rejection(sweptMeanwhile.id(), "Kafka down"),
                new SubmissionStore.Rejection(reported.id(), "Kafka down")), Instant.now()).await().atMost(WAIT);

        assertThat(rejected).containsExactly(unsent.id());
        assertThat(status(unsent.id())).isEqualTo("REJECTED");
        assertThat(status(sweptMeanwhile.id())).isEqualTo("PENDING");
        assertThat(status(reported.id())).isEqualTo("RUNNING");
        assertThat(outboxHas(unsent.id())).isFalse();
        assertThat(outboxHas(reported.id())).isFalse();
    }

    @Test
    void compensationWaitsForASweeperHoldingTheRowAndSeesThatItPublished() throws Exception {
        SubmissionStore.NewJob job = newJob();
        store.insert(List.of(job)).await().atMost(WAIT);

        CompletableFuture<Set<UUID>> rejected;
        try (Connection sweeper = Database.connect()) {
            sweeper.setAutoCommit(false);
            try (PreparedStatement claim = sweeper.prepareStatement(
                    "SELECT job_id FROM job_outbox WHERE job_id = ? FOR UPDATE SKIP LOCKED")) {
                claim.setObject(1, job.id());
                try (ResultSet rs = claim.executeQuery()) {
                    assertThat(rs.next()).as("the sweeper claimed the row").isTrue();
                }
            }
            rejected = store.reject(List.of(new SubmissionStore.Rejection(job.id(), "Kafka down")), Instant.now())
                    .subscribeAsCompletionStage();
            Thread.sleep(500);
            assertThat(rejected).as("the compensation waits for the sweeper's transaction").isNotDone();
            // the sweeper's publish succeeded: it deletes the row and commits
            try (PreparedStatement delete = sweeper.prepareStatement("DELETE FROM job_outbox WHERE job_id = ?")) {
                delete.setObject(1, job.id());
                delete.executeUpdate();
            }
            sweeper.commit();
        }

        assertThat(rejected.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEmpty();
        assertThat(status(job.id())).isEqualTo("PENDING");
    }
}
