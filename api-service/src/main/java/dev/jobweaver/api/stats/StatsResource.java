package dev.jobweaver.api.stats;

import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.security.Callers;
import dev.jobweaver.api.security.Roles;
import dev.jobweaver.common.job.JobControlRules;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code /api/stats}: read-only figures over the jobs read model, for the dashboard and for people. */
@Path("/api/stats")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "stats")
public class StatsResource {

    /** The longest window: one day of minutes. */
    static final int MAX_MINUTES = 1440;

    @Inject StatsStore store;
    @Inject StatsConfig config;
    @Inject Callers callers;

    @GET
    @Path("overview")
    @Operation(summary = "Counts per status and the last minutes' throughput and queue depth",
            description = "Counts per status now (exact up to jobweaver.api.stats.exact-count-limit jobs of a status,"
                    + " the planner's estimate beyond, listed in estimated), and per minute of the window the jobs"
                    + " completed and failed in it and the jobs pending and running at its end.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Overview.class)))
    @RolesAllowed(Roles.VIEWER)
    public Uni<Overview> overview(
            @Parameter(description = "the window in minutes, 1 to 1440; 60 when absent",
                    schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "1440"))
            @QueryParam("minutes") String minutes,
            @Parameter(description = "only this tenant's jobs; without it the caller's own tenant's, an admin's every"
                    + " tenant's; another tenant than the caller's own is 403 API.TENANT_FORBIDDEN",
                    schema = @Schema(type = SchemaType.STRING,
                    pattern = "[a-z0-9][a-z0-9-]{0,62}")) @QueryParam("tenant") String tenant) {
        int window = minutes(minutes);
        // every tenant's figures for an admin that names none; the caller's own tenant's for anyone else
        String owner = callers.current().filterTenant(tenant(tenant));
        Instant at = Instant.now();
        return store.counts(owner, config.exactCountLimit())
                .chain(counts -> store.series(window, config.lookback().toSeconds(), owner).map(series -> {
                    Map<String, Long> byStatus = new LinkedHashMap<>();
                    counts.forEach((status, count) -> byStatus.put(status.name(), count.count()));
                    List<String> estimated = counts.entrySet().stream().filter(e -> e.getValue().estimated())
                            .map(e -> e.getKey().name()).toList();
                    return new Overview(at, window, owner, byStatus, estimated, series.stream()
                            .map(m -> new Overview.MinuteView(m.minute(), m.completed(), m.failed(), m.pending(),
                                    m.running()))
                            .toList());
                }));
    }

    /** {@code minutes}: absent is 60; otherwise an integer from 1 to 1440, or 400 naming it. */
    static int minutes(String text) {
        if (text == null) {
            return 60;
        }
        String trimmed = text.strip();
        if (trimmed.matches("[0-9]{1,4}")) {
            int value = Integer.parseInt(trimmed);
            if (value >= 1 && value <= MAX_MINUTES) {
                return value;
            }
        }
        throw new ApiException(ApiErrorCode.INVALID_PARAMETER, "query parameter minutes must be an integer between 1"
                + " and " + MAX_MINUTES + ", got '" + cut(text) + "'");
    }

    /** {@code tenant}: absent or empty is none named; otherwise it must match the tenant rule, or 400 naming it. */
    static String tenant(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        if (!JobControlRules.TENANT.matcher(text).matches()) {
            throw new ApiException(ApiErrorCode.INVALID_PARAMETER, "query parameter tenant must match"
                    + " [a-z0-9][a-z0-9-]{0,62}, got '" + cut(text) + "'");
        }
        return text;
    }

    private static String cut(String text) {
        return text.length() <= 64 ? text : text.substring(0, 64) + "...";
    }
}
