package dev.jobweaver.common.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;

/**
 * What made a job, when not a client's submission: the tick of a recurring schedule, or a node of a workflow run.
 * Absent on submitted jobs; the fields of the other kind are null.
 *
 * @param scheduleId the schedule whose tick (or trigger) made the job
 * @param scheduledFor the tick's time; for a triggered run, when it was triggered
 * @param workflowId the workflow whose run made the job
 * @param workflowRunId the run; with {@code nodeId} it names the job ({@code JobIds.forNode})
 * @param nodeId the node of the run's graph that the job runs
 * @param workflowMaxConcurrency the workflow's {@code maxConcurrency}: at most this many of its node jobs, over all
 *                               its runs, run at once; null for no limit
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobOrigin(UUID scheduleId, Instant scheduledFor, UUID workflowId, UUID workflowRunId, String nodeId,
                        Integer workflowMaxConcurrency) {

    /** The origin of a schedule's tick. */
    public JobOrigin(UUID scheduleId, Instant scheduledFor) {
        this(scheduleId, scheduledFor, null, null, null, null);
    }

    /** The origin of a workflow run's node. */
    public static JobOrigin node(UUID workflowId, UUID workflowRunId, String nodeId, Integer workflowMaxConcurrency) {
        return new JobOrigin(null, null, workflowId, workflowRunId, nodeId, workflowMaxConcurrency);
    }
}
