package dev.jobweaver.api.web.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.job.config.JobApiConfig;
import dev.jobweaver.api.job.service.JobMetrics;
import dev.jobweaver.common.error.ApiErrorCode;
import dev.jobweaver.common.error.ErrorResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * What happens at the HTTP edge before (or instead of) the REST layer, so that those answers are ErrorResponse JSON
 * too, not Vert.x's default pages.
 *
 * <ul>
 *   <li>The body of {@code POST /api/jobs} is read here with the configured limit, ahead of Quarkus' own size check
 *       (route order -2): a {@code Content-Length} over the limit is refused before any byte is read, a chunked body
 *       as soon as it crosses the limit; both get 413 {@code API.PAYLOAD_TOO_LARGE} and the connection is closed.
 *       The resource then takes the buffered body from the routing context (it declares no body parameter, so the
 *       REST layer never reads the request a second time).</li>
 *   <li>A path nothing else serves gets 404 {@code API.NOT_FOUND}.</li>
 * </ul>
 */
@ApplicationScoped
public class HttpEdgeRoutes {

    /** Runs before Quarkus' max-body-size route (order -2). */
    static final int BODY_ROUTE_ORDER = -10;

    private final ObjectMapper mapper;
    private final JobMetrics metrics;
    private final int maxBodyBytes;

    public HttpEdgeRoutes(ObjectMapper mapper, JobMetrics metrics, JobApiConfig config) {
        this.mapper = mapper;
        this.metrics = metrics;
        this.maxBodyBytes = config.validation().maxBodyBytes();
    }

    void install(@Observes Router router) {
        router.postWithRegex("^/api/jobs/?$")
                .order(BODY_ROUTE_ORDER)
                .handler(BodyHandler.create(false).setBodyLimit(maxBodyBytes).setHandleFileUploads(false))
                .failureHandler(this::onBodyFailure);

        router.route().order(Integer.MAX_VALUE).handler(this::notFound);
    }

    private void onBodyFailure(RoutingContext ctx) {
        if (ctx.statusCode() != 413) {
            ctx.next();
            return;
        }
        if (ctx.response().headWritten()) {
            return;
        }
        ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
        metrics.validationFailure(ApiErrorCode.PAYLOAD_TOO_LARGE.code());
        write(ctx, ApiErrorCode.PAYLOAD_TOO_LARGE,
                "request body is larger than " + maxBodyBytes + " bytes (" + (maxBodyBytes / 1024) + " KiB)");
    }

    private void notFound(RoutingContext ctx) {
        if (ctx.response().headWritten()) {
            return;
        }
        write(ctx, ApiErrorCode.NOT_FOUND, "no such resource: " + ctx.request().method() + " " + ctx.request().path());
    }

    private void write(RoutingContext ctx, ApiErrorCode code, String message) {
        String body;
        try {
            body = mapper.writeValueAsString(ErrorResponse.of(code, message, null));
        } catch (JsonProcessingException e) {
            body = "{\"status\":" + code.httpStatus() + ",\"errorCode\":\"" + code.code() + "\"}";
        }
        ctx.response()
                .setStatusCode(code.httpStatus())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(body);
    }
}
