package dev.jobweaver.worker.execution.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.store.AttemptCleanup;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The age cleanup of {@code execution_attempts}: finished attempts started longer ago than the retention (30 days) go,
 * younger ones and runs still {@code RUNNING} stay.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class AttemptCleanupTest {

    @Inject AttemptCleanup cleanup;
    @Inject Pool pool;

    @Test
    void onlyFinishedAttemptsOlderThanTheRetentionGo() {
        Instant now = Instant.now();
        UUID oldSuccess = attempt(now.minus(Duration.ofDays(31)), "SUCCESS");
        UUID oldFailure = attempt(now.minus(Duration.ofDays(40)), "FAILURE");
        UUID recent = attempt(now.minus(Duration.ofDays(29)), "SUCCESS");
        UUID oldRunning = attempt(now.minus(Duration.ofDays(40)), "RUNNING");

        int deleted = cleanup.deleteExpired(now).await().atMost(Duration.ofSeconds(30));

        assertThat(deleted).isGreaterThanOrEqualTo(2);
        assertThat(existing(oldSuccess, oldFailure, recent, oldRunning)).containsExactlyInAnyOrder(recent, oldRunning);
    }

    private UUID attempt(Instant startedAt, String outcome) {
        UUID eventId = UUID.randomUUID();
        OffsetDateTime started = startedAt.atOffset(ZoneOffset.UTC);
        pool.preparedQuery("INSERT INTO execution_attempts (event_id, job_id, attempt, trace_id, started_at,"
                        + " finished_at, outcome, worker_id) VALUES ($1, $2, 1, 'x', $3, $4, $5, 'w')")
                .execute(Tuple.of(eventId, UUID.randomUUID(), started,
                        "RUNNING".equals(outcome) ? null : started.plusSeconds(1), outcome))
                .await().atMost(Duration.ofSeconds(10));
        return eventId;
    }

    private List<UUID> existing(UUID... eventIds) {
        List<UUID> found = new ArrayList<>();
        for (UUID id : eventIds) {
            if (pool.preparedQuery("SELECT 1 FROM execution_attempts WHERE event_id = $1").execute(Tuple.of(id))
                    .await().atMost(Duration.ofSeconds(10)).size() > 0) {
                found.add(id);
            }
        }
        return found;
    }
}
