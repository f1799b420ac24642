package dev.jobweaver.api.hook;

import java.util.UUID;

/** What a call of a hook does: make a job from a template, start a run of a workflow, or publish an event. */
sealed interface HookTarget {

    /** Makes a job from {@code json}, a submission body as {@code POST /api/jobs} takes it, normalised and valid. */
    record Job(String json) implements HookTarget {
    }

    /** Starts a run of the workflow. */
    record Workflow(UUID workflowId) implements HookTarget {
    }

    /** Publishes an application event of this type, the call's body its data. */
    record Event(String type) implements HookTarget {
    }

    /** The target of a stored hook: its job template when it has one, else its event type, else its workflow. */
    static HookTarget of(String jobJson, UUID workflowId, String eventType) {
        return jobJson != null ? new Job(jobJson) : eventType != null ? new Event(eventType) : new Workflow(workflowId);
    }
}
