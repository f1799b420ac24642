package dev.jobweaver.scheduler.command.service;

import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.scheduler.dispatch.service.Dispatcher;
import dev.jobweaver.scheduler.job.messaging.JobEventPublisher;
import dev.jobweaver.scheduler.job.persistence.JobExecution;
import dev.jobweaver.scheduler.job.persistence.JobExecutionRepository;
import dev.jobweaver.scheduler.job.persistence.JobExecutionRepository.EarlyCancel;
import dev.jobweaver.scheduler.job.persistence.JobExecutionRepository.LockedMany;
import dev.jobweaver.scheduler.job.persistence.JobExecutionRepository.Write;
import dev.jobweaver.scheduler.job.service.JobStateMachine;
import dev.jobweaver.scheduler.job.service.JobStateWriter;
import dev.jobweaver.scheduler.observability.JobLog;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.SchedulerMetrics;
import dev.jobweaver.scheduler.workflow.service.WorkflowOrchestrator;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Applies clients' commands: a cancel makes a {@code PENDING} or {@code RUNNING} job {@code CANCELLED} (and tells the
 * workers to interrupt a running one); a delete removes a finished job and tells every reader to forget it.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Dual-write rule, for a whole poll at a time, as outcomes: in one transaction the poll's rows are locked
 *       ({@code FOR UPDATE}, in jobId order), each command is applied to the row as the commands before it left it,
 *       each changed row is written once on the version it was locked at, every event is published and acknowledged
 *       by Kafka, and only then is the transaction committed; the caller acknowledges the records after that. Any
 *       failure rolls the whole poll back and the caller applies it again: applying is idempotent.</li>
 *   <li>A cancel and a dispatch, an outcome or a lease expiry of the same job never interleave: each holds the row's
 *       lock (a dispatch claim skips a row a cancel holds; a cancel waits for a dispatch round that holds its row and
 *       then sees the job {@code RUNNING}). A cancelled job is never dispatched, and outcomes of its run change
 *       nothing ({@link JobStateMachine#judge}).</li>
 *   <li>A {@code CANCELLED} status is published with the job's next version; a cancel of a finished job (a
 *       redelivered one included) changes and publishes nothing. A {@code RUNNING} job's cancel also publishes a
 *       {@link JobCommand#CANCEL} on {@code worker-commands}.</li>
 *   <li>A cancel of a job not ingested yet is kept as a placeholder row ({@code CANCELLED}, version 0; migration V5
 *       says why a row): ingestion then stores the job {@code CANCELLED} and publishes that. If the job's ingestion
 *       commits while the placeholder is being written, the poll is applied again, and then finds the job.</li>
 *   <li>A delete of a finished job (or of one this service does not know) deletes its row, publishes a tombstone on
 *       {@code job-status} and a {@link JobCommand#DELETE} on {@code worker-commands}; a redelivered one publishes
 *       them again. A delete of a job that has not finished changes nothing.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Runs on the Vert.x context of the consuming channel; nothing blocks.
 */
@ApplicationScoped
public class JobCommandService {

    private static final Logger LOG = Logger.getLogger(JobCommandService.class);

    private final JobExecutionRepository repository;
    private final JobStateWriter writer;
    private final JobEventPublisher publisher;
    private final Dispatcher dispatcher;
    private final JobTracing tracing;
    private final SchedulerMetrics metrics;
    private final WorkflowOrchestrator workflows;

    public JobCommandService(JobExecutionRepository repository, JobStateWriter writer, JobEventPublisher publisher,
                             Dispatcher dispatcher, JobTracing tracing, SchedulerMetrics metrics,
                             WorkflowOrchestrator workflows) {
        this.repository = repository;
        this.writer = writer;
        this.publisher = publisher;
        this.dispatcher = dispatcher;
        this.tracing = tracing;
        this.metrics = metrics;
        this.workflows = workflows;
    }

    /** What applying a command did. */
    public enum Result {
        /** A PENDING or RUNNING job became CANCELLED. */
        CANCELLED,
        /** The job was not ingested yet: the cancel is kept for it. */
        REMEMBERED,
        /** A cancel of a finished job, or of a job whose cancel is kept already: nothing changed. */
        NOT_CANCELLABLE,
        /** A finished or unknown job was deleted (its tombstone and the workers' delete published). */
        DELETED,
        /** A delete of a job that has not finished: nothing changed. */
        NOT_FINISHED
    }

    /**
     * A command as consumed.
     *
     * @param parent the trace context of the consumed record (the API's publish), or null
     */
    public record Received(JobCommandEvent command, Context parent) {
    }

    /**
     * What one command did.
     *
     * @param before the job's status when the command came to it, or null when there was no row
     * @param job    the job as the command left it, or null when there is no row
     */
    public record Applied(Received received, Result result, JobStatus before, JobExecution job) {
    }

    /** Applies {@code batch} in order, in one transaction; completes after the commit. */
    public Uni<List<Applied>> applyAll(List<Received> batch) {
        if (batch.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Uni.createFrom().deferred(() -> {
            List<Span> spans = new ArrayList<>(batch.size());
            Set<UUID> ids = new LinkedHashSet<>();
            batch.forEach(r -> ids.add(r.command().jobId()));
            WorkflowOrchestrator.Round workflowRound = workflows.round();
            Uni<List<Applied>> work = repository.pool().withTransaction(tx -> repository.lockAll(tx, ids)
                    .chain(locked -> remember(tx, batch, locked)
                            .chain(remembered -> apply(tx, batch, locked, remembered, spans, workflowRound))));
            return work.onItemOrFailure().invoke((applied, failure) -> spans.forEach(s -> JobTracing.end(s, failure)))
                    .onFailure().invoke(workflowRound::failed)
                    .invoke(applied -> workflowRound.committed())
                    .invoke(this::afterCommit);
        });
    }

    /**
     * Keeps the cancels of jobs {@code locked} does not hold as placeholders; the ids kept. A job whose ingestion
     * committed in the meantime fails the poll, which is then applied again and finds the job: locking it here
     * instead, after placeholders that ingestion transactions may be waiting for, could close a wait cycle through
     * the ingestion fence that the database cannot see.
     */
    private Uni<Set<UUID>> remember(SqlConnection tx, List<Received> batch, LockedMany locked) {
        Map<UUID, EarlyCancel> early = new LinkedHashMap<>();
        for (Received received : batch) {
            JobCommandEvent command = received.command();
            if (command.command() == JobCommand.CANCEL && !locked.jobs().containsKey(command.jobId())) {
                early.putIfAbsent(command.jobId(),
                        new EarlyCancel(command.jobId(), command.traceId(), command.requestedAt()));
            }
        }
        if (early.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return repository.insertEarlyCancels(tx, List.copyOf(early.values())).map(written -> {
            if (written.size() != early.size()) {
                Set<UUID> ingested = new LinkedHashSet<>(early.keySet());
                ingested.removeAll(written);
                throw new IngestedMeanwhile(ingested);
            }
            return written;
        });
    }

    private Uni<List<Applied>> apply(SqlConnection tx, List<Received> batch, LockedMany locked, Set<UUID> remembered,
                                     List<Span> spans, WorkflowOrchestrator.Round workflowRound) {
        Instant now = locked.now();
        Map<UUID, JobExecution> current = new HashMap<>(locked.jobs());
        Map<UUID, JobExecution> changed = new LinkedHashMap<>();
        Set<UUID> kept = new LinkedHashSet<>(remembered);
        Set<UUID> deleted = new LinkedHashSet<>();
        List<Applied> applied = new ArrayList<>(batch.size());
        List<Uni<Void>> publishes = new ArrayList<>();
        for (Received received : batch) {
            JobCommandEvent command = received.command();
            UUID jobId = command.jobId();
            JobExecution job = current.get(jobId);
            Context base = job != null ? JobTracing.forJob(received.parent(), job.traceId(), job.traceparent())
                    : JobTracing.forJob(received.parent(), command.traceId(), null);
            Span span = tracing.start("scheduler " + command.command().name().toLowerCase(), base, jobId,
                    job != null ? job.attempt() : 0);
            spans.add(span);
            Context trace = base.with(span);
            JobStatus before = job != null ? job.status() : null;
            Result result;
            if (command.command() == JobCommand.CANCEL) {
                if (job == null) {
                    result = kept.remove(jobId) ? Result.REMEMBERED : Result.NOT_CANCELLABLE;
                } else if (JobStateMachine.isCancellable(job)) {
                    JobExecution next = JobStateMachine.cancel(job, now);
                    current.put(jobId, next);
                    changed.put(jobId, next);
                    publishes.add(writer.publish(next, trace));
                    if (job.status() == JobStatus.RUNNING) {
                        publishes.add(publisher.workerCommand(new JobCommandEvent(jobId, JobCommand.CANCEL,
                                job.traceId(), command.requestedAt()), trace));
                    }
                    job = next;
                    result = Result.CANCELLED;
                } else {
                    result = Result.NOT_CANCELLABLE;
                }
            } else if (job == null || job.status().isTerminal()) {
                current.remove(jobId);
                deleted.add(jobId);
                publishes.add(publisher.statusTombstone(jobId, trace));
                publishes.add(publisher.workerCommand(new JobCommandEvent(jobId, JobCommand.DELETE,
                        job != null ? job.traceId() : command.traceId(), command.requestedAt()), trace));
                job = null;
                result = Result.DELETED;
            } else {
                result = Result.NOT_FINISHED;
            }
            span.setAttribute("jobweaver.command.result", result.name());
            applied.add(new Applied(received, result, before, job));
        }
        // One write per changed row, on the version it was locked at; a row cancelled then deleted is written first,
        // so that the delete finds it finished.
        List<Write> writes = new ArrayList<>(changed.size());
        changed.forEach((id, next) -> writes.add(new Write(next, locked.jobs().get(id).version())));
        // A cancelled node job moves its run on in this transaction (WorkflowOrchestrator).
        return repository.writeAll(tx, writes)
                .chain(() -> workflows.jobsEnded(tx, changed.values(), workflowRound))
                .chain(() -> repository.deleteFinished(tx, deleted))
                .chain(() -> publishes.isEmpty() ? Uni.createFrom().voidItem()
                        : Uni.join().all(publishes).andFailFast().replaceWithVoid())
                .replaceWith(applied);
    }

    private void afterCommit(List<Applied> batch) {
        boolean freedSlots = false;
        for (Applied applied : batch) {
            JobCommandEvent command = applied.received().command();
            String traceId = applied.job() != null ? applied.job().traceId() : command.traceId();
            switch (applied.result()) {
                case CANCELLED -> {
                    metrics.cancelled();
                    freedSlots |= applied.before() == JobStatus.RUNNING;
                    JobLog.info(LOG, command.jobId(), traceId, "job CANCELLED (was %s)", applied.before());
                }
                case REMEMBERED -> JobLog.info(LOG, command.jobId(), traceId,
                        "cancel of a job not ingested yet: kept, the job will be stored CANCELLED");
                case NOT_CANCELLABLE -> {
                    metrics.commandIgnored("cancel");
                    JobLog.debug(LOG, command.jobId(), traceId, "cancel ignored: job is %s",
                            applied.before() != null ? applied.before() : "cancelled before its ingestion");
                }
                case DELETED -> {
                    metrics.deleted();
                    JobLog.info(LOG, command.jobId(), traceId, "job deleted (was %s)",
                            applied.before() != null ? applied.before() : "unknown");
                }
                case NOT_FINISHED -> {
                    metrics.commandIgnored("delete");
                    JobLog.warn(LOG, command.jobId(), traceId, "delete ignored: job is %s, not finished",
                            applied.before());
                }
            }
        }
        if (freedSlots) {
            dispatcher.wake(); // slots of the in-flight limit are free
        }
    }

    /**
     * Jobs whose ingestion committed while their cancel was being kept for them: the poll is rolled back and applied
     * again (a transient failure), and then finds them.
     */
    static final class IngestedMeanwhile extends IllegalStateException {

        IngestedMeanwhile(Set<UUID> jobIds) {
            super("job(s) " + jobIds + " ingested while their cancel was applied; applying the commands again");
        }
    }
}
