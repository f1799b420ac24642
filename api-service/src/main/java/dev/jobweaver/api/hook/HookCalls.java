package dev.jobweaver.api.hook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.JobIds;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.UUID;

/**
 * Runs a verified call of a hook: its body becomes the input of a job made from the hook's template
 * ({@link HookJobs}), of a run of its workflow ({@link WorkflowStarter}), or the data of an application event of its
 * type ({@link EventPublisher}). Each is named by the hook and the call's signature, so a signed request repeated
 * within the time window makes one job (or asks for one run, or publishes one event). Called on the request's Vert.x
 * event loop.
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

        /** An event of the hook's type was published (or had been, by the same signed request): its runs. */
        record EventPublished(String eventId, List<UUID> runs) implements Outcome {

            @Override
            public String traceId() {
                // one per run, none of the event's own
                return null;
            }
        }
    }

    private final HookJobs jobs;
    private final WorkflowStarter workflows;
    private final EventPublisher events;

    public HookCalls(HookJobs jobs, WorkflowStarter workflows, EventPublisher events) {
        this.jobs = jobs;
        this.workflows = workflows;
        this.events = events;
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
            // the event's id is the call's: the same signed request publishes the same event, which starts nothing new
            case HookTarget.Event event -> events.publish(hook.tenant(), id.toString(), event.type(), input)
                    .map(published -> new Outcome.EventPublished(published.eventId(), published.runs()));
        };
    }
}
