package dev.jobweaver.worker.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.error.WorkerErrorCode;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.worker.handler.RunResult;
import dev.jobweaver.worker.store.ExecutionOutcome;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.quarantine.EventReader;
import dev.jobweaver.common.quarantine.Failures;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.quarantine.RecordOrigin;
import dev.jobweaver.worker.command.StoppedJobs;
import dev.jobweaver.worker.WorkerConfig;
import dev.jobweaver.worker.WorkerIdentity;
import dev.jobweaver.worker.store.AttemptRepository;
import dev.jobweaver.worker.store.ExecutionAttempt;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * One record of {@code run-job}, from receipt to acknowledgement, on its virtual thread.
 *
 * <ol>
 *   <li>The record's raw value is read here, not on the poll thread: a value that is not a {@link RunJobEvent}, breaks
 *       {@link EventRules#problem(RunJobEvent)}, or is not keyed by its jobId is set aside in
 *       {@code jobweaver-quarantine} with its original bytes ({@link Quarantine}) and acknowledged.</li>
 *   <li>A run of a type this worker has no handler for is handed back, unrun and unrecorded ({@link #handBack}); so is
 *       one that nobody began and that arrives after its lease ended ({@link #leaseOver}): the scheduler dispatches
 *       its job again, and running this copy as well would run the job twice.</li>
 *   <li>The run is recorded {@code RUNNING} in {@code execution_attempts} unless its eventId is there already: a
 *       finished run's stored outcome is re-published without running again; a run in progress on this worker is
 *       left to finish, and its stored outcome is then re-published for the duplicate too; a run {@code RUNNING}
 *       under another worker is waited for until it is older than its time bound plus the slack (a live worker would
 *       have closed it by then), then closed as failed.</li>
 *   <li>The attempt runs through its type's handler ({@link AttemptExecutor}) within its time bound; the outcome, with
 *       the handler's result, is stored, published, and acknowledged by Kafka.</li>
 *   <li>Only then is the record acknowledged, which lets the commit strategy count its offset complete.</li>
 * </ol>
 *
 * <h2>Cancelled and deleted jobs</h2>
 * Until the worker has read the recent {@code worker-commands} ({@link StoppedJobs}), at most
 * {@code jobweaver.worker.commands.catch-up-timeout} after its start, runs wait before they are recorded. A record of a deleted job is
 * acknowledged without being run, stored or published. A record of a cancelled job is recorded and closed as failed
 * with {@code WORKER.CANCELLED} without running its handler, and published: a redelivery re-publishes that stored
 * outcome like any finished duplicate's. A run in progress when its job is cancelled is interrupted
 * ({@link AttemptExecutor#cancel}) and ends the same way; one whose job is deleted meanwhile has its rows deleted
 * again once it is closed, and publishes nothing. Each cancelled run is counted in
 * {@code jobweaver_worker_runs_cancelled_total{when}} and logged with its jobId and traceId.
 *
 * <h2>Failures</h2>
 * Each database or Kafka call is classified by {@link Failures}:
 * <ul>
 *   <li>Transient (unreachable, timed out, anything not known to be permanent): retried with back-off (200 ms
 *       doubling to 10 s) until it succeeds or the worker's shutdown grace period is over; then the record is left
 *       unacknowledged and is delivered again to the next owner of the partition. Nothing is skipped.</li>
 *   <li>Permanent (the database refused the data, SQL state class 22 or 23; a data-caused runtime error): retrying the
 *       same record cannot help, and holding it would hold its run slot and the partition's committed offset for
 *       ever. The record is quarantined at once, with the reason and what could not be done, and acknowledged only
 *       after Kafka acknowledged the quarantined copy. The group-committed writes are confirmed alone first
 *       ({@link AttemptRepository}), so a record is never quarantined for another record's row.</li>
 * </ul>
 *
 * <h2>A permanent failure after the steps ran</h2>
 * The run happened but its outcome could not be stored (or, stored, could not be published). The worker publishes
 * only what its row says, so it publishes nothing and invents no outcome: the record is quarantined (its detail says
 * the steps ran and which outcome was lost) and acknowledged, and the row is left as it is ({@code RUNNING}, or
 * closed but unpublished). The scheduler then never hears of the attempt; when its lease ends it treats the attempt
 * as lost, as for a worker that died mid-run, and retries or dead-letters the job, so the job never stays
 * {@code RUNNING} and may run again (at least once). If the same run is delivered again, a {@code RUNNING} row is
 * closed as abandoned after its time bound plus the slack and that failure is published; a closed row is re-published.
 *
 * <h2>Threads</h2>
 * {@link #run} is called on the run's virtual thread and blocks it (database calls, Kafka acknowledgements, the
 * quarantine publish); it never throws.
 */
@ApplicationScoped
class JobRunner {

    private static final Logger LOG = Logger.getLogger(JobRunner.class);

    private final AttemptExecutor executor;
    private final AttemptRepository attempts;
    private final OutcomePublisher publisher;
    private final Quarantine quarantine;
    private final ObjectMapper mapper;
    private final WorkerConfig config;
    private final Tracer tracer;
    private final MeterRegistry registry;
    private final String workerId;
    private final Timer successDuration;
    private final Timer failureDuration;
    private final StoppedJobs stopped;
    private final Counter cancelledBeforeStart;
    private final Counter cancelledWhileRunning;
    /** Meters are looked up once, not built and registered again for every run. */
    private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();
    /** Runs started by this worker and not finished, by eventId: a duplicate record waits for them. */
    private final Map<UUID, CompletableFuture<Void>> local = new ConcurrentHashMap<>();
    private volatile Supplier<Boolean> stopping = () -> false;

    public JobRunner(AttemptExecutor executor, AttemptRepository attempts, OutcomePublisher publisher,
            Quarantine quarantine, ObjectMapper mapper, WorkerConfig config, Tracer tracer, MeterRegistry registry,
            StoppedJobs stopped, WorkerIdentity identity) {
        this.executor = executor;
        this.stopped = stopped;
        this.attempts = attempts;
        this.publisher = publisher;
        this.quarantine = quarantine;
        this.mapper = mapper;
        this.config = config;
        this.tracer = tracer;
        this.registry = registry;
        this.workerId = identity.id();
        this.successDuration = runDuration(registry, "success");
        this.failureDuration = runDuration(registry, "failure");
        this.cancelledBeforeStart = cancelledRuns(registry, "before-start");
        this.cancelledWhileRunning = cancelledRuns(registry, "while-running");
    }

    private static Counter cancelledRuns(MeterRegistry registry, String when) {
        return Counter.builder("jobweaver.worker.runs.cancelled")
                .description("Attempts ended by a cancel of their job, by whether the cancel came before they started")
                .tag("when", when)
                .register(registry);
    }

    private static Timer runDuration(MeterRegistry registry, String outcome) {
        return Timer.builder("jobweaver.worker.run.duration")
                .description("How long runs took, by outcome")
                .tag("outcome", outcome)
                .register(registry);
    }

    /** This worker's name in {@code execution_attempts} and outcome events. */
    public String workerId() {
        return workerId;
    }

    /** Lets retries give up when the worker shuts down. */
    void stopWhen(Supplier<Boolean> stopping) {
        this.stopping = stopping;
    }

    /** Handles one record: runs it, or sets it aside; never throws. */
    public void run(Message<byte[]> message) {
        RecordOrigin origin = RecordOrigin.of(message);
        RunJobEvent event = switch (EventReader.read(mapper, message.getPayload(), RunJobEvent.class,
                EventRules::problem)) {
            case EventReader.Read.Ok<RunJobEvent>(RunJobEvent ok) -> ok;
            case EventReader.Read.Bad<RunJobEvent>(QuarantineReason reason, String detail) -> {
                setAside(message, origin, reason, detail);
                yield null;
            }
        };
        if (event == null) {
            return;
        }
        String keyProblem = EventRules.keyProblem(origin.key(), event.jobId());
        if (keyProblem != null) {
            setAside(message, origin, QuarantineReason.INVALID, keyProblem);
            return;
        }
        Context parent = RecordTraces.parentContext(message);
        Span span = tracer.spanBuilder("run job")
                .setParent(parent)
                .setAttribute("jobweaver.job.id", event.jobId().toString())
                .setAttribute("jobweaver.attempt", event.attempt())
                .setAttribute("jobweaver.event.id", event.eventId().toString())
                .setAttribute("jobweaver.worker.id", workerId)
                .startSpan();
        String traceId = event.traceId() != null && !event.traceId().isBlank() ? event.traceId()
                : span.getSpanContext().getTraceId();
        try (Scope ignored = span.makeCurrent()) {
            MDC.put("traceId", traceId);
            MDC.put("jobId", event.jobId().toString());
            try {
                if (process(event, traceId, span)) {
                    ack(message);
                }
            } catch (RuntimeException e) {
                PermanentFailure permanent = PermanentFailure.of(e);
                if (permanent == null) {
                    throw e;
                }
                span.recordException(permanent.getCause());
                span.setStatus(StatusCode.ERROR, permanent.getMessage());
                setAside(message, origin, permanent.reason(), permanent.getMessage());
            }
        } catch (RuntimeException e) {
            // Only a transient failure gets here, and retries give up on those only once the worker is stopping.
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, e.toString());
            LOG.warnf("run %s of job %s left unacknowledged (worker stopping): %s; its record will be delivered again",
                    event.eventId(), event.jobId(), e.toString());
        } finally {
            span.end();
            MDC.remove("traceId");
            MDC.remove("jobId");
        }
    }

    /**
     * Publishes the quarantined copy of the record, then acknowledges it: never before Kafka acknowledged the copy.
     * The publish is retried whatever its failure (the copy is a key and raw bytes, nothing a retry cannot cure but
     * an unreachable broker) until the grace period of a shutdown is over; then the record is left unacknowledged.
     */
    private void setAside(Message<byte[]> message, RecordOrigin origin, QuarantineReason reason, String detail) {
        Duration timeout = config.run().publishTimeout();
        try {
            retry("quarantine record " + origin.position(), false,
                    () -> quarantine.send(origin, reason, detail).await().atMost(timeout));
        } catch (RuntimeException e) {
            LOG.warnf("record %s left unacknowledged (worker stopping): it could not be quarantined: %s; it will be"
                    + " delivered again", origin.position(), e.toString());
            return;
        }
        ack(message);
    }

    /** @return whether the record may be acknowledged */
    private boolean process(RunJobEvent event, String traceId, Span span) {
        stopped.awaitCurrent();
        if (stopped.command(event.jobId()) == JobCommand.DELETE) {
            LOG.infof("job %s was deleted; its run %s is acknowledged without running", event.jobId(),
                    event.eventId());
            outcome("skipped-deleted");
            span.setAttribute("jobweaver.outcome", "SKIPPED_DELETED");
            return true;
        }
        if (!executor.handles(event.jobType())) {
            handBack(event, traceId, span, executor.handBackReason(event));
            return true;
        }
        Duration dbTimeout = config.run().databaseTimeout();
        if (leaseOver(event) && retry("read the attempt", () -> attempts.find(event.eventId(), dbTimeout)).isEmpty()) {
            // Nobody began it and the scheduler counts it lost: it dispatches the job again (perhaps has already), so
            // running this copy too would run the job twice. A run that was begun goes on below: its outcome counts.
            handBack(event, traceId, span, WorkerErrorCode.LEASE_ENDED.code() + ": the run arrived after its lease"
                    + " ended (" + event.leaseUntil() + "), unbegun; the scheduler dispatches the job again");
            return true;
        }
        ExecutionAttempt fresh = ExecutionAttempt.running(event.eventId(), event.jobId(), event.attempt(), traceId,
                now(), workerId);
        CompletableFuture<Void> mine = new CompletableFuture<>();
        CompletableFuture<Void> other = local.putIfAbsent(event.eventId(), mine);
        if (other != null) {
            // The same run is in progress on this worker (a repeated dispatch): it is left to finish, then this
            // delivery re-publishes its stored outcome as any finished duplicate's does, so that every delivery of a
            // run ends with its outcome published, however the two interleave.
            LOG.infof("run %s is in progress on this worker already; waiting for it instead of running it again",
                    event.eventId());
            outcome("duplicate-in-progress");
            boolean finished = other.orTimeout(bound(event).toMillis() + dbTimeout.toMillis() * 3,
                    TimeUnit.MILLISECONDS).handle((done, failure) -> failure == null).join();
            return !finished || process(event, traceId, span);
        }
        try {
            AttemptRepository.Begin begin;
            try {
                begin = retry("record the attempt", () -> attempts.begin(fresh, dbTimeout));
            } catch (PermanentFailure f) {
                throw f.noting("its steps did not run");
            }
            ExecutionAttempt stored;
            if (begin.created()) {
                stored = execute(event, begin.attempt(), span);
            } else if (begin.attempt().outcome() != ExecutionOutcome.RUNNING) {
                LOG.infof("run %s finished already (%s); re-publishing its stored outcome without running it again",
                        event.eventId(), begin.attempt().outcome());
                outcome("republished");
                stored = begin.attempt();
            } else {
                stored = abandonedOrFinished(event, begin.attempt());
            }
            if (stored == null || stopped.command(event.jobId()) == JobCommand.DELETE) {
                // Deleted while it ran or was being recorded: the delete may have come before this row did.
                retry("delete the rows of the deleted job", () -> attempts.deleteJob(event.jobId()).await()
                        .atMost(dbTimeout));
                LOG.infof("job %s was deleted during run %s; its rows are deleted and nothing is published",
                        event.jobId(), event.eventId());
                outcome("deleted");
                span.setAttribute("jobweaver.outcome", "DELETED");
                return true;
            }
            span.setAttribute("jobweaver.outcome", stored.outcome().name());
            try {
                retry("publish the outcome", () -> {
                    publisher.publish(stored, config.run().publishTimeout());
                    return null;
                });
            } catch (PermanentFailure f) {
                throw f.noting("its outcome " + stored.outcome() + " is stored but was not published");
            }
            return true;
        } finally {
            local.remove(event.eventId(), mine);
            mine.complete(null);
        }
    }

    /**
     * A run this worker does not run, for {@code why}: one of a type it has no handler for (a worker of a pool whose
     * members run different types received a run meant for another; the scheduler aims such runs at the partitions of
     * a worker that declares the type, but a rebalance can move them), or one whose lease ended before it arrived. It
     * is neither recorded nor run: it goes back to the scheduler, which dispatches it again without spending a retry
     * (or, when its lease sweep came first, has done so and ignores this). Counted in
     * {@code jobweaver_worker_outcomes_total{outcome="handed-back"}}.
     */
    private void handBack(RunJobEvent event, String traceId, Span span, String why) {
        LOG.infof("run %s of job %s handed back: %s", event.eventId(), event.jobId(), why);
        outcome("handed-back");
        span.setAttribute("jobweaver.outcome", "HANDED_BACK");
        try {
            retry("hand the run back", () -> {
                publisher.handBack(event, traceId, workerId, why, config.run().publishTimeout());
                return null;
            });
        } catch (PermanentFailure f) {
            throw f.noting("it was not run and not handed back");
        }
    }

    /**
     * Whether the run's lease ended before it got here: it waited in Kafka while no worker took it (all were down, or
     * this one restarted after a drain), and the scheduler's lease sweep gives such an attempt up.
     */
    private static boolean leaseOver(RunJobEvent event) {
        return event.leaseUntil() != null && Instant.now().isAfter(event.leaseUntil());
    }

    /**
     * A run found {@code RUNNING} under another worker's name: a worker that stopped, or one still running it (the
     * partition moved in a rebalance). A live worker closes its row within the run's time bound, so the row is
     * abandoned once it is older than the bound plus the slack; until then wait for it to be closed, and publish what
     * it says. Closing early would be consistent (the other worker's close is conditional and then publishes this
     * failure) but would turn a successful run into a failed attempt and a retry.
     */
    private ExecutionAttempt abandonedOrFinished(RunJobEvent event, ExecutionAttempt running) {
        Duration dbTimeout = config.run().databaseTimeout();
        Instant abandonedAt = running.startedAt().plus(bound(event)).plus(config.run().timeBoundSlack());
        ExecutionAttempt current = running;
        if (Instant.now().isBefore(abandonedAt)) {
            LOG.infof("run %s is RUNNING on worker %s since %s; waiting until %s for it to finish", event.eventId(),
                    running.workerId(), running.startedAt(), abandonedAt);
        }
        while (current.outcome() == ExecutionOutcome.RUNNING && Instant.now().isBefore(abandonedAt)) {
            sleep(500);
            current = retry("read the attempt", () -> attempts.find(event.eventId(), dbTimeout)).orElse(current);
        }
        if (current.outcome() != ExecutionOutcome.RUNNING) {
            LOG.infof("run %s was finished by worker %s (%s); re-publishing its stored outcome", event.eventId(),
                    current.workerId(), current.outcome());
            outcome("republished");
            return current;
        }
        LOG.warnf("%s run %s was left RUNNING by worker %s since %s; closing it as failed",
                WorkerErrorCode.WORKER_STOPPED.code(), event.eventId(), running.workerId(), running.startedAt());
        outcome("closed-abandoned");
        return retry("close the abandoned attempt", () -> attempts.finish(event.eventId(),
                ExecutionOutcome.FAILURE, RunResult.WORKER_STOPPED_MESSAGE, now(), dbTimeout));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for another worker's run", e);
        }
    }

    /** The stored outcome of the run, or null if its job was deleted meanwhile and its row with it. */
    private ExecutionAttempt execute(RunJobEvent event, ExecutionAttempt started, Span span) {
        long begin = System.nanoTime();
        RunResult result = executor.run(event, started.traceId());
        (result.success() ? successDuration : failureDuration).record(System.nanoTime() - begin, TimeUnit.NANOSECONDS);
        outcome(result.success() ? "success" : "failure");
        if (result.cancel() != null) {
            (result.cancel() == RunResult.Cancel.BEFORE_START ? cancelledBeforeStart : cancelledWhileRunning)
                    .increment();
            span.setStatus(StatusCode.ERROR, result.errorMessage());
            LOG.infof("attempt %d of job %s (traceId %s) cancelled: %s", event.attempt(), event.jobId(),
                    started.traceId(), result.errorMessage());
        } else if (!result.success()) {
            span.setStatus(StatusCode.ERROR, result.errorMessage());
            LOG.infof("attempt %d of job %s failed: %s", event.attempt(), event.jobId(), result.errorMessage());
        } else {
            LOG.debugf("attempt %d of job %s succeeded", event.attempt(), event.jobId());
        }
        ExecutionOutcome outcome = result.success() ? ExecutionOutcome.SUCCESS : ExecutionOutcome.FAILURE;
        ExecutionAttempt stored;
        try {
            stored = retry("store the outcome", () -> {
                try {
                    return attempts.finish(event.eventId(), outcome, result.errorMessage(), result.result(), now(),
                            config.run().databaseTimeout());
                } catch (AttemptRepository.Vanished vanished) {
                    if (stopped.command(event.jobId()) == JobCommand.DELETE) {
                        return null; // the job's DELETE took the row: nothing to store or publish
                    }
                    throw vanished;
                }
            });
        } catch (PermanentFailure f) {
            throw f.noting("its steps ran; their outcome " + outcome + " was neither stored nor published");
        }
        if (stored != null && stored.outcome() != outcome) {
            LOG.warnf("run %s was closed as %s by another worker meanwhile; publishing that", event.eventId(),
                    stored.outcome());
        }
        return stored;
    }

    private Duration bound(RunJobEvent event) {
        return executor.bound(event);
    }

    /**
     * Retries {@code action} with back-off until it succeeds or the worker stops (then it throws); gives up at once,
     * with a {@link PermanentFailure}, on a failure no retry can cure.
     */
    private <T> T retry(String what, Supplier<T> action) {
        return retry(what, true, action);
    }

    private <T> T retry(String what, boolean permanentGivesUp, Supplier<T> action) {
        long backoff = 200;
        for (int attempt = 1; ; attempt++) {
            try {
                return action.get();
            } catch (RuntimeException e) {
                QuarantineReason permanent = permanentGivesUp ? Failures.permanentReason(e) : null;
                if (permanent != null) {
                    throw new PermanentFailure(permanent, "could not " + what + ": " + Failures.describe(e), e);
                }
                if (stopping.get()) {
                    throw e;
                }
                LOG.warnf("could not %s (try %d): %s; trying again in %d ms", what, attempt, e.toString(), backoff);
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                backoff = Math.min(backoff * 2, 10_000);
            }
        }
    }

    /** A call that failed for a reason no retry can cure; its message is the quarantined record's detail. */
    private static final class PermanentFailure extends RuntimeException {

        private final QuarantineReason reason;

        PermanentFailure(QuarantineReason reason, String detail, Throwable cause) {
            super(detail, cause, false, false); // a verdict, thrown to unwind the run: no stack trace of its own
            this.reason = reason;
        }

        /** {@code e} as a permanent failure, or null if a retry could cure it. */
        static PermanentFailure of(RuntimeException e) {
            if (e instanceof PermanentFailure permanent) {
                return permanent;
            }
            QuarantineReason reason = Failures.permanentReason(e);
            return reason == null ? null : new PermanentFailure(reason, "could not run it: " + Failures.describe(e), e);
        }

        QuarantineReason reason() {
            return reason;
        }

        /** The same failure, its detail saying what it left undone. */
        PermanentFailure noting(String consequence) {
            return new PermanentFailure(reason, getMessage() + "; " + consequence, getCause());
        }
    }

    private void ack(Message<byte[]> message) {
        message.ack().toCompletableFuture().join();
    }

    private void outcome(String outcome) {
        outcomes.computeIfAbsent(outcome, o -> Counter.builder("jobweaver.worker.outcomes")
                .description("Records handled, by what happened to them")
                .tag("outcome", o)
                .register(registry)).increment();
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
