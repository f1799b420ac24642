package dev.jobweaver.api.hook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.jobweaver.api.job.JobBodies;
import dev.jobweaver.api.job.outbox.OutboxFullException;
import dev.jobweaver.api.security.Roles;
import dev.jobweaver.api.security.crypto.SecretCipher;
import dev.jobweaver.api.security.Caller;
import dev.jobweaver.api.security.Callers;
import dev.jobweaver.api.platform.http.RefusedException;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.BodyErrors;
import dev.jobweaver.api.platform.http.BodyLimit;
import dev.jobweaver.api.platform.http.PageQuery;
import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.platform.http.TenantQuery;
import dev.jobweaver.api.platform.http.StrictJson;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.quarantine.Failures;
import io.quarkus.resteasy.reactive.jackson.CustomDeserialization;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.Map;
import java.util.UUID;
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
 * {@code /api/hooks}: inbound webhooks. Create one (its secret shown once), read, list and delete them; and
 * {@code POST /api/hooks/{id}}, which a caller without an account calls with a request signed with the hook's secret,
 * and which makes a job (or starts a workflow run) with the request's body as its input.
 *
 * <p>A call is checked in this order, each refusal before anything is stored: its timestamp (401 "timestamp": missing,
 * not Unix seconds, or more than the tolerance away), its signature's form (401 "signature"), the hook (404 when it
 * does not exist or was deleted), the HMAC over the raw body, compared in constant time (401 "signature"), then the
 * body (413 over the job body bound, 400 when it is not JSON). The 401s say which header, never what in it was wrong.
 */
@Path("/api/hooks")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "hooks")
public class HookResource {

    private static final Logger LOG = Logger.getLogger(HookResource.class);

    private static final String EXAMPLE = """
            {"name":"deploy","job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"go"}]}}}""";
    /** RFC 9110: a 401 names how to authenticate; here, by signing the request. */
    private static final Map<String, String> CHALLENGE = Map.of("WWW-Authenticate",
            "JobWeaver-Signature realm=\"hooks\", headers=\"" + HookSignature.TIMESTAMP_HEADER + " "
                    + HookSignature.SIGNATURE_HEADER + "\"");

    @Inject HookService hooks;
    @Inject HookCalls calls;
    @Inject WorkflowStarter workflows;
    @Inject RestSupport rest;
    @Inject JobBodies jobs;
    @Inject Callers callers;

    private final ObjectReader bodies;
    private final Duration tolerance;
    private final String base;

    HookResource(HookConfig hookConfig, ObjectMapper mapper) {
        ObjectMapper strict = mapper.copy();
        strict.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        strict.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        this.bodies = strict.reader();
        this.tolerance = hookConfig.timestampTolerance();
        this.base = hookConfig.publicBaseUrl().map(url -> url.replaceAll("/+$", "")).orElse("");
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create an inbound hook", description = "A name and exactly one target: job, the job each"
            + " call makes (a POST /api/jobs body, checked as POST /api/jobs checks it; runAt is not allowed, delayMs"
            + " is), workflowId, an existing workflow each call starts a run of, or event, the type of the application"
            + " event each call publishes in the caller's tenant. The answer carries the hook's url and its signing"
            + " secret, this once.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = NewHook.class, example = EXAMPLE)))
    @APIResponse(responseCode = "201", description = "created; the secret is shown this once",
            headers = @Header(name = "Location", description = "/api/hooks/{id}"),
            content = @Content(schema = @Schema(implementation = HookView.class)))
    @APIResponse(responseCode = "400", description = "invalid request; the message names the field"
            + " (API.INVALID_HOOK_REQUEST, or API.MALFORMED_JSON for a body that is not JSON or a wrong type)")
    @APIResponse(responseCode = "413", description = "body larger than the limit (64 KiB by default)")
    @RolesAllowed(Roles.OPERATOR)
    @CustomDeserialization(StrictJson.class)
    @BodyLimit
    public Uni<RestResponse<HookView>> create(@Valid NewHook body) {
        Caller caller = callers.current();
        HookDefinition definition = definition(body, caller);
        if (!(definition.target() instanceof HookTarget.Workflow)) {
            // a job template naming another tenant than the caller's own is refused with 403 before anything is stored
            caller.tenantOf(definition.tenant());
        }
        // a workflow's hook belongs to the workflow's tenant: each call starts a run there
        Uni<String> owner = definition.target() instanceof HookTarget.Workflow workflow
                ? workflows.tenantOf(workflow.workflowId()) : Uni.createFrom().item(definition.tenant());
        return rest.unavailableOnOutage(owner.chain(tenant -> {
            if (tenant == null || !caller.sees(tenant)) {
                throw rest.refused(new ApiException(ApiErrorCode.INVALID_HOOK_REQUEST, "workflowId "
                        + ((HookTarget.Workflow) definition.target()).workflowId() + " names no workflow"));
            }
            return hooks.create(new HookDefinition(definition.name(), tenant, definition.target()));
        }), "the hook could not be stored")
                // relative, as for jobs and schedules
                .map(stored -> RestResponse.ResponseBuilder.create(RestResponse.Status.CREATED,
                                HookView.withSecret(stored, url(stored.id())))
                        .header(HttpHeaders.LOCATION, "/api/hooks/" + stored.id())
                        .build());
    }

    @GET
    @Operation(summary = "List inbound hooks", description = "Newest first, optionally of one tenant; never their"
            + " secrets.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = HookPage.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<HookPage> list(
            @BeanParam TenantQuery tenant,
            @BeanParam PageQuery pages) {
        String tenantFilter = callers.current().filterTenant(rest.tenant(tenant));
        RestSupport.Paging paging = rest.paging(pages);
        return rest.unavailableOnOutage(hooks.list(tenantFilter, paging.page(), paging.size()),
                        "the hook could not be read")
                .map(slice -> paging.of(slice, h -> HookView.of(h, url(h.id())), HookPage::new));
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Read an inbound hook", description = "Its name, url and target; never its secret.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = HookView.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<HookView> get(@Parameter(description = "the hook's UUID") @PathParam("id") String id) {
        Caller caller = callers.current();
        UUID hookId = rest.uuid("id", id);
        return visible(caller, hookId).map(found -> HookView.of(found, url(hookId)));
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete an inbound hook", description = "204 once the delete is committed: every call after it"
            + " is answered 404 and makes nothing. The secret is forgotten with it.")
    @APIResponse(responseCode = "204", description = "deleted")
    @RolesAllowed(Roles.OPERATOR)
    public Uni<RestResponse<Void>> delete(@Parameter(description = "the hook's UUID") @PathParam("id") String id) {
        Caller caller = callers.current();
        UUID hookId = rest.uuid("id", id);
        return visible(caller, hookId)
                .chain(existing -> rest.unavailableOnOutage(hooks.delete(hookId), "the hook could not be deleted"))
                .map(deleted -> RestSupport.noContent(deleted, () -> notFound(hookId)));
    }

    @POST
    @Path("{id}")
    @Operation(summary = "Call an inbound hook", description = "Needs no account: the request is authenticated by its"
            + " signature. Headers: X-JobWeaver-Timestamp, the current time in Unix seconds (at most 5 minutes off),"
            + " and X-JobWeaver-Signature: sha256=<lower-case hex HMAC-SHA256 of \"<timestamp>.<raw body>\">, keyed"
            + " with the secret's UTF-8 bytes. The body (any JSON, at most 64 KiB) becomes the payload's input of the"
            + " job the hook makes, or the input of the workflow run it starts. The same signed request repeated within"
            + " the window makes no second job: it is answered with the first one. Send a W3C traceparent header to"
            + " join the job to your own trace.")
    @Parameter(name = HookSignature.TIMESTAMP_HEADER, in = ParameterIn.HEADER, required = true,
            description = "Unix seconds", schema = @Schema(type = SchemaType.STRING, pattern = "[0-9]{1,12}"))
    @Parameter(name = HookSignature.SIGNATURE_HEADER, in = ParameterIn.HEADER, required = true,
            description = "sha256= and 64 lower-case hex digits",
            schema = @Schema(type = SchemaType.STRING, pattern = "sha256=[0-9a-f]{64}"))
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(type = SchemaType.OBJECT, example = "{\"ref\":\"refs/heads/main\"}")))
    @APIResponse(responseCode = "202", description = "the job was made (or the workflow run started, or the event"
            + " published: eventId and the runs it started)",
            headers = @Header(name = "Location", description = "/api/jobs/{jobId} or /api/workflow-runs/{runId}"),
            content = @Content(schema = @Schema(implementation = HookCalled.class)))
    @APIResponse(responseCode = "400", description = "the body is not JSON (API.MALFORMED_JSON), or the id not a UUID"
            + " (API.INVALID_PARAMETER)")
    @APIResponse(responseCode = "401", description = "the timestamp or the signature is missing, malformed, out of the"
            + " window or wrong (API.HOOK_SIGNATURE_REJECTED); nothing was made")
    @APIResponse(responseCode = "404", description = "no such hook, or it was deleted (API.HOOK_NOT_FOUND); the hook's"
            + " workflow does not exist (API.WORKFLOW_NOT_FOUND)")
    @APIResponse(responseCode = "413", description = "body larger than the limit (64 KiB by default)")
    @APIResponse(responseCode = "500", description = "the hook's stored secret does not open with the API's secret key"
            + " (API.SECRET_UNREADABLE): an operator must restore the key or create the hook again; nothing was made")
    @APIResponse(responseCode = "503", description = "the database could not take the job, or the unpublished outbox is"
            + " over its bound (API.SERVICE_UNAVAILABLE); nothing was made, retry after Retry-After seconds")
    @PermitAll
    public Uni<RestResponse<HookCalled>> call(@Parameter(description = "the hook's UUID") @PathParam("id") String id,
                                              @Context RoutingContext routing) {
        UUID hookId = rest.uuid("id", id);
        // HttpEdgeRoutes buffered the raw body (and enforced its size): the signature is over these exact bytes.
        byte[] body = routing.body() == null || routing.body().buffer() == null ? new byte[0]
                : routing.body().buffer().getBytes();
        rest.checkSize(body);
        String timestampText = routing.request().getHeader(HookSignature.TIMESTAMP_HEADER);
        String signature = routing.request().getHeader(HookSignature.SIGNATURE_HEADER);
        Long timestamp = HookSignature.timestamp(timestampText, Instant.now(), tolerance);
        if (timestamp == null) {
            throw rejected(HookSignature.TIMESTAMP_HEADER + " is missing, not Unix seconds, or more than "
                    + tolerance.toSeconds() + " s away from the server's time: timestamp refused");
        }
        if (!HookSignature.wellFormed(signature)) {
            throw rejected(HookSignature.SIGNATURE_HEADER + " does not verify: signature refused");
        }
        String traceparent = routing.request().getHeader(Headers.TRACEPARENT);
        return rest.unavailableOnOutage(hooks.findWithSecret(hookId)
                .onFailure(SecretCipher.UnreadableSecretException.class).transform(HookResource::secretUnreadable),
                "the hook could not be read").chain(found -> {
            StoredHook hook = RestSupport.found(found, () -> notFound(hookId));
            if (!HookSignature.matches(hook.secret(), timestampText, body, signature)) {
                throw rejected(HookSignature.SIGNATURE_HEADER + " does not verify: signature refused");
            }
            JsonNode input = input(body);
            return calls.call(hook, timestamp, signature, input, traceparent);
        }).onFailure(WorkflowStarter.WorkflowNotFoundException.class).transform(e -> new ApiException(
                ApiErrorCode.WORKFLOW_NOT_FOUND, "hook " + hookId + " starts workflow "
                + ((WorkflowStarter.WorkflowNotFoundException) e).id() + ", which does not exist"))
                // the body is within the hook's bound but larger than a workflow run's input may be
                .onFailure(IllegalArgumentException.class).transform(e -> new ApiException(
                        ApiErrorCode.PAYLOAD_TOO_LARGE, "the body is the run's input: " + e.getMessage()))
                .onFailure(OutboxFullException.class).transform(e -> new ApiException(ApiErrorCode.SERVICE_UNAVAILABLE,
                        e.getMessage() + ", retry later", null, rest.retryAfter()))
                .onFailure(e -> !(e instanceof RefusedException) && Failures.isTransient(e)).transform(e ->
                        new ApiException(ApiErrorCode.SERVICE_UNAVAILABLE, "the hook's job could not be stored: the"
                                + " database is unavailable (" + Failures.describe(e) + "); nothing was made, retry"
                                + " later", null, rest.retryAfter()))
                .map(outcome -> switch (outcome) {
                    case HookCalls.Outcome.JobMade made -> RestResponse.ResponseBuilder
                            .accepted(new HookCalled(hookId, made.jobId(), null, made.traceId(), null, null))
                            .header(HttpHeaders.LOCATION, "/api/jobs/" + made.jobId())
                            .build();
                    case HookCalls.Outcome.RunStarted started -> RestResponse.ResponseBuilder
                            .accepted(new HookCalled(hookId, null, started.runId(), started.traceId(), null, null))
                            .header(HttpHeaders.LOCATION, "/api/workflow-runs/" + started.runId())
                            .build();
                    case HookCalls.Outcome.EventPublished published -> RestResponse.ResponseBuilder
                            .accepted(new HookCalled(hookId, null, null, null, published.eventId(),
                                    published.runs()))
                            .build();
                });
    }

    /**
     * A verified call's body as the job's input: any JSON value, which PostgreSQL's jsonb can store; a 400 naming what
     * is wrong otherwise.
     */
    private JsonNode input(byte[] body) {
        if (body.length == 0) {
            throw rest.refused(new ApiException(ApiErrorCode.MALFORMED_JSON, "request body is empty; a hook's call"
                    + " carries a JSON body, which becomes the input of what it makes"));
        }
        JsonNode input;
        try {
            input = bodies.readTree(body);
        } catch (JsonProcessingException e) {
            throw rest.refused(new ApiException(ApiErrorCode.MALFORMED_JSON, "request body is not valid JSON: "
                    + e.getOriginalMessage() + (e.getLocation() == null ? "" : " (line "
                    + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")")));
        } catch (IOException e) {
            throw rest.refused(new ApiException(ApiErrorCode.MALFORMED_JSON, "request body could not be read: "
                    + e.getMessage()));
        }
        if (input == null || input.isMissingNode()) {
            throw rest.refused(new ApiException(ApiErrorCode.MALFORMED_JSON, "request body holds no JSON value"));
        }
        String problem = unstorable(input, "body");
        if (problem != null) {
            throw rest.refused(new ApiException(ApiErrorCode.MALFORMED_JSON, problem));
        }
        return input;
    }

    /** What in {@code node} PostgreSQL's jsonb refuses (a NUL character, a number beyond a double), or null. */
    private static String unstorable(JsonNode node, String path) {
        if (node.isTextual() && node.textValue().indexOf(0) >= 0) {
            return path + " must not contain the NUL character (U+0000), which the database cannot store";
        }
        if (node.isFloatingPointNumber() && !Double.isFinite(node.doubleValue())) {
            return path + " holds a number out of range";
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String problem = unstorable(node.get(i), path + "[" + i + "]");
                if (problem != null) {
                    return problem;
                }
            }
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (field.getKey().indexOf(0) >= 0) {
                    return path + " has a field name with the NUL character (U+0000), which the database cannot store";
                }
                String problem = unstorable(field.getValue(), path + "." + field.getKey());
                if (problem != null) {
                    return problem;
                }
            }
        }
        return null;
    }

    /** The body's definition, valid now; a 400 (or 413) naming what is wrong otherwise. */
    private HookDefinition definition(NewHook body, Caller caller) {
        if (body == null) {
            throw rest.refused(BodyErrors.empty(NewHook.class));
        }
        try {
            return body.definition(jobs, Instant.now().truncatedTo(ChronoUnit.MICROS), caller.tenant());
        } catch (RefusedException e) {
            throw rest.refused(e);
        }
    }

    /** Where the hook is called: under the public base URL when one is configured, else the path. */
    private String url(UUID hookId) {
        return base + "/api/hooks/" + hookId;
    }

    /** A 401 that names the header refused, nothing more: a forger learns nothing from it. */
    private ApiException rejected(String message) {
        return rest.refused(new ApiException(ApiErrorCode.HOOK_SIGNATURE_REJECTED, message, null, CHALLENGE));
    }

    /** The hook; 404 when there is none or the caller may not see its tenant, before anything is changed. */
    private Uni<StoredHook> visible(Caller caller, UUID hookId) {
        return RestSupport.visible(rest.unavailableOnOutage(hooks.find(hookId), "the hook could not be read"),
                found -> caller.sees(found.tenant()), () -> notFound(hookId));
    }

    /**
     * A stored secret that does not open is the operator's to mend, not the caller's: the answer names the problem
     * (never the key), the log names the hook and why.
     */
    private static ApiException secretUnreadable(Throwable e) {
        LOG.error(e.getMessage());
        return new ApiException(ApiErrorCode.SECRET_UNREADABLE, "this hook's secret cannot be read with the API's"
                + " secret key, so no call can be verified; an operator must restore the key or create the hook again");
    }

    private static ApiException notFound(UUID hookId) {
        return new ApiException(ApiErrorCode.HOOK_NOT_FOUND, "no hook with id " + hookId);
    }
}
