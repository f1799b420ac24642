package dev.jobweaver.scheduler.schedule;

import dev.jobweaver.common.batch.Columns;
import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * SQL on {@code schedule_timers}, through the reactive PG client like the rest of the scheduler: the ticker's claim is
 * a batched {@code FOR UPDATE SKIP LOCKED} on a hot path, held open while Kafka acknowledges, which is what this client
 * does for dispatch already.
 *
 * <p>Methods taking a {@link SqlConnection} run inside the caller's transaction; their row locks are held until the
 * caller commits.
 */
@ApplicationScoped
public class ScheduleTimerRepository {

    private static final String COLUMNS = "schedule_id, version, cron, interval_text, timezone, anchor, misfire,"
            + " overlap, paused, tenant, next_run_at, last_fired_for, last_job_id, last_fired_at";

    /** The condition of the partial index idx_schedule_timers_due: timers that will fire. */
    private static final String ACTIVE = "NOT paused AND next_run_at IS NOT NULL";

    // Ordered by schedule_id so that overlapping lockers take their locks in the same order. The now() row is there
    // even when no timer exists yet (MATERIALIZED: the locking CTE runs once, as written).
    private static final String LOCK_MANY = "WITH locked AS MATERIALIZED (SELECT " + COLUMNS
            + " FROM schedule_timers WHERE schedule_id = ANY($1) ORDER BY schedule_id FOR UPDATE)"
            + " SELECT l.*, now() AS db_now FROM (SELECT 1) one LEFT JOIN locked l ON true";

    // Each timer written only over an older version: the caller decided under the row's lock, and this also keeps a
    // row that another writer inserted meanwhile from being overwritten by an older event. What firing wrote
    // (last_*) is left alone.
    private static final String UPSERT = "INSERT INTO schedule_timers (schedule_id, version, cron, interval_text,"
            + " timezone, anchor, misfire, overlap, paused, tenant, next_run_at, updated_at)"
            + " SELECT u.schedule_id, u.version, u.cron, u.interval_text, u.timezone, u.anchor, u.misfire, u.overlap,"
            + " u.paused, u.tenant, u.next_run_at, now()"
            + " FROM unnest($1::uuid[], $2::int8[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::text[],"
            + " $8::text[], $9::bool[], $10::text[], $11::timestamptz[])"
            + " AS u(schedule_id, version, cron, interval_text, timezone, anchor, misfire, overlap, paused, tenant,"
            + " next_run_at)"
            + " ON CONFLICT (schedule_id) DO UPDATE SET version = EXCLUDED.version, cron = EXCLUDED.cron,"
            + " interval_text = EXCLUDED.interval_text, timezone = EXCLUDED.timezone, anchor = EXCLUDED.anchor,"
            + " misfire = EXCLUDED.misfire, overlap = EXCLUDED.overlap, paused = EXCLUDED.paused,"
            + " tenant = EXCLUDED.tenant, next_run_at = EXCLUDED.next_run_at, updated_at = EXCLUDED.updated_at"
            + " WHERE schedule_timers.version < EXCLUDED.version";

    private static final String DELETE_MANY = "DELETE FROM schedule_timers WHERE schedule_id = ANY($1)";

    // The due timers no other round holds, oldest tick first, each with whether overlap: SKIP must skip its next tick:
    // a job of the schedule is PENDING or RUNNING (idx_job_executions_active_by_schedule), or a workflow run it started
    // has not ended (idx_workflow_runs_active_by_schedule), or the last tick's job or run has reached neither table yet
    // and was fired within the grace ($2 ms): it is on its way through the API. A tick's run has the id its job would
    // have, so last_job_id names either. The probe for the earliest tick to come reads the head of the same index; its
    // row is there even when nothing is claimed.
    static final String CLAIM_DUE = "WITH due AS MATERIALIZED (SELECT " + COLUMNS + " FROM schedule_timers"
            + " WHERE " + ACTIVE + " AND next_run_at <= now() ORDER BY next_run_at LIMIT $1 FOR UPDATE SKIP LOCKED)"
            + " SELECT d.*, CASE WHEN d.overlap = 'SKIP' THEN"
            + " EXISTS (SELECT 1 FROM job_executions j WHERE j.schedule_id = d.schedule_id"
            + " AND j.job_status IN ('PENDING', 'RUNNING'))"
            + " OR EXISTS (SELECT 1 FROM workflow_runs r WHERE r.schedule_id = d.schedule_id"
            + " AND r.status IN ('PENDING', 'RUNNING'))"
            + " OR (d.last_job_id IS NOT NULL AND d.last_fired_at > now() - $2::int8 * interval '1 millisecond'"
            + " AND NOT EXISTS (SELECT 1 FROM job_executions j WHERE j.job_id = d.last_job_id)"
            + " AND NOT EXISTS (SELECT 1 FROM workflow_runs r WHERE r.run_id = d.last_job_id))"
            + " ELSE false END AS busy, nl.next_later, now() AS round_now"
            + " FROM (SELECT (SELECT next_run_at FROM schedule_timers WHERE " + ACTIVE + " AND next_run_at > now()"
            + " ORDER BY next_run_at LIMIT 1) AS next_later) nl"
            + " LEFT JOIN due d ON true ORDER BY d.next_run_at";

    // What a round fired: the next tick, and the latest tick fired with its job (unchanged when nothing fired).
    private static final String RECORD_FIRED = "UPDATE schedule_timers AS t SET next_run_at = u.next_run_at,"
            + " last_fired_for = u.last_fired_for, last_job_id = u.last_job_id, last_fired_at = u.last_fired_at,"
            + " updated_at = now()"
            + " FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[], $4::uuid[], $5::timestamptz[])"
            + " AS u(schedule_id, next_run_at, last_fired_for, last_job_id, last_fired_at)"
            + " WHERE t.schedule_id = u.schedule_id";

    private static final String COUNT_ACTIVE = "SELECT count(*) AS active FROM schedule_timers WHERE " + ACTIVE;

    private static final String FIND_ONE = "SELECT " + COLUMNS + " FROM schedule_timers WHERE schedule_id = $1";

    @Inject Pool pool;

    /** The pool, for callers that open their own transaction. */
    public Pool pool() {
        return pool;
    }

    /**
     * Timers locked in a transaction, by scheduleId.
     *
     * @param now the transaction's {@code now()}
     */
    public record Locked(Instant now, Map<UUID, ScheduleTimer> timers) {
    }

    /** The timers of {@code scheduleIds} that exist, each locked until the transaction ends; and the clock. */
    public Uni<Locked> lockAll(SqlConnection tx, Collection<UUID> scheduleIds) {
        return tx.preparedQuery(LOCK_MANY).execute(Tuple.of(scheduleIds.toArray(UUID[]::new))).map(rows -> {
            Map<UUID, ScheduleTimer> timers = new HashMap<>();
            Instant now = null;
            for (Row row : rows) {
                now = instant(row, "db_now");
                if (row.getUUID("schedule_id") != null) {
                    ScheduleTimer timer = map(row);
                    timers.put(timer.schedule().scheduleId(), timer);
                }
            }
            return new Locked(now, timers);
        });
    }

    /** Writes every timer in one statement, each only over an older version; last fired tick kept. */
    public Uni<Void> upsertAll(SqlConnection tx, List<ScheduleTimer> timers) {
        if (timers.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<ScheduleEvent> schedules = timers.stream().map(ScheduleTimer::schedule).toList();
        Tuple arrays = Tuple.from(new Object[] {
                Columns.of(schedules, ScheduleEvent::scheduleId, UUID[]::new),
                Columns.of(schedules, ScheduleEvent::version, Long[]::new),
                Columns.of(schedules, ScheduleEvent::cron, String[]::new),
                Columns.of(schedules, ScheduleEvent::interval, String[]::new),
                Columns.of(schedules, ScheduleEvent::timezone, String[]::new),
                Columns.of(schedules, s -> odt(s.anchor()), OffsetDateTime[]::new),
                Columns.of(schedules, s -> s.misfire().name(), String[]::new),
                Columns.of(schedules, s -> s.overlap().name(), String[]::new),
                Columns.of(schedules, ScheduleEvent::paused, Boolean[]::new),
                Columns.of(schedules, ScheduleEvent::tenant, String[]::new),
                Columns.of(timers, t -> odt(t.nextRunAt()), OffsetDateTime[]::new)});
        return tx.preparedQuery(UPSERT).execute(arrays).replaceWithVoid();
    }

    /** Deletes the timers of {@code scheduleIds}; the number deleted. */
    public Uni<Integer> deleteAll(SqlConnection tx, Collection<UUID> scheduleIds) {
        if (scheduleIds.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return tx.preparedQuery(DELETE_MANY).execute(Tuple.of(scheduleIds.toArray(UUID[]::new)))
                .map(RowSet::rowCount);
    }

    /**
     * A due timer claimed by a round.
     *
     * @param busy for {@code overlap: SKIP}, whether the schedule's previous job has not finished (or is still on its
     *             way through the API); always false for {@code ALLOW}
     */
    public record Due(ScheduleTimer timer, boolean busy) {
    }

    /**
     * Timers claimed by a round.
     *
     * @param now       the transaction's {@code now()}: the round's clock
     * @param nextLater the earliest tick to come of a timer not due now, or null
     */
    public record Claim(Instant now, List<Due> due, Instant nextLater) {
    }

    /**
     * The due timers a ticker round owns until its transaction ends: not paused, {@code next_run_at <= now()}, not
     * locked by another round; at most {@code batch}, oldest tick first.
     *
     * @param ingestGrace how long a fired tick's job that has not reached {@code job_executions} counts as active
     */
    public Uni<Claim> claimDue(SqlConnection tx, int batch, Duration ingestGrace) {
        return tx.preparedQuery(CLAIM_DUE).execute(Tuple.of(batch, ingestGrace.toMillis())).map(rows -> {
            List<Due> due = new ArrayList<>(rows.size());
            Instant now = null;
            Instant nextLater = null;
            for (Row row : rows) {
                now = instant(row, "round_now");
                nextLater = instant(row, "next_later");
                if (row.getUUID("schedule_id") != null) {
                    due.add(new Due(map(row), row.getBoolean("busy")));
                }
            }
            return new Claim(now, due, nextLater);
        });
    }

    /**
     * What a round did to one timer.
     *
     * @param nextRunAt the next tick to fire, or null for never
     * @param lastFiredFor the latest tick fired so far (the round's last, or the stored one)
     */
    public record Fired(UUID scheduleId, Instant nextRunAt, Instant lastFiredFor, UUID lastJobId, Instant lastFiredAt) {
    }

    /** Writes what a round did, one statement for all its timers. */
    public Uni<Void> recordFired(SqlConnection tx, List<Fired> fired) {
        if (fired.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Tuple arrays = Tuple.from(new Object[] {
                Columns.of(fired, Fired::scheduleId, UUID[]::new),
                Columns.of(fired, f -> odt(f.nextRunAt()), OffsetDateTime[]::new),
                Columns.of(fired, f -> odt(f.lastFiredFor()), OffsetDateTime[]::new),
                Columns.of(fired, Fired::lastJobId, UUID[]::new),
                Columns.of(fired, f -> odt(f.lastFiredAt()), OffsetDateTime[]::new)});
        return tx.preparedQuery(RECORD_FIRED).execute(arrays).replaceWithVoid();
    }

    /** One timer, without a lock; null if there is none. */
    public Uni<ScheduleTimer> find(UUID scheduleId) {
        return pool.preparedQuery(FIND_ONE).execute(Tuple.of(scheduleId)).map(rows -> {
            var it = rows.iterator();
            return it.hasNext() ? map(it.next()) : null;
        });
    }

    /** How many timers will fire (not paused, a next tick); reads the partial index only. */
    public Uni<Long> countActive() {
        return pool.query(COUNT_ACTIVE).execute().map(rows -> rows.iterator().next().getLong("active"));
    }

    private static ScheduleTimer map(Row row) {
        ScheduleEvent schedule = new ScheduleEvent(
                row.getUUID("schedule_id"),
                row.getLong("version"),
                row.getString("cron"),
                row.getString("interval_text"),
                row.getString("timezone"),
                instant(row, "anchor"),
                Misfire.valueOf(row.getString("misfire")),
                Overlap.valueOf(row.getString("overlap")),
                row.getBoolean("paused"),
                row.getString("tenant"),
                null);
        return new ScheduleTimer(
                schedule,
                instant(row, "next_run_at"),
                instant(row, "last_fired_for"),
                row.getUUID("last_job_id"),
                instant(row, "last_fired_at"));
    }

    private static Instant instant(Row row, String column) {
        OffsetDateTime value = row.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }

    private static OffsetDateTime odt(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
