package dev.jobweaver.api.job.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Priority;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A row of {@code jobs}: what was submitted, plus the latest state the scheduler reported.
 *
 * @param instruction the payload, shaped by {@code type}
 * @param statusVersion version of the last {@code JobStatusChangedEvent} applied; an event is applied only when its
 *                      version is higher, so redelivered or reordered events never move a job backwards
 * @param runAt the earliest start the client asked for; null when it asked for none
 * @param retryDelaysMs the delays before retries the client asked for; null for the exponential backoff
 * @param labels the job's labels; null when it has none
 * @param result what the job's handler reported, or null
 * @param origin the schedule tick (or trigger) or the workflow node that made the job; null for a client's submission
 * @param startedAt when the latest attempt started; null before the first
 * @param queue the queue whose workers run the job
 */
public record StoredJob(UUID id, JobType type, JsonNode instruction, String traceId, JobStatus status, int retryCount,
                        int maxRetries, int attempts, Instant nextRunAt, String lastError, Instant createdAt,
                        Instant updatedAt, Instant finishedAt, long statusVersion, Priority priority, Instant runAt,
                        Long timeoutMs, List<Long> retryDelaysMs, String tenant, Map<String, String> labels,
                        JsonNode result, JobOrigin origin, Instant startedAt, String queue) {

    /** On the default queue. */
    public StoredJob(UUID id, JobType type, JsonNode instruction, String traceId, JobStatus status, int retryCount,
                     int maxRetries, int attempts, Instant nextRunAt, String lastError, Instant createdAt,
                     Instant updatedAt, Instant finishedAt, long statusVersion, Priority priority, Instant runAt,
                     Long timeoutMs, List<Long> retryDelaysMs, String tenant, Map<String, String> labels,
                     JsonNode result, JobOrigin origin, Instant startedAt) {
        this(id, type, instruction, traceId, status, retryCount, maxRetries, attempts, nextRunAt, lastError, createdAt,
                updatedAt, finishedAt, statusVersion, priority, runAt, timeoutMs, retryDelaysMs, tenant, labels, result,
                origin, startedAt, JobControl.DEFAULT_QUEUE);
    }

    /** Without the start of the latest attempt. */
    public StoredJob(UUID id, JobType type, JsonNode instruction, String traceId, JobStatus status, int retryCount,
                     int maxRetries, int attempts, Instant nextRunAt, String lastError, Instant createdAt,
                     Instant updatedAt, Instant finishedAt, long statusVersion, Priority priority, Instant runAt,
                     Long timeoutMs, List<Long> retryDelaysMs, String tenant, Map<String, String> labels,
                     JsonNode result, JobOrigin origin) {
        this(id, type, instruction, traceId, status, retryCount, maxRetries, attempts, nextRunAt, lastError, createdAt,
                updatedAt, finishedAt, statusVersion, priority, runAt, timeoutMs, retryDelaysMs, tenant, labels, result,
                origin, null);
    }

    /** A submitted job's row: no origin. */
    public StoredJob(UUID id, JobType type, JsonNode instruction, String traceId, JobStatus status, int retryCount,
                     int maxRetries, int attempts, Instant nextRunAt, String lastError, Instant createdAt,
                     Instant updatedAt, Instant finishedAt, long statusVersion, Priority priority, Instant runAt,
                     Long timeoutMs, List<Long> retryDelaysMs, String tenant, Map<String, String> labels,
                     JsonNode result) {
        this(id, type, instruction, traceId, status, retryCount, maxRetries, attempts, nextRunAt, lastError, createdAt,
                updatedAt, finishedAt, statusVersion, priority, runAt, timeoutMs, retryDelaysMs, tenant, labels, result,
                null);
    }
}
