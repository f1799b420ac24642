package dev.jobweaver.api.notification;

import dev.jobweaver.api.security.crypto.SealedSecrets;
import dev.jobweaver.api.security.crypto.SecretCipher;
import dev.jobweaver.common.batch.Columns;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The hot statements of notifications, on the reactive SQL client: making a batch's deliveries (one set-based
 * statement), claiming due ones, and recording an attempt. Subscriptions themselves and the delivery log are Panache
 * ({@link Subscription}, {@link Delivery}, {@link DeliveryAttempt}).
 *
 * <p>A delivery's id is a name-based UUID (MD5, version 3) of {@code delivery:<subscriptionId>:<jobId>:<version>:<event>}
 * (of {@code delivery:<subscriptionId>:run:<runId>:<version>:<event>} for a workflow run's end), computed in the
 * statement exactly as {@link #deliveryId} ({@link #runDeliveryId}) computes it, so that a redelivered status makes the
 * same id and {@code ON CONFLICT DO NOTHING} makes no second delivery.
 */
@ApplicationScoped
public class DeliveryStore {

    /** The id as {@link UUID#nameUUIDFromBytes} makes it: MD5 with the version (3) and variant bits set. */
    private static final String ID = """
            encode(set_byte(set_byte(h.d, 6, (get_byte(h.d, 6) & 15) | 48), 8, (get_byte(h.d, 8) & 63) | 128),
                   'hex')::uuid""";

    /** An instant as the body writes it (ISO-8601, UTC). */
    private static String iso(String column) {
        return "to_char(" + column + " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')";
    }

    /** The body sent: null fields left out. */
    private static final String BODY = """
            jsonb_strip_nulls(jsonb_build_object(
                'type', 'job.' || lower(m.event), 'timestamp', %s, 'jobId', m.job_id, 'jobType', m.job_type,
                'status', m.status, 'attempts', m.attempts, 'retryCount', m.retry_count, 'traceId', m.trace_id,
                'scheduleId', m.schedule_id, 'scheduledFor', %s, 'workflowId', m.workflow_id,
                'workflowRunId', m.workflow_run_id, 'nodeId', m.node_id, 'lastError', m.last_error, 'finishedAt', %s,
                'subscriptionId', m.subscription_id))::text""".formatted(iso("m.changed_at"), iso("m.scheduled_for"),
            iso("m.finished_at"));

    private static final String INSERT = """
            INSERT INTO deliveries (id, subscription_id, job_id, event, body, state, attempts, next_attempt_at,
                                    changed_at, created_at)
            SELECT %s, m.subscription_id, m.job_id, m.event, %s, 'PENDING', 0, $11::timestamptz, m.changed_at,
                   $11::timestamptz
            FROM matched m
            CROSS JOIN LATERAL (SELECT decode(md5('delivery:' || m.subscription_id || ':' || m.job_id || ':'
                                                  || m.version || ':' || m.event), 'hex') AS d) h
            ON CONFLICT (id) DO NOTHING
            """.formatted(ID, BODY);

    /**
     * The deliveries of a batch of status changes: every subscription to the job, its type, its schedule or its
     * workflow (a node job's) that wants the change's event. The uncorrelated EXISTS is a one-time filter: while there is no subscription at all, the
     * statement reads no job and no index entry.
     */
    private static final String INSERT_FOR_STATUSES = """
            WITH e AS MATERIALIZED (
                SELECT * FROM unnest($1::uuid[], $2::text[], $3::int8[], $4::text[], $5::int4[], $6::int4[],
                                     $7::text[], $8::text[], $9::timestamptz[], $10::timestamptz[])
                       AS e(job_id, event, version, status, attempts, retry_count, trace_id, last_error, changed_at,
                            finished_at)
                WHERE EXISTS (SELECT 1 FROM subscriptions)
            ), ej AS MATERIALIZED (
                SELECT e.*, j.type AS job_type, j.schedule_id, j.scheduled_for, j.workflow_id, j.workflow_run_id,
                       j.node_id
                FROM e JOIN jobs j ON j.id = e.job_id
            ), matched AS (
                SELECT s.id AS subscription_id, ej.* FROM ej JOIN subscriptions s ON s.job_id = ej.job_id
                WHERE ej.event = ANY (s.events)
                UNION ALL
                SELECT s.id, ej.* FROM ej JOIN subscriptions s ON s.job_type = ej.job_type
                WHERE ej.event = ANY (s.events)
                UNION ALL
                SELECT s.id, ej.* FROM ej JOIN subscriptions s ON s.schedule_id = ej.schedule_id
                WHERE ej.event = ANY (s.events)
                UNION ALL
                SELECT s.id, ej.* FROM ej JOIN subscriptions s ON s.workflow_id = ej.workflow_id
                WHERE ej.event = ANY (s.events)
            )
            """ + INSERT;

    /**
     * The SCHEDULED deliveries of jobs a schedule's tick made: every subscription to the schedule or the job type. The
     * job is new, so no subscription names it yet. Version 0: the scheduler has not reported the job.
     */
    private static final String INSERT_SCHEDULED = """
            WITH e AS MATERIALIZED (
                SELECT e.job_id, 'SCHEDULED'::text AS event, 0::int8 AS version, 'PENDING'::text AS status,
                       0 AS attempts, 0 AS retry_count, e.trace_id, NULL::text AS last_error, $5::timestamptz AS changed_at,
                       NULL::timestamptz AS finished_at, e.job_type, e.schedule_id, e.scheduled_for,
                       NULL::uuid AS workflow_id, NULL::uuid AS workflow_run_id, NULL::text AS node_id
                FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::timestamptz[], $6::text[])
                     AS e(job_id, job_type, schedule_id, scheduled_for, trace_id)
                WHERE EXISTS (SELECT 1 FROM subscriptions)
            ), matched AS (
                SELECT s.id AS subscription_id, e.* FROM e JOIN subscriptions s ON s.job_type = e.job_type
                WHERE 'SCHEDULED' = ANY (s.events)
                UNION ALL
                SELECT s.id, e.* FROM e JOIN subscriptions s ON s.schedule_id = e.schedule_id
                WHERE 'SCHEDULED' = ANY (s.events)
            )
            """ + INSERT.replace("$11", "$5");

    /** The body of a run's end: null fields left out. */
    private static final String RUN_BODY = """
            jsonb_strip_nulls(jsonb_build_object(
                'type', m.event, 'timestamp', %s, 'runId', m.run_id, 'workflowId', m.workflow_id, 'status', m.status,
                'finishedAt', %s, 'traceId', m.trace_id, 'subscriptionId', m.subscription_id))::text""".formatted(
            iso("m.changed_at"), iso("m.finished_at"));

    /**
     * The deliveries of workflow runs that ended: every subscription to the run's workflow that wants the end's event
     * ({@code workflow.completed}, ...). The id is derived from (subscription, run, progress version, event), so a
     * progress event consumed again makes no second delivery, while a run retried and ended again is told again.
     */
    private static final String INSERT_FOR_RUNS = """
            WITH e AS MATERIALIZED (
                SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::int8[], $6::text[],
                                     $7::timestamptz[], $8::timestamptz[])
                       AS e(run_id, workflow_id, event, status, version, trace_id, changed_at, finished_at)
            ), matched AS (
                SELECT s.id AS subscription_id, e.* FROM e JOIN subscriptions s ON s.workflow_id = e.workflow_id
                WHERE e.event = ANY (s.events)
            )
            INSERT INTO deliveries (id, subscription_id, run_id, event, body, state, attempts, next_attempt_at,
                                    changed_at, created_at)
            SELECT %s, m.subscription_id, m.run_id, m.event, %s, 'PENDING', 0, $9::timestamptz, m.changed_at,
                   $9::timestamptz
            FROM matched m
            CROSS JOIN LATERAL (SELECT decode(md5('delivery:' || m.subscription_id || ':run:' || m.run_id || ':'
                                                  || m.version || ':' || m.event), 'hex') AS d) h
            ON CONFLICT (id) DO NOTHING
            """.formatted(ID, RUN_BODY);

    /**
     * Claims due deliveries: at most {@code $1}, the oldest due first, at most {@code $4} minus what this instance
     * already sends of each subscription ({@code $2}, {@code $3}), so that the deliveries of an endpoint at its bound
     * stay in the table for later instead of waiting in memory under a running lease. Rows another instance holds
     * are skipped; the claimed ones are leased until now + {@code $5} ms.
     */
    private static final String CLAIM = """
            WITH ranked AS (
                SELECT d.id, d.subscription_id, d.next_attempt_at,
                       row_number() OVER (PARTITION BY d.subscription_id ORDER BY d.next_attempt_at, d.id) AS rank
                FROM deliveries d
                WHERE d.state = 'PENDING' AND d.next_attempt_at <= now()
            ), picked AS (
                SELECT r.id FROM ranked r
                LEFT JOIN unnest($2::uuid[], $3::int4[]) AS busy(subscription_id, sending)
                       ON busy.subscription_id = r.subscription_id
                WHERE r.rank <= $4::int4 - coalesce(busy.sending, 0)
                ORDER BY r.next_attempt_at
                LIMIT $1::int8
            ), locked AS (
                SELECT d.id FROM deliveries d
                WHERE d.id IN (SELECT id FROM picked) AND d.state = 'PENDING' AND d.next_attempt_at <= now()
                FOR UPDATE SKIP LOCKED
            )
            UPDATE deliveries d SET next_attempt_at = now() + $5::int8 * interval '1 millisecond'
            FROM locked, subscriptions s
            WHERE d.id = locked.id AND s.id = d.subscription_id
            RETURNING d.id, d.subscription_id, d.job_id, d.event, d.body, d.attempts, d.created_at, d.changed_at,
                      s.url, s.secret
            """;

    /**
     * Records an attempt and its consequence in one statement. A delivery whose subscription was deleted meanwhile is
     * gone: nothing is recorded. A delivery that is no longer PENDING is left as it is.
     */
    private static final String RECORD = """
            WITH attempt AS (
                INSERT INTO delivery_attempts (delivery_id, attempt, attempted_at, status, error, duration_ms)
                SELECT $1::uuid, $2::int4, $3::timestamptz, $4::int4, $5::text, $6::int8 WHERE EXISTS (SELECT 1 FROM deliveries WHERE id = $1)
                ON CONFLICT (delivery_id, attempt) DO NOTHING
            )
            UPDATE deliveries SET attempts = $2, state = $7, next_attempt_at = coalesce($8, next_attempt_at),
                                  finished_at = $9
            WHERE id = $1 AND state = 'PENDING'
            """;

    /** A status change that may notify: the event it is and the status's fields the body carries. */
    public record StatusChange(UUID jobId, String event, long version, String status, int attempts, int retryCount,
                               String traceId, String lastError, Instant changedAt, Instant finishedAt) {
    }

    /** A job a schedule's tick made, for its SCHEDULED notifications. */
    public record ScheduledJob(UUID jobId, String jobType, UUID scheduleId, Instant scheduledFor, String traceId) {
    }

    /**
     * A workflow run that ended, for its subscribers' deliveries.
     *
     * @param event the {@link NotificationEvent#wireName()} of its end: {@code workflow.completed}, ...
     * @param version the progress version that ended it
     */
    public record RunEnd(UUID runId, UUID workflowId, String event, String status, long version, String traceId,
                         Instant changedAt, Instant finishedAt) {
    }

    /** A claimed delivery, with where and how to send it: {@code secret} opened, in clear. */
    public record Claimed(UUID id, UUID subscriptionId, UUID jobId, String event, String body, int attempt,
                          Instant createdAt, Instant changedAt, String url, String secret) {

        @Override
        public String toString() {
            // the secret never reaches a log line
            return "Claimed[id=" + id + ", subscriptionId=" + subscriptionId + ", jobId=" + jobId + ", event=" + event
                    + ", attempt=" + attempt + ", url=" + url + "]";
        }
    }

    /** What an attempt came to. {@code nextAttemptAt} null with state PENDING is impossible. */
    public record Outcome(UUID deliveryId, int attempt, Instant attemptedAt, Integer status, String error,
                          long durationMs, String state, Instant nextAttemptAt, Instant finishedAt) {
    }

    private static final Logger LOG = Logger.getLogger(DeliveryStore.class);

    @Inject Pool pool;
    @Inject SealedSecrets secrets;

    /**
     * Whether any subscription exists: one index-only probe, so that a poll of job-status costs next to nothing while
     * there is none (the insert of a 2,000-event poll that matches nothing takes 14 ms, mostly binding its arrays).
     */
    public Uni<Boolean> anySubscription() {
        return pool.preparedQuery("SELECT EXISTS (SELECT 1 FROM subscriptions)").execute()
                .map(rows -> rows.iterator().next().getBoolean(0));
    }

    /** Makes the deliveries of {@code changes} (one statement); how many were new. */
    public Uni<Integer> insertForStatuses(List<StatusChange> changes, Instant now) {
        return insert(pool, INSERT_FOR_STATUSES, changes, () -> List.of(
                        Columns.of(changes, StatusChange::jobId, UUID[]::new),
                        Columns.of(changes, StatusChange::event, String[]::new),
                        Columns.of(changes, StatusChange::version, Long[]::new),
                        Columns.of(changes, StatusChange::status, String[]::new),
                        Columns.of(changes, StatusChange::attempts, Integer[]::new),
                        Columns.of(changes, StatusChange::retryCount, Integer[]::new),
                        Columns.of(changes, StatusChange::traceId, String[]::new),
                        Columns.of(changes, StatusChange::lastError, String[]::new),
                        Columns.of(changes, c -> utc(c.changedAt()), OffsetDateTime[]::new),
                        Columns.of(changes, c -> utc(c.finishedAt()), OffsetDateTime[]::new),
                        utc(now)));
    }

    /** Makes the SCHEDULED deliveries of {@code jobs} on {@code client} (the caller's transaction); how many. */
    public Uni<Integer> insertScheduled(SqlClient client, List<ScheduledJob> jobs, Instant now) {
        return insert(client, INSERT_SCHEDULED, jobs, () -> List.of(
                        Columns.of(jobs, ScheduledJob::jobId, UUID[]::new),
                        Columns.of(jobs, ScheduledJob::jobType, String[]::new),
                        Columns.of(jobs, ScheduledJob::scheduleId, UUID[]::new),
                        Columns.of(jobs, j -> utc(j.scheduledFor()), OffsetDateTime[]::new),
                        utc(now),
                        Columns.of(jobs, ScheduledJob::traceId, String[]::new)));
    }

    /** Makes the deliveries of the runs' ends on {@code client} (the caller's transaction); how many. */
    public Uni<Integer> insertForRuns(SqlClient client, List<RunEnd> ends, Instant now) {
        return insert(client, INSERT_FOR_RUNS, ends, () -> List.of(
                        Columns.of(ends, RunEnd::runId, UUID[]::new),
                        Columns.of(ends, RunEnd::workflowId, UUID[]::new),
                        Columns.of(ends, RunEnd::event, String[]::new),
                        Columns.of(ends, RunEnd::status, String[]::new),
                        Columns.of(ends, RunEnd::version, Long[]::new),
                        Columns.of(ends, RunEnd::traceId, String[]::new),
                        Columns.of(ends, e -> utc(e.changedAt()), OffsetDateTime[]::new),
                        Columns.of(ends, e -> utc(e.finishedAt()), OffsetDateTime[]::new),
                        utc(now)));
    }

    /** The id of the delivery of run {@code runId}'s end ({@code event}, at {@code version}) to a subscription. */
    public static UUID runDeliveryId(UUID subscriptionId, UUID runId, long version, String event) {
        return UUID.nameUUIDFromBytes(("delivery:" + subscriptionId + ":run:" + runId + ":" + version + ":" + event)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * Runs {@code insert} on {@code client} with the column arrays {@code columns} makes, one statement for every row;
     * nothing when there are no {@code rows}. How many rows it inserted.
     */
    private static Uni<Integer> insert(SqlClient client, String insert, List<?> rows, Supplier<List<Object>> columns) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return client.preparedQuery(insert).execute(Tuple.from(columns.get())).map(inserted -> inserted.rowCount());
    }

    /**
     * Claims at most {@code limit} due deliveries and leases them for {@code lease}; of each subscription at most
     * {@code perSubscription} minus what {@code sending} says this instance already sends of it.
     */
    public Uni<List<Claimed>> claim(int limit, Map<UUID, Integer> sending, int perSubscription, Duration lease) {
        UUID[] busy = sending.keySet().toArray(UUID[]::new);
        Integer[] counts = Arrays.stream(busy).map(sending::get).toArray(Integer[]::new);
        return pool.preparedQuery(CLAIM)
                .execute(Tuple.from(List.of((long) limit, busy, counts, perSubscription, lease.toMillis())))
                .map(rows -> {
                    List<Claimed> claimed = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        UUID subscription = row.getUUID("subscription_id");
                        String secret;
                        try {
                            secret = secrets.open(row.getString("secret"), subscription);
                        } catch (SecretCipher.UnreadableSecretException e) {
                            // unsigned it must not go out: it stays PENDING, and is claimed again after its lease
                            LOG.errorf("delivery %s not sent: %s", row.getUUID("id"), e.getMessage());
                            continue;
                        }
                        claimed.add(new Claimed(row.getUUID("id"), subscription,
                                row.getUUID("job_id"), row.getString("event"), row.getString("body"),
                                row.getInteger("attempts") + 1, instant(row, "created_at"),
                                instant(row, "changed_at"), row.getString("url"), secret));
                    }
                    return claimed;
                });
    }

    /** Records {@code outcome}: the attempt's row and the delivery's new state, together. */
    public Uni<Void> record(Outcome outcome) {
        // Arrays.asList: the status, error and instants may be null
        return pool.preparedQuery(RECORD).execute(Tuple.from(Arrays.asList(outcome.deliveryId(), outcome.attempt(),
                        utc(outcome.attemptedAt()), outcome.status(), outcome.error(), outcome.durationMs(),
                        outcome.state(), utc(outcome.nextAttemptAt()), utc(outcome.finishedAt()))))
                .replaceWithVoid();
    }

    /** The id of the delivery of {@code event} at {@code version} of job {@code jobId} to {@code subscriptionId}. */
    public static UUID deliveryId(UUID subscriptionId, UUID jobId, long version, String event) {
        return UUID.nameUUIDFromBytes(("delivery:" + subscriptionId + ":" + jobId + ":" + version + ":" + event)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static Instant instant(Row row, String column) {
        OffsetDateTime value = row.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
