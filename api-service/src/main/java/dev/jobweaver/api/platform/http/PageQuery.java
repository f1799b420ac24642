package dev.jobweaver.api.platform.http;

import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The {@code page} and {@code size} query parameters of a list operation, taken as a {@code @BeanParam} and read as
 * text so that {@link RestSupport#paging(PageQuery)} answers a bad value with the API's own 400.
 */
public class PageQuery {

    @Parameter(description = "0-based page", schema = @Schema(type = SchemaType.INTEGER, minimum = "0",
            defaultValue = "0"))
    @QueryParam("page")
    String page;

    @Parameter(description = "page size, 1..100", schema = @Schema(type = SchemaType.INTEGER, minimum = "1",
            maximum = "100", defaultValue = "20"))
    @QueryParam("size")
    String size;
}
