package dev.jobweaver.scheduler.job;

import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.workflow.WorkflowOrchestrator;
import io.opentelemetry.api.trace.Span;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One transaction of job state changes, as {@link JobTransitions} runs it: the connection to write with, and what is
 * to happen once it committed.
 *
 * <p>Inside the transaction, {@link #jobsEnded} moves on the workflow runs of node jobs that ended, in that same
 * transaction. The spans given to {@link #trace} end when the transaction does (as failed if it rolled back). The
 * rest is collected for after the commit and never runs if the transaction rolls back: {@link #onCommit} actions,
 * then one {@link JobsCommitted} event that wakes the dispatcher.
 *
 * <p>Not thread-safe: used on the Vert.x context of its transaction, by one chain of work at a time.
 */
public final class Transition {

    private final WorkflowOrchestrator workflows;
    private final WorkflowOrchestrator.Round workflowRound;
    private final SqlConnection tx;
    private final List<Span> spans = new ArrayList<>();
    private List<JobExecution> dispatched = List.of();
    private boolean wake;
    private Instant dueAt;
    private Instant now;
    private long sentAtNanos;

    Transition(WorkflowOrchestrator workflows, SqlConnection tx) {
        this.workflows = workflows;
        this.workflowRound = workflows.round();
        this.tx = tx;
    }

    /** The transaction's connection. */
    public SqlConnection tx() {
        return tx;
    }

    /** Ends {@code span} when the transaction ends, as failed if it rolls back; {@code span} itself. */
    public Span trace(Span span) {
        spans.add(span);
        return span;
    }

    /**
     * After the caller wrote them in this transaction: moves on the runs of those of {@code jobs} that are node jobs
     * and ended ({@link WorkflowOrchestrator#jobsEnded(SqlConnection, Collection, WorkflowOrchestrator.Round)}).
     */
    public Uni<Void> jobsEnded(Collection<JobExecution> jobs) {
        return workflows.jobsEnded(tx, jobs, workflowRound);
    }

    /** As {@link #jobsEnded(Collection)}, for jobs known by id and status. */
    public Uni<Void> jobsEnded(Map<UUID, JobStatus> ended) {
        return workflows.jobsEnded(tx, ended, workflowRound);
    }

    /**
     * After the caller requeued them in this transaction: resumes the runs of {@code jobIds}, workflow nodes' jobs
     * ({@link WorkflowOrchestrator#jobsRequeued}).
     */
    public Uni<Void> jobsRequeued(Collection<UUID> jobIds) {
        return workflows.jobsRequeued(tx, jobIds, workflowRound);
    }

    /** Runs {@code action} once the transaction committed, with the workflow runs' own reports. */
    public void onCommit(Runnable action) {
        workflowRound.onCommit(action);
    }

    /** After the commit: the attempts this transaction dispatched itself are counted as the dispatcher's. */
    public void dispatched(List<JobExecution> attempts) {
        dispatched = attempts;
    }

    /** After the commit: a dispatch round runs now (slots of the in-flight limit are free, or a job is due). */
    public void wakeDispatcher() {
        wake = true;
    }

    /**
     * After the commit: the dispatcher wakes at {@code due} (a job stored for later, a retry's next run), measured
     * from {@code clock} on the database's clock read no earlier than {@code sentAt} ({@link System#nanoTime()}).
     * Of several, the earliest counts.
     */
    public void wakeDispatcherAt(Instant due, Instant clock, long sentAt) {
        if (due == null || clock == null || dueAt != null && !due.isBefore(dueAt)) {
            return;
        }
        dueAt = due;
        now = clock;
        sentAtNanos = sentAt;
    }

    void ended(Throwable failure) {
        spans.forEach(s -> JobTracing.end(s, failure));
        if (failure != null) {
            workflowRound.failed(failure);
        }
    }

    void committed() {
        workflowRound.committed();
    }

    /** What to tell the dispatcher, or null if nothing. */
    JobsCommitted event() {
        return dispatched.isEmpty() && !wake && dueAt == null ? null
                : new JobsCommitted(dispatched, wake, dueAt, now, sentAtNanos);
    }
}
