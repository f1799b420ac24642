package dev.jobweaver.api.schedule;

import java.util.UUID;

/** What each run of a schedule starts: a job made from its template, or (once workflows exist) a workflow's run. */
sealed interface ScheduleTarget {

    /**
     * A job made from {@code json}, the submission body as {@code POST /api/jobs} takes it, validated and normalised.
     */
    record Job(String json) implements ScheduleTarget {
    }

    /** A run of the workflow {@code workflowId}. */
    record Workflow(UUID workflowId) implements ScheduleTarget {
    }

    /** The target a row holds: its job template, else its workflow. */
    static ScheduleTarget of(String jobJson, UUID workflowId) {
        return jobJson != null ? new Job(jobJson) : new Workflow(workflowId);
    }
}
