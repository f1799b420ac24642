package dev.jobweaver.scheduler.workflow;

import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.workflow.WorkflowGraph;
import java.util.List;
import java.util.UUID;

/** The rules a {@code workflow-runs} record must keep to be applied; one that breaks them is quarantined. */
final class WorkflowRunRules {

    private WorkflowRunRules() {
    }

    /** The first rule {@code e} breaks, or null. */
    static String problem(WorkflowRunEvent e) {
        if (e.kind() == null) {
            return "kind is required: START, CANCEL, RETRY or PURGE";
        }
        if (e.runId() == null) {
            return "runId is required";
        }
        if (e.kind() == WorkflowRunEvent.Kind.CANCEL || e.kind() == WorkflowRunEvent.Kind.PURGE) {
            return null;
        }
        if (e.kind() == WorkflowRunEvent.Kind.RETRY) {
            return e.progressVersion() == null || e.progressVersion() < 1
                    ? "progressVersion is required for a RETRY and at least 1" : null;
        }
        if (e.workflowId() == null) {
            return "workflowId is required for a START";
        }
        if (e.version() == null || e.version() < 1) {
            return "version is required for a START and at least 1";
        }
        if (e.tenant() == null || e.tenant().isBlank()) {
            return "tenant is required for a START";
        }
        if (e.onFailure() == null) {
            return "onFailure is required for a START: FAIL_FAST or CONTINUE";
        }
        if (e.maxConcurrency() != null && e.maxConcurrency() < 1) {
            return "maxConcurrency must be at least 1, got " + e.maxConcurrency();
        }
        List<String> problems = WorkflowGraph.problems(e.nodes(), 3);
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    /** What is wrong with the record's key, or null: it must be the runId, which keeps a run's events in order. */
    static String keyProblem(String key, UUID runId) {
        if (runId == null || runId.toString().equals(key)) {
            return null;
        }
        return key == null ? "the record has no key; it must be keyed by its runId " + runId
                : "the record's key must be its runId " + runId + ", got '"
                        + (key.length() > 60 ? key.substring(0, 60) + "..." : key) + "'";
    }
}
