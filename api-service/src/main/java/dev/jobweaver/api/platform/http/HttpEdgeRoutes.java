package dev.jobweaver.api.platform.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;

/**
 * What happens at the HTTP edge before (or instead of) the REST layer, so that those answers are ErrorResponse JSON
 * too, not Vert.x's default pages.
 *
 * <ul>
 *   <li>The body of {@code POST /api/jobs} and of {@code POST /api/hooks/{id}} (a hook's call) is read here with the
 *       configured limit, ahead of Quarkus' own size check (route order -2): a {@code Content-Length} over the limit
 *       is refused before any byte is read, a chunked body as soon as it crosses the limit; both get 413
 *       {@code API.PAYLOAD_TOO_LARGE} and the connection is closed.
 *       The resource then takes the buffered body from the routing context (it declares no body parameter, so the
 *       REST layer never reads the request a second time).</li>
 *   <li>Before that, the request is admitted against the budget of body bytes in flight ({@link BytesInFlight},
 *       {@code admission.max-bytes-in-flight}), charged its {@code Content-Length} (the body limit when it has
 *       none). A request that does not fit is answered 503 {@code API.OVERLOADED} with {@code Retry-After} before a
 *       byte of its body is read, and its connection is closed (the unread body would otherwise have to be drained);
 *       nothing is stored. An admitted request gives its charge back when its response ends or its connection
 *       drops.</li>
 *   <li>A request's {@code X-Trace-Id} ({@link ClientTraceId}) is put on its answer first of all (route order
 *       {@value #TRACE_ID_ROUTE_ORDER}, before authentication and the body), so that every answer carries it, a 401 or
 *       a 413 too. A malformed one is answered 400 {@code API.INVALID_PARAMETER} naming the header; nothing else is
 *       done with the request.</li>
 *   <li>A path nothing else serves gets 404 {@code API.NOT_FOUND}.</li>
 * </ul>
 */
@ApplicationScoped
public class HttpEdgeRoutes {

    /**
     * The POSTs whose bodies are read here: submissions ({@code /api/jobs}) and calls of inbound hooks
     * ({@code /api/hooks/{id}}, whose signature is over the raw bytes buffered here).
     */
    static final List<String> SUBMISSIONS = List.of("^/api/jobs/?$", "^/api/hooks/[^/]+/?$");

    /** Runs before every route of Quarkus but those at the lowest order (access log, CORS, headers). */
    static final int TRACE_ID_ROUTE_ORDER = Integer.MIN_VALUE + 2;

    /** Runs before Quarkus' max-body-size route (order -2). */
    static final int BODY_ROUTE_ORDER = -10;
    /** Runs before the body is read. */
    static final int ADMISSION_ROUTE_ORDER = BODY_ROUTE_ORDER - 1;

    private final ObjectMapper mapper;
    private final HttpMetrics metrics;
    private final int maxBodyBytes;
    private final BytesInFlight bytesInFlight;
    private final String overloadedRetryAfter;

    public HttpEdgeRoutes(ObjectMapper mapper, HttpMetrics metrics, HttpLimits limits) {
        this.mapper = mapper;
        this.metrics = metrics;
        this.maxBodyBytes = limits.maxBodyBytes();
        this.bytesInFlight = new BytesInFlight(limits.maxBytesInFlight());
        this.overloadedRetryAfter = Long.toString(Math.max(1, limits.overloadedRetryAfter().toSeconds()));
    }

    void install(@Observes Router router) {
        router.route().order(TRACE_ID_ROUTE_ORDER).handler(this::echoTraceId);
        for (String submission : SUBMISSIONS) {
            router.postWithRegex(submission)
                    .order(ADMISSION_ROUTE_ORDER)
                    .handler(this::admit);
            router.postWithRegex(submission)
                    .order(BODY_ROUTE_ORDER)
                    .handler(BodyHandler.create(false).setBodyLimit(maxBodyBytes).setHandleFileUploads(false))
                    .failureHandler(this::onBodyFailure);
        }

        router.route().order(Integer.MAX_VALUE).handler(this::notFound);
    }

    private void echoTraceId(RoutingContext ctx) {
        String traceId = ctx.request().getHeader(ClientTraceId.HEADER);
        if (traceId != null) {
            String problem = ClientTraceId.problem(traceId);
            if (problem != null) {
                metrics.validationFailure(ApiErrorCode.INVALID_PARAMETER.code());
                // a body may follow unread: closing spares draining it
                ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
                write(ctx, ApiErrorCode.INVALID_PARAMETER, problem);
                return;
            }
            ctx.response().putHeader(ClientTraceId.HEADER, traceId);
        }
        ctx.next();
    }

    private void admit(RoutingContext ctx) {
        long charge = chargeOf(ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH));
        if (!bytesInFlight.tryAcquire(charge)) {
            metrics.overloaded();
            ctx.response().putHeader(HttpHeaders.CONNECTION, "close").putHeader("Retry-After", overloadedRetryAfter);
            write(ctx, ApiErrorCode.OVERLOADED, "the API is handling " + bytesInFlight.held() + " bytes of submissions,"
                    + " its limit is " + bytesInFlight.limit() + "; nothing was stored, retry after "
                    + overloadedRetryAfter + " s");
            return;
        }
        ctx.addEndHandler(ended -> bytesInFlight.release(charge));
        ctx.next();
    }

    /**
     * What a request is charged: its {@code Content-Length}, at most the body limit (a longer one is refused with 413
     * before it is read); the body limit when the length is absent (chunked) or unreadable.
     */
    long chargeOf(String contentLength) {
        if (contentLength != null) {
            try {
                long length = Long.parseLong(contentLength.trim());
                if (length >= 0) {
                    return Math.min(length, maxBodyBytes);
                }
            } catch (NumberFormatException e) {
                // charged as a body of unknown length
            }
        }
        return maxBodyBytes;
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
