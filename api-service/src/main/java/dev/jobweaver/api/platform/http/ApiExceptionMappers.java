package dev.jobweaver.api.platform.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.jobweaver.common.messaging.Headers;
import jakarta.inject.Inject;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.NotAcceptableException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

/**
 * Turns every failure of a REST call into an {@link ErrorResponse}: client mistakes into their 4xx, anything
 * unexpected into a 500 {@code API.INTERNAL_ERROR} whose body says nothing about the cause (the log does). A request
 * body that Jackson could not bind or that breaks a constraint is worded by {@link BodyErrors} and counted as a
 * refused request, as the resources count the refusals they raise.
 */
public class ApiExceptionMappers {

    private static final Logger LOG = Logger.getLogger(ApiExceptionMappers.class);
    private static final String RETRY_AFTER = "Retry-After";

    /** Null in unit tests of the mappers, which count nothing. */
    private final HttpMetrics metrics;

    public ApiExceptionMappers() {
        this(null);
    }

    @Inject
    public ApiExceptionMappers(HttpMetrics metrics) {
        this.metrics = metrics;
    }

    @ServerExceptionMapper
    public Response api(ApiException e) {
        Response.ResponseBuilder builder = builder(e.code(), e.getMessage(), e.jobId());
        e.headers().forEach(builder::header);
        return builder.build();
    }

    /** A refusal decided below the REST layer: its code, and {@code Retry-After} when it names a time. */
    @ServerExceptionMapper
    public Response refused(RefusedException e) {
        Response.ResponseBuilder builder = builder(e.code(), e.getMessage(), e.jobId());
        if (e.retryAfterSeconds() > 0) {
            builder.header(RETRY_AFTER, Long.toString(e.retryAfterSeconds()));
        }
        return builder.build();
    }

    /** A body Jackson could not bind: a value of the wrong type, an unknown field, no JSON object. */
    @ServerExceptionMapper
    public Response unbound(MismatchedInputException e, SimpleResourceInfo resource) {
        return body(e, resource);
    }

    /** A body that is not JSON, or that Jackson could not bind for another reason. */
    @ServerExceptionMapper
    public Response unreadable(JsonProcessingException e, SimpleResourceInfo resource) {
        return body(e, resource);
    }

    /** A body that broke a constraint of its record. */
    @ServerExceptionMapper
    public Response violated(ConstraintViolationException e) {
        return api(counted(BodyErrors.violated(e)));
    }

    @ServerExceptionMapper
    public Response notFound(NotFoundException e) {
        return builder(ApiErrorCode.NOT_FOUND, "no such resource", null).build();
    }

    @ServerExceptionMapper
    public Response notAllowed(NotAllowedException e) {
        Response.ResponseBuilder builder = builder(ApiErrorCode.METHOD_NOT_ALLOWED,
                "method not allowed here; allowed: " + String.join(", ", e.getResponse().getAllowedMethods()), null);
        String allow = e.getResponse().getHeaderString(HttpHeaders.ALLOW);
        if (allow != null) {
            builder.header(HttpHeaders.ALLOW, allow);
        }
        return builder.build();
    }

    @ServerExceptionMapper
    public Response unsupported(NotSupportedException e) {
        return builder(ApiErrorCode.UNSUPPORTED_MEDIA_TYPE, "Content-Type must be application/json", null).build();
    }

    @ServerExceptionMapper
    public Response notAcceptable(NotAcceptableException e) {
        return builder(ApiErrorCode.NOT_ACCEPTABLE, "this API only produces application/json", null).build();
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, HttpHeaders request, SimpleResourceInfo resource) {
        if (e.getCause() instanceof JsonProcessingException json) {
            // Quarkus wraps what the parser refused (not JSON, a duplicate key, a number out of range)
            return body(json, resource);
        }
        int status = e.getResponse().getStatus();
        ApiErrorCode code = switch (status) {
            case 400 -> ApiErrorCode.INVALID_PARAMETER;
            case 404 -> ApiErrorCode.NOT_FOUND;
            case 405 -> ApiErrorCode.METHOD_NOT_ALLOWED;
            case 406 -> ApiErrorCode.NOT_ACCEPTABLE;
            case 413 -> ApiErrorCode.PAYLOAD_TOO_LARGE;
            case 415 -> ApiErrorCode.UNSUPPORTED_MEDIA_TYPE;
            default -> null;
        };
        if (code == null) {
            return internal(e, request);
        }
        return builder(code, Response.Status.fromStatusCode(status) != null
                ? Response.Status.fromStatusCode(status).getReasonPhrase() : "bad request", null).build();
    }

    @ServerExceptionMapper(priority = jakarta.ws.rs.Priorities.USER + 1000)
    public Response unexpected(Throwable e, HttpHeaders request) {
        return internal(e, request);
    }

    /**
     * The 500: the cause goes to the log only. The line names the client's {@code traceparent}, which carries the
     * trace id the answer points to, also where no HTTP server span puts it in the MDC (traces off).
     */
    private static Response internal(Throwable e, HttpHeaders request) {
        String traceparent = request == null ? null : request.getHeaderString(Headers.TRACEPARENT);
        LOG.errorf(e, "unexpected failure while serving a request (traceparent %s)", traceparent);
        return builder(ApiErrorCode.INTERNAL_ERROR, "internal error; see the server log for this traceId", null)
                .build();
    }

    private Response body(JsonProcessingException e, SimpleResourceInfo resource) {
        Class<?> body = resource == null ? null : BodyErrors.bodyAmong(resource.parameterTypes());
        return api(counted(BodyErrors.unreadable(e, body)));
    }

    private ApiException counted(ApiException e) {
        if (metrics != null) {
            metrics.validationFailure(e.code().code());
        }
        return e;
    }

    /** A response with an {@link ErrorResponse} body for {@code code}. */
    public static Response.ResponseBuilder builder(ApiErrorCode code, String message, String jobId) {
        return Response.status(code.httpStatus())
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(ErrorResponse.of(code, message, jobId));
    }
}
