package dev.jobweaver.api.schedule;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.job.JobBodies;
import dev.jobweaver.api.job.JobRequest;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.api.platform.http.Checked;
import dev.jobweaver.api.platform.http.ClientText;
import dev.jobweaver.api.platform.http.EnumName;
import dev.jobweaver.api.platform.http.Expected;
import dev.jobweaver.api.platform.http.Name;
import dev.jobweaver.api.platform.http.NoNul;
import dev.jobweaver.api.platform.http.TenantName;
import dev.jobweaver.api.platform.http.Uuid;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.common.schedule.ScheduleClock;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code POST} and {@code PUT /api/schedules}. Unknown fields are ignored. Its timing and its target need
 * more than one field and {@link JobBodies}, so {@link #definition} checks them once the members' own rules hold: a
 * cron or an interval read in the time zone, and either a {@code workflowId} (whether that workflow exists is the
 * resource's question) or a {@code job}, read and checked exactly as a {@code POST /api/jobs} body is, every message
 * naming the field under {@code job.}; the template is stored normalised, as the submission path would store the job.
 *
 * @param misfire read as a string so that an unknown value is a broken rule rather than a value of the wrong type;
 *                so are {@code overlap} and {@code workflowId}
 * @param job the job each run makes, as its tree: read by {@link JobBodies}, not here, so that its messages are a
 *            submission's
 */
@Body(rule = ApiErrorCode.INVALID_SCHEDULE_REQUEST, example = ScheduleRequest.EXAMPLE)
@JsonIgnoreProperties(ignoreUnknown = true)
@Schema(example = ScheduleRequest.EXAMPLE_SHOWN)
@RegisterForReflection
public record ScheduleRequest(
        @Schema(required = true, minLength = 1, maxLength = MAX_NAME_LENGTH)
        @Checked(value = Name.class, max = MAX_NAME_LENGTH) String name,
        @Schema(pattern = "[a-z0-9][a-z0-9-]{0,62}", description = "the tenant of the schedule and its runs (default"
                + " the caller's; a workflow's schedule takes the workflow's)")
        @Checked(TenantName.class) String tenant,
        @Schema(description = "5 fields as a Kubernetes CronJob, 6 with seconds first, or @hourly, @daily, @weekly,"
                + " @monthly; not with interval") @Checked(NoNul.class) String cron,
        @Schema(description = "an ISO-8601 duration of at least 1 s; not with cron", maxLength = MAX_INTERVAL_LENGTH)
        @Checked(NoNul.class) String interval,
        @Schema(description = "the zone the cron expression is read in", defaultValue = ScheduleClock.DEFAULT_TIMEZONE)
        @Checked(NoNul.class) String timezone,
        @Schema(implementation = Misfire.class, defaultValue = "FIRE_ONCE") @EnumName(Misfire.class) String misfire,
        @Schema(implementation = Overlap.class, defaultValue = "ALLOW") @EnumName(Overlap.class) String overlap,
        @Schema(defaultValue = "false") Boolean paused,
        @Schema(format = "uuid", description = "the workflow each run starts; not with job")
        @Checked(Uuid.class) String workflowId,
        @Schema(type = SchemaType.OBJECT, implementation = JobRequest.class,
                description = "the job each run makes, a POST /api/jobs body without runAt; not with workflowId")
        @Expected("an object (a POST /api/jobs body)")
        ObjectNode job) {

    /** The longest name. */
    static final int MAX_NAME_LENGTH = 200;
    /** The longest interval text ({@code schedules.interval_text}). */
    static final int MAX_INTERVAL_LENGTH = 64;
    static final String EXAMPLE = "{\"name\":\"nightly\",\"cron\":\"0 2 * * *\",\"job\":{...}}";
    static final String EXAMPLE_SHOWN = """
            {"name":"nightly","cron":"0 2 * * *","timezone":"Europe/Amsterdam","misfire":"FIRE_ONCE","overlap":"ALLOW",\
            "job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"nightly run"}]}}}""";

    /**
     * The definition, valid at {@code now}, or an {@link ApiException} naming every rule its timing and target break;
     * its tenant {@code ownTenant} (the caller's) when the body names none. Only for a body whose members are valid.
     */
    ScheduleDefinition definition(JobBodies jobs, Instant now, String ownTenant) {
        // read before the rules are checked: a wrong type in the job is a malformed request, as for jobs
        JobRequest request = job == null ? null : jobs.member(job, "job", ApiErrorCode.INVALID_SCHEDULE_REQUEST);
        List<String> out = new ArrayList<>();
        if (interval != null && interval.length() > MAX_INTERVAL_LENGTH) {
            out.add("interval must be at most " + MAX_INTERVAL_LENGTH + " characters, got " + interval.length());
        } else {
            try {
                ScheduleClock.of(cron, interval, timezone, now);
            } catch (IllegalArgumentException e) {
                out.add(e.getMessage());
            }
        }
        if (request != null && workflowId != null) {
            out.add("exactly one of job and workflowId is required, got both");
        } else if (request == null && workflowId == null) {
            out.add("exactly one of job and workflowId is required, got none: job is the job each run makes (a POST"
                    + " /api/jobs body), workflowId the workflow each run starts");
        }
        String effectiveTenant = tenant;
        if (request != null) {
            jobs.violations(request, now).forEach(violation -> out.add("job." + violation));
            if (request.runAt() != null) {
                out.add("job.runAt is not allowed in a schedule: each run's job starts at its tick; use job.delayMs to"
                        + " start it later than its tick");
            }
            if (tenant != null && request.tenant() != null && !tenant.equals(request.tenant())) {
                out.add("job.tenant '" + ClientText.cut(request.tenant()) + "' differs from the schedule's tenant '"
                        + ClientText.cut(tenant) + "'; give one of them, or the same");
            }
            if (effectiveTenant == null) {
                effectiveTenant = request.tenant();
            }
        }
        if (!out.isEmpty()) {
            throw new ApiException(ApiErrorCode.INVALID_SCHEDULE_REQUEST, String.join("; ", out));
        }
        Misfire misfireValue = misfire == null ? Misfire.FIRE_ONCE : Misfire.valueOf(misfire);
        Overlap overlapValue = overlap == null ? Overlap.ALLOW : Overlap.valueOf(overlap);
        String zone = timezone == null ? ScheduleClock.DEFAULT_TIMEZONE : timezone;
        boolean pausedValue = paused != null && paused;
        if (workflowId != null) {
            // the tenant is the workflow's, which the resource reads; a tenant given here must be that one
            return new ScheduleDefinition(name, tenant, cron, interval, zone, misfireValue, overlapValue, pausedValue,
                    new ScheduleTarget.Workflow(UUID.fromString(workflowId)));
        }
        String scheduleTenant = effectiveTenant == null ? ownTenant : effectiveTenant;
        String template = jobs.templateText(request, scheduleTenant);
        return new ScheduleDefinition(name, scheduleTenant, cron, interval, zone, misfireValue, overlapValue,
                pausedValue, new ScheduleTarget.Job(template));
    }
}
