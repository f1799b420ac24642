package dev.jobweaver.scheduler;

import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.JobCompletedEvent;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.JobFailedEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.event.TenantLimitEvent;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowNode;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Every type of {@code common} that this service reads or writes as JSON, kept for reflection in the native
 * executable: Jackson finds a record's canonical constructor, its accessors and their annotations, and an enum's
 * constants and their annotations, by reflection, and a native image keeps only what is registered.
 *
 * <p>The records read from Kafka (the inputs: {@code job-created}, {@code job-completed}, {@code job-failed},
 * {@code job-commands}, {@code schedules}, {@code workflow-runs}, {@code tenant-limits}), those written to it (the
 * outputs: {@code run-job}, {@code job-status}, {@code job-dead-letter}, {@code worker-commands},
 * {@code schedule-fired}, {@code workflow-progress}), the payload records the dispatcher reads to size a lease and check
 * a payload ({@link JobPayload} and its {@link Step}s, {@link HttpCallPayload}), and the types their components name.
 * Nested types (the steps, {@link WorkflowProgressEvent}'s nodes, {@link WorkflowRunEvent}'s kind) come with their
 * enclosing type. Listed here rather than left to annotations in {@code common}, so that what this executable binds is
 * declared by the service that binds it; a type added to an event belongs here too.
 */
@RegisterForReflection(targets = {
        JobCreatedEvent.class, JobCompletedEvent.class, JobFailedEvent.class, JobCommandEvent.class,
        ScheduleEvent.class, WorkflowRunEvent.class, TenantLimitEvent.class,
        RunJobEvent.class, JobStatusChangedEvent.class, DeadLetterEvent.class, ScheduleFiredEvent.class,
        WorkflowProgressEvent.class,
        JobPayload.class, Step.class, HttpCallPayload.class, JobControl.class, JobOrigin.class, WorkflowNode.class,
        JobType.class, JobStatus.class, JobCommand.class, Priority.class, Misfire.class, Overlap.class,
        OnFailure.class, NodeStatus.class, WorkflowRunStatus.class})
final class JsonBoundTypes {

    private JsonBoundTypes() {
    }
}
