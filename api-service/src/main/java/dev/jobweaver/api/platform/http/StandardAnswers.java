package dev.jobweaver.api.platform.http;

import static dev.jobweaver.api.platform.http.ApiErrorCode.API_KEY_NOT_FOUND;
import static dev.jobweaver.api.platform.http.ApiErrorCode.DEAD_LETTER_NOT_FOUND;
import static dev.jobweaver.api.platform.http.ApiErrorCode.HOOK_NOT_FOUND;
import static dev.jobweaver.api.platform.http.ApiErrorCode.JOB_NOT_FOUND;
import static dev.jobweaver.api.platform.http.ApiErrorCode.SCHEDULE_NOT_FOUND;
import static dev.jobweaver.api.platform.http.ApiErrorCode.SUBSCRIPTION_NOT_FOUND;
import static dev.jobweaver.api.platform.http.ApiErrorCode.WORKFLOW_NOT_FOUND;
import static dev.jobweaver.api.platform.http.ApiErrorCode.WORKFLOW_RUN_NOT_FOUND;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Adds to the OpenAPI document the answers every REST operation shares, so that a resource annotates only what is its
 * own: a 400 {@code API.INVALID_PARAMETER} where an operation reads an item's id or a query parameter, a 404 with the
 * item's not-found code on the paths below an item ({@link #ITEMS}), the {@link ErrorResponse} body of every error
 * answer and the {@code Retry-After} header of every 503. An answer an operation annotates itself is kept as it is.
 * Registered with {@code mp.openapi.filter}; it runs once, where the document is built. The error body is among the
 * components because {@link ErrorResponse} names itself there.
 */
public class StandardAnswers implements OASFilter {

    /** An item's path template, how its 404 reads and the code it answers. */
    record Item(String path, String missing, ApiErrorCode code) {

        /** Whether {@code path} is this item's or one below it. */
        boolean covers(String path) {
            return path.equals(this.path) || path.startsWith(this.path + "/");
        }

        /** The name of the item's id parameter: the last of its template. */
        String idParameter() {
            return path.substring(path.lastIndexOf('{') + 1, path.length() - 1);
        }
    }

    static final List<Item> ITEMS = List.of(
            new Item("/api/jobs/{id}", "no such job", JOB_NOT_FOUND),
            new Item("/api/schedules/{id}", "no such schedule", SCHEDULE_NOT_FOUND),
            new Item("/api/workflows/{id}", "no such workflow", WORKFLOW_NOT_FOUND),
            new Item("/api/workflow-runs/{runId}", "no such run", WORKFLOW_RUN_NOT_FOUND),
            new Item("/api/hooks/{id}", "no such hook, or it was deleted", HOOK_NOT_FOUND),
            new Item("/api/subscriptions/{id}", "no such subscription", SUBSCRIPTION_NOT_FOUND),
            new Item("/api/dead-letters/{jobId}", "the job has no dead letter", DEAD_LETTER_NOT_FOUND),
            new Item("/api/tenants/{tenant}/api-keys/{id}", "the tenant has no such key", API_KEY_NOT_FOUND));

    private static final String JSON = "application/json";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getPaths() == null) {
            return;
        }
        openAPI.getPaths().getPathItems().forEach((path, item) -> {
            if (!path.startsWith("/api/")) {
                return;
            }
            Item owner = ITEMS.stream().filter(candidate -> candidate.covers(path)).findFirst().orElse(null);
            item.getOperations().values().forEach(operation -> answer(operation, parameters(item, operation), owner));
        });
    }

    private static void answer(Operation operation, List<Parameter> parameters, Item owner) {
        APIResponses responses = operation.getResponses();
        if (responses == null) {
            responses = OASFactory.createAPIResponses();
            operation.setResponses(responses);
        }
        String invalid = invalidParameter(parameters, owner);
        if (invalid != null && !responses.hasAPIResponse("400")) {
            responses.addAPIResponse("400", OASFactory.createAPIResponse().description(invalid));
        }
        if (owner != null && !responses.hasAPIResponse("404")) {
            responses.addAPIResponse("404", OASFactory.createAPIResponse()
                    .description(owner.missing() + " (" + owner.code().code() + ")"));
        }
        responses.getAPIResponses().forEach((status, response) -> {
            if (status.startsWith("4") || status.startsWith("5")) {
                errorBody(response);
            }
            if (status.equals("503") && (response.getHeaders() == null
                    || !response.getHeaders().containsKey("Retry-After"))) {
                response.addHeader("Retry-After", OASFactory.createHeader().description("seconds"));
            }
        });
    }

    /** The 400 of an operation's id and query parameters; null when it reads none. */
    private static String invalidParameter(List<Parameter> parameters, Item owner) {
        boolean id = owner != null && parameters.stream().anyMatch(p -> p.getIn() == Parameter.In.PATH
                && owner.idParameter().equals(p.getName()));
        boolean query = parameters.stream().anyMatch(p -> p.getIn() == Parameter.In.QUERY);
        if (!id && !query) {
            return null;
        }
        String what = id && query ? "the " + owner.idParameter() + " is not a UUID, or a query parameter is not valid"
                : id ? "the " + owner.idParameter() + " is not a UUID" : "a query parameter is not valid";
        return what + (query ? "; the message names it" : "") + " (" + ApiErrorCode.INVALID_PARAMETER.code() + ")";
    }

    /** An error answer without a body of its own answers an {@link ErrorResponse}, as every error of the API does. */
    private static void errorBody(APIResponse response) {
        if (response.getRef() != null || (response.getContent() != null
                && !response.getContent().getMediaTypes().isEmpty())) {
            return;
        }
        response.setContent(OASFactory.createContent().addMediaType(JSON, OASFactory.createMediaType()
                .schema(OASFactory.createSchema().ref(ErrorResponse.class.getSimpleName()))));
    }

    /** The operation's parameters and those of its path. */
    private static List<Parameter> parameters(PathItem item, Operation operation) {
        List<Parameter> all = new ArrayList<>();
        for (List<Parameter> some : List.of(nonNull(item.getParameters()), nonNull(operation.getParameters()))) {
            all.addAll(some);
        }
        return all;
    }

    private static List<Parameter> nonNull(List<Parameter> parameters) {
        return parameters == null ? List.of() : parameters;
    }
}
