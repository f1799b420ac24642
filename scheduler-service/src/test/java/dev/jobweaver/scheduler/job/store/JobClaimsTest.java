package dev.jobweaver.scheduler.job.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.common.job.Priority;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.dispatch.ClaimOrder;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.store.JobClaims.Claim;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.LongUnaryOperator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code claimDue}: due PENDING rows, level after level in the claim's order and oldest first within a level, at most
 * the batch and at most the in-flight limit minus the jobs RUNNING now. Every claim here runs in a transaction that is rolled back; the rows are due a year ago, so they come
 * before any other test's rows, and are deleted after each test.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobClaimsTest extends KafkaAndDbTest {

    private static final long A_YEAR_AGO = -365L * 24 * 3600;

    private final List<UUID> created = new ArrayList<>();

    @AfterEach
    void deleteTheRows() {
        db.update("DELETE FROM job_executions WHERE job_id = ANY($1)", (Object) created.toArray(UUID[]::new));
    }

    @Test
    void aRoundClaimsTheBatchWhileTheLimitIsFar() {
        List<UUID> due = dueJobs(6);

        List<UUID> claimed = claimAndRollBack(4, 0, running -> running + 100);

        assertThat(claimed).containsExactlyElementsOf(due.subList(0, 4));
    }

    @Test
    void aRoundClaimsOnlyTheFreeSlotsNearTheLimit() {
        List<UUID> due = dueJobs(6);

        List<UUID> claimed = claimAndRollBack(5, 0, running -> running + 2);

        assertThat(claimed).containsExactlyElementsOf(due.subList(0, 2));
    }

    @Test
    void aRoundAtOrOverTheLimitClaimsNothing() {
        dueJobs(3);

        assertThat(claimAndRollBack(5, 2, running -> running)).isEmpty();
        assertThat(claimAndRollBack(5, 2, running -> running - 1)).as("replicas overshooting together").isEmpty();
    }

    @Test
    void zeroMeansNoLimit() {
        List<UUID> due = dueJobs(3);

        assertThat(claimAndRollBack(3, 0, running -> 0)).containsExactlyElementsOf(due);
    }

    @Test
    void aClaimTakesItsFirstLevelThenFallsThroughToTheOthersInOrder() {
        List<UUID> high = dueJobs(Priority.HIGH, 3, 0);
        List<UUID> normal = dueJobs(Priority.NORMAL, 3, 100);
        List<UUID> low = dueJobs(Priority.LOW, 3, 200);

        List<Priority> lowFirst = List.of(Priority.LOW, Priority.HIGH, Priority.NORMAL);
        assertThat(claimAndRollBack(5, lowFirst)).containsExactly(low.get(0), low.get(1), low.get(2), high.get(0),
                high.get(1));
        List<Priority> normalFirst = List.of(Priority.NORMAL, Priority.HIGH, Priority.LOW);
        assertThat(claimAndRollBack(8, normalFirst)).containsExactly(normal.get(0), normal.get(1), normal.get(2),
                high.get(0), high.get(1), high.get(2), low.get(0), low.get(1));
        assertThat(claimAndRollBack(2, List.of(Priority.HIGH, Priority.NORMAL, Priority.LOW)))
                .containsExactly(high.get(0), high.get(1));
    }

    @Test
    void aClaimMustVisitEveryLevelOnce() {
        assertThatThrownBy(() -> claims.claimDue(null, 1, 0, List.of(Priority.HIGH, Priority.HIGH, Priority.LOW)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("every priority level once");
    }

    @Test
    void manyClaimsTakeEachLevelFirstAtItsShare() {
        Map<UUID, Priority> levelOf = new HashMap<>();
        for (Priority level : Priority.values()) {
            dueJobs(level, 1, 0).forEach(id -> levelOf.put(id, level));
        }
        int claims = 1_500;
        Map<Priority, Integer> taken = new EnumMap<>(Priority.class);
        for (int i = 0; i < claims; i++) {
            List<UUID> claimed = claimAndRollBack(1, ClaimOrder.DEFAULT.draw());
            assertThat(claimed).hasSize(1);
            taken.merge(levelOf.get(claimed.getFirst()), 1, Integer::sum);
        }
        // Over 1,500 claims the standard deviation of a share is at most 1.2 points: these ranges are 4 or more wide.
        assertThat(taken.getOrDefault(Priority.HIGH, 0) / (double) claims).isBetween(0.65, 0.75);
        assertThat(taken.getOrDefault(Priority.NORMAL, 0) / (double) claims).isBetween(0.15, 0.25);
        assertThat(taken.getOrDefault(Priority.LOW, 0) / (double) claims).isBetween(0.06, 0.14);
    }

    /** {@code count} PENDING rows of {@code level} due a year ago plus {@code offset} seconds, oldest first. */
    private List<UUID> dueJobs(Priority level, int count, int offset) {
        return IntStream.range(0, count).mapToObj(i -> {
            UUID id = UUID.randomUUID();
            db.insertPending(id, TestJobs.LOG_INSTRUCTION, level, "default", A_YEAR_AGO + offset - 10 * (count - i));
            created.add(id);
            return id;
        }).toList();
    }

    private List<UUID> claimAndRollBack(int batch, List<Priority> order) {
        return claimedAndRolledBack(connection -> claims.claimDue(connection, batch, 0, order));
    }

    /** {@code count} PENDING rows due a year ago, a second apart, oldest first. */
    private List<UUID> dueJobs(int count) {
        return IntStream.range(0, count).mapToObj(i -> {
            UUID id = UUID.randomUUID();
            db.insertPending(id, TestJobs.LOG_INSTRUCTION, 0, A_YEAR_AGO - 10 * (count - i));
            created.add(id);
            return id;
        }).toList();
    }

    /**
     * In one transaction, rolled back at the end: inserts {@code extraRunning} RUNNING rows, counts the RUNNING rows,
     * and claims with the in-flight limit {@code limit} computes from that count.
     */
    private List<UUID> claimAndRollBack(int batch, int extraRunning, LongUnaryOperator limit) {
        return claimedAndRolledBack(connection -> insertRunning(connection, extraRunning)
                .chain(() -> connection.query(
                        "SELECT count(*) AS n FROM job_executions WHERE job_status = 'RUNNING'").execute())
                .map(rows -> rows.iterator().next().getLong("n"))
                .chain(running -> claims.claimDue(connection, batch, (int) limit.applyAsLong(running))));
    }

    /** The ids {@code claim} claims, its transaction rolled back even on failure so that no test keeps a claim. */
    private List<UUID> claimedAndRolledBack(Function<SqlConnection, Uni<Claim>> claim) {
        return pool.getConnection().chain(connection -> connection.begin().chain(tx ->
                        claim.apply(connection)
                                .map(Claim::jobs)
                                .call(() -> tx.rollback())
                                .onFailure().call(() -> tx.rollback()))
                        .eventually(connection::close))
                .map(jobs -> jobs.stream().map(JobExecution::jobId).toList())
                .await().atMost(TIMEOUT);
    }

    private static Uni<Void> insertRunning(SqlConnection connection, int count) {
        Uni<Void> all = Uni.createFrom().voidItem();
        for (int i = 0; i < count; i++) {
            all = all.chain(() -> connection.preparedQuery("INSERT INTO job_executions (job_id, job_type, instruction,"
                    + " job_status, retry_count, max_retries, attempt, next_run_at, lease_until, created_at,"
                    + " updated_at, version) VALUES ($1, 'SIMULATION', $2::text::jsonb, 'RUNNING', 0, 0, 1, now(),"
                    + " now() + interval '1 day', now(), now(), 1)")
                    .execute(Tuple.of(UUID.randomUUID(), TestJobs.LOG_INSTRUCTION)).replaceWithVoid());
        }
        return all;
    }
}
