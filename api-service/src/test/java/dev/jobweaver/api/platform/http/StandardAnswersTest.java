package dev.jobweaver.api.platform.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.junit.jupiter.api.Test;

/** The answers StandardAnswers adds to an operation, and those it leaves as the operation annotated them. */
class StandardAnswersTest {

    @Test
    void anItemsOperationGetsTheBadIdAndItsNotFoundWithTheErrorBody() {
        Operation read = filtered("/api/schedules/{id}/pause", operation(parameter("id", Parameter.In.PATH)));

        assertThat(description(read, "400")).isEqualTo("the id is not a UUID (API.INVALID_PARAMETER)");
        assertThat(description(read, "404")).isEqualTo("no such schedule (API.SCHEDULE_NOT_FOUND)");
        assertThat(schemaRef(read.getResponses().getAPIResponse("404")))
                .isEqualTo("#/components/schemas/ErrorResponse");
        assertThat(read.getResponses().getAPIResponse("200").getContent()).isNull();
    }

    @Test
    void aListGetsTheBadQueryParameterButNoNotFound() {
        Operation list = filtered("/api/workflows", operation(parameter("page", Parameter.In.QUERY)));

        assertThat(list.getResponses().getAPIResponses()).containsOnlyKeys("200", "400");
        assertThat(description(list, "400"))
                .isEqualTo("a query parameter is not valid; the message names it (API.INVALID_PARAMETER)");
    }

    @Test
    void whatAnOperationAnnotatesItselfIsKeptAndA503NamesRetryAfter() {
        Operation trigger = operation(parameter("id", Parameter.In.PATH));
        trigger.getResponses().addAPIResponse("404", OASFactory.createAPIResponse().description("its own"));
        trigger.getResponses().addAPIResponse("503", OASFactory.createAPIResponse().description("later"));

        filtered("/api/schedules/{id}/trigger", trigger);

        assertThat(description(trigger, "404")).isEqualTo("its own");
        APIResponse unavailable = trigger.getResponses().getAPIResponse("503");
        assertThat(unavailable.getHeaders()).containsKey("Retry-After");
        assertThat(schemaRef(unavailable)).isEqualTo("#/components/schemas/ErrorResponse");
    }

    @Test
    void anOperationWithoutParametersOrOutsideTheApiGetsNothing() {
        Operation create = filtered("/api/jobs", operation());
        Operation health = filtered("/q/things/{id}", operation(parameter("id", Parameter.In.PATH)));

        assertThat(create.getResponses().getAPIResponses()).containsOnlyKeys("200");
        assertThat(health.getResponses().getAPIResponses()).containsOnlyKeys("200");
    }

    /** {@code operation}, as GET of {@code path}, after the filter ran over a document holding only it. */
    private static Operation filtered(String path, Operation operation) {
        OpenAPI openAPI = OASFactory.createOpenAPI().paths(OASFactory.createPaths()
                .addPathItem(path, OASFactory.createPathItem().GET(operation)));
        new StandardAnswers().filterOpenAPI(openAPI);
        return operation;
    }

    private static String description(Operation operation, String status) {
        return operation.getResponses().getAPIResponse(status).getDescription();
    }

    private static Operation operation(Parameter... parameters) {
        Operation operation = OASFactory.createOperation().responses(OASFactory.createAPIResponses()
                .addAPIResponse("200", OASFactory.createAPIResponse().description("OK")));
        for (Parameter parameter : parameters) {
            operation.addParameter(parameter);
        }
        return operation;
    }

    private static Parameter parameter(String name, Parameter.In in) {
        return OASFactory.createParameter().name(name).in(in);
    }

    private static String schemaRef(APIResponse response) {
        return response.getContent().getMediaType("application/json").getSchema().getRef();
    }
}
