package dev.jobweaver.scheduler.outcome.service;

import dev.jobweaver.scheduler.dispatch.service.Dispatcher;
import dev.jobweaver.scheduler.job.persistence.JobExecution;
import dev.jobweaver.scheduler.job.persistence.JobExecutionRepository;
import dev.jobweaver.scheduler.job.service.BackoffPolicy;
import dev.jobweaver.scheduler.job.service.JobStateMachine;
import dev.jobweaver.scheduler.job.service.JobStateMachine.Verdict;
import dev.jobweaver.scheduler.job.service.JobStateWriter;
import dev.jobweaver.scheduler.job.service.Outcome;
import dev.jobweaver.scheduler.observability.JobLog;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.SchedulerMetrics;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Applies the outcome of an attempt: {@code COMPLETED}; or {@code PENDING} with a backoff while retries remain;
 * or {@code FAILED} with a dead letter.
 *
 * <p>Dual-write rule: in one transaction the row is locked ({@code FOR UPDATE}, waiting for a dispatch round that
 * may still hold it), judged, updated on its version, the status event (and dead letter) published and
 * acknowledged by Kafka, then committed; the caller acknowledges the consumed record after that. An outcome for an
 * attempt other than the current one is stale and ignored; a redelivered outcome of an attempt already applied
 * re-publishes the current status with the same version, so a crash between commit and publish loses nothing.
 */
@ApplicationScoped
public class OutcomeService {

    private static final Logger LOG = Logger.getLogger(OutcomeService.class);

    private final JobExecutionRepository repository;
    private final JobStateWriter writer;
    private final BackoffPolicy backoff;
    private final Dispatcher dispatcher;
    private final JobTracing tracing;
    private final SchedulerMetrics metrics;

    public OutcomeService(JobExecutionRepository repository, JobStateWriter writer, BackoffPolicy backoff,
                          Dispatcher dispatcher, JobTracing tracing, SchedulerMetrics metrics) {
        this.repository = repository;
        this.writer = writer;
        this.backoff = backoff;
        this.dispatcher = dispatcher;
        this.tracing = tracing;
        this.metrics = metrics;
    }

    /** What applying an outcome did. */
    public enum Result {
        APPLIED,
        REPUBLISHED,
        STALE,
        UNKNOWN_JOB
    }

    /**
     * Applies {@code outcome}, consumed from {@code topic}.
     *
     * @param parent the trace context of the consumed record (the worker's publish span), or null
     */
    public Uni<Result> apply(Outcome outcome, String topic, Context parent) {
        return Uni.createFrom().deferred(() -> {
            Span[] span = new Span[1];
            Instant[] now = new Instant[1];
            JobExecution[] written = new JobExecution[1];
            Uni<Result> work = repository.pool().withTransaction(tx -> repository.lock(tx, outcome.jobId())
                    .chain(found -> {
                        if (found.isEmpty()) {
                            return Uni.createFrom().item(Result.UNKNOWN_JOB);
                        }
                        JobExecution job = found.get().job();
                        now[0] = found.get().now();
                        Context base = parent != null ? parent : JobTracing.fromTraceparent(job.traceparent());
                        span[0] = tracing.start("scheduler apply " + outcome.kind().name().toLowerCase(), base,
                                job.jobId(), outcome.attempt());
                        Context trace = base.with(span[0]);
                        Verdict verdict = JobStateMachine.judge(job, outcome);
                        return switch (verdict) {
                            case STALE -> {
                                written[0] = job;
                                yield Uni.createFrom().item(Result.STALE);
                            }
                            case ALREADY_APPLIED -> {
                                written[0] = job;
                                yield writer.republish(job, trace).replaceWith(Result.REPUBLISHED);
                            }
                            case APPLY -> {
                                JobExecution next = outcome.kind() == Outcome.Kind.COMPLETED
                                        ? JobStateMachine.complete(job, outcome, now[0])
                                        : JobStateMachine.fail(job, outcome.error(), outcome.startedAt(), now[0],
                                                backoff.delay(job.retryCount()));
                                yield writer.write(tx, job, next, trace)
                                        .invoke(w -> written[0] = w)
                                        .replaceWith(Result.APPLIED);
                            }
                        };
                    }));
            return work.onItemOrFailure().invoke((result, failure) -> {
                if (span[0] != null) {
                    if (result != null) {
                        span[0].setAttribute("jobweaver.outcome.result", result.name());
                    }
                    JobTracing.end(span[0], failure);
                }
            }).invoke(result -> afterCommit(outcome, topic, result, written[0], now[0]));
        });
    }

    private void afterCommit(Outcome outcome, String topic, Result result, JobExecution job, Instant now) {
        switch (result) {
            case UNKNOWN_JOB -> {
                metrics.unknownOutcome();
                JobLog.warn(LOG, outcome.jobId(), null, "%s outcome of attempt %d for an unknown job ignored",
                        outcome.kind(), outcome.attempt());
            }
            case STALE -> {
                metrics.staleOutcome(topic);
                JobLog.info(LOG, job.jobId(), job.traceId(),
                        "stale %s outcome of attempt %d (eventId %s) ignored: job is %s at attempt %d",
                        outcome.kind(), outcome.attempt(), outcome.eventId(), job.status(), job.attempt());
            }
            case REPUBLISHED -> {
                metrics.redeliveredOutcome();
                JobLog.info(LOG, job.jobId(), job.traceId(),
                        "%s outcome of attempt %d already applied: re-published status %s v%d",
                        outcome.kind(), outcome.attempt(), job.status(), job.version());
            }
            case APPLIED -> {
                dispatcher.wake(); // a slot of the in-flight limit is free
                switch (job.status()) {
                    case COMPLETED -> {
                        metrics.completed();
                        JobLog.info(LOG, job.jobId(), job.traceId(), "job COMPLETED after %d attempt(s)", job.attempt());
                    }
                    case PENDING -> {
                        metrics.retryScheduled("failed");
                        JobLog.info(LOG, job.jobId(), job.traceId(),
                                "attempt %d failed (%s): retry %d of %d at %s", job.attempt(), job.lastError(),
                                job.retryCount(), job.maxRetries(), job.nextRunAt());
                        dispatcher.wakeAt(job.nextRunAt(), now);
                    }
                    case FAILED -> {
                        metrics.deadLettered();
                        JobLog.warn(LOG, job.jobId(), job.traceId(),
                                "attempt %d failed (%s): retries exhausted, job FAILED and dead-lettered",
                                job.attempt(), job.lastError());
                    }
                    default -> {
                    }
                }
            }
        }
    }
}
