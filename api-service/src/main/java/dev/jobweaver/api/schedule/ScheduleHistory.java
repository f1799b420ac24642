package dev.jobweaver.api.schedule;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * What each schedule has made ({@code schedule_history}): how many runs (a tick's or a trigger's job, or a workflow
 * run started) and when the last one was made. {@code GET /api/schedules/{id}} shows them as {@code firedCount} and
 * {@code lastFiredAt}.
 *
 * <p>A run is counted by the statement that makes it: a job's in the transaction that inserts it, so a repeated tick
 * (which inserts nothing) counts nothing and a rolled-back one is not counted either; a workflow run's right after it
 * started, on its own. Rows are locked in schedule id order, so two transactions counting the same schedules never
 * deadlock. Non-blocking, on the caller's Vert.x context.
 */
@ApplicationScoped
public class ScheduleHistory {

    /** A schedule's history: runs made, and when the last was; {@link #NEVER} before its first. */
    public record Fired(long count, Instant lastAt) {

        public static final Fired NEVER = new Fired(0, null);
    }

    // The schedule must still be there: a workflow run's count comes after its schedule's lock was let go.
    static final String COUNT = """
            INSERT INTO schedule_history AS h (schedule_id, fired_count, last_fired_at)
            SELECT u.id, u.n, now() FROM unnest($1::uuid[], $2::int8[]) AS u(id, n)
            WHERE EXISTS (SELECT 1 FROM schedules s WHERE s.id = u.id) ORDER BY u.id
            ON CONFLICT (schedule_id) DO UPDATE SET fired_count = h.fired_count + excluded.fired_count,
             last_fired_at = greatest(h.last_fired_at, excluded.last_fired_at)""";

    static final String READ = """
            SELECT schedule_id, fired_count, last_fired_at FROM schedule_history WHERE schedule_id = ANY($1)""";

    private final Pool pool;

    public ScheduleHistory(Pool pool) {
        this.pool = pool;
    }

    /** Counts {@code made} (runs per schedule) through {@code client}: within its transaction when it has one. */
    Uni<Void> count(SqlClient client, Map<UUID, Long> made) {
        if (made.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Map<UUID, Long> ordered = new TreeMap<>(made);
        return client.preparedQuery(COUNT).execute(Tuple.of(ordered.keySet().toArray(UUID[]::new),
                ordered.values().toArray(Long[]::new))).replaceWithVoid();
    }

    /** Counts one run of {@code scheduleId}, in a statement of its own. */
    Uni<Void> count(UUID scheduleId) {
        return count(pool, Map.of(scheduleId, 1L));
    }

    /** The history of {@code scheduleId}. */
    public Uni<Fired> of(UUID scheduleId) {
        return of(List.of(scheduleId)).map(found -> found.getOrDefault(scheduleId, Fired.NEVER));
    }

    /** The history of each of {@code scheduleIds} that made a run; the others are absent. */
    public Uni<Map<UUID, Fired>> of(Collection<UUID> scheduleIds) {
        if (scheduleIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery(READ).execute(Tuple.of(new ArrayList<>(scheduleIds).toArray(UUID[]::new)))
                .map(rows -> {
                    Map<UUID, Fired> found = new HashMap<>();
                    for (Row row : rows) {
                        found.put(row.getUUID("schedule_id"), new Fired(row.getLong("fired_count"),
                                row.getOffsetDateTime("last_fired_at").toInstant()));
                    }
                    return found;
                });
    }
}
