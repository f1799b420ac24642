package dev.jobweaver.api.job.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The relay's retry claims its rows as a sweep does: it publishes only the rows still there and not held by a sweep,
 * deletes the acknowledged ones in its claim and leaves the refused ones for the next try; the delete of acknowledged
 * rows removes those rows, not their jobs. The rows are recent and of
 * no named instance, so no sweep of the running service takes them meanwhile.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class OutboxStoreTest {

    @Inject
    OutboxStore store;

    @Test
    void retryPublishesOnlyRowsStillThereAndNotHeldByASweep() throws Exception {
        UUID free = UUID.randomUUID();
        UUID held = UUID.randomUUID();
        UUID gone = UUID.randomUUID();
        for (UUID jobId : List.of(free, held, gone)) {
            OutboxRows.insert(jobId, UUID.randomUUID(), Instant.now());
        }
        try (Connection sweep = Database.connect()) {
            // a sweep published gone's event and deleted its row; another holds held's row while Kafka answers
            try (PreparedStatement delete = sweep.prepareStatement("DELETE FROM job_outbox WHERE job_id = ?")) {
                delete.setObject(1, gone);
                delete.executeUpdate();
            }
            sweep.setAutoCommit(false);
            try (PreparedStatement claim = sweep.prepareStatement(
                    "SELECT job_id FROM job_outbox WHERE job_id = ? FOR UPDATE")) {
                claim.setObject(1, held);
                claim.executeQuery().close();
            }
            List<Set<UUID>> sent = new CopyOnWriteArrayList<>();

            OutboxStore.Retried retried = store.retry(List.of(free, held, gone), claimed -> {
                sent.add(Set.copyOf(claimed));
                return Uni.createFrom().item(List.copyOf(claimed));
            }).await().atMost(Duration.ofSeconds(10));

            assertThat(sent).containsExactly(Set.of(free));
            assertThat(retried.claimed()).containsExactly(free);
            assertThat(retried.acknowledged()).containsExactly(free);
            assertThat(OutboxRows.has(free)).as("acknowledged row deleted in the claim").isFalse();
            sweep.rollback();
            assertThat(OutboxRows.has(held)).as("the sweep's row, untouched").isTrue();
        } finally {
            OutboxRows.deleteJobs(free, held, gone);
        }
    }

    @Test
    void retryKeepsTheRowsKafkaRefused() throws Exception {
        UUID taken = UUID.randomUUID();
        UUID refused = UUID.randomUUID();
        OutboxRows.insert(taken, UUID.randomUUID(), Instant.now());
        OutboxRows.insert(refused, UUID.randomUUID(), Instant.now());
        try {
            OutboxStore.Retried retried = store.retry(List.of(taken, refused),
                    claimed -> Uni.createFrom().item(List.of(taken))).await().atMost(Duration.ofSeconds(10));

            assertThat(retried.claimed()).containsExactlyInAnyOrder(taken, refused);
            assertThat(retried.acknowledged()).containsExactly(taken);
            assertThat(OutboxRows.has(taken)).isFalse();
            assertThat(OutboxRows.has(refused)).as("a refused row stays for the next try").isTrue();
        } finally {
            OutboxRows.deleteJobs(taken, refused);
        }
    }

    @Test
    void retryOfRowsAllGoneSendsNothing() throws Exception {
        List<Set<UUID>> sent = new CopyOnWriteArrayList<>();

        OutboxStore.Retried retried = store.retry(List.of(UUID.randomUUID()), claimed -> {
            sent.add(claimed);
            return Uni.createFrom().item(List.copyOf(claimed));
        }).await().atMost(Duration.ofSeconds(10));

        assertThat(sent).isEmpty();
        assertThat(retried.claimed()).isEmpty();
    }

    @Test
    void deleteRemovesTheRowsOfAcknowledgedJobsAndLeavesTheJobs() throws Exception {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        // recent rows of another instance: no sweep takes them while the test runs
        OutboxRows.insert(first, UUID.randomUUID(), Instant.now());
        OutboxRows.insert(second, UUID.randomUUID(), Instant.now());
        try {
            int deleted = store.delete(List.of(first, second)).await().atMost(Duration.ofSeconds(10));

            assertThat(deleted).isEqualTo(2);
            assertThat(OutboxRows.has(first)).isFalse();
            assertThat(OutboxRows.has(second)).isFalse();
            assertThat(Database.firstString("SELECT status FROM jobs WHERE id = ?", second)).isEqualTo("PENDING");
        } finally {
            OutboxRows.deleteJobs(first, second);
        }
    }
}
