package dev.jobweaver.api.platform.http;

import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The {@code tenant} filter of a list operation, taken as a {@code @BeanParam} and read as text so that
 * {@link RestSupport#tenant(TenantQuery)} answers a bad value with the API's own 400.
 */
public class TenantQuery {

    @Parameter(description = "tenant filter", schema = @Schema(type = SchemaType.STRING,
            pattern = "[a-z0-9][a-z0-9-]{0,62}"))
    @QueryParam("tenant")
    String tenant;
}
