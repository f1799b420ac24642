package dev.jobweaver.api.platform.http;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

/** Unit tests of the mappers: codes, headers, and nothing internal in a 500. */
class ApiExceptionMappersTest {

    private final ApiExceptionMappers mappers = new ApiExceptionMappers();

    @Test
    void unexpectedFailureIs500WithoutDetails() {
        Response response = mappers.unexpected(new IllegalStateException("password=hunter2 at db.internal:5432"),
                headers(null));

        assertThat(response.getStatus()).isEqualTo(500);
        ErrorResponse body = (ErrorResponse) response.getEntity();
        assertThat(body.errorCode()).isEqualTo("API.INTERNAL_ERROR");
        assertThat(body.message()).doesNotContain("hunter2", "IllegalStateException", "db.internal");
    }

    @Test
    void theLogLineOfA500NamesTheClientsTraceparentWhichTheAnswerPointsTo() {
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        List<LogRecord> lines = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(ApiExceptionMappers.class.getName());
        logger.addHandler(capture);
        try {
            Response response = mappers.unexpected(new IllegalStateException("boom"), headers(traceparent));

            assertThat(((ErrorResponse) response.getEntity()).message()).contains("traceId");
        } finally {
            logger.removeHandler(capture);
        }
        assertThat(lines).singleElement().satisfies(line -> {
            assertThat(line.getLevel().getName()).isEqualTo("ERROR");
            assertThat(((ExtLogRecord) line).getFormattedMessage()).contains(traceparent);
            assertThat(line.getThrown()).hasMessage("boom");
        });
    }

    @Test
    void apiExceptionKeepsItsCodeJobIdAndHeaders() {
        Response response = mappers.api(new ApiException(ApiErrorCode.SERVICE_UNAVAILABLE, "later", "job-1",
                Map.of("Retry-After", "5")));

        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeaderString("Retry-After")).isEqualTo("5");
        ErrorResponse body = (ErrorResponse) response.getEntity();
        assertThat(body.errorCode()).isEqualTo("API.SERVICE_UNAVAILABLE");
        assertThat(body.status()).isEqualTo(503);
        assertThat(body.jobId()).isEqualTo("job-1");
    }

    @Test
    void aRefusalFromBelowTheRestLayerKeepsItsCodeJobIdAndRetryAfter() {
        Response limited = mappers.refused(new RefusedException(ApiErrorCode.RATE_LIMITED, "over", "job-2", 7));
        Response forbidden = mappers.refused(new RefusedException(ApiErrorCode.TENANT_FORBIDDEN, "not yours"));

        assertThat(limited.getStatus()).isEqualTo(429);
        assertThat(limited.getHeaderString("Retry-After")).isEqualTo("7");
        ErrorResponse body = (ErrorResponse) limited.getEntity();
        assertThat(body.errorCode()).isEqualTo("API.RATE_LIMITED");
        assertThat(body.message()).isEqualTo("over");
        assertThat(body.jobId()).isEqualTo("job-2");
        assertThat(forbidden.getStatus()).isEqualTo(403);
        assertThat(forbidden.getHeaderString("Retry-After")).isNull();
    }

    /** Request headers with only {@code traceparent} (or none). */
    private static HttpHeaders headers(String traceparent) {
        return (HttpHeaders) Proxy.newProxyInstance(HttpHeaders.class.getClassLoader(), new Class<?>[] {HttpHeaders.class},
                (proxy, method, args) -> method.getName().equals("getHeaderString")
                        && "traceparent".equalsIgnoreCase((String) args[0]) ? traceparent : null);
    }
}
