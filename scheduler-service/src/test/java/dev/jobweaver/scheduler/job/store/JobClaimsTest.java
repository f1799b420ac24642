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
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@code claimDue}: due PENDING rows, level after level in the claim's order and oldest first within a level, at most
 * the batch and at most the in-flight limit minus the jobs RUNNING now.
 *
 * <p>Each test inserts its rows and claims them in one transaction that is rolled back: no other transaction ever
 * sees them, so the service's own dispatcher, woken by another test's leftovers, cannot take them in between (a
 * transaction's own row locks do not make its {@code SKIP LOCKED} skip). The rows are due a year ago, so they come
 * before any committed row another test left due.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobClaimsTest extends KafkaAndDbTest {

    private static final long A_YEAR_AGO = -365L * 24 * 3600;

    @Test
    void aRoundClaimsTheBatchWhileTheLimitIsFar() {
        List<UUID> ids = ids(6);

        List<UUID> claimed = claimedIn(tx -> dueJobs(tx, ids)
                .chain(() -> claimUnderLimit(tx, 4, running -> running + 100)));

        assertThat(claimed).containsExactlyElementsOf(ids.subList(0, 4));
    }

    @Test
    void aRoundClaimsOnlyTheFreeSlotsNearTheLimit() {
        List<UUID> ids = ids(6);

        List<UUID> claimed = claimedIn(tx -> dueJobs(tx, ids)
                .chain(() -> claimUnderLimit(tx, 5, running -> running + 2)));

        assertThat(claimed).containsExactlyElementsOf(ids.subList(0, 2));
    }

    @Test
    void aRoundAtOrOverTheLimitClaimsNothing() {
        List<UUID> ids = ids(3);

        assertThat(claimedIn(tx -> dueJobs(tx, ids).chain(() -> insertRunning(tx, 2))
                .chain(() -> claimUnderLimit(tx, 5, running -> running)))).isEmpty();
        assertThat(claimedIn(tx -> dueJobs(tx, ids).chain(() -> insertRunning(tx, 2))
                .chain(() -> claimUnderLimit(tx, 5, running -> running - 1))))
                .as("replicas overshooting together").isEmpty();
    }

    @Test
    void zeroMeansNoLimit() {
        List<UUID> ids = ids(3);

        assertThat(claimedIn(tx -> dueJobs(tx, ids).chain(() -> claimUnderLimit(tx, 3, running -> 0))))
                .containsExactlyElementsOf(ids);
    }

    @Test
    void aClaimTakesItsFirstLevelThenFallsThroughToTheOthersInOrder() {
        List<UUID> high = ids(3);
        List<UUID> normal = ids(3);
        List<UUID> low = ids(3);
        Function<SqlConnection, Uni<Void>> allLevels = tx -> dueJobs(tx, Priority.HIGH, high, 0)
                .chain(() -> dueJobs(tx, Priority.NORMAL, normal, 100))
                .chain(() -> dueJobs(tx, Priority.LOW, low, 200));

        List<Priority> lowFirst = List.of(Priority.LOW, Priority.HIGH, Priority.NORMAL);
        assertThat(claimedIn(tx -> allLevels.apply(tx).chain(() -> claim(tx, 5, lowFirst))))
                .containsExactly(low.get(0), low.get(1), low.get(2), high.get(0), high.get(1));
        List<Priority> normalFirst = List.of(Priority.NORMAL, Priority.HIGH, Priority.LOW);
        assertThat(claimedIn(tx -> allLevels.apply(tx).chain(() -> claim(tx, 8, normalFirst))))
                .containsExactly(normal.get(0), normal.get(1), normal.get(2), high.get(0), high.get(1), high.get(2),
                        low.get(0), low.get(1));
        List<Priority> highFirst = List.of(Priority.HIGH, Priority.NORMAL, Priority.LOW);
        assertThat(claimedIn(tx -> allLevels.apply(tx).chain(() -> claim(tx, 2, highFirst))))
                .containsExactly(high.get(0), high.get(1));
    }

    @Test
    void aClaimMustVisitEveryLevelOnce() {
        assertThatThrownBy(() -> claims.claimDue(null, 1, 0, List.of(Priority.HIGH, Priority.HIGH, Priority.LOW)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("every priority level once");
    }

    @Test
    void manyClaimsTakeEachLevelFirstAtItsShare() {
        Map<Priority, UUID> oneOfEach = new EnumMap<>(Priority.class);
        for (Priority level : Priority.values()) {
            oneOfEach.put(level, UUID.randomUUID());
        }
        int rounds = 1_500;

        Map<Priority, Integer> taken = inRolledBackTransaction(tx -> {
            Uni<Void> inserted = Uni.createFrom().voidItem();
            for (Map.Entry<Priority, UUID> row : oneOfEach.entrySet()) {
                inserted = inserted.chain(() -> dueJobs(tx, row.getKey(), List.of(row.getValue()), 0));
            }
            Map<Priority, Integer> counts = new EnumMap<>(Priority.class);
            return inserted.onItem().transformToMulti(nothing -> Multi.createFrom().range(0, rounds))
                    .onItem().transformToUniAndConcatenate(i -> claim(tx, 1, ClaimOrder.DEFAULT.draw()))
                    .invoke(claimed -> {
                        assertThat(claimed).hasSize(1);
                        counts.merge(levelOf(oneOfEach, claimed.getFirst()), 1, Integer::sum);
                    })
                    .collect().last().replaceWith(counts);
        });

        // Over 1,500 claims the standard deviation of a share is at most 1.2 points: these ranges are 4 or more wide.
        assertThat(taken.getOrDefault(Priority.HIGH, 0) / (double) rounds).isBetween(0.65, 0.75);
        assertThat(taken.getOrDefault(Priority.NORMAL, 0) / (double) rounds).isBetween(0.15, 0.25);
        assertThat(taken.getOrDefault(Priority.LOW, 0) / (double) rounds).isBetween(0.06, 0.14);
    }

    private static Priority levelOf(Map<Priority, UUID> oneOfEach, UUID claimed) {
        return oneOfEach.entrySet().stream().filter(e -> e.getValue().equals(claimed)).map(Map.Entry::getKey)
                .findFirst().orElseThrow(() -> new AssertionError("claimed a row of no level: " + claimed));
    }

    private static List<UUID> ids(int count) {
        List<UUID> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(UUID.randomUUID());
        }
        return ids;
    }

    /** PENDING rows of priority NORMAL, due a year ago, ten seconds apart, in the order of {@code ids}. */
    private static Uni<Void> dueJobs(SqlConnection tx, List<UUID> ids) {
        return dueJobs(tx, Priority.NORMAL, ids, 0);
    }

    /** PENDING rows of {@code level}, due a year ago plus {@code offset} seconds, ten seconds apart, oldest first. */
    private static Uni<Void> dueJobs(SqlConnection tx, Priority level, List<UUID> ids, int offset) {
        Uni<Void> all = Uni.createFrom().voidItem();
        for (int i = 0; i < ids.size(); i++) {
            Tuple row = Tuple.of(ids.get(i), TestJobs.LOG_INSTRUCTION, level.name(),
                    (double) (A_YEAR_AGO + offset - 10L * (ids.size() - i)));
            all = all.chain(() -> tx.preparedQuery("INSERT INTO job_executions (job_id, job_type, instruction,"
                    + " job_status, retry_count, max_retries, attempt, next_run_at, created_at, updated_at, version,"
                    + " priority) VALUES ($1, 'SIMULATION', $2::text::jsonb, 'PENDING', 0, 0, 0,"
                    + " now() + make_interval(secs => $4), now(), now(), 0, $3)").execute(row).replaceWithVoid());
        }
        return all;
    }

    private Uni<List<UUID>> claim(SqlConnection tx, int batch, List<Priority> order) {
        return claims.claimDue(tx, batch, 0, order).map(JobClaimsTest::claimedIds);
    }

    /** Claims with the in-flight limit {@code limit} computes from the count of RUNNING rows. */
    private Uni<List<UUID>> claimUnderLimit(SqlConnection tx, int batch, LongUnaryOperator limit) {
        return tx.query("SELECT count(*) AS n FROM job_executions WHERE job_status = 'RUNNING'").execute()
                .map(rows -> rows.iterator().next().getLong("n"))
                .chain(running -> claims.claimDue(tx, batch, (int) limit.applyAsLong(running)))
                .map(JobClaimsTest::claimedIds);
    }

    private static List<UUID> claimedIds(Claim claim) {
        assertThat(claim.limitsInDb()).as("a limit stored by another test made the claim take nothing").isFalse();
        return claim.jobs().stream().map(JobExecution::jobId).toList();
    }

    private List<UUID> claimedIn(Function<SqlConnection, Uni<List<UUID>>> work) {
        return inRolledBackTransaction(work);
    }

    /** What {@code work} yields, its transaction rolled back even on failure so that no row or claim outlives it. */
    private <T> T inRolledBackTransaction(Function<SqlConnection, Uni<T>> work) {
        return pool.getConnection().chain(connection -> connection.begin().chain(tx ->
                        work.apply(connection)
                                .call(() -> tx.rollback())
                                .onFailure().call(() -> tx.rollback()))
                        .eventually(connection::close))
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
