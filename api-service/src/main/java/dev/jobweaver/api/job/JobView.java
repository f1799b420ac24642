package dev.jobweaver.api.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.job.store.StoredJob;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.worker.LiveWorkers;
import dev.jobweaver.common.job.Priority;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A job as {@code GET /api/jobs/{id}} shows it: the fields of the original API, then its job control (priority,
 * tenant and queue always, the others when the job has them) and its result when it has one.
 *
 * @param maxRetries retries allowed after the first attempt
 * @param retryCount retries made so far
 * @param attempts attempts started so far
 * @param nextRunAt when a {@code PENDING} job is due
 * @param lastError the error of the latest failed attempt
 * @param runAt the earliest start asked for (runAt, or delayMs resolved at acceptance; a past runAt reads as the
 *              acceptance)
 * @param result what the job's handler reported when it completed
 * @param scheduleId the schedule whose tick (or trigger) made the job
 * @param scheduledFor the tick's time (a trigger's: when it was triggered)
 * @param workflowId the workflow whose run made the job
 * @param workflowRunId the workflow run whose node the job runs
 * @param nodeId the node of that run's graph
 * @param startedAt when the latest attempt started (a worker's clock); absent before the first
 * @param waitingFor what a {@code PENDING} job waits for when no live worker serves its queue and type
 */
@RegisterForReflection
public record JobView(UUID id, @Schema(type = SchemaType.STRING, pattern = JobType.PATTERN) JobType type, JobStatus status, String traceId, int maxRetries, int retryCount,
                      int attempts, Instant nextRunAt, String lastError, Instant createdAt, Instant updatedAt,
                      Instant finishedAt,
                      @Schema(type = SchemaType.OBJECT, oneOf = {JobPayload.class, HttpCallPayload.class},
                              description = "what the job does, shaped by its type") JsonNode payload,
                      Priority priority,
                      String tenant,
                      @Schema(description = "the queue whose workers run the job") String queue,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Instant runAt,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Long timeoutMs,
                      @JsonInclude(JsonInclude.Include.NON_NULL) List<Long> retryDelaysMs,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> labels,
                      @JsonInclude(JsonInclude.Include.NON_NULL)
                      @Schema(type = SchemaType.OBJECT, description = "what the job's handler reported (JSON, at most"
                              + " 64 KiB)") JsonNode result,
                      @JsonInclude(JsonInclude.Include.NON_NULL) UUID scheduleId,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Instant scheduledFor,
                      @JsonInclude(JsonInclude.Include.NON_NULL) UUID workflowId,
                      @JsonInclude(JsonInclude.Include.NON_NULL) UUID workflowRunId,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String nodeId,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Instant startedAt,
                      @JsonInclude(JsonInclude.Include.NON_NULL)
                      @Schema(description = "what a PENDING job waits for when no live worker serves its queue and"
                              + " type: 'a worker for type <type> on queue <queue>'") String waitingFor) {

    public static JobView of(StoredJob job, LiveWorkers workers) {
        return new JobView(job.id(), job.type(), job.status(), job.traceId(), job.maxRetries(), job.retryCount(),
                job.attempts(), job.nextRunAt(), job.lastError(), job.createdAt(), job.updatedAt(), job.finishedAt(),
                job.instruction(), job.priority(), job.tenant(), job.queue(), job.runAt(), job.timeoutMs(), job.retryDelaysMs(),
                job.labels(), job.result(), job.origin() == null ? null : job.origin().scheduleId(),
                job.origin() == null ? null : job.origin().scheduledFor(),
                job.origin() == null ? null : job.origin().workflowId(),
                job.origin() == null ? null : job.origin().workflowRunId(),
                job.origin() == null ? null : job.origin().nodeId(), job.startedAt(),
                job.status() == JobStatus.PENDING ? workers.waitingFor(job.queue(), job.type().name()) : null);
    }
}
