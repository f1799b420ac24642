package dev.jobweaver.api.hook;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.job.JobBodies;
import dev.jobweaver.api.job.JobRequest;
import dev.jobweaver.api.platform.http.Checked;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.api.platform.http.BodyErrors;
import dev.jobweaver.api.platform.http.EventTypeName;
import dev.jobweaver.api.platform.http.Name;
import dev.jobweaver.api.platform.http.Uuid;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.job.JobControl;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * The body of {@code POST /api/hooks}: a name and exactly one target, a {@code job} (checked exactly as
 * {@code POST /api/jobs} checks a body, by {@link JobBodies}, its problems named under {@code job.}), a
 * {@code workflowId}, or an {@code event} type, whose hook belongs to the caller's own tenant. Unknown fields are
 * ignored. Whether a workflow exists is the resource's question.
 *
 * @param job the job each call makes, as its tree: read by {@link JobBodies}, not here, so that its messages are a
 *            submission's
 */
@Body(rule = ApiErrorCode.INVALID_HOOK_REQUEST, example = NewHook.EXAMPLE)
@JsonIgnoreProperties(ignoreUnknown = true)
@Checked(NewHook.ExactlyOneTarget.class)
@Schema(example = NewHook.EXAMPLE)
public record NewHook(
        @Schema(required = true, minLength = 1, maxLength = MAX_NAME_LENGTH)
        @Checked(value = Name.class, max = MAX_NAME_LENGTH) String name,
        @Schema(format = "uuid", description = "the workflow each call starts; not with job")
        @Checked(Uuid.class) String workflowId,
        @Schema(type = SchemaType.OBJECT, implementation = JobRequest.class,
                description = "the job each call makes, a POST /api/jobs body without runAt; not with workflowId")
        JsonNode job,
        @Schema(pattern = EventTypeName.PATTERN, description = "the type of the application event each call publishes,"
                + " the call's body its data; not with job or workflowId") @Checked(EventTypeName.class)
        String event) {

    /** The longest name ({@code hooks.name}). */
    static final int MAX_NAME_LENGTH = 200;
    static final String EXAMPLE = "{\"name\":\"deploy\",\"job\":{...}} or {\"name\":\"deploy\",\"workflowId\":\"...\"}"
            + " or {\"name\":\"deploy\",\"event\":\"deploy.requested\"}";

    /**
     * The definition, valid at {@code now}, or an {@link ApiException} naming what is wrong with the job; a job's
     * tenant {@code ownTenant} (the caller's) when it names none; a workflow's hook takes its workflow's, which the
     * resource reads.
     */
    HookDefinition definition(JobBodies jobs, Instant now, String ownTenant) {
        if (event != null) {
            // the caller's own tenant: its workflows hear the event
            return new HookDefinition(name, ownTenant, new HookTarget.Event(event));
        }
        if (!hasJob()) {
            return new HookDefinition(name, JobControl.DEFAULT_TENANT,
                    new HookTarget.Workflow(UUID.fromString(workflowId)));
        }
        if (!job.isObject()) {
            throw BodyErrors.wrongType("job", "an object (a POST /api/jobs body)", job);
        }
        JobRequest request = jobs.member(job, "job", ApiErrorCode.INVALID_HOOK_REQUEST);
        List<String> out = new ArrayList<>();
        jobs.violations(request, now).forEach(violation -> out.add("job." + violation));
        if (request.runAt() != null) {
            out.add("job.runAt is not allowed in a hook: each call's job starts when it is called; use job.delayMs"
                    + " to start it later than its call");
        }
        if (!out.isEmpty()) {
            throw new ApiException(ApiErrorCode.INVALID_HOOK_REQUEST, String.join("; ", out));
        }
        String tenant = request.tenant() == null ? ownTenant : request.tenant();
        return new HookDefinition(name, tenant,
                new HookTarget.Job(jobs.templateText(request, tenant)));
    }

    private boolean hasJob() {
        return job != null && !job.isNull();
    }

    /** Exactly one of {@code job}, {@code workflowId} and {@code event}. */
    @RegisterForReflection
    static final class ExactlyOneTarget implements Checked.Rule<NewHook> {

        @Override
        public boolean isValid(NewHook body, Checked constraint, HibernateConstraintValidatorContext context) {
            List<String> given = new ArrayList<>();
            if (body.hasJob()) {
                given.add("job");
            }
            if (body.workflowId() != null) {
                given.add("workflowId");
            }
            if (body.event() != null) {
                given.add("event");
            }
            if (given.size() == 1) {
                return true;
            }
            if (given.isEmpty()) {
                return refuse(context, "exactly one of job, workflowId and event is required, got none: job is the job"
                        + " each call makes (a POST /api/jobs body), workflowId the workflow each call starts, event"
                        + " the type of the application event each call publishes");
            }
            context.addMessageParameter("given", String.join(" and ", given));
            return refuse(context, "exactly one of job, workflowId and event is required, got {given}");
        }
    }
}
