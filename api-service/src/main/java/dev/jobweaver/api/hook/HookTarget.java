package dev.jobweaver.api.hook;

import java.util.UUID;

/** What a call of a hook does: make a job from a template, or start a run of a workflow. */
sealed interface HookTarget {

    /** Makes a job from {@code json}, a submission body as {@code POST /api/jobs} takes it, normalised and valid. */
    record Job(String json) implements HookTarget {
    }

    /** Starts a run of the workflow. */
    record Workflow(UUID workflowId) implements HookTarget {
    }

    /** The target of a stored hook: its job template when it has one, else its workflow. */
    static HookTarget of(String jobJson, UUID workflowId) {
        return jobJson != null ? new Job(jobJson) : new Workflow(workflowId);
    }
}
