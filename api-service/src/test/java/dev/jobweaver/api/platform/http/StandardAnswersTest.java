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
        Operation read = operation(parameter("id", Parameter.In.PATH));

        filter("/api/schedules/{id}/pause", read);

        assertThat(read.getResponses().getAPIResponse("400").getDescription())
                .isEqualTo("the id is not a UUID (API.INVALID_PARAMETER)");
        assertThat(read.getResponses().getAPIResponse("404").getDescription())
                .isEqualTo("no such schedule (API.SCHEDULE_NOT_FOUND)");
        assertThat(schemaRef(read.getResponses().getAPIResponse("404"))).isEqualTo("#/components/schemas/ErrorResponse");
        assertThat(read.getResponses().getAPIResponse("200").getContent()).isNull();
    }

    @Test
    void aListGetsTheBadQueryParameterButNoNotFound() {
        Operation list = operation(parameter("page", Parameter.In.QUERY));

        filter("/api/workflows", list);

        assertThat(list.getResponses().getAPIResponse("400").getDescription())
                .isEqualTo("a query parameter is not valid; the message names it (API.INVALID_PARAMETER)");
        assertThat(list.getResponses().hasAPIResponse("404")).isFalse();
    }

    @Test
    void whatAnOperationAnnotatesItselfIsKeptAndA503NamesRetryAfter() {
        Operation trigger = operation(parameter("id", Parameter.In.PATH));
        trigger.getResponses().addAPIResponse("404", OASFactory.createAPIResponse().description("its own"));
        trigger.getResponses().addAPIResponse("503", OASFactory.createAPIResponse().description("later"));

        filter("/api/schedules/{id}/trigger", trigger);

        assertThat(trigger.getResponses().getAPIResponse("404").getDescription()).isEqualTo("its own");
        APIResponse unavailable = trigger.getResponses().getAPIResponse("503");
        assertThat(unavailable.getHeaders()).containsKey("Retry-After");
        assertThat(schemaRef(unavailable)).isEqualTo("#/components/schemas/ErrorResponse");
    }

    @Test
    void anOperationWithoutParametersOrOutsideTheApiGetsNothing() {
        Operation create = operation();
        Operation health = operation(parameter("id", Parameter.In.PATH));

        filter("/api/jobs", create);
        filter("/q/things/{id}", health);

        assertThat(create.getResponses().getAPIResponses()).containsOnlyKeys("200");
        assertThat(health.getResponses().getAPIResponses()).containsOnlyKeys("200");
    }

    private static void filter(String path, Operation operation) {
        OpenAPI openAPI = OASFactory.createOpenAPI().paths(OASFactory.createPaths()
                .addPathItem(path, OASFactory.createPathItem().GET(operation)));
        new StandardAnswers().filterOpenAPI(openAPI);
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
