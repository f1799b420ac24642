package dev.jobweaver.api;

import dev.jobweaver.api.audit.AuditPage;
import dev.jobweaver.api.audit.AuditResource;
import dev.jobweaver.api.audit.AuditView;
import dev.jobweaver.api.dashboard.DashboardResource;
import dev.jobweaver.api.deadletter.BulkRequeueRequest;
import dev.jobweaver.api.deadletter.DeadLetterPage;
import dev.jobweaver.api.deadletter.DeadLetterResource;
import dev.jobweaver.api.deadletter.DeadLetterState;
import dev.jobweaver.api.deadletter.DeadLetterView;
import dev.jobweaver.api.deadletter.DeadLettersRequeued;
import dev.jobweaver.api.deadletter.DiscardRequest;
import dev.jobweaver.api.deadletter.RequeueRequest;
import dev.jobweaver.api.hook.HookCalled;
import dev.jobweaver.api.hook.HookPage;
import dev.jobweaver.api.hook.HookResource;
import dev.jobweaver.api.hook.HookView;
import dev.jobweaver.api.hook.NewHook;
import dev.jobweaver.api.job.JobAttempts;
import dev.jobweaver.api.job.JobPage;
import dev.jobweaver.api.job.JobRequest;
import dev.jobweaver.api.job.JobResource;
import dev.jobweaver.api.job.JobSubmitted;
import dev.jobweaver.api.job.JobView;
import dev.jobweaver.api.notification.DeliveryLog;
import dev.jobweaver.api.notification.DeliveryLogEntry;
import dev.jobweaver.api.notification.DeliveryState;
import dev.jobweaver.api.notification.NewSubscription;
import dev.jobweaver.api.notification.NotificationEvent;
import dev.jobweaver.api.notification.SubscriptionResource;
import dev.jobweaver.api.notification.SubscriptionView;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.ErrorResponse;
import dev.jobweaver.api.schedule.SchedulePage;
import dev.jobweaver.api.schedule.ScheduleRequest;
import dev.jobweaver.api.schedule.ScheduleResource;
import dev.jobweaver.api.schedule.ScheduleTriggered;
import dev.jobweaver.api.schedule.ScheduleView;
import dev.jobweaver.api.security.ApiKeyPage;
import dev.jobweaver.api.security.ApiKeyRequest;
import dev.jobweaver.api.security.ApiKeyResource;
import dev.jobweaver.api.security.ApiKeyView;
import dev.jobweaver.api.stats.Overview;
import dev.jobweaver.api.stats.StatsResource;
import dev.jobweaver.api.tenant.TenantLimitRequest;
import dev.jobweaver.api.tenant.TenantLimitResource;
import dev.jobweaver.api.tenant.TenantLimitView;
import dev.jobweaver.api.workflow.RunRequest;
import dev.jobweaver.api.workflow.RunStarted;
import dev.jobweaver.api.workflow.WorkflowDefinition;
import dev.jobweaver.api.workflow.WorkflowPage;
import dev.jobweaver.api.workflow.WorkflowRequest;
import dev.jobweaver.api.workflow.WorkflowResource;
import dev.jobweaver.api.workflow.WorkflowRunPage;
import dev.jobweaver.api.workflow.WorkflowRunResource;
import dev.jobweaver.api.workflow.WorkflowRunView;
import dev.jobweaver.api.workflow.WorkflowView;
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
 * What the native executable keeps for reflection beyond what Quarkus finds by itself.
 *
 * <p>The types Jackson binds by reflection. Quarkus REST registers the types its methods declare, but most JSON here is
 * bound where no signature shows its type: bodies read by {@code BodyReader} and {@code JobBodies}, Kafka values
 * written and read as bytes, jsonb columns ({@code JsonColumns}), templates stored as text. Nested types (a step's
 * variants, a workflow's nodes) come with their enclosing type.
 *
 * <p>The resource classes, whose methods the audit filter reads through {@code ResourceInfo}: their annotations decide
 * what is audited, and their {@code @Path}s name it.
 *
 * <p>A type Jackson binds that is missing here fails only in the native executable, with an empty object or a
 * refused body: the {@code *IT} suite under {@code -Pnative} covers each resource and each Kafka exchange once.
 */
@RegisterForReflection(targets = {
        // common: Kafka values, job payloads, workflow graphs
        DeadLetterEvent.class, JobCommandEvent.class, JobCompletedEvent.class, JobCreatedEvent.class,
        JobFailedEvent.class, JobStatusChangedEvent.class, RunJobEvent.class, ScheduleEvent.class,
        ScheduleFiredEvent.class, TenantLimitEvent.class, WorkflowProgressEvent.class, WorkflowRunEvent.class,
        HttpCallPayload.class, JobCommand.class, JobControl.class, JobOrigin.class, JobPayload.class, JobStatus.class,
        JobType.class, Priority.class, Step.class, QuarantineReason.class, Misfire.class, Overlap.class,
        NodeStatus.class, OnFailure.class, WorkflowNode.class, WorkflowRunStatus.class,
        // api-service: request bodies, answers, stored definitions, webhook bodies
        AuditPage.class, AuditView.class,
        BulkRequeueRequest.class, DeadLetterPage.class, DeadLetterState.class, DeadLetterView.class,
        DeadLettersRequeued.class, DiscardRequest.class, RequeueRequest.class,
        HookCalled.class, HookPage.class, HookView.class, NewHook.class,
        JobAttempts.class, JobPage.class, JobRequest.class, JobSubmitted.class, JobView.class,
        DeliveryLog.class, DeliveryLogEntry.class, DeliveryState.class, NewSubscription.class,
        NotificationEvent.class, SubscriptionView.class,
        ApiErrorCode.class, ErrorResponse.class,
        SchedulePage.class, ScheduleRequest.class, ScheduleTriggered.class,
        ScheduleView.class,
        ApiKeyPage.class, ApiKeyRequest.class, ApiKeyView.class,
        Overview.class,
        TenantLimitRequest.class, TenantLimitView.class,
        RunRequest.class, RunStarted.class, WorkflowDefinition.class, WorkflowPage.class, WorkflowRequest.class,
        WorkflowRunPage.class, WorkflowRunView.class, WorkflowView.class,
        // resources, for the audit filter
        ApiKeyResource.class, AuditResource.class, DashboardResource.class, DeadLetterResource.class,
        HookResource.class, JobResource.class, ScheduleResource.class, StatsResource.class,
        SubscriptionResource.class, TenantLimitResource.class, WorkflowResource.class, WorkflowRunResource.class},
        // the same, package-private in their feature
        classNames = {"dev.jobweaver.api.hook.HookDefinition", "dev.jobweaver.api.job.AcceptedJob",
                "dev.jobweaver.api.notification.SubscriptionRequest", "dev.jobweaver.api.schedule.ScheduleDefinition"})
final class ReflectedTypes {

    private ReflectedTypes() {
    }
}
