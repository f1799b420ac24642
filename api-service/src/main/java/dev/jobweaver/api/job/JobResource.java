package dev.jobweaver.api.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.job.store.JobReadStore;
import dev.jobweaver.api.job.store.StoredJob;
import dev.jobweaver.api.job.outbox.OutboxFullException;
import dev.jobweaver.api.security.Roles;
import dev.jobweaver.api.security.Caller;
import dev.jobweaver.api.security.Callers;
import dev.jobweaver.api.platform.http.RefusedException;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.ClientText;
import dev.jobweaver.api.platform.http.ClientTraceId;
import dev.jobweaver.api.platform.http.PageQuery;
import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.platform.http.TenantQuery;
import dev.jobweaver.api.platform.http.UuidText;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobControlRules;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.api.queue.LiveWorkerView;
import dev.jobweaver.common.worker.LiveWorkers;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.quarantine.Failures;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * {@code /api/jobs}: submit a job, read one, list them, cancel or delete one. The wire format of the original JobWeaver
 * API.
 */
@Path("/api/jobs")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "jobs")
public class JobResource {

    private static final Logger LOG = Logger.getLogger(JobResource.class);

    private final JobSubmissionService submissions;
    private final JobQueryService queries;
    private final JobCommandService commands;
    private final JobMetrics metrics;
    private final RestSupport rest;
    private final JobBodies jobs;
    private final ObjectMapper mapper;
    private final Callers callers;
    private final LiveWorkerView liveWorkers;

    public JobResource(JobSubmissionService submissions, JobQueryService queries, JobCommandService commands,
                       JobMetrics metrics, RestSupport rest, ObjectMapper mapper, Callers callers,
                       JobBodies jobs, LiveWorkerView liveWorkers) {
        this.liveWorkers = liveWorkers;
        this.callers = callers;
        this.submissions = submissions;
        this.queries = queries;
        this.commands = commands;
        this.metrics = metrics;
        this.rest = rest;
        this.mapper = mapper;
        this.jobs = jobs;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Submit a job", description = "Answers 202 once the job and its outbox row are durably"
            + " committed; its JobCreatedEvent is published to Kafka right after, without the request waiting. A"
            + " Kafka outage delays jobs, it does not refuse them: 503 with Retry-After only when the database cannot"
            + " take the job or the unpublished outbox is over its bound. Send a W3C traceparent header to join the job"
            + " to your own trace. With an Idempotency-Key header, a repeat of the same request (same tenant, key and"
            + " body) within 24 h is answered with the first answer and makes no second job.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = JobRequest.class)))
    @APIResponse(responseCode = "202", description = "accepted",
            headers = @Header(name = "Location", description = "/api/jobs/{jobId}"),
            content = @Content(schema = @Schema(implementation = JobSubmitted.class)))
    @APIResponse(responseCode = "400", description = "invalid request; the message names the field")
    @APIResponse(responseCode = "413", description = "body larger than the limit (64 KiB by default)")
    @APIResponse(responseCode = "415", description = "Content-Type is not application/json")
    @APIResponse(responseCode = "503", description = "the database could not take the job, or the unpublished"
            + " outbox is over its bound (API.SERVICE_UNAVAILABLE; nothing stored), or too"
            + " many submission bytes are in flight (API.OVERLOADED, body unread); retry after Retry-After seconds")
    @Parameter(name = "Idempotency-Key", in = ParameterIn.HEADER, description = "1 to 255 printable ASCII characters;"
            + " the same key of the same tenant within 24 h: the same body gets the first answer again, another body"
            + " 409 API.IDEMPOTENCY_CONFLICT", schema = @Schema(type = SchemaType.STRING, maxLength = 255))
    @APIResponse(responseCode = "409", description = "the Idempotency-Key was used for another body within 24 h"
            + " (API.IDEMPOTENCY_CONFLICT; jobId names the first job)")
    @Parameter(name = ClientTraceId.HEADER, in = ParameterIn.HEADER, description = "your own correlation id, 1 to 128"
            + " visible ASCII characters: sent back on the answer, and logged with the accepted job's jobId and"
            + " traceId (the trace context stays traceparent)", schema = @Schema(type = SchemaType.STRING,
            maxLength = ClientTraceId.MAX_LENGTH))
    @RolesAllowed(Roles.SUBMITTER)
    public Uni<RestResponse<JobSubmitted>> submit(@Context RoutingContext routing) {
        Caller caller = callers.current();
        // HttpEdgeRoutes buffered the body (and enforced its size); reading it here avoids a second read.
        byte[] body = routing.body() == null || routing.body().buffer() == null ? null
                : routing.body().buffer().getBytes();
        rest.checkSize(body);
        String key = routing.request().getHeader(IdempotencyKeys.HEADER);
        if (key != null) {
            String problem = IdempotencyKeys.problem(key);
            if (problem != null) {
                throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER, problem));
            }
        }
        JobRequest request;
        try {
            request = jobs.read(body);
        } catch (RefusedException e) {
            throw refused(e);
        }
        // The acceptance instant, to the microsecond the database keeps: delayMs counts from it, runAt is bounded by it.
        Instant acceptedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        List<String> violations = jobs.violations(request, acceptedAt);
        if (!violations.isEmpty()) {
            throw refused(new ApiException(ApiErrorCode.INVALID_JOB_REQUEST, String.join("; ", violations)));
        }
        JobControl control = owned(request.control(acceptedAt), request.tenant(), caller);
        int maxRetries = request.maxRetryCount() != null ? request.maxRetryCount()
                : jobs.defaultRetryCount();
        String traceparent = routing.request().getHeader(Headers.TRACEPARENT);
        Map<String, String> retryAfter = rest.retryAfter();
        Uni<AcceptedJob> submitted = key == null
                ? submissions.submit(request.jobType(), request.payload(), maxRetries, control,
                        acceptedAt, traceparent)
                : submissions.submitOnce(request.jobType(), request.payload(), maxRetries, control,
                        acceptedAt, traceparent, key, IdempotencyKeys.fingerprint(mapper, body));
        return submitted
                .onFailure(IdempotencyConflictException.class).transform(e -> refused(new ApiException(
                        ApiErrorCode.IDEMPOTENCY_CONFLICT, e.getMessage(),
                        ((IdempotencyConflictException) e).jobId().toString())))
                // Kafka has not taken jobs for a while and the outbox is full: nothing was stored, retry later.
                .onFailure(OutboxFullException.class).transform(e -> new ApiException(
                        ApiErrorCode.SERVICE_UNAVAILABLE, e.getMessage() + ", retry later", null, retryAfter))
                // The database is unreachable or overloaded: the client's request was fine and may be retried, and
                // nothing was stored. A permanent failure stays a 500 (it is a bug, not the client's doing). An answer
                // already chosen above passes unchanged.
                .onFailure(e -> !(e instanceof RefusedException) && Failures.isTransient(e)).transform(e -> new ApiException(
                        ApiErrorCode.SERVICE_UNAVAILABLE, "the job could not be stored: the database is unavailable ("
                        + Failures.describe(e) + "); nothing was accepted, retry later", null, retryAfter))
                // The header as SPEC.md writes it, relative: location(URI) would parse it and resolve it against the
                // request's URI, 2% of the API's CPU in a burst. The typed RestResponse lets Quarkus pick the JSON
                // writer at build time instead of looking it up per response.
                .invoke(accepted -> logClientTraceId(routing, accepted))
                .map(accepted -> RestResponse.ResponseBuilder.accepted(new JobSubmitted(accepted.jobId(),
                                accepted.traceId()))
                        .header(HttpHeaders.LOCATION, "/api/jobs/" + accepted.jobId())
                        .build());
    }

    /**
     * The line that ties a client's {@code X-Trace-Id} to the job it submitted (HttpEdgeRoutes checked the value); only
     * for a request that carries one, so a plain submission writes no log line.
     */
    private static void logClientTraceId(RoutingContext routing, AcceptedJob accepted) {
        String clientTraceId = routing.request().getHeader(ClientTraceId.HEADER);
        if (clientTraceId != null) {
            LOG.infof("accepted job %s (traceId %s) for %s %s", accepted.jobId(), accepted.traceId(),
                    ClientTraceId.HEADER, clientTraceId);
        }
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Read a job", description = "Status, attempts, retries and last error as the scheduler"
            + " reported them.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = JobView.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<JobView> get(@Parameter(description = "the job's UUID") @PathParam("id") String id) {
        Caller caller = callers.current();
        UUID jobId = jobId(id);
        return visible(caller, jobId).map(job -> JobView.of(job, liveWorkers.live()));
    }

    @GET
    @Path("{id}/attempts")
    @Operation(summary = "A job's attempts", description = "Every attempt, first to last, as its worker reported it:"
            + " outcome, start, end, duration, error and worker. A requeued job's attempts go on from the last, so"
            + " the history before and after is one list. The attempt running now shows RUNNING; one no worker"
            + " reported (its lease expired with its worker) shows UNREPORTED.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = JobAttempts.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<JobAttempts> attempts(@Parameter(description = "the job's UUID") @PathParam("id") String id) {
        Caller caller = callers.current();
        UUID jobId = jobId(id);
        return visible(caller, jobId)
                .chain(job -> queries.attempts(jobId).map(reported -> JobAttempts.of(job, reported)));
    }

    @POST
    @Path("{id}/cancel")
    @Operation(summary = "Cancel a job", description = "Hands the cancel to the scheduler and answers 202 with the job"
            + " as the read model shows it, once Kafka has acknowledged the command: the cancel is asynchronous. A"
            + " PENDING job then becomes CANCELLED and never runs; a RUNNING one is interrupted at its next step boundary"
            + " (a sleep at once) and ends CANCELLED. A job that finished before the scheduler saw the cancel stays as it"
            + " finished. No request body.")
    @APIResponse(responseCode = "202", description = "the cancel was handed to the scheduler; the job as it was then",
            content = @Content(schema = @Schema(implementation = JobView.class)))
    @APIResponse(responseCode = "409", description = "the job has finished (COMPLETED, FAILED, CANCELLED or REJECTED);"
            + " the message names its status (API.JOB_NOT_CANCELLABLE)")
    @APIResponse(responseCode = "503", description = "Kafka did not acknowledge the command in time"
            + " (API.SERVICE_UNAVAILABLE); the job is unchanged as far as the API knows, retry after Retry-After seconds")
    @RolesAllowed(Roles.SUBMITTER)
    public Uni<RestResponse<JobView>> cancel(@Parameter(description = "the job's UUID") @PathParam("id") String id) {
        Caller caller = callers.current();
        UUID jobId = jobId(id);
        return visible(caller, jobId).chain(job -> {
            if (job.status().isTerminal()) {
                throw new ApiException(ApiErrorCode.JOB_NOT_CANCELLABLE, "job " + jobId + " is " + job.status()
                        + "; only a PENDING or RUNNING job can be cancelled", jobId.toString());
            }
            return commands.cancel(job)
                    .onFailure(PublishFailedException.class).transform(e -> unavailable("cancel", jobId, e))
                    .map(sent -> RestResponse.accepted(JobView.of(job, liveWorkers.live())));
        });
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete a finished job", description = "Hands the delete to the scheduler, which removes the"
            + " job from every service's store, then removes it from the API's; 204 once both are done. Only a finished"
            + " job (COMPLETED, FAILED, CANCELLED or REJECTED) can be deleted.")
    @APIResponse(responseCode = "204", description = "deleted")
    @APIResponse(responseCode = "404", description = "no such job, or it was deleted already (API.JOB_NOT_FOUND)")
    @APIResponse(responseCode = "409", description = "the job has not finished (PENDING or RUNNING); the message names"
            + " its status (API.JOB_NOT_FINISHED)")
    @APIResponse(responseCode = "503", description = "Kafka did not acknowledge the command in time, nothing was"
            + " deleted (API.SERVICE_UNAVAILABLE), or the database could not delete the job's rows; retry after"
            + " Retry-After seconds")
    @RolesAllowed(Roles.SUBMITTER)
    public Uni<RestResponse<Void>> delete(@Parameter(description = "the job's UUID") @PathParam("id") String id) {
        Caller caller = callers.current();
        UUID jobId = jobId(id);
        return visible(caller, jobId).chain(job -> {
            if (!job.status().isTerminal()) {
                throw new ApiException(ApiErrorCode.JOB_NOT_FINISHED, "job " + jobId + " is " + job.status()
                        + "; only a finished job (COMPLETED, FAILED, CANCELLED or REJECTED) can be deleted",
                        jobId.toString());
            }
            return commands.delete(job)
                    .onFailure(PublishFailedException.class).transform(e -> unavailable("delete", jobId, e))
                    // The command was taken, so the scheduler deletes the job: a retry publishes it again, which
                    // changes nothing there, and deletes the rows here.
                    .onFailure(e -> !(e instanceof RefusedException) && Failures.isTransient(e)).transform(e ->
                            new ApiException(ApiErrorCode.SERVICE_UNAVAILABLE, "the delete of job " + jobId + " was"
                                    + " handed to the scheduler but the API could not remove the job: the database is"
                                    + " unavailable (" + Failures.describe(e) + "); retry later", jobId.toString(),
                                    rest.retryAfter()))
                    .map(deleted -> RestSupport.noContent(deleted, () -> notFound(jobId)));
        });
    }

    /** The path's job id; 400 when it is not a UUID. */
    private UUID jobId(String id) {
        if (!UuidText.matches(id)) {
            throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER,
                    "path parameter id must be a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6", id));
        }
        return UUID.fromString(id);
    }

    /**
     * {@code control} with the job's tenant: the one the body named when the caller may use it, else the caller's own.
     * Unchanged when that is the default tenant and the body named none, so an original-API request makes the event it
     * always made.
     */
    private static JobControl owned(JobControl control, String requested, Caller caller) {
        String tenant = caller.tenantOf(requested);
        if (requested != null || JobControl.DEFAULT_TENANT.equals(tenant)) {
            return control;
        }
        JobControl base = JobControl.orDefaults(control);
        return new JobControl(base.priority(), base.runAt(), base.timeoutMs(), base.retryDelaysMs(), tenant,
                base.labels());
    }

    /** The job; 404 when there is none or the caller may not see its tenant, before anything is changed. */
    private Uni<StoredJob> visible(Caller caller, UUID jobId) {
        return RestSupport.visible(queries.find(jobId), job -> caller.sees(job.tenant()), () -> notFound(jobId));
    }

    private static ApiException notFound(UUID jobId) {
        return new ApiException(ApiErrorCode.JOB_NOT_FOUND, "no job with id " + jobId, jobId.toString());
    }

    /** The 503 of a command Kafka did not take in time: the job is as it was, the client may retry. */
    private ApiException unavailable(String command, UUID jobId, Throwable e) {
        return new ApiException(ApiErrorCode.SERVICE_UNAVAILABLE, "the " + command + " of job " + jobId + " was not"
                + " acknowledged by Kafka in time (" + e.getMessage() + "); the job is as it was, retry later",
                jobId.toString(), rest.retryAfter());
    }

    @GET
    @RolesAllowed(Roles.VIEWER)
    @Operation(summary = "List jobs", description = "Newest first, optionally filtered by type, status, priority,"
            + " tenant, queue, labels and the schedule or workflow run that made them (every filter given must"
            + " match).")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = JobPage.class)))
    public Uni<JobPage> list(
            @Parameter(description = "job type filter", schema = @Schema(type = SchemaType.STRING,
                    pattern = JobType.PATTERN))
            @QueryParam("type") String type,
            @Parameter(description = "status filter", schema = @Schema(implementation = JobStatus.class))
            @QueryParam("status") String status,
            @Parameter(description = "priority filter", schema = @Schema(implementation = Priority.class))
            @QueryParam("priority") String priority,
            @BeanParam TenantQuery tenant,
            @Parameter(description = "label filter key:value, repeatable (at most 16): a job must carry every pair")
            @QueryParam("label") List<String> labels,
            @Parameter(description = "only the jobs this schedule made", schema = @Schema(type = SchemaType.STRING,
                    format = "uuid")) @QueryParam("scheduleId") String scheduleId,
            @Parameter(description = "only the jobs of this workflow run's nodes", schema = @Schema(
                    type = SchemaType.STRING, format = "uuid")) @QueryParam("workflowRunId") String workflowRunId,
            @Parameter(description = "only the jobs of this queue", schema = @Schema(type = SchemaType.STRING,
                    pattern = "[a-z0-9][a-z0-9-]{0,62}")) @QueryParam("queue") String queue,
            @BeanParam PageQuery pages) {
        Caller caller = callers.current();
        JobType typeFilter = rest.jobType("type", type);
        JobStatus statusFilter = enumParam("status", status, JobStatus.class);
        Priority priorityFilter = enumParam("priority", priority, Priority.class);
        String tenantFilter = caller.filterTenant(rest.tenant(tenant));
        List<Map.Entry<String, String>> labelFilter = labelParams(labels);
        UUID scheduleFilter = uuidParam("scheduleId", scheduleId);
        UUID runFilter = uuidParam("workflowRunId", workflowRunId);
        RestSupport.Paging paging = rest.paging(pages);
        JobReadStore.Filter filter = new JobReadStore.Filter(typeFilter, statusFilter, priorityFilter, tenantFilter,
                labelFilter, scheduleFilter, runFilter, rest.queue(queue));
        return queries.list(filter, paging.page(), paging.size())
                .map(slice -> {
                    LiveWorkers workers = liveWorkers.live();
                    return paging.of(slice, job -> JobView.of(job, workers), JobPage::new);
                });
    }

    private <E extends Enum<E>> E enumParam(String name, String value, Class<E> type) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            return Enum.valueOf(type, value);
        } catch (IllegalArgumentException e) {
            throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER, "query parameter " + name + " '" + value
                    + "' is not valid; valid values are " + Arrays.stream(type.getEnumConstants())
                    .map(Enum::name).collect(Collectors.joining(", "))));
        }
    }

    private UUID uuidParam(String name, String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (!UuidText.matches(value)) {
            throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER, "query parameter " + name + " must be a"
                    + " UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6, got '" + ClientText.cut(value) + "'"));
        }
        return UUID.fromString(value);
    }

    /** Each {@code key:value} (split at the first colon, so a value may hold colons) as a pair. */
    private List<Map.Entry<String, String>> labelParams(List<String> values) {
        if (values == null || values.isEmpty()) {
            return List.of();
        }
        if (values.size() > JobControlRules.MAX_LABELS) {
            throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER, "query parameter label may be given at"
                    + " most " + JobControlRules.MAX_LABELS + " times, got " + values.size()));
        }
        List<Map.Entry<String, String>> pairs = new ArrayList<>(values.size());
        for (String value : values) {
            int colon = value == null ? -1 : value.indexOf(':');
            String key = colon < 0 ? null : value.substring(0, colon);
            String labelValue = colon < 0 ? null : value.substring(colon + 1);
            if (key == null || !JobControlRules.LABEL_KEY.matcher(key).matches()
                    || labelValue.length() > JobControlRules.MAX_LABEL_VALUE || labelValue.indexOf(0) >= 0) {
                throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER, "query parameter label must be"
                        + " key:value, the key 1 to 63 letters, digits, '.', '_', '/' or '-' starting with a letter or"
                        + " digit, the value at most " + JobControlRules.MAX_LABEL_VALUE + " characters; got '"
                        + ClientText.cut(String.valueOf(value)) + "'"));
            }
            pairs.add(Map.entry(key, labelValue));
        }
        return pairs;
    }

    private <E extends RefusedException> E refused(E e) {
        return rest.refused(e);
    }
}
