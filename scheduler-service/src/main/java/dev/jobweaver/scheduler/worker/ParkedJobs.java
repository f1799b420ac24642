package dev.jobweaver.scheduler.worker;

import dev.jobweaver.common.worker.LiveWorkers;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.UUID;

/**
 * The jobs set aside because no live worker serves their (queue, type): {@code parked_jobs}, beside their rows in
 * {@code job_executions}, which stay {@code PENDING}, due again only after {@code park-for}. Parking costs a job that
 * a worker serves nothing: only the claim's jobs nobody serves are written here.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A job is parked in the transaction of the claim that found it unserved, so it is either parked or still due,
 *       never lost between.</li>
 *   <li>{@link #release} makes every parked job of a served pair due at once and forgets it, in one statement; a job
 *       that is no longer {@code PENDING} (cancelled meanwhile) is only forgotten. A job parked by a claim that raced
 *       a worker's arrival is released by the next {@link #release}, a refresh later.</li>
 * </ul>
 * Non-blocking: every method answers a {@link Uni} on the pool's event loop.
 */
@ApplicationScoped
public class ParkedJobs {

    private static final String PARK = """
            INSERT INTO parked_jobs (job_id, queue, job_type)
            SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]) ON CONFLICT (job_id) DO NOTHING""";

    private static final String RELEASE = """
            WITH released AS (DELETE FROM parked_jobs p USING unnest($1::text[], $2::text[]) AS s(queue, job_type)
                              WHERE p.queue = s.queue AND p.job_type = s.job_type RETURNING p.job_id)
            UPDATE job_executions j SET next_run_at = now(), updated_at = now(), version = j.version + 1
            FROM released r WHERE j.job_id = r.job_id AND j.job_status = 'PENDING'""";

    private final Pool pool;

    public ParkedJobs(Pool pool) {
        this.pool = pool;
    }

    /** A job set aside, with what it waits for. */
    public record Parked(UUID jobId, String queue, String jobType) {
    }

    /** Records {@code parked} in {@code tx}, the claim's transaction, which also moved their rows' next run. */
    public Uni<Void> park(SqlConnection tx, List<Parked> parked) {
        if (parked.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return tx.preparedQuery(PARK).execute(Tuple.of(parked.stream().map(Parked::jobId).toArray(UUID[]::new),
                parked.stream().map(Parked::queue).toArray(String[]::new),
                parked.stream().map(Parked::jobType).toArray(String[]::new))).replaceWithVoid();
    }

    /** Makes the parked jobs that {@code workers} serve due now; how many became due. */
    public Uni<Integer> release(LiveWorkers workers) {
        String[][] pairs = workers.pairArrays();
        if (pairs[0].length == 0) {
            return Uni.createFrom().item(0);
        }
        return pool.preparedQuery(RELEASE).execute(Tuple.of(pairs[0], pairs[1])).map(rows -> rows.rowCount());
    }
}
