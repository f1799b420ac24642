package dev.jobweaver.scheduler.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.StepRules;
import dev.jobweaver.common.quarantine.InvalidRecordException;
import dev.jobweaver.scheduler.job.JobEventPublisher;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.JobStateMachine;
import dev.jobweaver.scheduler.job.JobStateWriter;
import dev.jobweaver.scheduler.job.JobTransitions;
import dev.jobweaver.scheduler.job.Transition;
import dev.jobweaver.scheduler.job.store.JobClaims.LockedMany;
import dev.jobweaver.scheduler.job.store.JobClaims;
import dev.jobweaver.scheduler.job.store.JobInserts.EarlyCancel;
import dev.jobweaver.scheduler.job.store.JobInserts;
import dev.jobweaver.scheduler.job.store.JobUpdates.Requeued;
import dev.jobweaver.scheduler.job.store.JobUpdates.Write;
import dev.jobweaver.scheduler.job.store.JobUpdates;
import dev.jobweaver.scheduler.observability.JobLog;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.SchedulerMetrics;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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
 * workers to interrupt a running one); a delete removes a finished job and tells every reader to forget it; a requeue
 * makes a dead-lettered ({@code FAILED}) job {@code PENDING} again under its own id.
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
 *   <li>A purge ({@link JobCommand#PURGE}, the API's retention) of a finished or unknown job deletes its row and
 *       publishes nothing: no tombstone (the job's {@code job-status} record expires with the topic's retention) and
 *       no worker command. A purge of a job that has not finished changes nothing. One record may purge many jobs
 *       ({@link JobCommandEvent#jobIds}), all of its partition: each is applied as a purge of its own, in its place
 *       among the poll's commands.</li>
 *   <li>A requeue of a {@code FAILED} job ({@link JobStateMachine#requeue}) makes it {@code PENDING}, due at once, with
 *       its retries counted from 0 up to the command's {@code maxRetryCount} (else its own) and the command's payload
 *       (else its own); its attempt number stays, so the dispatcher numbers the next attempt after the last, and the
 *       {@code PENDING} status is published with the next version. Nothing goes to the workers: they see the next
 *       attempt's run, whose eventId is new. A requeue of a job in any other status (a redelivered requeue finds it
 *       {@code PENDING} or further on), of a failure that is not the job's current one (the command's
 *       {@code failedAt}: a requeue delivered again after the job failed anew) or of an unknown job changes and
 *       publishes nothing. A workflow node's job is requeued the same way, and its run resumes in the same
 *       transaction (job row locked before its run's, as everywhere): the node waits for its job again, the
 *       dependents its failure skipped wait again, an ended run is {@code RUNNING} again
 *       ({@code WorkflowOrchestrator#jobsRequeued}). A node's {@code CANCELLED} job is requeued too when the command
 *       names no failure: that is its run's retry ({@link JobStateMachine#isNodeRequeueable}).
 *       A new payload that breaks its job type's rules fails the poll with an {@link InvalidRecordException}, so
 *       that the command is quarantined alone and the others of the poll are applied.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Runs on the Vert.x context of the consuming channel; nothing blocks.
 */
@ApplicationScoped
public class JobCommandService {

    private static final Logger LOG = Logger.getLogger(JobCommandService.class);

    @Inject JobInserts inserts;
    @Inject JobClaims claims;
    @Inject JobUpdates updates;
    @Inject JobStateWriter writer;
    @Inject JobEventPublisher publisher;
    @Inject JobTracing tracing;
    @Inject SchedulerMetrics metrics;
    @Inject JobTransitions transitions;
    @Inject ObjectMapper mapper;

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
        /** A delete or purge of a job that has not finished: nothing changed. */
        NOT_FINISHED,
        /** A finished or unknown job whose retention ended was deleted; nothing published. */
        PURGED,
        /** A FAILED job became PENDING again, due now, its attempts numbered on. */
        REQUEUED,
        /** A requeue of a job that is not FAILED from the failure it names, or unknown: nothing changed. */
        NOT_REQUEUEABLE
    }

    /**
     * A command as consumed (a record of {@code job-commands}).
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

    /**
     * Applies {@code records} in order, in one transaction; completes after the commit. A {@code PURGE} that names
     * several jobs is applied as one purge of each, in the order it names them.
     */
    public Uni<List<Applied>> applyAll(List<Received> records) {
        if (records.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<Received> batch = perJob(records);
        return Uni.createFrom().deferred(() -> {
            Set<UUID> ids = new LinkedHashSet<>();
            batch.forEach(r -> ids.add(r.command().jobId()));
            return transitions.run(t -> claims.lockAll(t.tx(), ids)
                    .chain(locked -> remember(t.tx(), batch, locked)
                            .chain(remembered -> apply(t, batch, locked, remembered))), this::afterCommit);
        });
    }

    /** {@code records} with each {@code PURGE} of several jobs in their place as one purge of each. */
    static List<Received> perJob(List<Received> records) {
        if (records.stream().allMatch(r -> r.command().jobIds() == null)) {
            return records;
        }
        List<Received> perJob = new ArrayList<>(records.size());
        for (Received received : records) {
            JobCommandEvent command = received.command();
            if (command.jobIds() == null) {
                perJob.add(received);
            } else {
                for (UUID jobId : command.jobIds()) {
                    perJob.add(new Received(new JobCommandEvent(jobId, command.command(), command.traceId(),
                            command.requestedAt()), received.parent()));
                }
            }
        }
        return perJob;
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
        return inserts.insertEarlyCancels(tx, List.copyOf(early.values())).map(written -> {
            if (written.size() != early.size()) {
                Set<UUID> ingested = new LinkedHashSet<>(early.keySet());
                ingested.removeAll(written);
                throw new IngestedMeanwhile(ingested);
            }
            return written;
        });
    }

    private Uni<List<Applied>> apply(Transition t, List<Received> batch, LockedMany locked, Set<UUID> remembered) {
        SqlConnection tx = t.tx();
        Instant now = locked.now();
        Map<UUID, JobExecution> current = new HashMap<>(locked.jobs());
        Map<UUID, JobExecution> changed = new LinkedHashMap<>();
        Set<UUID> kept = new LinkedHashSet<>(remembered);
        Set<UUID> deleted = new LinkedHashSet<>();
        // The jobs requeued by this poll, and whether with a new payload (to be written; else the stored one stays).
        Map<UUID, Boolean> requeued = new LinkedHashMap<>();
        // The workflow nodes' jobs among them, whose runs resume.
        Set<UUID> requeuedNodes = new LinkedHashSet<>();
        List<Applied> applied = new ArrayList<>(batch.size());
        List<Uni<Void>> publishes = new ArrayList<>();
        for (Received received : batch) {
            JobCommandEvent command = received.command();
            UUID jobId = command.jobId();
            JobExecution job = current.get(jobId);
            Context base = job != null ? JobTracing.forJob(received.parent(), job.traceId(), job.traceparent())
                    : JobTracing.forJob(received.parent(), command.traceId(), null);
            Span span = t.trace(tracing.start("scheduler " + command.command().name().toLowerCase(), base, jobId,
                    job != null ? job.attempt() : 0));
            Context trace = base.with(span);
            JobStatus before = job != null ? job.status() : null;
            Result result;
            switch (command.command()) {
                case CANCEL -> {
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
                }
                case DELETE -> {
                    if (job == null || job.status().isTerminal()) {
                        current.remove(jobId);
                        deleted.add(jobId);
                        requeued.remove(jobId);
                        publishes.add(publisher.statusTombstone(jobId, trace));
                        publishes.add(publisher.workerCommand(new JobCommandEvent(jobId, JobCommand.DELETE,
                                job != null ? job.traceId() : command.traceId(), command.requestedAt()), trace));
                        job = null;
                        result = Result.DELETED;
                    } else {
                        result = Result.NOT_FINISHED;
                    }
                }
                case PURGE -> {
                    // As a delete, without a tombstone: the job's last job-status record expires with the topic's
                    // retention (compact,delete), and the workers' rows of it go by their own age.
                    if (job == null || job.status().isTerminal()) {
                        current.remove(jobId);
                        deleted.add(jobId);
                        requeued.remove(jobId);
                        job = null;
                        result = Result.PURGED;
                    } else {
                        result = Result.NOT_FINISHED;
                    }
                }
                case REQUEUE -> {
                    if (job != null && !JobInserts.EARLY_CANCEL.equals(job.jobType())) {
                        // Checked whatever the job's status: the record is malformed for its job either way, and a
                        // verdict that depended on the status would quarantine one delivery and ignore the next.
                        String problem = payloadProblem(job, command.payload());
                        if (problem != null) {
                            throw new InvalidRecordException(problem);
                        }
                    }
                    boolean node = locked.workflowRuns().containsKey(jobId);
                    if (job == null || !(node ? JobStateMachine.isNodeRequeueable(job, command.failedAt())
                            : JobStateMachine.isRequeueable(job, command.failedAt()))) {
                        result = Result.NOT_REQUEUEABLE;
                    } else {
                        JobExecution next = JobStateMachine.requeue(job,
                                command.payload() != null ? json(command.payload()) : job.instruction(),
                                command.maxRetryCount() != null ? command.maxRetryCount() : job.maxRetries(), now);
                        current.put(jobId, next);
                        changed.put(jobId, next);
                        requeued.put(jobId, command.payload() != null);
                        if (node) {
                            requeuedNodes.add(jobId);
                        }
                        // Only the status: the scheduler applies a requeue alone, workers see the next attempt's run.
                        publishes.add(writer.publish(next, trace));
                        job = next;
                        result = Result.REQUEUED;
                    }
                }
                default -> throw new InvalidRecordException("unknown command " + command.command());
            }
            span.setAttribute("jobweaver.command.result", result.name());
            applied.add(new Applied(received, result, before, job));
        }
        // One write per changed row, on the version it was locked at; a row cancelled then deleted is written first,
        // so that the delete finds it finished.
        List<Write> writes = new ArrayList<>(changed.size());
        changed.forEach((id, next) -> writes.add(new Write(next, locked.jobs().get(id).version())));
        // A requeue also changes the retries allowed and maybe the payload, which no other transition writes: they
        // are written apart, so that the hot path's statement never rewrites a payload. The row's final state carries
        // them (a job requeued, then cancelled in the same poll, keeps its new payload).
        List<Requeued> requeues = new ArrayList<>(requeued.size());
        requeued.forEach((id, newPayload) -> {
            JobExecution next = changed.get(id);
            requeues.add(new Requeued(id, next.maxRetries(), newPayload ? next.instruction() : null, next.version()));
        });
        // A cancelled node job moves its run on in this transaction, a requeued one resumes it (WorkflowOrchestrator);
        // a node job requeued then deleted or cancelled in the same poll has no requeue left to resume with.
        requeuedNodes.removeIf(id -> !current.containsKey(id) || current.get(id).status() != JobStatus.PENDING);
        return updates.writeAll(tx, writes)
                .chain(() -> updates.writeRequeued(tx, requeues))
                .chain(() -> t.jobsEnded(changed.values()))
                .chain(() -> t.jobsRequeued(requeuedNodes))
                .chain(() -> updates.deleteFinished(tx, deleted))
                .chain(() -> publishes.isEmpty() ? Uni.createFrom().voidItem()
                        : Uni.join().all(publishes).andFailFast().replaceWithVoid())
                .replaceWith(applied);
    }

    /**
     * What makes {@code payload} unfit to replace the payload of {@code job}, by the rules a new job's payload follows
     * at ingestion ({@code EventRules.problem(JobCreatedEvent)}), or null; null for no new payload.
     */
    static String payloadProblem(JobExecution job, JsonNode payload) {
        if (payload == null) {
            return null;
        }
        List<String> problems = new ArrayList<>(1);
        Payloads.check(JobType.of(job.jobType()), payload, StepRules.Limits.CEILINGS, problems, 1);
        return problems.isEmpty() ? null
                : "the payload of a requeue of " + job.jobType() + " job " + job.jobId() + " is invalid: "
                        + problems.getFirst();
    }

    private String json(JsonNode payload) {
        try {
            return mapper.writeValueAsString(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("payload cannot be written as JSON", e);
        }
    }

    private void afterCommit(List<Applied> batch, Transition t) {
        boolean freedSlots = false;
        boolean due = false;
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
                    String name = command.command().name().toLowerCase();
                    metrics.commandIgnored(name);
                    JobLog.warn(LOG, command.jobId(), traceId, "%s ignored: job is %s, not finished", name,
                            applied.before());
                }
                case PURGED -> {
                    metrics.purged();
                    JobLog.debug(LOG, command.jobId(), traceId, "job purged, its retention ended (was %s)",
                            applied.before() != null ? applied.before() : "unknown");
                }
                case REQUEUED -> {
                    metrics.requeued();
                    due = true;
                    JobLog.info(LOG, command.jobId(), traceId,
                            "job requeued: PENDING after attempt %d, %d retries allowed, %s payload",
                            applied.job().attempt(), applied.job().maxRetries(),
                            command.payload() != null ? "a new" : "its own");
                }
                case NOT_REQUEUEABLE -> {
                    metrics.commandIgnored("requeue");
                    JobLog.debug(LOG, command.jobId(), traceId,
                            "requeue ignored: job is %s, not FAILED from that failure",
                            applied.before() != null ? applied.before() : "unknown");
                }
            }
        }
        if (freedSlots || due) {
            t.wakeDispatcher(); // slots of the in-flight limit are free, or a requeued job is due
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
