package dev.jobweaver.worker.command;

import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.worker.store.AttemptRepository;
import dev.jobweaver.worker.run.AttemptExecutor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Applies a cancel or delete of a job on this worker: remembers the job in {@link StoppedJobs} (so that its records
 * are not run), then interrupts its attempt if one runs here ({@link AttemptExecutor#cancel}); a DELETE also deletes
 * the job's rows from {@code execution_attempts}.
 *
 * <p>Idempotent: applying a command again changes nothing. {@link #apply} runs on the {@code worker-commands}
 * channel's event loop and never blocks it: the remembering and the interrupt are immediate, the delete is a reactive
 * statement, retried with back-off for a while and otherwise left to the next delivery (a restart reads the window
 * again).
 */
@ApplicationScoped
class JobCommands {

    private static final Logger LOG = Logger.getLogger(JobCommands.class);

    private final StoppedJobs stopped;
    private final AttemptExecutor executor;
    private final AttemptRepository attempts;
    private final Map<JobCommand, Counter> applied = new EnumMap<>(JobCommand.class);

    public JobCommands(StoppedJobs stopped, AttemptExecutor executor, AttemptRepository attempts,
            MeterRegistry registry) {
        this.stopped = stopped;
        this.executor = executor;
        this.attempts = attempts;
        for (JobCommand command : List.of(JobCommand.CANCEL, JobCommand.DELETE)) { // a REQUEUE never comes here
            applied.put(command, Counter.builder("jobweaver.worker.commands")
                    .description("Commands on worker-commands that changed what this worker knows, by command")
                    .tag("command", command.name())
                    .register(registry));
        }
    }

    /**
     * Applies {@code command}, given at {@code at}, within {@code span} (the command's, current on the caller); the Uni
     * completes once the job's rows are deleted (DELETE) or at once.
     */
    public Uni<Void> apply(JobCommandEvent command, Instant at, Span span) {
        boolean fresh = stopped.record(command.jobId(), command.command(), at);
        if (fresh) {
            applied.get(command.command()).increment();
        }
        // Interrupt even when nothing changed: a replayed CANCEL is harmless, and it closes any gap with a run that
        // registered itself while the registry already knew of the job.
        boolean interrupted = executor.cancel(command.jobId());
        span.setAttribute("jobweaver.command.interrupted", interrupted);
        if (fresh || interrupted) {
            LOG.infof("%s of job %s (traceId %s, requested at %s)%s", command.command(), command.jobId(),
                    command.traceId(), command.requestedAt(), interrupted ? ": its running attempt is interrupted" : "");
        }
        if (command.command() != JobCommand.DELETE) {
            return Uni.createFrom().voidItem();
        }
        return attempts.deleteJob(command.jobId())
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5)).atMost(5)
                .invoke(rows -> {
                    span.setAttribute("jobweaver.command.deleted_rows", rows);
                    if (rows > 0) {
                        LOG.infof("deleted %d execution attempt(s) of job %s", rows, command.jobId());
                    }
                })
                .onFailure().invoke(e -> {
                    span.recordException(e);
                    span.setStatus(StatusCode.ERROR, e.toString());
                    LOG.warnf("could not delete the execution attempts of deleted job %s: %s; they stay until the"
                            + " command is read again (at the next start within the window)", command.jobId(),
                            e.toString());
                })
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
