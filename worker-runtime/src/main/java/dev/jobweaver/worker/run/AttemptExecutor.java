package dev.jobweaver.worker.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.error.WorkerErrorCode;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Results;
import dev.jobweaver.worker.command.StoppedJobs;
import dev.jobweaver.worker.WorkerConfig;
import dev.jobweaver.sdk.Deadline;
import dev.jobweaver.worker.handler.HandlerRegistry;
import dev.jobweaver.sdk.JobFailure;
import dev.jobweaver.sdk.JobHandler;
import dev.jobweaver.sdk.RunContext;
import dev.jobweaver.worker.handler.RunResult;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Runs one attempt through its type's {@link JobHandler}, on the calling virtual thread, within its
 * {@link RunTimeBound}; never throws.
 *
 * <p>The payload is read into the handler's record once. Handlers honour the deadline themselves (a SLEEP ends at
 * it, a COMPUTE checks it as it loops, an HTTP request's timeout is cut to it); for one that does not, a watchdog
 * interrupts the run's thread at the deadline, and a failure after that interrupt is reported as the deadline's
 * ({@code WORKER.TIMEOUT} when the job set {@code timeoutMs}). The same alarm serves a cancel ({@link #cancel}, from
 * the thread applying the command): it interrupts the run at once, and the attempt fails with {@code WORKER.CANCELLED}
 * whatever the handler made of the interrupt; an attempt of a job cancelled before it started fails so without its
 * handler being called. A type without a handler is handed back by the {@code JobRunner} before it gets here
 * ({@link #handles}); should one get here it fails with {@code WORKER.UNKNOWN_JOB_TYPE}; a result larger than {@link Results#MAX_BYTES} or holding U+0000 (which the
 * database cannot store) fails the attempt, naming why.
 */
@ApplicationScoped
public class AttemptExecutor {

    private static final Logger LOG = Logger.getLogger(AttemptExecutor.class);

    private final HandlerRegistry handlers;
    private final WorkerConfig.Run config;
    private final StoppedJobs stopped;
    /** The alarm of each attempt running on this worker, by jobId: what a cancel interrupts. */
    private final Map<UUID, Alarm> running = new ConcurrentHashMap<>();
    /** One platform thread for every run's alarm: an alarm only interrupts a thread, and most are cancelled. */
    private final ScheduledThreadPoolExecutor watchdog;

    @Inject
    public AttemptExecutor(HandlerRegistry handlers, WorkerConfig config, StoppedJobs stopped) {
        this(handlers, config.run(), stopped);
    }

    /** An executor over {@code handlers} with the run settings {@code config}, for which no job is ever cancelled. */
    public AttemptExecutor(HandlerRegistry handlers, WorkerConfig.Run config) {
        this(handlers, config, new StoppedJobs(Clock.systemUTC(), Duration.ofDays(1), 1));
    }

    /** An executor over {@code handlers} with the run settings {@code config} that honours the cancels in {@code stopped}. */
    public AttemptExecutor(HandlerRegistry handlers, WorkerConfig.Run config, StoppedJobs stopped) {
        this.handlers = handlers;
        this.config = config;
        this.stopped = stopped;
        this.watchdog = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().daemon().name("jobweaver-run-watchdog").factory());
        // Most alarms are cancelled long before they are due: take them out of the queue at once.
        watchdog.setRemoveOnCancelPolicy(true);
    }

    /**
     * Interrupts the attempt of job {@code jobId} running on this worker, if one is; it fails with
     * {@code WORKER.CANCELLED}. Returns whether one was. Called on the thread applying the command (the
     * {@code worker-commands} consumer's); record the cancel in {@link StoppedJobs} first, so that an attempt about to
     * start is stopped by the one or the other.
     */
    public boolean cancel(UUID jobId) {
        Alarm alarm = running.get(jobId);
        return alarm != null && alarm.cancel();
    }

    /** Whether this worker has a handler for {@code type}: a run of another type is handed back, not run. */
    public boolean handles(JobType type) {
        return handlers.handler(type) != null;
    }

    /** Why this worker hands back a run of {@code event}'s type ({@code WORKER.UNKNOWN_JOB_TYPE}). */
    public String handBackReason(RunJobEvent event) {
        return unknownType(event);
    }

    /** Runs attempt {@code event} of its job, traced as {@code traceId}; the outcome, never an exception. */
    public RunResult run(RunJobEvent event, String traceId) {
        if (stopped.command(event.jobId()) != null) {
            return RunResult.cancelled(RunResult.Cancel.BEFORE_START);
        }
        JobHandler<?> handler = handlers.handler(event.jobType());
        if (handler == null) {
            return RunResult.failed(unknownType(event));
        }
        return run(handler, event, traceId);
    }

    /**
     * The bound of attempt {@code event}: how long a worker running it may take. A type without a handler, or a
     * payload its handler cannot read, fails at once, so only the slack is left.
     */
    public Duration bound(RunJobEvent event) {
        JobHandler<?> handler = handlers.handler(event.jobType());
        if (handler == null) {
            return config.timeBoundSlack();
        }
        return boundOf(handler, event);
    }

    private <P> Duration boundOf(JobHandler<P> handler, RunJobEvent event) {
        try {
            return bound(handler, Payloads.read(event.payload(), handler.payloadType()), event).length();
        } catch (IllegalArgumentException unreadable) {
            return config.timeBoundSlack();
        }
    }

    private <P> RunTimeBound bound(JobHandler<P> handler, P payload, RunJobEvent event) {
        Duration expected;
        try {
            expected = handler.expectedDuration(payload);
        } catch (ArithmeticException overflow) {
            expected = RunTimeBound.CAP;
        }
        return RunTimeBound.of(expected, event.control(), handler.defaults(), config);
    }

    private <P> RunResult run(JobHandler<P> handler, RunJobEvent event, String traceId) {
        P payload;
        try {
            payload = Payloads.read(event.payload(), handler.payloadType());
        } catch (IllegalArgumentException unreadable) {
            // The event rules read it already; only a handler whose record disagrees with them gets here.
            return RunResult.failed("payload is not a " + handler.type() + " payload: " + unreadable.getMessage());
        }
        RunTimeBound bound = bound(handler, payload, event);
        // DEBUG, not INFO: at thousands of runs a second this line costs as much CPU as running a no-op job (JFR); a
        // run stays observable through its trace, jobweaver_worker_outcomes_total and run_duration, and a failure is
        // still logged at INFO.
        if (LOG.isDebugEnabled()) {
            LOG.debugf("running attempt %d of job %s (%s), time bound %d ms, on %s", event.attempt(), event.jobId(),
                    handler.type(), bound.length().toMillis(), Thread.currentThread());
        }
        Deadline deadline = bound.start();
        Alarm alarm = new Alarm(Thread.currentThread());
        // Registered before the cancelled jobs are asked: a cancel recorded after that question finds the alarm.
        // The scheduler runs one attempt of a job at a time; should a stale redelivery overlap the next attempt here,
        // a cancel interrupts the one registered last, and the other ends within its bound.
        running.put(event.jobId(), alarm);
        try {
            if (stopped.command(event.jobId()) != null) {
                return RunResult.cancelled(RunResult.Cancel.BEFORE_START);
            }
            return run(handler, event, traceId, payload, deadline, alarm);
        } finally {
            running.remove(event.jobId(), alarm);
        }
    }

    private <P> RunResult run(JobHandler<P> handler, RunJobEvent event, String traceId, P payload, Deadline deadline,
            Alarm alarm) {
        ScheduledFuture<?> due = alarm(alarm, deadline);
        JsonNode result = null;
        String failure = null;
        try {
            result = handler.run(new RunContext<>(event.jobId(), event.attempt(), traceId, payload, deadline,
                    Payloads.input(event.payload()), Payloads.results(event.payload())));
        } catch (JobFailure f) {
            failure = f.getMessage() == null ? handler.type() + " attempt failed" : f.getMessage();
        } catch (InterruptedException interrupted) {
            failure = RunResult.WORKER_STOPPED_MESSAGE;
        } catch (RuntimeException | StackOverflowError unexpected) {
            failure = handler.type() + " handler failed unexpectedly: " + unexpected;
            LOG.warnf(unexpected, "attempt %d of job %s: %s", event.attempt(), event.jobId(), failure);
        } finally {
            if (due != null) {
                due.cancel(false);
            }
        }
        Alarm.Rang rang = alarm.silence();
        if (rang != null) {
            Thread.interrupted(); // the alarm's interrupt was for this attempt only, not for what the thread does next
            if (rang == Alarm.Rang.CANCEL) {
                // Even a handler that finished regardless: a cancelled job never reports COMPLETED afterwards.
                return RunResult.cancelled(RunResult.Cancel.WHILE_RUNNING);
            }
            if (failure != null) {
                failure = deadline.exceeded();
            }
        } else if (RunResult.WORKER_STOPPED_MESSAGE.equals(failure)) {
            Thread.currentThread().interrupt(); // shutdown: keep the flag for the run's remaining waits
        }
        if (failure != null) {
            return RunResult.failed(failure);
        }
        if (result == null || result.isNull() || result.isMissingNode()) {
            return RunResult.succeeded();
        }
        String unstorable = unstorable(result);
        if (unstorable != null) {
            return RunResult.failed(handler.type() + " handler reported a result it may not: " + unstorable);
        }
        return RunResult.succeeded(result);
    }

    /**
     * Sets {@code alarm} off at {@code deadline}; null once the worker is stopping and the watchdog is gone, when the
     * handler's own honouring of the deadline has to do (shutdown interrupts the run anyway).
     */
    private ScheduledFuture<?> alarm(Alarm alarm, Deadline deadline) {
        try {
            return watchdog.schedule(alarm, deadline.remainingNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopped) {
            return null;
        }
    }

    /** Why {@code result} cannot be stored and published, or null. */
    static String unstorable(JsonNode result) {
        if (Results.tooLarge(result)) {
            return "it is larger than " + Results.MAX_BYTES + " bytes of JSON";
        }
        return hasNul(result) ? "it holds the NUL character (U+0000), which the database cannot store" : null;
    }

    private static boolean hasNul(JsonNode node) {
        if (node.isTextual()) {
            return node.textValue().indexOf('\0') >= 0;
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (field.getKey().indexOf('\0') >= 0 || hasNul(field.getValue())) {
                    return true;
                }
            }
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                if (hasNul(element)) {
                    return true;
                }
            }
        }
        return false;
    }

    private String unknownType(RunJobEvent event) {
        return WorkerErrorCode.UNKNOWN_JOB_TYPE.code() + ": this worker has no handler for job type "
                + event.jobType() + " (it runs " + handlers.types() + ")";
    }

    /**
     * Interrupts a run's thread at its deadline ({@link #run}, on the watchdog's thread) or at a cancel of its job
     * ({@link #cancel}, on the command consumer's), unless the run was over first; the first to ring names the
     * failure, except that a cancel after the deadline still makes it a cancel. All sides take the lock, so once
     * {@link #silence} returns, no interrupt from this alarm is still to come.
     */
    private static final class Alarm implements Runnable {

        /** Why an alarm rang. */
        enum Rang { DEADLINE, CANCEL }

        private final Thread thread;
        private boolean over;
        private Rang rang;

        Alarm(Thread thread) {
            this.thread = thread;
        }

        @Override
        public synchronized void run() {
            if (!over && rang == null) {
                rang = Rang.DEADLINE;
                thread.interrupt();
            }
        }

        /** Rings for a cancel; whether the run was still going. */
        synchronized boolean cancel() {
            if (over) {
                return false;
            }
            if (rang == null) {
                thread.interrupt();
            }
            rang = Rang.CANCEL;
            return true;
        }

        /** Ends the alarm; why it rang (and interrupted the thread), or null if it did not. */
        synchronized Rang silence() {
            over = true;
            return rang;
        }
    }

    @PreDestroy
    void stop() {
        watchdog.shutdownNow();
    }
}
