package dev.jobweaver.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * API to scheduler ({@code workflow-runs}, keyed by runId): start a workflow run, cancel one, or retry one that ended
 * {@code FAILED} or {@code CANCELLED}.
 *
 * <p>{@code START} carries the graph of the version the run started with, so a run never changes when its workflow
 * gets a new version. The scheduler stores the run once (by runId: a redelivered {@code START} changes nothing) and
 * from then on drives it from its nodes' outcomes. {@code CANCEL} carries only the runId; one that comes before its
 * {@code START} (they share a partition, so only a START quarantined or never published) is kept, and the run is
 * cancelled as it starts. {@code RETRY} carries the runId and the progress version of the end it retries: the
 * scheduler retries the run only while that end is its current one, so a retry delivered again after the run ran and
 * ended anew changes nothing.
 *
 * <p>{@code PURGE} carries only the runId, like {@code CANCEL}: the API purged the finished run and the scheduler
 * removes its copy.
 *
 * @param kind START, CANCEL, RETRY or PURGE
 * @param version the workflow's version the run keeps
 * @param tenant the tenant the run's node jobs belong to
 * @param maxConcurrency the workflow's limit on its node jobs running at once (over all its runs); null for none
 * @param nodes the graph ({@code WorkflowGraph} rules); empty for CANCEL
 * @param traceId the run's trace: every node's job is a child of it
 * @param traceparent W3C traceparent of the run's span, the parent of every node job's span
 * @param at when the API accepted the start or the cancel
 * @param scheduleId the schedule whose tick or trigger started the run; null for any other start. The scheduler keeps
 *     it so that the schedule's {@code overlap: SKIP} skips a tick while one of its runs has not ended
 * @param progressVersion RETRY only: the progress version of the run's end being retried (the version of the
 *     {@code WorkflowProgressEvent} that reported it); null for START and CANCEL
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkflowRunEvent(
        Kind kind,
        UUID runId,
        UUID workflowId,
        Integer version,
        String tenant,
        OnFailure onFailure,
        Integer maxConcurrency,
        List<WorkflowNode> nodes,
        String traceId,
        String traceparent,
        Instant at,
        UUID scheduleId,
        Long progressVersion) {

    /** What the event asks. */
    public enum Kind {
        START,
        CANCEL,
        /** Run the failed and cancelled nodes of an ended run again, under the same runId. */
        RETRY,
        /** Forget a finished run whose retention has ended (the API's purge); a run that has not finished stays. */
        PURGE
    }

    /** A start of {@code runId} that no schedule made. */
    public static WorkflowRunEvent start(UUID runId, UUID workflowId, int version, String tenant, OnFailure onFailure,
                                         Integer maxConcurrency, List<WorkflowNode> nodes, String traceId,
                                         String traceparent, Instant at) {
        return start(runId, workflowId, version, tenant, onFailure, maxConcurrency, nodes, traceId, traceparent, at,
                null);
    }

    /** A start of {@code runId}, made by the schedule {@code scheduleId} (or by none: null). */
    public static WorkflowRunEvent start(UUID runId, UUID workflowId, int version, String tenant, OnFailure onFailure,
                                         Integer maxConcurrency, List<WorkflowNode> nodes, String traceId,
                                         String traceparent, Instant at, UUID scheduleId) {
        return new WorkflowRunEvent(Kind.START, runId, workflowId, version, tenant, onFailure, maxConcurrency,
                List.copyOf(nodes), traceId, traceparent, at, scheduleId, null);
    }

    /** A purge of the finished run {@code runId}. */
    public static WorkflowRunEvent purge(UUID runId, Instant at) {
        return new WorkflowRunEvent(Kind.PURGE, runId, null, null, null, null, null, null, null, null, at, null,
                null);
    }

    /** A cancel of {@code runId}. */
    public static WorkflowRunEvent cancel(UUID runId, Instant at) {
        return new WorkflowRunEvent(Kind.CANCEL, runId, null, null, null, null, null, null, null, null, at, null,
                null);
    }

    /** A retry of {@code runId} from its end reported at progress version {@code progressVersion}. */
    public static WorkflowRunEvent retry(UUID runId, long progressVersion, Instant at) {
        return new WorkflowRunEvent(Kind.RETRY, runId, null, null, null, null, null, null, null, null, at, null,
                progressVersion);
    }
}
