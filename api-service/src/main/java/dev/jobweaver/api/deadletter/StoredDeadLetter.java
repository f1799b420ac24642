package dev.jobweaver.api.deadletter;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.jobweaver.api.job.store.JsonColumns;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * A dead letter as stored, detached from its session.
 *
 * @param labels the job's labels, null when it has none
 * @param workflowRunId the run of a workflow node's job, null for any other job
 */
record StoredDeadLetter(UUID jobId, String jobType, String tenant, Map<String, String> labels,
                               DeadLetterState state, String reason, int attempts, String lastError, Instant failedAt,
                               String traceId, int deadCount, Instant requeuedAt, int requeueCount,
                               Instant discardedAt, String discardReason, UUID workflowRunId) {

    private static final TypeReference<Map<String, String>> LABELS = new TypeReference<>() {
    };

    public static StoredDeadLetter of(DeadLetter row) {
        return new StoredDeadLetter(row.jobId, row.jobType, row.tenant, labels(row.labels), row.state, row.reason,
                row.attempts, row.lastError, row.failedAt, row.traceId, row.deadCount, row.requeuedAt,
                row.requeueCount, row.discardedAt, row.discardReason, row.workflowRunId);
    }

    private static Map<String, String> labels(String json) {
        return JsonColumns.read(json, LABELS);
    }
}
