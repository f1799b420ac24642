package dev.jobweaver.api.deadletter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.job.JobBodies;
import dev.jobweaver.api.job.PublishFailedException;
import dev.jobweaver.api.security.Roles;
import dev.jobweaver.api.security.Caller;
import dev.jobweaver.api.security.Callers;
import dev.jobweaver.api.platform.http.RefusedException;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.BodyErrors;
import dev.jobweaver.api.platform.http.BodyLimit;
import dev.jobweaver.api.platform.http.BodyReader;
import dev.jobweaver.api.platform.http.ClientText;
import dev.jobweaver.api.platform.http.PageQuery;
import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.platform.http.TenantQuery;
import dev.jobweaver.api.platform.http.StrictJson;
import dev.jobweaver.api.platform.http.UuidText;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.quarantine.Failures;
import io.quarkus.resteasy.reactive.jackson.CustomDeserialization;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * {@code /api/dead-letters}: the jobs that exhausted their retries, for review. An {@code OPEN} one is requeued (run
 * again under its id, its history kept, through a {@code REQUEUE} on {@code job-commands}) or discarded (kept for
 * audit, never run).
 */
@Path("/api/dead-letters")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "dead letters")
public class DeadLetterResource {

    private static final String STATES = Arrays.stream(DeadLetterState.values()).map(Enum::name)
            .collect(Collectors.joining(", "));
    private static final String UUID_SCHEMA =
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

    @Inject DeadLetterService deadLetters;
    @Inject RestSupport rest;
    @Inject BodyReader bodies;
    @Inject JobBodies jobs;
    @Inject Callers callers;

    @GET
    @Operation(summary = "List dead letters", description = "Newest failure first; only the OPEN ones unless state"
            + " says otherwise. Every filter given must match.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = DeadLetterPage.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<DeadLetterPage> list(
            @BeanParam TenantQuery tenant,
            @Parameter(description = "job type filter", schema = @Schema(type = SchemaType.STRING,
                    pattern = JobType.PATTERN))
            @QueryParam("jobType") String jobType,
            @Parameter(description = "state filter: OPEN (default), REQUEUED or DISCARDED, or several"
                    + " comma-separated (OPEN,REQUEUED)", schema = @Schema(type = SchemaType.STRING,
                    defaultValue = "OPEN")) @QueryParam("state") String state,
            @BeanParam PageQuery pages) {
        String tenantFilter = callers.current().filterTenant(rest.tenant(tenant));
        JobType typeFilter = rest.jobType("jobType", jobType);
        Set<DeadLetterState> states = stateParam(state);
        RestSupport.Paging paging = rest.paging(pages);
        DeadLetterRepository.Filter filter = new DeadLetterRepository.Filter(states, tenantFilter,
                typeFilter == null ? null : typeFilter.name(), null, null);
        return unavailableOnOutage(deadLetters.list(filter, paging.page(), paging.size()),
                "the dead letters could not be read")
                .map(slice -> paging.of(slice, DeadLetterView::of, DeadLetterPage::new));
    }

    @GET
    @Path("{jobId}")
    @Operation(summary = "Read a dead letter")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = DeadLetterView.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<DeadLetterView> get(@Parameter(description = "the job's UUID", schema = @Schema(
            type = SchemaType.STRING, pattern = UUID_SCHEMA)) @PathParam("jobId") String id) {
        Caller caller = callers.current();
        UUID jobId = jobId(id);
        return visible(caller, jobId).map(DeadLetterView::of);
    }

    @POST
    @Path("{jobId}/requeue")
    @Operation(summary = "Requeue a dead letter", description = "Runs the job again under its id, its attempts"
            + " numbered on from the last: the scheduler sets it PENDING, due at once, with its retries counted from 0."
            + " An optional body gives it a new payload (checked as POST /api/jobs checks a payload of the job's type)"
            + " and a new maxRetryCount (0..10); without one it keeps its own. 202 with the dead letter, REQUEUED, once"
            + " Kafka acknowledged the command. Only an OPEN dead letter. A workflow node's job resumes its run: the"
            + " node runs again, the nodes its failure skipped wait for it, and an ended run is RUNNING again under"
            + " its runId.")
    @RequestBody(content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = RequeueRequest.class)))
    @APIResponse(responseCode = "202", description = "the REQUEUE was handed to the scheduler; the dead letter,"
            + " REQUEUED",
            content = @Content(schema = @Schema(implementation = DeadLetterView.class)))
    @APIResponse(responseCode = "400", description = "the job id is not a UUID (API.INVALID_PARAMETER), the body not"
            + " JSON or a value of the wrong type (API.MALFORMED_JSON), or a rule broken"
            + " (API.INVALID_DEAD_LETTER_REQUEST); the message names the field")
    @APIResponse(responseCode = "409", description = "the dead letter is not OPEN; the message names its state"
            + " (API.DEAD_LETTER_NOT_OPEN)")
    @APIResponse(responseCode = "503", description = "Kafka did not acknowledge the command in time, or the database"
            + " is unavailable (API.SERVICE_UNAVAILABLE); the dead letter is unchanged, retry after Retry-After"
            + " seconds")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<RestResponse<DeadLetterView>> requeue(@Parameter(description = "the job's UUID", schema = @Schema(
            type = SchemaType.STRING, pattern = UUID_SCHEMA)) @PathParam("jobId") String id, byte[] body) {
        Caller caller = callers.current();
        UUID jobId = jobId(id);
        rest.checkSize(body);
        RequeueRequest request = body(body, RequeueRequest.class, RequeueRequest.NONE);
        // The dead letter's tenant is checked first, and a new payload against the job's type, which only the stored
        // dead letter knows; neither ever changes, so reading them before the requeue's own transaction is safe.
        Uni<JsonNode> payload = visible(caller, jobId).map(stored -> {
            if (request.payload() == null) {
                return null;
            }
            refuseRequeue(stored);
            try {
                return request.payload(JobType.of(stored.jobType()), jobs);
            } catch (RefusedException e) {
                throw refused(e);
            }
        });
        return payload.chain(checked -> unavailableOnOutage(deadLetters.requeue(jobId, checked,
                        request.retries()), "the dead letter could not be requeued"))
                .onFailure(PublishFailedException.class).transform(e -> new ApiException(
                        ApiErrorCode.SERVICE_UNAVAILABLE, "the requeue of job " + jobId + " was not acknowledged by"
                        + " Kafka in time (" + e.getMessage() + "); the dead letter is as it was, retry later",
                        jobId.toString(), rest.retryAfter()))
                .map(outcome -> RestResponse.accepted(DeadLetterView.of(done(jobId, outcome))));
    }

    @POST
    @Path("{jobId}/discard")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Discard a dead letter", description = "Archives an OPEN dead letter with its reason: it is"
            + " kept for audit and the job never runs again. 200 with the dead letter, DISCARDED.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = DiscardRequest.class)))
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = DeadLetterView.class)))
    @APIResponse(responseCode = "400", description = "the job id is not a UUID (API.INVALID_PARAMETER), the body not"
            + " JSON or reason not a string (API.MALFORMED_JSON), or reason missing, blank or over 1000 characters"
            + " (API.INVALID_DEAD_LETTER_REQUEST)")
    @APIResponse(responseCode = "409", description = "the dead letter is not OPEN; the message names its state"
            + " (API.DEAD_LETTER_NOT_OPEN)")
    @RolesAllowed(Roles.OPERATOR)
    @CustomDeserialization(StrictJson.class)
    @BodyLimit
    public Uni<DeadLetterView> discard(@Parameter(description = "the job's UUID", schema = @Schema(
            type = SchemaType.STRING, pattern = UUID_SCHEMA)) @PathParam("jobId") String id,
                                       @Valid DiscardRequest body) {
        Caller caller = callers.current();
        UUID jobId = jobId(id);
        if (body == null) {
            throw refused(BodyErrors.empty(DiscardRequest.class));
        }
        String reason = body.reason();
        return visible(caller, jobId).chain(stored -> unavailableOnOutage(deadLetters.discard(jobId, reason),
                        "the dead letter could not be discarded"))
                .map(outcome -> DeadLetterView.of(done(jobId, outcome)));
    }

    @POST
    @Path("requeue")
    @Operation(summary = "Requeue many dead letters", description = "Requeues the OPEN dead letters the filter"
            + " matches, newest failure first, at most limit (default 100, at most 1000) of them; every field is"
            + " optional. Workflow nodes' jobs are left OPEN and counted as skipped. 202 once Kafka acknowledged every"
            + " command.")
    @RequestBody(content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = BulkRequeueRequest.class)))
    @APIResponse(responseCode = "202", description = "the dead letters requeued",
            content = @Content(schema = @Schema(implementation = DeadLettersRequeued.class)))
    @APIResponse(responseCode = "400", description = "the body is not JSON or a value of the wrong type"
            + " (API.MALFORMED_JSON), or a rule is broken (API.INVALID_DEAD_LETTER_REQUEST); the message names the"
            + " field")
    @APIResponse(responseCode = "503", description = "Kafka did not acknowledge some commands in time, or the"
            + " database is unavailable (API.SERVICE_UNAVAILABLE); those dead letters stay OPEN (the message says how"
            + " many were requeued), retry after Retry-After seconds")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<RestResponse<DeadLettersRequeued>> requeueAll(byte[] body) {
        Caller caller = callers.current();
        rest.checkSize(body);
        BulkRequeueRequest bulk = body(body, BulkRequeueRequest.class, BulkRequeueRequest.ALL);
        DeadLetterRepository.Filter filter = new DeadLetterRepository.Filter(EnumSet.of(DeadLetterState.OPEN),
                caller.filterTenant(bulk.tenant()), bulk.jobType(), bulk.after(), bulk.before());
        return unavailableOnOutage(deadLetters.requeueAll(filter, bulk.max()),
                        "the dead letters could not be requeued")
                .map(done -> {
                    if (!done.unacknowledged().isEmpty()) {
                        throw new ApiException(ApiErrorCode.SERVICE_UNAVAILABLE, done.unacknowledged().size()
                                + " requeue command(s) were not acknowledged by Kafka in time; those dead letters stay"
                                + " OPEN, the other " + done.requeued().size() + " were requeued; retry later", null,
                                rest.retryAfter());
                    }
                    return RestResponse.accepted(new DeadLettersRequeued(done.requeued().size(), done.requeued(),
                            done.skipped()));
                });
    }

    /**
     * The optional body as {@code type}, valid, {@code none} when there is none; a counted 400 otherwise. Read from the
     * bytes rather than bound by Quarkus, so that a request without a body or a Content-Type is taken, not a 415.
     */
    private <T> T body(byte[] body, Class<T> type, T none) {
        try {
            T read = bodies.optional(body, type);
            return read == null ? none : read;
        } catch (RefusedException e) {
            throw refused(e);
        }
    }

    /** The stored dead letter of a review that was done; the matching 404 or 409 otherwise. */
    private StoredDeadLetter done(UUID jobId, DeadLetterService.Outcome outcome) {
        return switch (outcome) {
            case DeadLetterService.Done done -> done.deadLetter();
            case DeadLetterService.Missing missing -> throw notFound(jobId);
            case DeadLetterService.NotOpen notOpen -> throw notOpen(notOpen.deadLetter());
        };
    }

    /** The 409 of a requeue of {@code stored}, checked before its payload; the service checks again under lock. */
    private void refuseRequeue(StoredDeadLetter stored) {
        if (stored.state() != DeadLetterState.OPEN) {
            throw notOpen(stored);
        }
    }

    private static ApiException notOpen(StoredDeadLetter stored) {
        return new ApiException(ApiErrorCode.DEAD_LETTER_NOT_OPEN, "the dead letter of job " + stored.jobId() + " is "
                + stored.state() + "; only an OPEN dead letter can be requeued or discarded",
                stored.jobId().toString());
    }

    /** The dead letter; 404 when there is none or the caller may not see its tenant, before anything is changed. */
    private Uni<StoredDeadLetter> visible(Caller caller, UUID jobId) {
        return RestSupport.visible(unavailableOnOutage(deadLetters.find(jobId), "the dead letter could not be read"),
                found -> caller.sees(found.tenant()), () -> notFound(jobId));
    }

    private static ApiException notFound(UUID jobId) {
        return new ApiException(ApiErrorCode.DEAD_LETTER_NOT_FOUND, "job " + jobId + " has no dead letter",
                jobId.toString());
    }

    /** The path's job id; 400 when it is not a UUID. */
    private UUID jobId(String value) {
        if (!UuidText.matches(value)) {
            throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER, "path parameter jobId must be a UUID such"
                    + " as " + UuidText.EXAMPLE + ", got '" + ClientText.cut(String.valueOf(value)) + "'"));
        }
        return UUID.fromString(value);
    }

    /** The states named (comma-separated), OPEN when none is. */
    private Set<DeadLetterState> stateParam(String value) {
        if (value == null || value.isEmpty()) {
            return EnumSet.of(DeadLetterState.OPEN);
        }
        Set<DeadLetterState> states = EnumSet.noneOf(DeadLetterState.class);
        for (String name : value.split(",", -1)) {
            try {
                states.add(DeadLetterState.valueOf(name));
            } catch (IllegalArgumentException e) {
                throw refused(new ApiException(ApiErrorCode.INVALID_PARAMETER, "query parameter state '"
                        + ClientText.cut(value) + "' is not valid; valid values are " + STATES
                        + ", or several of them comma-separated"));
            }
        }
        return states;
    }

    /**
     * A 503 with {@code Retry-After} when the database is unreachable or overloaded: the client's request was fine and
     * may be repeated. A permanent failure stays a 500.
     */
    private <T> Uni<T> unavailableOnOutage(Uni<T> call, String what) {
        return call.onFailure(e -> !(e instanceof RefusedException) && !(e instanceof PublishFailedException)
                && Failures.isTransient(e)).transform(e -> new ApiException(ApiErrorCode.SERVICE_UNAVAILABLE, what
                + ": the database is unavailable (" + Failures.describe(e) + "); retry later", null,
                rest.retryAfter()));
    }

    private <E extends RefusedException> E refused(E e) {
        return rest.refused(e);
    }
}
