package dev.jobweaver.api.quarantine;

import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.ClientText;
import dev.jobweaver.api.platform.http.PageQuery;
import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.platform.http.UuidText;
import dev.jobweaver.api.security.Callers;
import dev.jobweaver.api.security.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * {@code /api/quarantine}: the records the services set aside in {@code jobweaver-quarantine}, for review. A
 * {@code KEPT} one is replayed (its original record published to its topic again) or discarded.
 *
 * <p>Admins only, reads included: a quarantined record belongs to no tenant (it may not even parse), and its bytes may
 * hold any tenant's data, so only a caller that sees every tenant sees it.
 */
@Path("/api/quarantine")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "quarantine")
public class QuarantineResource {

    /** A Kafka topic's name. */
    static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    /** A reason's name, compared upper case. */
    static final Pattern REASON = Pattern.compile("[A-Za-z_]{1,64}");
    private static final String STATES = Arrays.stream(QuarantineState.values()).map(Enum::name)
            .collect(Collectors.joining(", "));
    private static final String UUID_SCHEMA =
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

    @Inject QuarantineReview review;
    @Inject RestSupport rest;
    @Inject Callers callers;

    @GET
    @Operation(summary = "List quarantined records", description = "Newest first; only the KEPT ones unless state"
            + " says otherwise. Every filter given must match.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = QuarantinePage.class)))
    @APIResponse(responseCode = "400", description = "a filter or paging parameter is not valid"
            + " (API.INVALID_PARAMETER); the message names it")
    @RolesAllowed(Roles.ADMIN)
    public Uni<QuarantinePage> list(
            @Parameter(description = "the origin topic", schema = @Schema(type = SchemaType.STRING,
                    pattern = "[a-zA-Z0-9._-]{1,249}")) @QueryParam("topic") String topic,
            @Parameter(description = "the reason: UNREADABLE, INVALID, REJECTED_BY_DATABASE, UNPROCESSABLE or"
                    + " UNKNOWN (any case)", schema = @Schema(type = SchemaType.STRING)) @QueryParam("reason")
            String reason,
            @Parameter(description = "state filter: KEPT (default), REPLAYED or DISCARDED, or several"
                    + " comma-separated", schema = @Schema(type = SchemaType.STRING, defaultValue = "KEPT"))
            @QueryParam("state") String state,
            @BeanParam PageQuery pages) {
        String topicFilter = topic(topic);
        String reasonFilter = reason(reason);
        List<QuarantineState> states = states(state);
        RestSupport.Paging paging = rest.paging(pages);
        QuarantineStore.Filter filter = new QuarantineStore.Filter(states, topicFilter, reasonFilter);
        return rest.unavailableOnOutage(review.list(filter, paging.page(), paging.size()),
                        "the quarantined records could not be read")
                .map(slice -> paging.of(slice, QuarantinedRecordView::of, QuarantinePage::new));
    }

    @POST
    @Path("{id}/replay")
    @Operation(summary = "Replay a quarantined record", description = "Publishes the original record (its key, value"
            + " and headers, without the jobweaver.quarantine.* ones) to its topic again, acks=all. 202 with the"
            + " record, REPLAYED, once Kafka acknowledged it. Only a KEPT record.")
    @APIResponse(responseCode = "202", description = "published again; the record, REPLAYED",
            content = @Content(schema = @Schema(implementation = QuarantinedRecordView.class)))
    @APIResponse(responseCode = "409", description = "the record is not KEPT; the message names its state"
            + " (API.QUARANTINED_RECORD_NOT_KEPT); or it names no origin topic"
            + " (API.QUARANTINED_RECORD_NOT_REPLAYABLE)")
    @APIResponse(responseCode = "503", description = "Kafka did not acknowledge the record in time, or the database"
            + " is unavailable (API.SERVICE_UNAVAILABLE); the record stays KEPT, retry after Retry-After seconds")
    @RolesAllowed(Roles.ADMIN)
    public Uni<RestResponse<QuarantinedRecordView>> replay(@Parameter(description = "the record's id",
            schema = @Schema(type = SchemaType.STRING, pattern = UUID_SCHEMA)) @PathParam("id") String id) {
        UUID recordId = id(id);
        String actor = callers.current().name();
        // Kafka's refusal first, so that the database's outage answer never names a broker's timeout
        Uni<QuarantineReview.Outcome> replayed = review.replay(recordId, actor)
                .onFailure(ReplayFailedException.class).transform(e -> new ApiException(
                        ApiErrorCode.SERVICE_UNAVAILABLE, "the replay of quarantined record " + recordId + " was not"
                        + " acknowledged by Kafka (" + e.getMessage() + "); the record is as it was, retry later",
                        null, rest.retryAfter()));
        return rest.unavailableOnOutage(replayed, "the quarantined record could not be replayed")
                .map(outcome -> RestResponse.accepted(QuarantinedRecordView.of(done(recordId, outcome))));
    }

    @POST
    @Path("{id}/discard")
    @Operation(summary = "Discard a quarantined record", description = "Drops a KEPT record: it is never replayed,"
            + " and stays listed as DISCARDED (state=DISCARDED). 200 with the record.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation =
            QuarantinedRecordView.class)))
    @APIResponse(responseCode = "409", description = "the record is not KEPT; the message names its state"
            + " (API.QUARANTINED_RECORD_NOT_KEPT)")
    @RolesAllowed(Roles.ADMIN)
    public Uni<QuarantinedRecordView> discard(@Parameter(description = "the record's id",
            schema = @Schema(type = SchemaType.STRING, pattern = UUID_SCHEMA)) @PathParam("id") String id) {
        UUID recordId = id(id);
        String actor = callers.current().name();
        return rest.unavailableOnOutage(review.discard(recordId, actor),
                        "the quarantined record could not be discarded")
                .map(outcome -> QuarantinedRecordView.of(done(recordId, outcome)));
    }

    /** The record a review came to; its 404 or 409 otherwise. */
    private static StoredQuarantinedRecord done(UUID id, QuarantineReview.Outcome outcome) {
        return switch (outcome) {
            case QuarantineReview.Done done -> done.record();
            case QuarantineReview.Missing missing -> throw new ApiException(ApiErrorCode.QUARANTINED_RECORD_NOT_FOUND,
                    "no quarantined record has id " + id);
            case QuarantineReview.NotKept notKept -> throw new ApiException(ApiErrorCode.QUARANTINED_RECORD_NOT_KEPT,
                    "quarantined record " + id + " is " + notKept.record().state() + " (by "
                            + notKept.record().stateChangedBy() + " at " + notKept.record().stateChangedAt()
                            + "); only a KEPT record can be replayed or discarded");
            case QuarantineReview.NoOrigin noOrigin -> throw new ApiException(
                    ApiErrorCode.QUARANTINED_RECORD_NOT_REPLAYABLE, "quarantined record " + id + " names no origin"
                    + " topic (it came without the jobweaver.quarantine.* headers), so there is nowhere to replay"
                    + " it; it can be discarded");
        };
    }

    /** The path's id; 400 when it is not a UUID. */
    private UUID id(String value) {
        if (!UuidText.matches(value)) {
            throw refused("path parameter id must be a UUID such as " + UuidText.EXAMPLE + ", got '"
                    + ClientText.cut(String.valueOf(value)) + "'");
        }
        return UUID.fromString(value);
    }

    private String topic(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (!TOPIC.matcher(value).matches()) {
            throw refused("query parameter topic must be a Kafka topic's name, 1 to 249 letters, digits, '.', '_' or"
                    + " '-', got '" + ClientText.cut(value) + "'");
        }
        return value;
    }

    private String reason(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (!REASON.matcher(value).matches()) {
            throw refused("query parameter reason must be a reason's name such as UNREADABLE (letters and '_', at"
                    + " most 64), got '" + ClientText.cut(value) + "'");
        }
        return value.toUpperCase(Locale.ROOT);
    }

    /** The states named (comma-separated), KEPT when none is. */
    private List<QuarantineState> states(String value) {
        if (value == null || value.isEmpty()) {
            return List.of(QuarantineState.KEPT);
        }
        List<QuarantineState> states = new ArrayList<>();
        for (String name : value.split(",", -1)) {
            try {
                QuarantineState state = QuarantineState.valueOf(name.strip());
                if (!states.contains(state)) {
                    states.add(state);
                }
            } catch (IllegalArgumentException e) {
                throw refused("query parameter state '" + ClientText.cut(value) + "' is not valid; valid values are "
                        + STATES + ", or several of them comma-separated");
            }
        }
        return states;
    }

    private ApiException refused(String message) {
        return rest.refused(new ApiException(ApiErrorCode.INVALID_PARAMETER, message));
    }
}
