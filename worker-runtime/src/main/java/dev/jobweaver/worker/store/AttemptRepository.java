package dev.jobweaver.worker.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.batch.Columns;
import dev.jobweaver.common.batch.GroupCommit;
import dev.jobweaver.common.quarantine.Failures;
import dev.jobweaver.worker.WorkerConfig;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code execution_attempts} over the reactive PostgreSQL client.
 *
 * <p>Called from the virtual threads that run jobs, which may block: each call awaits its reactive result (a parked
 * virtual thread holds no platform thread), bounded by {@code timeout}.
 *
 * <p>{@link #begin} and {@link #finish} are group-committed ({@link GroupCommit}): the calls of concurrent runs that
 * arrive while earlier ones are being written go out together as one multi-row statement over {@code unnest} arrays,
 * with exactly the conditions of the single-row statements ({@code ON CONFLICT DO NOTHING}, {@code WHERE outcome =
 * 'RUNNING'}) per row. Under a burst this turns two statements per run into two per batch (JFR: the client's encoding,
 * decoding and per-query spans were a fifth of the worker's CPU).
 *
 * <p>A batch is one statement, so a row the database refuses for good (SQL state class 22 or 23, see {@link Failures})
 * fails every call of its batch. Such a call is written again alone before it fails: only a row that is refused on its
 * own fails permanently, and the runs that shared its batch are stored as if it had not been there. A transient failure
 * fails the whole batch's calls, which their runs retry.
 *
 * <p>Each call is its run's {@code execution_attempts begin} or {@code finish} span, which includes the wait for its
 * batch, made only when the run's span records (see {@link #traced}).
 */
@ApplicationScoped
public class AttemptRepository {

    private static final String COLUMNS =
            "event_id, job_id, attempt, trace_id, started_at, finished_at, outcome, error_message, worker_id";
    /** The columns read back: the result as JSON text, parsed here, not by the client's own JSON mapping. */
    private static final String READ = COLUMNS + ", result::text AS result";
    private static final String BEGIN = "INSERT INTO execution_attempts (" + COLUMNS + ")"
            + " SELECT e, j, a, t, s, NULL, 'RUNNING', NULL, w"
            + " FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::varchar[], $5::timestamptz[], $6::varchar[])"
            + " AS u(e, j, a, t, s, w)"
            + " ON CONFLICT (event_id) DO NOTHING RETURNING " + READ;
    private static final String FINISH = "UPDATE execution_attempts AS x"
            + " SET outcome = u.o, error_message = u.m, finished_at = u.f, result = u.r::jsonb"
            + " FROM unnest($1::uuid[], $2::varchar[], $3::text[], $4::timestamptz[], $5::text[])"
            + " AS u(e, o, m, f, r)"
            + " WHERE x.event_id = u.e AND x.outcome = 'RUNNING'"
            + " RETURNING x.event_id, x.job_id, x.attempt, x.trace_id, x.started_at, x.finished_at, x.outcome,"
            + " x.error_message, x.worker_id, x.result::text AS result";
    private static final String FIND_ALL = "SELECT " + READ + " FROM execution_attempts WHERE event_id = ANY($1)";

    private final Pool pool;
    private final Tracer tracer;
    private final ObjectMapper mapper;
    private final GroupCommit<ExecutionAttempt, Begin> begins;
    private final GroupCommit<Finish, ExecutionAttempt> finishes;

    public AttemptRepository(Pool pool, Tracer tracer, ObjectMapper mapper, WorkerConfig config) {
        this.pool = pool;
        this.tracer = tracer;
        this.mapper = mapper;
        WorkerConfig.Run run = config.run();
        this.begins = new GroupCommit<>(run.attemptBatchSize(), run.attemptBatchesInFlight(), this::beginAll);
        this.finishes = new GroupCommit<>(run.attemptBatchSize(), run.attemptBatchesInFlight(), this::finishAll);
    }

    /**
     * The outcome of {@link #begin}.
     *
     * @param created true if this call created the row (the run is ours to execute)
     * @param attempt the row as it is now
     */
    public record Begin(boolean created, ExecutionAttempt attempt) {
    }

    /** One call of {@link #finish}; {@code result} as JSON text. */
    private record Finish(UUID eventId, ExecutionOutcome outcome, String errorMessage, String result,
            Instant finishedAt) {
    }

    /** Creates the row {@code RUNNING}, or returns the existing one: the idempotency check of a run. */
    public Begin begin(ExecutionAttempt attempt, Duration timeout) {
        return traced("execution_attempts begin", () -> batchedOrAlone(begins, this::beginAll, attempt, timeout));
    }

    /**
     * Closes a {@code RUNNING} row with {@code outcome}. If it was closed already (by a worker that found it
     * abandoned, or by the run it was taken for), the row is left as it is. Either way the stored row is returned,
     * and that is what gets published, so every outcome event of a run says the same thing.
     */
    public ExecutionAttempt finish(UUID eventId, ExecutionOutcome outcome, String errorMessage, Instant finishedAt,
            Duration timeout) {
        return finish(eventId, outcome, errorMessage, null, finishedAt, timeout);
    }

    /** As {@link #finish(UUID, ExecutionOutcome, String, Instant, Duration)}, storing the handler's {@code result}. */
    public ExecutionAttempt finish(UUID eventId, ExecutionOutcome outcome, String errorMessage, JsonNode result,
            Instant finishedAt, Duration timeout) {
        String json = result == null || result.isNull() ? null : result.toString();
        return traced("execution_attempts finish", () -> batchedOrAlone(finishes, this::finishAll,
                new Finish(eventId, outcome, errorMessage, json, finishedAt), timeout));
    }

    /**
     * {@code item} written with its batch, or alone if the batch was refused for good: the batch's statement wrote
     * nothing (it is all or nothing), and whether the refusal is this item's own only a statement of its own can
     * tell. Both statements keep the single-row conditions, so writing alone after a failed batch changes nothing
     * else. Alone, the call does not wait for a group-commit slot: this happens only after a refused batch.
     */
    private static <I, O> O batchedOrAlone(GroupCommit<I, O> commit, Function<List<I>, CompletionStage<List<O>>> flush,
            I item, Duration timeout) {
        try {
            return await(commit.submit(item), timeout);
        } catch (RuntimeException refused) {
            if (Failures.isTransient(refused)) {
                throw refused;
            }
            return await(flush.apply(List.of(item)).toCompletableFuture(), timeout).getFirst();
        }
    }

    /**
     * Runs {@code call} in a child span named {@code name}, as {@code @WithSpan} did, when the run's current span
     * records; otherwise runs it bare. The services sample parent-based, so a child of a span that does not record
     * would not record either, and the exported traces are the same. Why not {@code @WithSpan}: its interceptor builds
     * that unrecorded span, makes it current and rewrites the MDC twice per call, which was 5.5% of the worker's CPU
     * in a 20,000-job burst with sampling off (JFR), two calls a run.
     */
    private <T> T traced(String name, Supplier<T> call) {
        if (!Span.current().isRecording()) {
            return call.get();
        }
        Span span = tracer.spanBuilder(name).startSpan();
        try (Scope ignored = span.makeCurrent()) {
            return call.get();
        } catch (RuntimeException | Error e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR);
            throw e;
        } finally {
            span.end();
        }
    }

    private CompletionStage<List<Begin>> beginAll(List<ExecutionAttempt> batch) {
        Tuple args = Tuple.tuple()
                .addArrayOfUUID(Columns.of(batch, ExecutionAttempt::eventId, UUID[]::new))
                .addArrayOfUUID(Columns.of(batch, ExecutionAttempt::jobId, UUID[]::new))
                .addArrayOfInteger(Columns.of(batch, ExecutionAttempt::attempt, Integer[]::new))
                .addArrayOfString(Columns.of(batch, ExecutionAttempt::traceId, String[]::new))
                .addArrayOfOffsetDateTime(Columns.of(batch, a -> utc(a.startedAt()), OffsetDateTime[]::new))
                .addArrayOfString(Columns.of(batch, ExecutionAttempt::workerId, String[]::new));
        return pool.preparedQuery(BEGIN).execute(args)
                .chain(inserted -> {
                    Map<UUID, ExecutionAttempt> created = byEventId(inserted);
                    // Rows that existed already (a duplicate record): read them as they are.
                    List<UUID> existing = batch.stream().map(ExecutionAttempt::eventId)
                            .filter(id -> !created.containsKey(id)).toList();
                    return findAll(existing).map(found -> {
                        // The same run twice in one batch (never from one worker, which runs a run once at a time):
                        // only the first is told it created the row.
                        Set<UUID> told = new HashSet<>();
                        return batch.stream()
                                .map(a -> created.containsKey(a.eventId()) && told.add(a.eventId())
                                        ? new Begin(true, created.get(a.eventId()))
                                        : new Begin(false, created.containsKey(a.eventId()) ? created.get(a.eventId())
                                                : vanishedIfNull(found.get(a.eventId()), a.eventId())))
                                .toList();
                    });
                })
                .subscribeAsCompletionStage();
    }

    private CompletionStage<List<ExecutionAttempt>> finishAll(List<Finish> batch) {
        Tuple args = Tuple.tuple()
                .addArrayOfUUID(Columns.of(batch, Finish::eventId, UUID[]::new))
                .addArrayOfString(Columns.of(batch, f -> f.outcome().name(), String[]::new))
                .addArrayOfString(Columns.of(batch, Finish::errorMessage, String[]::new))
                .addArrayOfOffsetDateTime(Columns.of(batch, f -> utc(f.finishedAt()), OffsetDateTime[]::new))
                .addArrayOfString(Columns.of(batch, Finish::result, String[]::new));
        return pool.preparedQuery(FINISH).execute(args)
                .chain(updated -> {
                    Map<UUID, ExecutionAttempt> closed = byEventId(updated);
                    // Rows closed already (by another worker): publish what they say.
                    List<UUID> others = batch.stream().map(Finish::eventId)
                            .filter(id -> !closed.containsKey(id)).toList();
                    return findAll(others).map(found -> batch.stream()
                            .map(f -> closed.containsKey(f.eventId()) ? closed.get(f.eventId())
                                    : vanishedIfNull(found.get(f.eventId()), f.eventId()))
                            .toList());
                })
                .subscribeAsCompletionStage();
    }

    private Uni<Map<UUID, ExecutionAttempt>> findAll(List<UUID> eventIds) {
        if (eventIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery(FIND_ALL).execute(Tuple.tuple().addArrayOfUUID(eventIds.toArray(UUID[]::new)))
                .map(this::byEventId);
    }

    private Map<UUID, ExecutionAttempt> byEventId(RowSet<Row> rows) {
        Map<UUID, ExecutionAttempt> byId = new HashMap<>();
        for (Row row : rows) {
            ExecutionAttempt attempt = map(row);
            byId.put(attempt.eventId(), attempt);
        }
        return byId;
    }

    private static ExecutionAttempt vanishedIfNull(ExecutionAttempt attempt, UUID eventId) {
        if (attempt == null) {
            throw new Vanished(eventId);
        }
        return attempt;
    }

    /** The row of a run was not there to be read back: deleted meanwhile, with its job (a DELETE command). */
    public static final class Vanished extends IllegalStateException {

        Vanished(UUID eventId) {
            super("execution attempt " + eventId + " vanished");
        }
    }

    private static <T> T await(CompletableFuture<T> result, Duration timeout) {
        try {
            return result.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer from the database within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the database", e);
        }
    }

    /**
     * Deletes every row of job {@code jobId} (over the job_id index); the Uni gives how many there were. Does not
     * block: it may be subscribed to from an event loop.
     */
    public Uni<Integer> deleteJob(UUID jobId) {
        return pool.preparedQuery("DELETE FROM execution_attempts WHERE job_id = $1").execute(Tuple.of(jobId))
                .map(RowSet::rowCount);
    }

    /**
     * Deletes at most {@code batch} finished rows started before {@code cutoff} (over the BRIN index of
     * {@code started_at}); ctid keeps the delete to the rows the subquery picked. The Uni gives how many. Does not
     * block.
     */
    public Uni<Integer> deleteFinishedStartedBefore(Instant cutoff, int batch) {
        return pool.preparedQuery("DELETE FROM execution_attempts WHERE ctid = ANY (ARRAY("
                        + "SELECT ctid FROM execution_attempts WHERE started_at < $1 AND outcome <> 'RUNNING' LIMIT $2))")
                .execute(Tuple.of(cutoff.atOffset(ZoneOffset.UTC), batch))
                .map(RowSet::rowCount);
    }

    /** The row of run {@code eventId}, if any. */
    public Optional<ExecutionAttempt> find(UUID eventId, Duration timeout) {
        RowSet<Row> rows = pool.preparedQuery("SELECT " + READ + " FROM execution_attempts WHERE event_id = $1")
                .execute(Tuple.of(eventId))
                .await().atMost(timeout);
        return rows.size() == 0 ? Optional.empty() : Optional.of(map(rows.iterator().next()));
    }

    private ExecutionAttempt map(Row row) {
        OffsetDateTime finished = row.getOffsetDateTime("finished_at");
        return new ExecutionAttempt(
                row.getUUID("event_id"),
                row.getUUID("job_id"),
                row.getInteger("attempt"),
                row.getString("trace_id"),
                row.getOffsetDateTime("started_at").toInstant(),
                finished == null ? null : finished.toInstant(),
                ExecutionOutcome.valueOf(row.getString("outcome")),
                row.getString("error_message"),
                row.getString("worker_id"),
                json(row.getString("result")));
    }

    private JsonNode json(String text) {
        if (text == null) {
            return null;
        }
        try {
            return mapper.readTree(text);
        } catch (JsonProcessingException e) {
            // jsonb holds only valid JSON: this is a bug, not data to set aside.
            throw new IllegalStateException("stored result is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
