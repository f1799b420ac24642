package dev.jobweaver.api.hook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.JobIds;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * Runs a verified call of a hook: its body becomes the input of a job made from the hook's template
 * ({@link HookJobs}) or of a run of its workflow ({@link WorkflowStarter}). Both are named by the hook and the call's
 * signature, so a signed request repeated within the time window makes one job (or asks for one run). Called on the
 * request's Vert.x event loop.
 */
@ApplicationScoped
public class HookCalls {

    /** What a call made. */
    public sealed interface Outcome {

        /** The trace of what was made; null if it cannot be known. */
        String traceId();

        /** A job was made (or had been, by the same signed request). */
        record JobMade(UUID jobId, String traceId, boolean repeated) implements Outcome {
        }

        /** A run of the hook's workflow was started. */
        record RunStarted(UUID runId, String traceId) implements Outcome {
        }
    }

    private final HookJobs jobs;
    private final WorkflowStarter workflows;

    public HookCalls(HookJobs jobs, WorkflowStarter workflows) {
        this.jobs = jobs;
        this.workflows = workflows;
    }

    /**
     * Makes what the hook's call asks for, once its signature was verified.
     *
     * @param timestamp the call's timestamp, in Unix seconds
     * @param signature the call's verified {@code X-JobWeaver-Signature}
     * @param input the call's body, parsed
     * @param traceparent the request's W3C {@code traceparent}, or null
     * @return what was made; a failure with {@link WorkflowStarter.WorkflowNotFoundException} when the hook's workflow
     *         does not exist
     */
    @WithSpan("call hook")
    public Uni<Outcome> call(StoredHook hook, long timestamp, String signature, JsonNode input, String traceparent) {
        UUID id = JobIds.forHookCall(hook.id(), timestamp, signature);
        return switch (hook.target()) {
            case HookTarget.Job job -> jobs.make(id, job, input, traceparent)
                    .map(made -> new Outcome.JobMade(made.jobId(), made.traceId(), made.repeated()));
            case HookTarget.Workflow workflow -> workflows.start(workflow.workflowId(), input, id, traceparent)
                    .map(started -> new Outcome.RunStarted(started.runId(), started.traceId()));
        };
    }
}
