package dev.jobweaver.api;

import dev.jobweaver.api.audit.AuditResource;
import dev.jobweaver.api.dashboard.DashboardResource;
import dev.jobweaver.api.deadletter.DeadLetterResource;
import dev.jobweaver.api.hook.HookResource;
import dev.jobweaver.api.job.JobResource;
import dev.jobweaver.api.notification.SubscriptionResource;
import dev.jobweaver.api.retention.RetentionResource;
import dev.jobweaver.api.schedule.ScheduleResource;
import dev.jobweaver.api.security.ApiKeyResource;
import dev.jobweaver.api.stats.StatsResource;
import dev.jobweaver.api.tenant.TenantLimitResource;
import dev.jobweaver.api.workflow.WorkflowResource;
import dev.jobweaver.api.workflow.WorkflowRunResource;
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
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowNode;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * What the native executable keeps for reflection that neither Quarkus finds by itself nor an annotation on the type
 * can declare.
 *
 * <p>The types of {@code common} that Jackson binds here: Kafka values written and read as bytes, job payloads and
 * controls in jsonb columns and request bodies, workflow graphs. {@code common} carries no Quarkus annotations, so each
 * service declares what it binds. Nested types (a step's variants, an event's nodes) come with their enclosing type.
 * The API's own bound types carry {@code @RegisterForReflection} themselves.
 *
 * <p>The resource classes, whose methods the audit filter reads through {@code ResourceInfo}: their annotations decide
 * what is audited, and their {@code @Path}s name it.
 *
 * <p>A type Jackson binds that is missing fails only in the native executable, with an empty object or a refused
 * body: the {@code *IT} suite under {@code -Pnative} covers each resource and each Kafka exchange once.
 */
@RegisterForReflection(targets = {
        // Kafka values, job payloads, workflow graphs
        DeadLetterEvent.class, JobCommandEvent.class, JobCompletedEvent.class, JobCreatedEvent.class,
        JobFailedEvent.class, JobStatusChangedEvent.class, RunJobEvent.class, ScheduleEvent.class,
        ScheduleFiredEvent.class, TenantLimitEvent.class, WorkflowProgressEvent.class, WorkflowRunEvent.class,
        HttpCallPayload.class, JobCommand.class, JobControl.class, JobOrigin.class, JobPayload.class, JobStatus.class,
        JobType.class, Priority.class, Step.class, QuarantineReason.class, Misfire.class, Overlap.class,
        NodeStatus.class, OnFailure.class, WorkflowNode.class, WorkflowRunStatus.class,
        // resources, for the audit filter
        ApiKeyResource.class, AuditResource.class, DashboardResource.class, DeadLetterResource.class,
        HookResource.class, JobResource.class, RetentionResource.class, ScheduleResource.class, StatsResource.class,
        SubscriptionResource.class, TenantLimitResource.class, WorkflowResource.class, WorkflowRunResource.class})
final class ReflectedTypes {

    private ReflectedTypes() {
    }
}
